import { describe, expect, it } from 'vitest';
import type { RoutingInput } from '../../../main/contract/diagnostics';
import { DEFAULT_RETRY_POLICY, type Destination } from '../../../main/contract/destinations';
import { eventList, formSlot, freeName, headerLimitReason, previewFilters, webhookLimitReason, webhooksInput } from '../../../renderer/src/features/destinations/model';
import { formatDurationInput, parseDuration, parseDurationList } from '../../../renderer/src/lib/duration';
import { policyLadder } from '../../../renderer/src/lib/retryLadder';
import { ladderHeading } from '../../../renderer/src/features/destinations/RetryFields';
import { timelineLabel } from '../../../renderer/src/features/destinations/DestinationTimeline';

describe('where a server error goes in the Destinations form', () => {
  it('maps each field the API names to its place, and nothing else', () => {
    expect(formSlot('webhooks[5]')).toBe('webhooks'); // one URL too many
    expect(formSlot('patch.webhooks[1].headers.X-Env')).toBe('webhooks[1].headers');
    expect(formSlot('webhooks[0].headers')).toBe('webhooks[0].headers'); // too many headers
    expect(formSlot('patch.webhooks[2].url')).toBe('webhooks[2].url');
    expect(formSlot('sources[3]')).toBe('sources');
    expect(formSlot('patch.retry.schedule[2]')).toBe('retry.schedule');
    expect(formSlot('patch.caFile')).toBe('caFile');
    expect(formSlot('patch.enabled')).toBe('enabled');
    expect(formSlot('name')).toBe('name');
    expect(formSlot('patch.filters.blockEvents[0]')).toBe('filters.blockEvents');
    expect(formSlot('id')).toBeNull();
    expect(formSlot(undefined)).toBeNull();
  });

  it('says the limits before they are hit', () => {
    expect(webhookLimitReason(4)).toBeNull();
    expect(webhookLimitReason(5)).toBe('A destination has at most 5 webhook URLs (5 of 5)');
    expect(headerLimitReason(5)).toBe('A webhook has at most 5 static headers (5 of 5)');
  });

  it('sends URLs and named headers only, trimmed', () => {
    expect(webhooksInput([{ url: ' receiver:a ', headers: [{ name: 'X-Env ', value: 'dev' }, { name: ' ', value: 'x' }] }, { url: '', headers: [] }])).toEqual([{ url: 'receiver:a', headers: { 'X-Env': 'dev' } }]);
    expect(eventList('Heartbeat\n Ping , Heartbeat\n\n')).toEqual(['Heartbeat', 'Ping']);
    expect(freeName('Webhooks', ['Webhooks', 'Webhooks 2'])).toBe('Webhooks 3');
  });
});

describe('filter preview', () => {
  const d: Pick<Destination, 'id' | 'name' | 'sourceIds' | 'filters'> = { id: 'd1', name: 'D', sourceIds: ['s1'], filters: { allowEvents: [], blockEvents: ['Ping'] } };
  let id = 0;
  const m = (type: RoutingInput['type'], event: string | null, sourceId: string | null, integrations: RoutingInput['integrations'] = null, destinationIds: string[] = []): RoutingInput => ({ id: ++id, sourceId, type, event, integrations, destinationIds });
  const items = [
    m('track', 'Ping', 's1'),
    m('track', 'Ping', 's1'),
    m('track', 'Order', 's1'),
    m('page', 'Ping', 's1'),
    m('track', 'Ping', 's2'),
    // Sent to it directly, not from its sources: not the preview's business.
    m('track', 'Order', null, null, ['d1']),
    // Its integrations keep these from D whatever its filters say: they never reach them.
    m('track', 'Order', 's1', { All: false }),
    m('track', 'Ping', 's1', { D: false }),
    m('track', 'Ping', 's1', { Webhooks: false }),
    // Named, or Webhooks on, they do reach it.
    m('track', 'Order', 's1', { All: false, D: true }),
    m('track', 'Ping', 's1', { All: false, Webhooks: true }),
  ];
  const recent = { looked: 20, items };

  it("counts what the engine's rules drop among the messages its sources' integrations route to it, by event", () => {
    const p = previewFilters(d, { allowEvents: [], blockEvents: ['Ping', 'Order'] }, recent);
    expect(p).toMatchObject({ looked: 20, relevant: 6, skipped: 3, droppedTotal: 5, droppedNow: 3 });
    expect(p.dropped).toEqual([
      { event: 'Ping', count: 3, reason: 'event "Ping" is blocked by destination "D"' },
      { event: 'Order', count: 2, reason: 'event "Order" is blocked by destination "D"' },
    ]);
    // An allow list drops every other track event (a page is never filtered by events).
    expect(previewFilters(d, { allowEvents: ['Order'], blockEvents: [] }, recent)).toMatchObject({ relevant: 6, droppedTotal: 3, dropped: [{ event: 'Ping', count: 3 }] });
  });
});

describe('durations as typed', () => {
  it('parses units, combinations and bare milliseconds; names a bad entry', () => {
    expect(parseDuration('5s')).toEqual({ ok: true, ms: 5000 });
    expect(parseDuration('1h30m')).toEqual({ ok: true, ms: 5_400_000 });
    expect(parseDuration('2 min')).toEqual({ ok: true, ms: 120_000 });
    expect(parseDuration('1500ms')).toEqual({ ok: true, ms: 1500 });
    expect(parseDuration('0')).toEqual({ ok: true, ms: 0 });
    expect(parseDuration('soon')).toMatchObject({ ok: false, message: expect.stringMatching(/^"soon" is not a duration/) });
    expect(parseDurationList('5s, 30s, 2m')).toEqual({ ok: true, ms: [5000, 30_000, 120_000] });
    expect(parseDurationList('5s, x')).toMatchObject({ ok: false, message: expect.stringMatching(/^entry 2: /) });
    for (const ms of [5000, 5_400_000, 1500, 14_400_000, 86_400_000]) expect(parseDuration(formatDurationInput(ms))).toEqual({ ok: true, ms });
  });
});

describe('the retry ladder of a policy', () => {
  it('the default: 8 attempts within 4 h, then the window ends it', () => {
    const ladder = policyLadder(DEFAULT_RETRY_POLICY);
    expect(ladder.attempts.map((a) => a.atMs)).toEqual([0, 5000, 35_000, 155_000, 755_000, 2_555_000, 6_155_000, 13_355_000]);
    expect(ladder.attempts[1]!.spreadMs).toBe(1000);
    expect(ladder.end).toBe('window');
  });
  it('stops at max attempts, and a first retry past the window means none', () => {
    expect(policyLadder({ ...DEFAULT_RETRY_POLICY, maxAttempts: 3 })).toMatchObject({ attempts: [{ atMs: 0 }, { atMs: 5000 }, { atMs: 35_000 }], end: 'maxAttempts' });
    expect(policyLadder({ ...DEFAULT_RETRY_POLICY, maxAttempts: 1 }).attempts).toHaveLength(1);
    expect(policyLadder({ schedule: [60_000], windowMs: 30_000, jitter: 0 })).toEqual({ attempts: [{ attemptNumber: 1, atMs: 0, spreadMs: 0 }], end: 'window' });
  });
  it('counts rounds and attempts apart for a destination with several webhooks, as the detail card does', () => {
    expect(ladderHeading({ ...DEFAULT_RETRY_POLICY, maxAttempts: 3 }, 1)).toBe('If every attempt fails: 3 attempts over 35 s, then it fails: max attempts reached (3)');
    expect(ladderHeading({ ...DEFAULT_RETRY_POLICY, maxAttempts: 3 }, 3)).toBe('If every attempt fails: 3 rounds · 9 attempts over 35 s, then it fails: max attempts reached (3)');
  });
});

describe("a destination's last hour in words", () => {
  it('says its bars count rounds, as getDestinationTimeline counts them, not deliveries', () => {
    const t = { destinationId: 'd', from: 0, minuteMs: 60_000, delivered: [1, 0], retried: [0, 3], failed: [0, 0], p50: [null, null], p95: [null, null], backlog: [0, 1], backlogNow: 1 };
    expect(timelineLabel(t)).toBe('Deliveries per minute, last hour: 1 delivered, 3 retried, 0 failed; 1 waiting for a retry now; counted by rounds (each try of a delivery)');
  });
});
