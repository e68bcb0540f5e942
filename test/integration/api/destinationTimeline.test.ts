/**
 * getDestinationTimeline: one destination's last hour per minute of engine time, counted as the engine
 * records its rounds (delivered, retried, failed for good, latency), and its retry backlog read from the
 * database now and worked back minute by minute.
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/contract/dispatch.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import type { DestinationTimeline } from '../../../main/contract/destinations.js';
import { must, newCore, newReceiver, sendTrack, settled } from '../../helpers/harness.js';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('getDestinationTimeline', () => {
  it('counts each round by its outcome in its minute, with latency, and the retry backlog now and before', async () => {
    // 200 to "ok", 500 to "retry" (retried), 400 to "refused" (failed for good), each after 20 ms.
    const rx = await newReceiver((req, res) => {
      const event = (JSON.parse(req.body.toString('utf8')) as { event: string }).event;
      setTimeout(() => res.writeHead(event === 'ok' ? 200 : event === 'retry' ? 500 : 400).end(), 20);
    });
    const core = newCore();
    const d = must(core.createDestination({ name: 'Orders', enabled: true, url: rx.url }));
    must(core.createDestination({ name: 'Other', enabled: true, url: rx.url }));
    const ids = [...['ok', 'ok', 'ok', 'retry', 'retry', 'refused'].map((event) => sendTrack(core, 'Orders', { event })), sendTrack(core, 'Other', { event: 'ok' })];
    for (const id of ids) await settled(core, id);

    const t = must(core.getDestinationTimeline({ id: 'Orders' }));
    expect(t.destinationId).toBe(d.id);
    for (const series of [t.delivered, t.retried, t.failed, t.p50, t.p95, t.backlog]) expect(series).toHaveLength(60);
    expect(t.minuteMs).toBe(60_000);
    const now = must(core.getClock({})).now;
    expect(t.from + 60 * 60_000).toBeGreaterThan(now);
    expect(t.from + 59 * 60_000).toBeLessThanOrEqual(now);
    expect([sum(t.delivered), sum(t.retried), sum(t.failed)]).toEqual([3, 2, 1]);
    const latencies = t.p50.filter((v): v is number => v !== null);
    expect(latencies.length).toBeGreaterThan(0);
    // Buckets a quarter apart: within 12 % of the receiver's 20 ms (plus the loopback's own time).
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(17);
    expect(t.backlogNow).toBe(2);
    expect(t.backlog.at(-1)).toBe(2);
    // An hour ago this core had not started: no backlog is made up for those minutes.
    expect(t.backlog[0]).toBeNull();

    // The retries go through: the backlog empties, and each of those rounds counts delivered.
    rx.respond = (_req, res) => res.writeHead(200).end();
    for (const id of ids.slice(3, 5)) must(core.retryNow({ id }));
    for (const id of ids.slice(3, 5)) await settled(core, id);
    const after = must(core.getDestinationTimeline({ id: d.id }));
    expect([sum(after.delivered), sum(after.retried), sum(after.failed)]).toEqual([5, 2, 1]);
    expect(after.backlogNow).toBe(0);
    expect(after.backlog.at(-1)).toBe(0);
    expect(Math.max(...after.backlog.filter((n) => n !== null))).toBeLessThanOrEqual(2);

    // Another destination's rounds are its own; an unknown one is not_found, through the API's dispatch.
    expect(sum(must(core.getDestinationTimeline({ id: 'Other' })).delivered)).toBe(1);
    const handlers = createCommandHandlers(core);
    expect(await dispatch(handlers, 'getDestinationTimeline', { id: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const answered = (await dispatch(handlers, 'getDestinationTimeline', { id: d.id })) as { ok: true; value: DestinationTimeline };
    expect(answered.value.backlogNow).toBe(0);
  });
});
