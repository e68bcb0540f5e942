import type { RetryPolicy } from '../contract/destinations.js';

/**
 * A deterministic unit-interval value for (seed, delivery, attempt): jitter is reproducible from the seed,
 * and survives a restart without storing random state (docs/behaviour.md §4: jitter from a seedable random source).
 */
export function jitterUnit(seed: number, deliveryId: number, attemptNumber: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const n of [deliveryId, attemptNumber]) {
    h = Math.imul(h ^ (n >>> 0), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h / 0x1_0000_0000;
}

/** Delay before retry number `retry` (1 = the first retry), jitter applied. */
export function retryDelay(policy: RetryPolicy, retry: number, unit: number): number {
  const base = policy.schedule[Math.min(retry, policy.schedule.length) - 1] ?? 0;
  return Math.round(base * (1 + policy.jitter * (2 * unit - 1)));
}

export type NextAttempt =
  | { kind: 'retry'; at: number }
  | { kind: 'exhausted'; reason: 'max_attempts' }
  /** The next attempt would have fallen due at `at`, after the window's end. */
  | { kind: 'exhausted'; reason: 'window'; at: number; windowEndsAt: number };

/**
 * When the next attempt falls due, or why there is none. A retry is scheduled only when it falls due at or
 * before firstAttemptAt + windowMs; Retry-After replaces the computed delay when it is longer.
 */
export function nextAttemptAt(args: {
  policy: RetryPolicy;
  /** Attempts (rounds) made so far, counting the one just finished. */
  attemptsMade: number;
  firstAttemptAt: number;
  finishedAt: number;
  retryAfterMs: number | null;
  unit: number;
}): NextAttempt {
  const { policy, attemptsMade } = args;
  if (policy.maxAttempts !== undefined && attemptsMade >= policy.maxAttempts) {
    return { kind: 'exhausted', reason: 'max_attempts' };
  }
  let delay = retryDelay(policy, attemptsMade, args.unit);
  if (args.retryAfterMs !== null && args.retryAfterMs > delay) delay = args.retryAfterMs;
  const at = args.finishedAt + delay;
  const windowEndsAt = args.firstAttemptAt + policy.windowMs;
  if (at > windowEndsAt) return { kind: 'exhausted', reason: 'window', at, windowEndsAt };
  return { kind: 'retry', at };
}

/**
 * Retry-After as milliseconds: delay-seconds or an HTTP date (relative to `realNow`, the server's clock
 * being real time). Null when absent or unparseable.
 */
export function parseRetryAfter(value: string | undefined | null, realNow: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - realNow);
}
