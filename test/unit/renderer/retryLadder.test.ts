import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../../main/contract/destinations';
import { futureAttempts, ghostWords, retryAfterMs } from '../../../renderer/src/lib/retryLadder';

describe('ghost markers: the retries still to come', () => {
  const t0 = 1_000_000;

  it("starts at the engine's own next attempt and follows the schedule up to the 4 h window", () => {
    const ghosts = futureAttempts({ status: 'retrying', attempts: 1, firstAttemptAt: t0, nextAttemptAt: t0 + 5_100 }, DEFAULT_RETRY_POLICY);
    expect(ghosts[0]).toEqual({ attemptNumber: 2, at: t0 + 5_100, exact: true, spreadMs: 0 });
    // Attempt 3 is retry 2: 30 s after attempt 2; attempt 4 is 2 min after that.
    expect(ghosts[1]).toMatchObject({ attemptNumber: 3, at: t0 + 5_100 + 30_000, exact: false, spreadMs: 6_000 });
    expect(ghosts[2]).toMatchObject({ attemptNumber: 4, at: t0 + 5_100 + 30_000 + 120_000 });
    for (const g of ghosts) expect(g.at).toBeLessThanOrEqual(t0 + DEFAULT_RETRY_POLICY.windowMs);
    // 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then 2 h: attempt 8 would fall at ~3 h 43 min, attempt 9 past 4 h.
    expect(ghosts.map((g) => g.attemptNumber)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it('stops at maxAttempts and shows nothing for a finished delivery', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 };
    expect(futureAttempts({ status: 'retrying', attempts: 1, firstAttemptAt: t0, nextAttemptAt: t0 + 5_000 }, policy).map((g) => g.attemptNumber)).toEqual([2, 3]);
    expect(futureAttempts({ status: 'delivered', attempts: 2, firstAttemptAt: t0, nextAttemptAt: null }, policy)).toEqual([]);
  });

  it("follows the endpoint's Retry-After when it is longer than the schedule's delay", () => {
    const wait = retryAfterMs({ 'Retry-After': '120' });
    expect(wait).toBe(120_000);
    const ghosts = futureAttempts({ status: 'retrying', attempts: 1, firstAttemptAt: t0, nextAttemptAt: t0 + 120_000 }, DEFAULT_RETRY_POLICY, wait);
    expect(ghosts[1]).toMatchObject({ attemptNumber: 3, at: t0 + 240_000, spreadMs: 0 });
    // Past 2 min the schedule's own delays are longer again.
    expect(ghosts[3]!.at - ghosts[2]!.at).toBe(600_000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' })).toBeNull();
  });

  it('an overdue attempt (forwarding paused while the clock moved on) is played from now: the retries after it count from then', () => {
    const now = t0 + 3_600_000;
    const ghosts = futureAttempts({ status: 'retrying', attempts: 1, firstAttemptAt: t0, nextAttemptAt: t0 + 5_000 }, DEFAULT_RETRY_POLICY, null, now);
    // The engine's own time for the next one stays as it is ("due now").
    expect(ghosts[0]).toEqual({ attemptNumber: 2, at: t0 + 5_000, exact: true, spreadMs: 0 });
    expect(ghosts[1]).toMatchObject({ attemptNumber: 3, at: now + 30_000 });
    expect(ghosts[2]).toMatchObject({ attemptNumber: 4, at: now + 30_000 + 120_000 });
    // Not yet due, it is as before.
    expect(futureAttempts({ status: 'retrying', attempts: 1, firstAttemptAt: t0, nextAttemptAt: t0 + 5_000 }, DEFAULT_RETRY_POLICY, null, t0)[1]).toMatchObject({ at: t0 + 35_000 });
  });
});

describe('a ghost marker in words', () => {
  it('calls a delivery\'s first due attempt the first attempt, not a retry; later ones retries', () => {
    expect(ghostWords({ attemptNumber: 1, exact: true })).toEqual({ label: 'first attempt', target: 'the first attempt' });
    expect(ghostWords({ attemptNumber: 3, exact: true })).toEqual({ label: 'next retry', target: 'this retry' });
    expect(ghostWords({ attemptNumber: 4, exact: false })).toEqual({ label: 'if it fails again', target: 'attempt #4 (if the retries before it fail too)' });
  });
});
