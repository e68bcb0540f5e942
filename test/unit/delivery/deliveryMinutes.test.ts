import { describe, expect, it } from 'vitest';
import { DeliveryMinutes, MINUTE_MS } from '../../../main/delivery/deliveryMinutes.js';
import type { RoundResult } from '../../../main/store/deliveryStore.js';

const T0 = 1_000 * MINUTE_MS;

function round(at: number, status: RoundResult['status'], attemptsMade = 1, durations: number[] = [100]): { destinationId: string; round: RoundResult } {
  return {
    destinationId: 'd',
    round: {
      deliveryId: 1,
      messageId: 1,
      attempts: durations.map((durationMs) => ({ durationMs }) as RoundResult['attempts'][number]),
      status,
      reason: null,
      attemptsMade,
      firstAttemptAt: at,
      nextAttemptAt: null,
      pendingUrls: null,
      updatedAt: at,
      siblings: 1,
    },
  };
}

describe('DeliveryMinutes: a destination\'s rounds per minute of engine time', () => {
  it('counts outcomes, backlog changes and latency percentiles per minute, oldest first, the last minute being now', () => {
    const m = new DeliveryMinutes();
    m.addRounds([round(T0 + 1_000, 'delivered', 1, [10]), round(T0 + 2_000, 'retrying', 1, [1_000]), round(T0 + MINUTE_MS, 'delivered', 2, [20])]);
    const h = m.lastHour('d', T0 + MINUTE_MS + 5);
    expect(h.from).toBe(T0 + MINUTE_MS - 59 * MINUTE_MS);
    expect(h.delivered.slice(-2)).toEqual([1, 1]);
    expect(h.retried.slice(-2)).toEqual([1, 0]);
    expect(h.backlogChange.slice(-2)).toEqual([1, -1]);
    // Nearest rank of [10, 1000]: p50 10 ms, p95 1000 ms, each within 12 %.
    expect(h.p50.at(-2)! / 10).toBeCloseTo(1, 0);
    expect(Math.abs(h.p95.at(-2)! - 1_000) / 1_000).toBeLessThan(0.12);
    expect(h.p50.slice(0, 58).every((v) => v === null)).toBe(true);
    // A requeue attempted nothing: not a delivery.
    m.addRounds([{ ...round(T0 + MINUTE_MS, 'retrying'), round: { ...round(T0, 'retrying').round, attempts: [], updatedAt: T0 + MINUTE_MS } }]);
    expect(m.lastHour('d', T0 + MINUTE_MS).retried.at(-1)).toBe(0);
  });

  it('an hour on, a minute is counted afresh; a round late for an older minute never wipes a newer one; after a clock reset the past is counted again', () => {
    const m = new DeliveryMinutes();
    m.addRounds([round(T0, 'delivered')]);
    m.addRounds([round(T0 + 60 * MINUTE_MS, 'failed')]);
    m.addRounds([round(T0 + 10, 'delivered')]);
    const later = m.lastHour('d', T0 + 60 * MINUTE_MS);
    expect(later.failed.at(-1)).toBe(1);
    expect(later.delivered.at(-1)).toBe(0);
    // The clock went back two hours: that slot is reused for the minute now.
    m.addRounds([round(T0 - 60 * MINUTE_MS, 'delivered')]);
    expect(m.lastHour('d', T0 - 60 * MINUTE_MS).delivered.at(-1)).toBe(1);
  });

  it('knows nothing of a backlog before counting began: those minutes\' changes are null, the minute it began and after are counted', () => {
    const m = new DeliveryMinutes(T0 + 30_000);
    m.addRounds([round(T0 + 40_000, 'retrying', 1)]);
    const h = m.lastHour('d', T0 + 2 * MINUTE_MS);
    expect(h.backlogChange.slice(-3)).toEqual([1, 0, 0]);
    expect(h.backlogChange.slice(0, 57).every((v) => v === null)).toBe(true);
    // Without a start (as before), every minute is counted.
    expect(new DeliveryMinutes().lastHour('d', T0).backlogChange.every((v) => v === 0)).toBe(true);
  });
});
