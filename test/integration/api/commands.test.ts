/**
 * The commands the UI needs (listMessages filters, overview, clock reset and next retry, forwarding
 * pause, sources' update and delete, settings, the persistent token) and the messageUpdated event.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../main/contract/events.js';
import type { MessageSummary } from '../../../main/contract/messages.js';
import { dispatch } from '../../../main/contract/dispatch.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { createCore } from '../../../main/app/createCore.js';
import { har12Schema as har12 } from '../../helpers/har12.js';
import { must, newCore, newDataDir, newReceiver, sendTrack, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

const HOUR = 3_600_000;

describe('listMessages filters (each returns only matching messages)', () => {
  async function corpus() {
    const rx = await newReceiver(status(200));
    const core = newCore();
    const web = must(core.createSource({ name: 'web', kind: 'web' }));
    const server = must(core.createSource({ name: 'server', kind: 'server' }));
    const a = must(core.createDestination({ name: 'a', enabled: true, url: rx.url, sources: ['web'] }));
    const b = must(core.createDestination({ name: 'b', enabled: true, url: rx.url, sources: ['server'] }));
    const sent = (type: 'track' | 'identify' | 'page', call: Record<string, unknown>, source: string) => must(core.sendMessage({ type, call, source })).message.id;
    const ids = {
      webTrack: sent('track', { userId: 'ada', event: 'Signed Up', properties: { plan: 'pro' } }, 'web'),
      webIdentify: sent('identify', { userId: 'ada', traits: { email: 'ada@example.com' } }, 'web'),
      serverTrack: sent('track', { userId: 'bob', event: 'Order Completed', properties: { total: 42 } }, 'server'),
      serverPage: sent('page', { anonymousId: 'anon-1', name: 'Pricing' }, 'server'),
      filtered: sent('track', { userId: 'cy', event: 'Signed Up', integrations: { All: false } }, 'web'),
    };
    for (const id of Object.values(ids)) await settled(core, id);
    return { core, ids, web, server, a, b };
  }
  const list = (core: ReturnType<typeof newCore>, input: Parameters<ReturnType<typeof newCore>['listMessages']>[0]) =>
    must(core.listMessages(input)).items.map((m) => m.id);

  it('status, type, sourceId, destinationId, userId, event, text, from/to', async () => {
    const { core, ids, web, server, a, b } = await corpus();
    expect(list(core, { status: 'filtered' })).toEqual([ids.filtered]);
    expect(list(core, { status: 'delivered' }).sort()).toEqual([ids.webTrack, ids.webIdentify, ids.serverTrack, ids.serverPage].sort());
    expect(list(core, { type: 'track' })).toEqual([ids.filtered, ids.serverTrack, ids.webTrack]);
    expect(list(core, { sourceId: server.id })).toEqual([ids.serverPage, ids.serverTrack]);
    expect(list(core, { sourceId: web.id, type: 'track' })).toEqual([ids.filtered, ids.webTrack]);
    expect(list(core, { destinationId: a.id })).toEqual([ids.webIdentify, ids.webTrack]);
    expect(list(core, { destinationId: b.id })).toEqual([ids.serverPage, ids.serverTrack]);
    expect(list(core, { userId: 'ada' })).toEqual([ids.webIdentify, ids.webTrack]);
    expect(list(core, { event: 'Signed Up' })).toEqual([ids.filtered, ids.webTrack]);
    expect(list(core, { event: 'Pricing' })).toEqual([ids.serverPage]); // a page's or screen's name
    expect(must(core.listMessages({ type: 'page' })).items[0]).toMatchObject({ event: 'Pricing' });
    expect(list(core, { text: 'EXAMPLE.com' })).toEqual([ids.webIdentify]); // case-insensitive (ASCII)
    expect(list(core, { text: '"total":42' })).toEqual([ids.serverTrack]);
    expect(list(core, { text: '100%_' })).toEqual([]); // wildcards are literal
    const times = must(core.listMessages({})).items.map((m) => m.receivedAt);
    const latest = Math.max(...times);
    expect(list(core, { from: latest + 1 })).toEqual([]);
    expect(list(core, { to: Math.min(...times) })).toEqual([]);
    expect(list(core, { from: Math.min(...times), to: latest + 1 })).toHaveLength(5);
    // A range that ends where it starts, or before, is refused rather than answered with nothing; so is its export.
    const reversed = { from: Date.UTC(2026, 10, 28, 14), to: Date.UTC(2026, 10, 28, 13) };
    expect(core.listMessages(reversed)).toEqual({ ok: false, error: { code: 'invalid_input', field: 'to', message: 'to: must be after from (got from 2026-11-28T14:00:00.000Z, to 2026-11-28T13:00:00.000Z)' } });
    expect(core.listMessages({ from: latest, to: latest })).toMatchObject({ ok: false, error: { field: 'to' } });
    expect(core.exportMessages({ filter: reversed, format: 'json' })).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'filter.to', message: expect.stringMatching(/^filter\.to: must be after from/) } });
  });

  it('summaries carry what a row needs (no body), and cursor pages stay stable while messages arrive', async () => {
    const { core, ids, a } = await corpus();
    const [row] = must(core.listMessages({ limit: 1, userId: 'bob' })).items as [MessageSummary];
    expect(row).toMatchObject({ id: ids.serverTrack, type: 'track', event: 'Order Completed', status: 'delivered', attempts: 1, nextAttemptAt: null, anonymousId: null });
    expect(row).not.toHaveProperty('body');
    expect(row.bytes).toBeGreaterThan(50);
    const page1 = must(core.listMessages({ limit: 2 }));
    sendTrack(core, a.name, { userId: 'late' });
    const page2 = must(core.listMessages({ limit: 2, cursor: page1.nextCursor }));
    const page3 = must(core.listMessages({ limit: 2, cursor: page2.nextCursor }));
    expect([...page1.items, ...page2.items, ...page3.items].map((m) => m.id)).toEqual([ids.filtered, ids.serverPage, ids.serverTrack, ids.webIdentify, ids.webTrack]);
    expect(page3.nextCursor).toBeNull();
  });
});

describe('clock: reset and next retry', () => {
  it('resetClock goes back to real time; a waiting retry keeps its distance to now, and events say so', async () => {
    const rx = await newReceiver(status(500));
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const events: EngineEvent[] = [];
    core.onEvent((e) => events.push(e));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: 2 * HOUR }));
    const before = must(core.getMessage({ id })).deliveries[0]!;
    expect(before.status).toBe('retrying');
    const dueIn = before.nextAttemptAt! - core.clock.now();
    const reset = must(await core.resetClock());
    expect(reset.offsetMs).toBe(0);
    const after = must(core.getMessage({ id })).deliveries[0]!;
    expect(after.nextAttemptAt! - core.clock.now()).toBeGreaterThan(dueIn - 1000);
    expect(after.nextAttemptAt! - core.clock.now()).toBeLessThanOrEqual(dueIn);
    expect(events.filter((e) => e.type === 'clockAdvanced').map((e) => (e as { byMs: number }).byMs)).toEqual([2 * HOUR, -2 * HOUR]);
    // Persisted: a reopened data dir is at real time too.
    expect(must(core.getClock()).offsetMs).toBe(0);
  });

  it('advanceToNextRetry jumps to the next due attempt and plays it; with nothing waiting it says so', async () => {
    const rx = await newReceiver(status(500));
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url, retry: { schedule: [60_000], jitter: 0 } }));
    expect(await core.advanceToNextRetry()).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    const clock = must(await core.advanceToNextRetry());
    expect(clock.offsetMs).toBeGreaterThanOrEqual(59_000);
    expect(must(core.getMessage({ id })).attempts).toHaveLength(2);

    // Paused, it would play nothing: refused, the clock and the retry left as they were.
    must(core.pauseForwarding());
    expect(await core.advanceToNextRetry()).toEqual({ ok: false, error: { code: 'conflict', message: 'forwarding is paused: the next retry would not be played; resume forwarding first' } });
    expect(must(core.getClock()).offsetMs).toBe(clock.offsetMs);
    expect(must(core.getMessage({ id })).attempts).toHaveLength(2);
  });
});

describe('overview, forwarding pause, settings, token', () => {
  it('getOverview counts messages per status and the retry backlog', async () => {
    const rx = await newReceiver(status(503));
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    const o = must(core.getOverview());
    expect(o.counts.retrying).toBe(1);
    expect(o).toMatchObject({ inFlight: 0, retrying: 1, dueRetries: 0, paused: false, failedLastHour: 0, acceptedLastMinute: 1 });
    expect(o.nextDueAt).toBe(must(core.getMessage({ id })).deliveries[0]!.nextAttemptAt);
  });

  it('pauseForwarding holds deliveries across a restart until resumeForwarding; both are announced', async () => {
    const rx = await newReceiver(status(200));
    const dataDir = newDataDir();
    let core = createCore({ dataDir, seed: 1 });
    const events: EngineEvent[] = [];
    core.onEvent((e) => events.push(e));
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    expect(must(core.pauseForwarding())).toEqual({ paused: true });
    const id = sendTrack(core, 'd');
    await core.idle();
    expect(must(core.getMessage({ id })).message.status).toBe('queued');
    await core.close();
    core = createCore({ dataDir, seed: 1 });
    try {
      expect(must(core.getOverview()).paused).toBe(true);
      await core.idle();
      expect(must(core.getMessage({ id })).message.status).toBe('queued');
      expect(must(core.resumeForwarding())).toEqual({ paused: false });
      expect((await settled(core, id)).message.status).toBe('delivered');
    } finally {
      await core.close();
    }
    expect(events.filter((e) => e.type === 'forwardingChanged')).toEqual([{ type: 'forwardingChanged', paused: true }]);
  });

  it('the API token is kept across restarts and replaced by rotateToken', async () => {
    const dataDir = newDataDir();
    let core = createCore({ dataDir, seed: 1 });
    const first = core.apiToken();
    await core.close();
    core = createCore({ dataDir, seed: 1 });
    try {
      expect(core.apiToken()).toBe(first);
      const rotated = must(core.rotateToken()).token;
      expect(rotated).not.toBe(first);
      expect(core.apiToken()).toBe(rotated);
      expect(rotated).toMatch(/^[0-9a-f]{48}$/);
    } finally {
      await core.close();
    }
  });

  it('getSettings names the data dir, the database and its size, and the versions', () => {
    const core = newCore();
    const s = must(core.getSettings());
    expect(s.databaseFile.startsWith(s.dataDir)).toBe(true);
    expect(s.databaseBytes).toBeGreaterThan(0);
    expect(s.versions.node).toBe(process.versions.node);
    expect(s.versions.sqlite).toMatch(/^3\./);
  });
});

describe('sources: update and delete', () => {
  it('deleteSource disconnects its destinations (named), its write key stops resolving, its messages stay', async () => {
    const rx = await newReceiver(status(200));
    const core = newCore();
    const src = must(core.createSource({ name: 'web', kind: 'web', writeKey: 'wk_web_1' }));
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url, sources: ['web'] }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u', event: 'E' }, source: 'web' })).message.id;
    await settled(core, id);
    expect(must(core.updateSource({ id: src.id, patch: { kind: 'server' } })).kind).toBe('server');
    expect(must(core.deleteSource({ id: 'web' }))).toEqual({ id: src.id, disconnectedDestinations: ['d'] });
    expect(core.sourceByWriteKey('wk_web_1')).toBeNull();
    expect(must(core.listDestinations()).items[0]!.sourceIds).toEqual([]);
    expect(must(core.getMessage({ id })).message.sourceId).toBe(src.id);
    expect(core.deleteSource({ id: 'web' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('messageUpdated', () => {
  it('a live list can follow a message from accepted to delivered from events alone', async () => {
    const rx = await newReceiver(status(500));
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url, retry: { schedule: [1000], jitter: 0 } }));
    const rows = new Map<number, MessageSummary>();
    core.onEvent((e) => {
      if (e.type === 'messageAccepted' || e.type === 'messageUpdated') rows.set(e.message.id, e.message);
    });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    await new Promise((resolve) => setImmediate(resolve)); // updates of one turn are flushed once, on the next
    expect(rows.get(id)).toMatchObject({ status: 'retrying', attempts: 1, nextAttemptAt: must(core.getMessage({ id })).deliveries[0]!.nextAttemptAt });
    rx.respond = status(200);
    must(await core.advanceClock({ ms: 1500 }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(rows.get(id)).toMatchObject({ status: 'delivered', attempts: 2, nextAttemptAt: null });
  });

  it('a row counts rounds (attempts) and POSTs (webhookAttempts) alike from the list and from events, with several webhooks', async () => {
    const gone = await newReceiver(status(404));
    const busy = await newReceiver(status(503));
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, webhooks: [{ url: gone.url }, { url: busy.url }], retry: { schedule: [1000], jitter: 0 } }));
    const rows = new Map<number, MessageSummary>();
    core.onEvent((e) => {
      if (e.type === 'messageAccepted' || e.type === 'messageUpdated') rows.set(e.message.id, e.message);
    });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: 1500 }));
    await new Promise((resolve) => setImmediate(resolve)); // updates of one turn are flushed once, on the next
    // Round 1 went to both webhooks, round 2 only to the one that failed retryably: 2 rounds, 3 attempts.
    const listed = must(core.listMessages({})).items.find((m) => m.id === id)!;
    expect(listed).toMatchObject({ attempts: 2, webhookAttempts: 3 });
    expect(listed.deliveries[0]).toMatchObject({ attempts: 2, webhookAttempts: 3 });
    expect(must(core.getMessage({ id })).attempts).toHaveLength(3);
    expect(rows.get(id)).toEqual(listed);
  });
});

describe('exportMessages (the command)', () => {
  it('exports a filter or a selection in each format; secrets redacted unless asked', async () => {
    const rx = await newReceiver(status(200));
    const core = newCore();
    must(core.createSource({ name: 'web', kind: 'web', writeKey: 'wk_export_secret' }));
    must(core.createDestination({ name: 'd', enabled: true, sources: ['web'], sharedSecret: 'shared-export-secret', webhooks: [{ url: rx.url, headers: { Authorization: 'Bearer static-credential' } }] }));
    const token = core.apiToken();
    const ids = [0, 1, 2].map((i) => must(core.sendMessage({ type: 'track', call: { userId: `u${i}`, event: 'Exported' }, source: 'web' })).message.id);
    for (const id of ids) await settled(core, id);
    const handlers = createCommandHandlers(core);

    const har = must(await dispatch(handlers, 'exportMessages', { filter: { userId: 'u1' }, format: 'har' })) as { text: string; messages: number; truncated: boolean; fileExtension: string };
    expect(har).toMatchObject({ messages: 1, truncated: false, fileExtension: 'har' });
    expect(har12.safeParse(JSON.parse(har.text)).success).toBe(true);
    const selection = must(await dispatch(handlers, 'exportMessages', { ids: [ids[0], ids[2]], format: 'json' })) as { text: string; messages: number };
    expect(selection.text.trim().split('\n').map((l) => (JSON.parse(l) as { message: { id: number } }).message.id)).toEqual([ids[0], ids[2]]);
    for (const format of ['json', 'har', 'curl']) {
      const redacted = must(await dispatch(handlers, 'exportMessages', { format })) as { text: string; messages: number };
      expect(redacted.messages).toBe(3);
      for (const secret of ['static-credential', 'shared-export-secret', 'wk_export_secret', token]) expect(redacted.text, `${format} ${secret}`).not.toContain(secret);
      expect(redacted.text, format).toContain('<redacted>');
      const full = must(await dispatch(handlers, 'exportMessages', { format, includeSecrets: true })) as { text: string };
      expect(full.text, format).toContain('Bearer static-credential');
    }
    expect(await dispatch(handlers, 'exportMessages', { ids: [999_999], format: 'json' })).toMatchObject({ ok: false, error: { code: 'not_found', field: 'ids[0]' } });
    expect(await dispatch(handlers, 'exportMessages', { ids: [1], filter: {}, format: 'json' })).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'ids' } });
  });
});
