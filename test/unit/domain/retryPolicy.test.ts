import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../../main/contract/destinations.js';
import { jitterUnit, nextAttemptAt, parseRetryAfter, retryDelay } from '../../../main/domain/retryPolicy.js';

const HOUR = 3_600_000;
const noJitter = { ...DEFAULT_RETRY_POLICY, jitter: 0 };

describe('retry schedule', () => {
  it('5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelay(noJitter, n, 0.5));
    expect(delays).toEqual([5000, 30000, 120000, 600000, 1800000, HOUR, 2 * HOUR, 2 * HOUR, 2 * HOUR]);
  });

  it('jitter stays within ±20 % and is reproducible from the seed', () => {
    for (let d = 1; d < 200; d++) {
      const u = jitterUnit(99, d, 1);
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
      const delay = retryDelay(DEFAULT_RETRY_POLICY, 1, u);
      expect(delay).toBeGreaterThanOrEqual(4000);
      expect(delay).toBeLessThanOrEqual(6000);
      expect(jitterUnit(99, d, 1)).toBe(u);
    }
    expect(jitterUnit(1, 1, 1)).not.toBe(jitterUnit(2, 1, 1));
  });

  it('a retry due exactly at first attempt + window is scheduled; one ms later is not', () => {
    const policy = { schedule: [1000], windowMs: 10_000, jitter: 0 };
    expect(nextAttemptAt({ policy, attemptsMade: 1, firstAttemptAt: 0, finishedAt: 9000, retryAfterMs: null, unit: 0.5 })).toEqual({ kind: 'retry', at: 10_000 });
    expect(nextAttemptAt({ policy, attemptsMade: 1, firstAttemptAt: 0, finishedAt: 9001, retryAfterMs: null, unit: 0.5 })).toEqual({
      kind: 'exhausted',
      reason: 'window',
      at: 10_001,
      windowEndsAt: 10_000,
    });
  });

  it('Retry-After replaces the delay only when longer', () => {
    const base = { policy: noJitter, attemptsMade: 1, firstAttemptAt: 0, finishedAt: 0, unit: 0.5 };
    expect(nextAttemptAt({ ...base, retryAfterMs: 60_000 })).toEqual({ kind: 'retry', at: 60_000 });
    expect(nextAttemptAt({ ...base, retryAfterMs: 1000 })).toEqual({ kind: 'retry', at: 5000 });
  });

  it('parses Retry-After seconds and HTTP dates', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
