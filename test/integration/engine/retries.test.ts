import { createHmac } from 'node:crypto';
import { dispatch } from '../../../main/contract/dispatch.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { describe, expect, it } from 'vitest';
import { pastWindowWords } from '../../../main/contract/message/deliveryWords.js';
import { DEFAULT_RETRY_POLICY } from '../../../main/contract/destinations.js';
import { afterNextRound, must, newCore, newCoreWithDestination, newReceiver, sendTrack, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

const HOUR = 3_600_000;

describe('multi-webhook: any one success delivers', () => {
  it('one webhook failing with 500 and one succeeding: delivered, the failing one is never retried', async () => {
    const failing = await newReceiver(status(500));
    const ok = await newReceiver(status(200));
    const core = newCoreWithDestination({ webhooks: [{ url: failing.url }, { url: ok.url }] });
    const id = sendTrack(core, 'd');
    const detail = await settled(core, id);
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts.map((a) => a.outcome).sort()).toEqual(['http_error', 'success']);
    must(await core.advanceClock({ ms: 5 * HOUR }));
    expect(failing.captured).toHaveLength(1);
    expect(ok.captured).toHaveLength(1);
  });

  it("a delivered delivery's list row shows the success that delivered it, not a later webhook's failure", async () => {
    const ok = await newReceiver(status(200));
    const limited = await newReceiver(status(429));
    const core = newCoreWithDestination({ webhooks: [{ url: ok.url }, { url: limited.url }] });
    const id = sendTrack(core, 'd');
    expect((await settled(core, id)).message.status).toBe('delivered');
    const row = must(core.listMessages({})).items.find((m) => m.id === id)!;
    expect(row.deliveries.map((d) => [d.status, d.lastOutcome, d.lastStatusCode])).toEqual([['delivered', 'success', 200]]);
  });

  it('sends to every webhook concurrently, each with its own static headers', async () => {
    const a = await newReceiver(status(200));
    const b = await newReceiver(status(200));
    const core = newCore();
    must(
      core.createDestination({
        name: 'd',
        enabled: true,
        webhooks: [
          { url: a.url, headers: { 'X-Which': 'a' } },
          { url: b.url, headers: { 'X-Which': 'b' } },
        ],
      }),
    );
    await settled(core, sendTrack(core, 'd'));
    expect(a.captured[0]!.headers['x-which']).toBe('a');
    expect(b.captured[0]!.headers['x-which']).toBe('b');
    expect(a.captured[0]!.body.equals(b.captured[0]!.body)).toBe(true);
  });

  it('none succeeded: only the retryable webhooks are retried', async () => {
    const gone = await newReceiver(status(404));
    const busy = await newReceiver(status(503));
    const core = newCoreWithDestination({ webhooks: [{ url: gone.url }, { url: busy.url }] });
    const id = sendTrack(core, 'd');
    const first = await settled(core, id);
    expect(first.deliveries[0]).toMatchObject({ status: 'retrying', pendingUrls: [busy.url] });
    busy.respond = status(200);
    must(await core.advanceClock({ ms: 10_000 }));
    expect(must(core.getMessage({ id })).message.status).toBe('delivered');
    expect(gone.captured).toHaveLength(1);
    expect(busy.captured).toHaveLength(2);
  });
});

describe('retry schedule and the 4 h window (engine clock)', () => {
  it('a delivery failed with "retry window exhausted" keeps when its next attempt would have fallen due, past the window, and says so', async () => {
    const rx = await newReceiver(status(503));
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: 5 * HOUR }));
    const delivery = must(core.getMessage({ id })).deliveries[0]!;
    expect(delivery.reason).toBe('retry window exhausted');
    const first = delivery.firstAttemptAt!;
    expect(delivery.pastWindow).toEqual({ dueAt: expect.any(Number) as number, windowEndsAt: first + 4 * HOUR });
    expect(delivery.pastWindow!.dueAt).toBeGreaterThan(first + 4 * HOUR);
    expect(delivery.nextAttemptAt).toBeNull();
    const words = pastWindowWords(delivery, false)!;
    expect(words).toMatch(new RegExp(`^no ${delivery.attempts + 1}th attempt: it would have fallen due \\d+ h( \\d+ min)? after the first, past the 4 h retry window$`));
  });

  it('one +5 h advance plays the whole default schedule, then fails with "retry window exhausted"', async () => {
    const rx = await newReceiver(status(503));
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: 5 * HOUR }));
    const detail = must(core.getMessage({ id }));
    expect(detail.message.status).toBe('failed');
    expect(detail.message.statusReason).toBe('retry window exhausted');
    const starts = detail.attempts.map((a) => a.startedAt);
    const first = starts[0]!;
    // Every attempt at or before first + 4 h; the gaps follow 5 s, 30 s, 2 min, ... within ±20 % jitter.
    expect(starts.at(-1)! - first).toBeLessThanOrEqual(4 * HOUR);
    const gaps = starts.slice(1).map((s, i) => s - detail.attempts[i]!.finishedAt);
    gaps.forEach((gap, i) => {
      const base = DEFAULT_RETRY_POLICY.schedule[Math.min(i, DEFAULT_RETRY_POLICY.schedule.length - 1)]!;
      expect(gap).toBeGreaterThanOrEqual(base * 0.8 - 5);
      expect(gap).toBeLessThanOrEqual(base * 1.2 + 50);
    });
    expect(detail.attempts.length).toBeGreaterThanOrEqual(7);
    expect(detail.attempts.length).toBe(rx.captured.length);
  });

  it('the same seed gives the same retry times', async () => {
    const times: number[][] = [];
    for (let run = 0; run < 2; run++) {
      const rx = await newReceiver(status(500));
      const core = newCoreWithDestination({ url: rx.url }, { seed: 7 });
      const id = sendTrack(core, 'd');
      await settled(core, id);
      must(await core.advanceClock({ ms: 5 * HOUR }));
      const attempts = must(core.getMessage({ id })).attempts;
      times.push(attempts.slice(1).map((a, i) => a.startedAt - attempts[i]!.finishedAt));
    }
    // Engine time moves with real time too, so allow a few ms of real work per step.
    times[0]!.forEach((gap, i) => expect(Math.abs(gap - times[1]![i]!)).toBeLessThan(50));
  });

  it('Retry-After (seconds) replaces the next delay when longer', async () => {
    const rx = await newReceiver(status(503, { 'retry-after': '600' }));
    const core = newCoreWithDestination({ url: rx.url });
    const detail = await settled(core, sendTrack(core, 'd'));
    const delay = detail.deliveries[0]!.nextAttemptAt! - detail.attempts[0]!.finishedAt;
    expect(delay).toBe(600_000);
    must(await core.advanceClock({ ms: 60_000 }));
    expect(rx.captured).toHaveLength(1);
  });

  it('Retry-After as an HTTP date is honoured too', async () => {
    const rx = await newReceiver((req, res) => res.writeHead(429, { 'retry-after': new Date(Date.now() + 120_000).toUTCString() }).end());
    const core = newCoreWithDestination({ url: rx.url });
    const detail = await settled(core, sendTrack(core, 'd'));
    const delay = detail.deliveries[0]!.nextAttemptAt! - detail.attempts[0]!.finishedAt;
    expect(delay).toBeGreaterThan(115_000);
    expect(delay).toBeLessThanOrEqual(121_000);
  });

  it('Retry-After past the window fails the delivery right after its attempt', async () => {
    const rx = await newReceiver(status(503, { 'retry-after': String(5 * 3600) }));
    const core = newCoreWithDestination({ url: rx.url });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('failed');
    expect(detail.message.statusReason).toBe('retry window exhausted');
  });

  it('maxAttempts caps the rounds', async () => {
    const rx = await newReceiver(status(500));
    const core = newCoreWithDestination({ url: rx.url, retry: { maxAttempts: 3 } });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: HOUR }));
    const detail = must(core.getMessage({ id }));
    expect(detail.attempts).toHaveLength(3);
    expect(detail.message.statusReason).toBe('max attempts reached (3)');
  });
});

describe('retryNow, cancelMessage, replayMessage', () => {
  it('retryNow pulls a waiting retry to now', async () => {
    const rx = await newReceiver(status(500));
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    rx.respond = status(200);
    const detail = await afterNextRound(core, id, () => must(core.retryNow({ id })));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts).toHaveLength(2);
  });

  it('retryNow gives a failed delivery a fresh window', async () => {
    const rx = await newReceiver(status(503));
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: 5 * HOUR }));
    expect(must(core.getMessage({ id })).message.status).toBe('failed');
    const detail = await afterNextRound(core, id, () => must(core.retryNow({ id })));
    expect(detail.message.status).toBe('retrying');
    expect(detail.attempts.length).toBe(rx.captured.length);
    expect(detail.deliveries[0]!.firstAttemptAt).toBe(detail.attempts.at(-1)!.startedAt);
  });

  it('retryNow refuses a delivered message with a conflict', async () => {
    const rx = await newReceiver(status(200));
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    const result = core.retryNow({ id });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('conflict');
  });

  it('retryNow does not claim to send what its destination holds: a destination that is off, or has no webhook URL, is named instead', () => {
    const core = newCore({ autoStart: false });
    must(core.createDestination({ name: 'paused', enabled: false, url: 'http://127.0.0.1:9/hook' }));
    must(core.createDestination({ name: 'no url', enabled: false, webhooks: [] }));
    for (const [name, why] of [
      ['paused', 'destination "paused" is off (turn it on and its deliveries go)'],
      ['no url', 'destination "no url" has no webhook URL (give it one and turn it on)'],
    ] as const) {
      const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Held' }, destinations: [name] })).message.id;
      expect(core.retryNow({ id })).toEqual({ ok: false, error: { code: 'conflict', message: `nothing can be sent now: ${why}` } });
      expect(must(core.getMessage({ id })).deliveries[0]).toMatchObject({ status: 'queued', attempts: 0 });
    }
  });

  it('cancelMessage stops the retries: "cancelled by user"', async () => {
    const rx = await newReceiver(status(500));
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(core.cancelMessage({ id }));
    must(await core.advanceClock({ ms: 5 * HOUR }));
    const detail = must(core.getMessage({ id }));
    expect(detail.message).toMatchObject({ status: 'cancelled', statusReason: 'cancelled by user' });
    expect(rx.captured).toHaveLength(1);
  });

  it('replayMessage sends the same payload under a new messageId, or the same one when asked', async () => {
    const rx = await newReceiver(status(200));
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd', { messageId: 'm-1', properties: { a: 1 } });
    await settled(core, id);
    const replay = must(core.replayMessage({ id }));
    await settled(core, replay.message.id);
    const kept = must(core.replayMessage({ id, keepMessageId: true }));
    await settled(core, kept.message.id);
    const bodies = rx.captured.map((c) => JSON.parse(c.body.toString()) as Record<string, unknown>);
    expect(bodies.map((b) => b['messageId'])).toEqual(['m-1', replay.message.messageId, 'm-1']);
    expect(replay.message.messageId).not.toBe('m-1');
    expect(bodies.map((b) => b['properties'])).toEqual([{ a: 1 }, { a: 1 }, { a: 1 }]);
    expect(kept.message.replayOf).toBe(id);
  });

  it("a replay of a filtered duplicate says why it went nowhere: its original went nowhere, not that it is a duplicate (a replay never is)", async () => {
    const rx = await newReceiver(status(200));
    const core = newCoreWithDestination({ url: rx.url });
    const first = sendTrack(core, 'd', { messageId: 'dup-1' });
    await settled(core, first);
    const again = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Tested', messageId: 'dup-1' } })).message;
    expect(again).toMatchObject({ status: 'filtered', statusReason: 'duplicate messageId' });
    const replay = must(core.replayMessage({ id: again.id })).message;
    expect(replay).toMatchObject({ status: 'filtered', statusReason: 'the original was filtered: a replay goes only where its original went', replayOf: again.id });
  });
});

describe('destination changes and retries', () => {
  it('attempts use the configuration at attempt time: a new secret re-signs, new headers are sent', async () => {
    const rx = await newReceiver(status(500));
    const core = newCore();
    const dest = must(core.createDestination({ name: 'd', enabled: true, sharedSecret: 'old', url: rx.url }));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(core.updateDestination({ id: dest.id, patch: { sharedSecret: 'new', webhooks: [{ url: rx.url, headers: { 'X-V': '2' } }] } }));
    rx.respond = status(200);
    must(await core.advanceClock({ ms: 10_000 }));
    const [first, second] = rx.captured;
    expect(first!.headers['x-signature']).toBe(createHmac('sha1', 'old').update(first!.body).digest('hex'));
    expect(second!.headers['x-signature']).toBe(createHmac('sha1', 'new').update(second!.body).digest('hex'));
    expect(second!.headers['x-v']).toBe('2');
    expect(second!.body.equals(first!.body)).toBe(true);
  });

  it('disabling holds retries; enabling releases them', async () => {
    const rx = await newReceiver(status(500));
    const core = newCore();
    const dest = must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(core.updateDestination({ id: dest.id, patch: { enabled: false } }));
    must(await core.advanceClock({ ms: 5 * HOUR }));
    expect(rx.captured).toHaveLength(1);
    expect(must(core.getMessage({ id })).message.status).toBe('retrying');
    rx.respond = status(200);
    const detail = await afterNextRound(core, id, () => must(core.updateDestination({ id: dest.id, patch: { enabled: true } })));
    expect(detail.message.status).toBe('delivered');
  });

  it('deleting a destination cancels its retries: "destination deleted"', async () => {
    const rx = await newReceiver(status(500));
    const core = newCore();
    const dest = must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    expect(must(core.deleteDestination({ id: dest.id })).cancelledDeliveries).toBe(1);
    must(await core.advanceClock({ ms: 5 * HOUR }));
    expect(must(core.getMessage({ id })).message).toMatchObject({ status: 'cancelled', statusReason: 'destination deleted' });
    expect(rx.captured).toHaveLength(1);
  });
});

describe('paused forwarding (autoStart: false)', () => {
  it('accepted messages wait in SQLite until start(); advancing the clock meanwhile sends nothing', async () => {
    const rx = await newReceiver(status(200));
    const core = newCore({ autoStart: false });
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const id = sendTrack(core, 'd');
    must(await core.advanceClock({ ms: 60_000 }));
    await core.idle();
    expect(must(core.getMessage({ id })).message.status).toBe('queued');
    expect(rx.captured).toHaveLength(0);
    const detail = await afterNextRound(core, id, () => core.start());
    expect(detail.message.status).toBe('delivered');
  });
});

describe('clock', () => {
  it('advanceClock adds to the offset, persisted in the data dir', async () => {
    const { newDataDir } = await import('../../helpers/harness.js');
    const dataDir = newDataDir();
    const core = newCore({ dataDir });
    const before = must(core.getClock());
    const after = must(await core.advanceClock({ ms: HOUR }));
    expect(after.offsetMs).toBe(before.offsetMs + HOUR);
    await core.close();
    const again = newCore({ dataDir });
    expect(must(again.getClock()).offsetMs).toBe(HOUR);
  });

  it('refuses a negative or fractional advance, naming the field', async () => {
    const core = newCore();
    const handlers = createCommandHandlers(core);
    for (const ms of [-5, 1.5, '5', 366 * 24 * 3_600_000]) {
      const r = await dispatch(handlers, 'advanceClock', { ms });
      expect(r, String(ms)).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'ms' } });
    }
    expect(must(core.getClock()).offsetMs).toBe(0);
  });
});
