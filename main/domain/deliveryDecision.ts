import { REASONS, reasons, type DeliveryStatus } from '../contract/deliveries.js';
import type { RetryPolicy } from '../contract/destinations.js';
import type { MessageStatus } from '../contract/messages.js';
import { nextAttemptAt } from './retryPolicy.js';

export interface WebhookResult {
  url: string;
  outcome: 'success' | 'timeout' | 'http_error' | 'network_error' | 'tls_error';
  retryable: boolean;
  permanentReason: string | null;
  retryAfterMs: number | null;
}

export type Decision =
  | { status: 'delivered'; reason: null }
  /** `pastWindow`: the due time of the attempt that did not come, and the window's end it fell past. */
  | { status: 'failed'; reason: string; pastWindow?: { dueAt: number; windowEndsAt: number } }
  | { status: 'retrying'; reason: null; nextAttemptAt: number; pendingUrls: string[] };

/**
 * docs/behaviour.md §3, one round of a delivery: any webhook succeeding delivers it and nothing is retried;
 * otherwise the retryable webhooks are retried on the schedule, while the window allows.
 */
export function decideAfterRound(args: {
  results: readonly WebhookResult[];
  policy: RetryPolicy;
  attemptsMade: number;
  firstAttemptAt: number;
  finishedAt: number;
  unit: number;
}): Decision {
  const { results } = args;
  if (results.some((r) => r.outcome === 'success')) return { status: 'delivered', reason: null };
  const retryable = results.filter((r) => r.retryable);
  if (retryable.length === 0) {
    const permanent = [...new Set(results.map((r) => r.permanentReason ?? 'failed'))];
    return { status: 'failed', reason: permanent.join('; ') };
  }
  const retryAfters = retryable.map((r) => r.retryAfterMs).filter((v): v is number => v !== null);
  const next = nextAttemptAt({
    policy: args.policy,
    attemptsMade: args.attemptsMade,
    firstAttemptAt: args.firstAttemptAt,
    finishedAt: args.finishedAt,
    retryAfterMs: retryAfters.length ? Math.max(...retryAfters) : null,
    unit: args.unit,
  });
  if (next.kind === 'exhausted') {
    if (next.reason === 'window') return { status: 'failed', reason: REASONS.windowExhausted, pastWindow: { dueAt: next.at, windowEndsAt: next.windowEndsAt } };
    return { status: 'failed', reason: reasons.maxAttempts(args.attemptsMade) };
  }
  return { status: 'retrying', reason: null, nextAttemptAt: next.at, pendingUrls: retryable.map((r) => r.url) };
}

/**
 * A message's status from its deliveries (docs/behaviour.md §3). With every delivery finished and none failed,
 * a mix of delivered and cancelled reads as delivered: what was sent, arrived.
 */
export function deriveMessageStatus(statuses: readonly DeliveryStatus[]): Exclude<MessageStatus, 'filtered'> | null {
  if (statuses.length === 0) return null;
  const has = (s: DeliveryStatus) => statuses.includes(s);
  if (has('delivering')) return 'delivering';
  if (has('retrying')) return 'retrying';
  if (has('queued')) return 'queued';
  if (has('failed')) return 'failed';
  if (statuses.every((s) => s === 'cancelled')) return 'cancelled';
  return 'delivered';
}
