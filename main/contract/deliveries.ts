/**
 * Deliveries and their attempts: the statuses and outcomes (names the store, API, UI and docs share), the
 * fixed reasons, and the records getMessage answers for each delivery and each attempt.
 */

/** docs/behaviour.md §3: these names are contracts (store, API, UI, docs). */
export const DELIVERY_STATUSES = ['queued', 'delivering', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ATTEMPT_OUTCOMES = ['success', 'timeout', 'http_error', 'network_error', 'tls_error'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Reasons with fixed wording (docs/behaviour.md §3); the per-status ones are built by `reasons` below. */
export const REASONS = {
  windowExhausted: 'retry window exhausted',
  cancelledByUser: 'cancelled by user',
  destinationDeleted: 'destination deleted',
  duplicateMessageId: 'duplicate messageId',
  /** A replay goes where its original went. */
  replayOfFiltered: 'the original was filtered: a replay goes only where its original went',
  replayDestinationsGone: 'no destination of the original message exists any more',
  selfSigned: 'tls: self-signed certificate',
} as const;

export const reasons = {
  permanentHttp: (status: number): string => `permanent: HTTP ${status}`,
  redirect: (status: number): string => `redirect not followed (${status})`,
  maxAttempts: (n: number): string => `max attempts reached (${n})`,
};

export interface DeliveryRecord {
  id: number;
  messageId: number;
  destinationId: string;
  destinationName: string;
  status: DeliveryStatus;
  reason: string | null;
  /** Rounds attempted so far (a round sends to every pending webhook at once). */
  attempts: number;
  firstAttemptAt: number | null;
  nextAttemptAt: number | null;
  /** Webhook URLs the next round will send to; empty: every webhook (a first round, or after retryNow on a failed one). */
  pendingUrls: string[];
  updatedAt: number;
  /**
   * Only on a delivery failed with `retry window exhausted`: when the attempt that did not come would have
   * fallen due, and the end of the window (first attempt + retry.windowMs) it fell past. Engine times.
   */
  pastWindow?: { dueAt: number; windowEndsAt: number };
}

export interface AttemptRecord {
  id: number;
  deliveryId: number;
  messageId: number;
  /** Round number, 1 for the first attempt. */
  attemptNumber: number;
  webhookIndex: number;
  url: string;
  outcome: AttemptOutcome;
  retryable: boolean;
  statusCode: number | null;
  /** Human-readable cause for anything but success (`timeout after 5000 ms`, `ECONNREFUSED`, ...). */
  error: string | null;
  /** Engine times, ms since the epoch. */
  startedAt: number;
  finishedAt: number;
  /** Real milliseconds from sending to response headers (or to the failure). */
  durationMs: number;
  requestHeaders: Record<string, string>;
  /** Lowercase hex X-Signature sent, when the destination has a secret. */
  signature: string | null;
  responseHeaders: Record<string, string> | null;
  /** The first 64 KiB of the response body (UTF-8, lossy). */
  responseBody: string | null;
  responseTruncated: boolean;
}

/**
 * An attempt ended early by **Fast-forward unanswered attempts** has outcome `timeout` and an `error` that
 * starts with this: `fast-forwarded after 1 s without response headers (...)` (docs/behaviour.md §5).
 */
export const FAST_FORWARDED = 'fast-forwarded';

export function isFastForwarded(attempt: Pick<AttemptRecord, 'outcome' | 'error'>): boolean {
  return attempt.outcome === 'timeout' && attempt.error !== null && attempt.error.startsWith(`${FAST_FORWARDED} `);
}
