/** The Check screen's capacity card (renderer/src/features/check/CapacityCard.tsx): its readout and its words for failures. */
import { describe, expect, it } from 'vitest';
import type { CheckCapacity } from '../../../main/contract/check/check';
import { describeSecond, failedText } from '../../../renderer/src/features/check/CapacityCard';

const running: CheckCapacity = {
  concurrency: 16,
  seconds: 12,
  deliveriesPerSecond: 318.5,
  latencyMs: { p50: 50, p95: 52, p99: 55, max: 61 },
  errors: {},
  timeouts: 32,
  series: Array.from({ length: 8 }, (_, i) => ({ second: i + 1, deliveries: 316, p50: 50, p95: 53, errors: i === 7 ? 32 : 0 })),
  timeoutMs: 5_000,
  expectRate: 50,
  finished: false,
};

describe('Capacity card', () => {
  it('mid-run, the readout shows the latest measured second, not "not measured yet"', () => {
    // The chart describes its last x (second 12) when nothing is pointed at.
    expect(describeSecond(running, 11)).toBe('Second 8 (the latest measured): 316 deliveries, p50 50 ms, p95 53 ms, 32 errors and timeouts');
    expect(describeSecond(running, 2)).toBe('Second 3: 316 deliveries, p50 50 ms, p95 53 ms, 0 errors and timeouts');
    expect(describeSecond({ ...running, series: [] }, 11)).toBe('No second measured yet');
  });

  it('a second\'s failed deliveries are called errors and timeouts, as the bars count them', () => {
    expect(failedText(1)).toBe('1 error or timeout');
    expect(failedText(3452)).toBe('3,452 errors and timeouts');
  });
});
