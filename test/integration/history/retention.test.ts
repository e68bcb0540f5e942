/**
 * Retention (docs/behaviour.md §10): the newest N messages and/or the last N days are kept; settled
 * messages past that go with their payloads, deliveries and attempts and leave the history index; waiting
 * ones stay. The policy outlasts a restart, and the pruner applies a new one in the background.
 */
import { describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../../main/contract/dispatch.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { internalsOf } from '../../../main/app/createCore.js';
import { Retention } from '../../../main/history/retention.js';
import { must, newCore, newDataDir, sendTrack, settled } from '../../helpers/harness.js';

const DAY = 86_400_000;

/** `n` filtered messages (sent to no destination: settled at once), each with a word of its own in the body. */
function addFiltered(core: ReturnType<typeof newCore>, n: number, tag: string): number[] {
  const ids: number[] = [];
  for (let start = 0; start < n; start += 500) {
    const batch = Array.from({ length: Math.min(500, n - start) }, (_, i) => ({ type: 'track' as const, call: { userId: `u${start + i}`, event: 'Kept', properties: { note: `${tag}-${start + i}` } }, destinations: [] }));
    ids.push(...must(core.sendMessages({ messages: batch })).map((s) => s.message.id));
  }
  return ids;
}

function rowCount(core: ReturnType<typeof newCore>, table: string): number {
  return internalsOf(core).store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
}

describe('retention of messages', () => {
  it('keeps the newest N: the older settled messages go with their payloads, deliveries, attempts and index entries', async () => {
    const core = newCore({ forwarder: 'inline' });
    must(core.createDestination({ name: 'rx', enabled: true, webhooks: [{ url: 'http://127.0.0.1:9/unreachable', headers: {} }], retry: { maxAttempts: 1 } }));
    const delivered = sendTrack(core, 'rx', { properties: { note: 'oldest-failed' } });
    await settled(core, delivered); // failed after one attempt: settled, with an attempt row
    const ids = addFiltered(core, 300, 'word');
    const { store, queries } = { store: internalsOf(core).store, queries: internalsOf(core).store.queries };
    while (queries.index.indexNext(100) > 0);
    expect(rowCount(core, 'attempts')).toBe(1);

    const retention = new Retention({ store, clock: core.clock, roundsInFlight: () => 0, chunk: 37 });
    must(retention.setRetention({ maxMessages: 120 }));
    expect(retention.pruneNow()).toEqual({ removed: 181, done: true });

    const state = must(retention.getRetention());
    expect(state).toMatchObject({ maxMessages: 120, maxAgeDays: null, messages: 120, pruned: 181 });
    expect(state.databaseBytes).toBeGreaterThan(0);
    expect(rowCount(core, 'message_payloads')).toBe(120);
    expect(rowCount(core, 'deliveries')).toBe(0);
    expect(rowCount(core, 'attempts')).toBe(0);
    // The newest 120 are the ones kept, and listMessages' index forgot the others.
    const kept = must(core.listMessages({ limit: 1000 })).items.map((m) => m.id);
    expect(kept).toEqual(ids.slice(-120).reverse());
    expect(must(core.listMessages({ text: 'word-5', limit: 10 })).items).toEqual([]);
    expect(must(core.listMessages({ text: 'word-299', limit: 10 })).items.map((m) => m.id)).toEqual([ids[299]]);
    expect(must(core.listMessages({ userId: 'u3', limit: 10 })).items).toEqual([]);
    // Nothing more to do.
    expect(retention.pruneNow()).toEqual({ removed: 0, done: true });
  });

  it("prunes in the store's transactions, which tell the history index to start no chunk meanwhile", () => {
    const core = newCore({ forwarder: 'inline' });
    addFiltered(core, 50, 'w');
    const store = internalsOf(core).store;
    // While a chunk is removed, the engine's thread counts as writing: the index's thread waits for it instead
    // of taking the write lock back between SQLite's retries.
    const seen: number[] = [];
    store.db.function('writing_now', () => {
      seen.push(Atomics.load(store.writing, 0));
      return null;
    });
    store.db.exec(`CREATE TEMP TRIGGER watch AFTER DELETE ON main.messages BEGIN SELECT writing_now(); END`);
    expect(store.retention.pruneChunk({ before: null, belowId: 11 }, 100)).toBe(10);
    expect(seen).toHaveLength(10);
    expect(seen.every((n) => n > 0)).toBe(true);
  });

  it('keeps the last N days of engine time, and never removes a message still waiting for a delivery', async () => {
    const core = newCore({ autoStart: false });
    must(core.createDestination({ name: 'held', enabled: true, webhooks: [{ url: 'http://127.0.0.1:9/x', headers: {} }] }));
    const waiting = sendTrack(core, 'held'); // queued: forwarding is not started
    const old = addFiltered(core, 50, 'old');
    await core.advanceClock({ ms: 3 * DAY });
    const recent = addFiltered(core, 20, 'recent');
    const retention = new Retention({ store: internalsOf(core).store, clock: core.clock, roundsInFlight: () => 0 });
    must(retention.setRetention({ maxAgeDays: 2 }));
    expect(retention.pruneNow().removed).toBe(old.length);
    const left = must(core.listMessages({ limit: 100 })).items.map((m) => m.id);
    expect(left).toEqual([...recent].reverse().concat(waiting));
    expect(must(core.getMessage({ id: waiting })).message.status).toBe('queued');
  });

  it('is set and read through the API, checked with the field and the limit named, kept across a restart, and applied in the background', async () => {
    const dataDir = newDataDir();
    const core = newCore({ dataDir });
    const handlers = createCommandHandlers(core);
    const tooFew = await dispatch(handlers, 'setRetention', { maxMessages: 5 });
    expect(tooFew).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'maxMessages' } });
    expect(!tooFew.ok && tooFew.error.message).toMatch(/maxMessages: must be at least 100/);
    const tooLong = await dispatch(handlers, 'setRetention', { maxAgeDays: 1.5 });
    expect(tooLong).toMatchObject({ ok: false, error: { field: 'maxAgeDays' } });
    expect(await dispatch(handlers, 'getRetention', {})).toMatchObject({ ok: true, value: { maxAgeDays: null, maxMessages: null, messages: 0, pruned: 0 } });

    addFiltered(core, 400, 'bg');
    const removed: number[] = [];
    const off = core.onEvent((e) => {
      if (e.type === 'messagesRemoved') removed.push(e.count);
    });
    // setRetention wakes the pruner at once; it works while the core is quiet.
    expect(await dispatch(handlers, 'setRetention', { maxMessages: 100, maxAgeDays: 30 })).toMatchObject({ ok: true, value: { maxMessages: 100, maxAgeDays: 30 } });
    await vi.waitFor(() => expect(must(core.getRetention()).messages).toBe(100), { timeout: 10_000, interval: 20 });
    expect(must(core.getRetention())).toMatchObject({ pruned: 300, lastPrunedAt: expect.any(Number) });
    // Each pass that removed some said so, so that the faces' lists read again.
    await vi.waitFor(() => expect(removed.reduce((a, b) => a + b, 0)).toBe(300));
    off();
    // null turns one limit off and keeps the other.
    expect(must(core.setRetention({ maxAgeDays: null }))).toMatchObject({ maxAgeDays: null, maxMessages: 100 });
    await core.close();

    const again = newCore({ dataDir });
    expect(must(again.getRetention())).toMatchObject({ maxAgeDays: null, maxMessages: 100, messages: 100, pruned: 300 });
  });
});
