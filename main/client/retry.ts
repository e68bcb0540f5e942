/** When a failed batch is sent again: exponential backoff with jitter, and the server's `Retry-After`. */

/** A `Retry-After` longer than the backoff is honoured, up to this. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Delay before retry number `retry` (1-based): initialMs doubling, capped at maxMs, then ±25 % jitter. */
export function backoffDelay(retry: number, initialMs: number, maxMs: number, random: () => number): number {
  const base = Math.min(maxMs, initialMs * 2 ** (retry - 1));
  return Math.round(base * (0.75 + 0.5 * random()));
}

/** `Retry-After` in seconds or as an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
