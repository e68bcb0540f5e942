/**
 * What the Destinations screens need of the API.
 * listDestinationStats: what the Destinations list shows (pending deliveries, recent outcomes, failure
 * rate, the newest delivery), the same whether messages are indexed by the history indexer or not yet,
 * read through indexes only, and its pending count is what deleteDestination then cancels.
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/contract/dispatch.js';
import type { DestinationStats } from '../../../main/contract/destinations.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { internalsOf, type Core } from '../../../main/app/createCore.js';
import { must, newCore, newReceiver, sendTrack, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

async function setUp() {
  const ok = await newReceiver(status(200));
  const down = await newReceiver(status(500));
  const core = newCore();
  const a = must(core.createDestination({ name: 'A', enabled: true, url: ok.url }));
  const b = must(core.createDestination({ name: 'B', enabled: true, url: down.url, retry: { maxAttempts: 1 } }));
  const c = must(core.createDestination({ name: 'C', enabled: true, url: down.url }));
  const idle = must(core.createDestination({ name: 'Idle', enabled: false }));
  const send = async (to: string, n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push(sendTrack(core, to, { event: `E${i}` }));
    for (const id of ids) await settled(core, id);
    return ids;
  };
  return { core, a, b, c, idle, send };
}

const statsOf = (core: Core) => new Map(must(core.listDestinationStats({})).items.map((s) => [s.destinationId, s]));

describe('listDestinationStats', () => {
  it('counts pending deliveries, the newest outcomes and the failure rate per destination', async () => {
    const { core, a, b, c, idle, send } = await setUp();
    const toA = await send('A', 3);
    await send('B', 2);
    const toC = await send('C', 2);
    const stats = statsOf(core);
    expect(stats.get(a.id)).toMatchObject({ pending: 0, recent: 3, delivered: 3, failed: 0, failureRate: 0, last: { messageId: toA[2], status: 'delivered', reason: null } });
    expect(stats.get(b.id)).toMatchObject({ pending: 0, recent: 2, delivered: 0, failed: 2, failureRate: 1, last: { status: 'failed', reason: 'max attempts reached (1)' } });
    expect(stats.get(c.id)).toMatchObject({ pending: 2, recent: 2, delivered: 0, failed: 0, failureRate: null, last: { messageId: toC[1], status: 'retrying' } });
    expect(stats.get(idle.id)).toEqual({ destinationId: idle.id, pending: 0, recent: 0, delivered: 0, failed: 0, failureRate: null, last: null } satisfies DestinationStats);
    // In the registry's order (by name), through the API's dispatch.
    const handlers = createCommandHandlers(core);
    const answered = (await dispatch(handlers, 'listDestinationStats', {})) as { ok: true; value: { items: DestinationStats[] } };
    expect(answered.value.items.map((s) => s.destinationId)).toEqual([a.id, b.id, c.id, idle.id]);
    // What deleting C cancels is what the list said.
    expect(must(core.deleteDestination({ id: 'C' })).cancelledDeliveries).toBe(stats.get(c.id)!.pending);
  });

  it('gives the same answer before, while and after the history indexer covers the messages, within its window', async () => {
    const { core, a, send } = await setUp();
    const { store } = internalsOf(core);
    const first = await send('A', 3);
    await send('B', 1);
    const snapshot = () => store.destinationStats.statsOf([a.id], 4)[0]!;
    const unindexed = store.queries.index.covered() === 0 ? snapshot() : null;
    while (store.queries.index.covered() < first[1]!) store.queries.index.indexNext(1);
    const partly = snapshot();
    const later = await send('A', 3);
    const mixed = snapshot();
    while (store.queries.index.indexNext(100) > 0);
    const indexed = snapshot();
    for (const s of [unindexed, partly].filter((x) => x !== null)) expect(s).toMatchObject({ recent: 3, delivered: 3, last: { messageId: first[2] } });
    // Seven deliveries to A, a window of four: the newest four, across the watermark and after it.
    expect(mixed).toMatchObject({ recent: 4, delivered: 4, last: { messageId: later[2] } });
    expect(indexed).toEqual(mixed);
  });

  it('reads through indexes only: no scan of messages or deliveries', async () => {
    const { core } = await setUp();
    const { store } = internalsOf(core);
    const plans = [
      `SELECT d.destination_id, count(*) FROM messages m INDEXED BY messages_status JOIN deliveries d ON d.message_id = m.id
       WHERE m.status IN ('queued', 'retrying', 'delivering') AND d.status IN ('queued', 'retrying', 'delivering') GROUP BY d.destination_id`,
      `SELECT id FROM deliveries INDEXED BY deliveries_message WHERE message_id > 5 AND destination_id = 'x' ORDER BY message_id DESC LIMIT 100`,
      `SELECT d.id FROM history_facets f JOIN deliveries d ON d.message_id = f.id AND d.destination_id = 'x'
       WHERE f.key = 1 AND f.id <= 5 ORDER BY f.id DESC LIMIT 100`,
    ].map((sql) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail));
    // Every table is searched through an index (SEARCH), none is scanned (SCAN).
    for (const plan of plans) expect(plan.filter((step) => !/^(SEARCH|USE TEMP B-TREE FOR GROUP BY)/.test(step))).toEqual([]);
    expect(plans[0]!.join(' ')).toMatch(/messages_status/);
    expect(plans[1]!.join(' ')).toMatch(/deliveries_message/);
    expect(plans[2]!.join(' ')).toMatch(/SEARCH f USING PRIMARY KEY/);
  });
});

describe('updateDestination retry.maxAttempts', () => {
  it('null removes the cap (the editor clears the field); a number sets it; leaving it out keeps it', () => {
    const core = newCore();
    must(core.createDestination({ name: 'd', retry: { maxAttempts: 3 } }));
    expect(must(core.updateDestination({ id: 'd', patch: { retry: { windowMs: 60_000 } } })).retry).toMatchObject({ maxAttempts: 3, windowMs: 60_000 });
    const cleared = must(core.updateDestination({ id: 'd', patch: { retry: { maxAttempts: null } } })).retry;
    expect(cleared).not.toHaveProperty('maxAttempts');
    expect(cleared.windowMs).toBe(60_000);
    expect(must(core.updateDestination({ id: 'd', patch: { retry: { maxAttempts: 7 } } })).retry.maxAttempts).toBe(7);
  });
});
