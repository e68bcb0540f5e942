/**
 * The top bar's counters count messages, and each comes with the listMessages filter that lists exactly
 * them; a list row carries every destination's outcome; "any delivery failed" is a filter of its own.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../main/contract/events.js';
import type { MessageFilter } from '../../../main/contract/messages.js';
import { internalsOf } from '../../../main/app/createCore.js';
import type { Core } from '../../../main/app/createCore.js';
import { createClock, type Clock } from '../../../main/platform/clock.js';
import { must, newCore, newReceiver, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

const slowRetry = { schedule: [600_000], windowMs: 4 * 3_600_000, jitter: 0 };

async function threeDestinations(clock?: Clock): Promise<Core> {
  const ok = await newReceiver(status(200));
  const busy = await newReceiver(status(503));
  const gone = await newReceiver(status(404));
  const core = newCore(clock ? { clock } : {});
  must(core.createDestination({ name: 'Orders', enabled: true, url: ok.url, retry: slowRetry }));
  must(core.createDestination({ name: 'Billing', enabled: true, url: busy.url, retry: slowRetry }));
  must(core.createDestination({ name: 'Legacy', enabled: true, url: gone.url, retry: slowRetry }));
  must(core.createDestination({ name: 'Archive', enabled: true, url: gone.url, retry: slowRetry }));
  return core;
}

const send = (core: Core, destinations: string[], event = 'Order Completed') =>
  must(core.sendMessage({ type: 'track', call: { userId: 'u1', event }, destinations })).message.id;

const listAll = (core: Core, filter: MessageFilter) => must(core.listMessages({ ...filter, limit: 1000 })).items.map((m) => m.id);

describe('per-destination outcomes on a list row', () => {
  it('a message delivered to one destination, retrying on another and refused by a third shows all three, each with its last HTTP status', async () => {
    const core = await threeDestinations();
    const accepted: EngineEvent[] = [];
    core.onEvent((e) => e.type === 'messageAccepted' && accepted.push(e));
    const id = send(core, ['Orders', 'Billing', 'Legacy']);
    await settled(core, id);

    const [row] = must(core.listMessages({ limit: 1 })).items;
    expect(row!.status).toBe('retrying');
    expect(row!.deliveries.map((d) => [d.destinationName, d.status, d.lastOutcome, d.lastStatusCode, d.reason])).toEqual([
      ['Orders', 'delivered', 'success', 200, null],
      ['Billing', 'retrying', 'http_error', 503, null],
      ['Legacy', 'failed', 'http_error', 404, 'permanent: HTTP 404'],
    ]);
    expect(row!.deliveries[1]!.nextAttemptAt).toBe(row!.nextAttemptAt);
    expect(row!.deliveries[0]!.nextAttemptAt).toBeNull();
    expect(row!.attempts).toBe(1);
    // getMessage's summary (messageUpdated) and the list row are the same shape from the same builder.
    expect(internalsOf(core).store.queries.summary(id)).toEqual(row);
    // messageAccepted already names every destination, queued, before any attempt.
    const first = accepted[0]!;
    expect(first.type === 'messageAccepted' && first.message.deliveries.map((d) => [d.destinationName, d.status, d.lastOutcome])).toEqual([
      ['Orders', 'queued', null],
      ['Billing', 'queued', null],
      ['Legacy', 'queued', null],
    ]);
  });

  it('"any delivery failed" finds messages whose own status is not failed; the status filter does not', async () => {
    const core = await threeDestinations();
    const mixed = send(core, ['Orders', 'Billing', 'Legacy']);
    const fine = send(core, ['Orders']);
    const allFailed = send(core, ['Legacy', 'Archive']);
    for (const id of [mixed, fine, allFailed]) await settled(core, id);
    expect(must(core.getMessage({ id: mixed })).message.status).toBe('retrying');
    expect(listAll(core, { delivery: 'failed' })).toEqual([allFailed, mixed]);
    expect(listAll(core, { status: 'failed' })).toEqual([allFailed]);
    expect(listAll(core, { delivery: 'delivered' })).toEqual([fine, mixed]);
    // Pages of one: a message with two failed deliveries is one row, and the cursor goes on past it.
    const first = must(core.listMessages({ delivery: 'failed', limit: 1 }));
    const second = must(core.listMessages({ delivery: 'failed', limit: 1, cursor: first.nextCursor }));
    expect([...first.items, ...second.items].map((m) => m.id)).toEqual([allFailed, mixed]);
    expect(second.nextCursor).toBeNull();
  });

  it('deliverySince without delivery is refused, naming the field', () => {
    const core = newCore();
    const r = core.listMessages({ deliverySince: 1 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'invalid_input', field: 'deliverySince' });
    const e = core.exportMessages({ format: 'json', filter: { deliverySince: 1 } });
    expect(!e.ok && e.error.field).toBe('filter.deliverySince');
  });
});

describe('the top bar counters', () => {
  it('Failed (1 h) counts messages with a delivery that failed in the last hour of real time, and its filter lists exactly those', async () => {
    let real = Date.UTC(2026, 10, 27, 9, 0, 0);
    const core = await threeDestinations(createClock({ realNow: () => real }));
    const old = send(core, ['Legacy']);
    await settled(core, old);
    real += 2 * 3_600_000; // two hours of the user's time go by
    const twice = send(core, ['Legacy', 'Archive']);
    const once = send(core, ['Orders', 'Archive']);
    const waiting = send(core, ['Billing']);
    for (const id of [twice, once, waiting]) await settled(core, id);

    const overview = must(core.getOverview());
    const failed = overview.messageCounters.failedLastHour;
    // Deliveries: 3 failed in the hour (two of one message). Messages: 2.
    expect(overview.failedLastHour).toBe(3);
    expect(failed.messages).toBe(2);
    expect(failed.filter).toEqual({ failedSince: real - 3_600_000 });
    expect(listAll(core, failed.filter)).toEqual([once, twice]);

    const retrying = overview.messageCounters.retrying;
    expect(retrying.messages).toBe(1);
    expect(listAll(core, retrying.filter)).toEqual([waiting]);
    expect(overview.messageCounters.inFlight).toEqual({ messages: 0, filter: { status: 'delivering' } });
    expect(overview.totalMessages).toBe(4);

    // Time travel moves the engine clock, not the user's hour: the jump plays the retrying message to its end
    // (the 4-hour window runs out), and that failure joins the two; Reset offset changes nothing.
    must(await core.advanceClock({ ms: 4 * 3_600_000 }));
    expect(must(core.getMessage({ id: waiting })).message.status).toBe('failed');
    const jumped = must(core.getOverview()).messageCounters.failedLastHour;
    expect(jumped.messages).toBe(3);
    must(await core.resetClock());
    const after = must(core.getOverview()).messageCounters.failedLastHour;
    expect(after.messages).toBe(3);
    expect(listAll(core, after.filter)).toEqual([waiting, once, twice]);
  });

  it("a jump's failures count as just now, before and after Reset offset, however early in the jump they failed", async () => {
    const real = Date.UTC(2026, 10, 27, 9, 0, 0);
    const busy = await newReceiver(status(503));
    const core = newCore({ clock: createClock({ realNow: () => real }) });
    must(core.createDestination({ name: 'Busy', enabled: true, url: busy.url, retry: { schedule: [5_000], windowMs: 4 * 3_600_000, jitter: 0, maxAttempts: 2 } }));
    const ids = [0, 1, 2].map(() => send(core, ['Busy']));
    await core.idle();
    must(await core.advanceClock({ ms: 4 * 3_600_000 }));
    for (const id of ids) expect((await settled(core, id)).message.status).toBe('failed');
    // Each failed 5 s of engine time after it was sent, nearly four engine hours before the clock now.
    const counter = must(core.getOverview()).messageCounters.failedLastHour;
    expect(counter.messages).toBe(3);
    expect(listAll(core, counter.filter)).toEqual([...ids].reverse());
    must(await core.resetClock());
    expect(must(core.getOverview()).messageCounters.failedLastHour.messages).toBe(3);
  });

  it('"any delivery failed" is read through the partial index of failed deliveries, and a row\'s outcomes through indexes, never a scan', async () => {
    const core = await threeDestinations();
    const id = send(core, ['Orders', 'Legacy']);
    await settled(core, id);
    const explained = internalsOf(core).store.queries.explain({ delivery: 'failed' });
    expect(explained.plan).toBe('failed');
    const plans = explained.statements.flatMap((s) => s.plan).join('\n');
    expect(plans).toContain('deliveries_failed_message');
    expect(plans).toMatch(/SEARCH d USING INDEX deliveries_message/);
    expect(plans).toMatch(/SEARCH a USING INDEX attempts_message/);
    expect(plans).not.toMatch(/SCAN (d|a|fd)\b/);
  });
});
