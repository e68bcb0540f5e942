/**
 * Actions on many messages at once (History's selection): each message is one command, run one after the
 * other; the outcome is summed up with its counts (messages, and the deliveries retried or cancelled), naming
 * the first refusal (pure: unit-tested).
 */
import type { ApiError, Result } from '../../../../main/contract/result';
import { EXPORT_LIMIT, EXPORT_TEXT_BYTES } from '../../../../main/contract/apiLimits';
import { formatBytes, formatCount } from '../../lib/format';

/** What an export holds at most (its two bounds), in words. */
export const EXPORT_BOUNDS = `the newest ${formatCount(EXPORT_LIMIT)} at most, in ${formatBytes(EXPORT_TEXT_BYTES)} of text`;

/** What an export left out, by the bound that left it out (exportMessages' truncatedBy); empty when nothing was. */
export function exportLeftOut(truncatedBy: 'count' | 'size' | null): string {
  if (truncatedBy === 'size') return `More matched: only the newest that fit in ${formatBytes(EXPORT_TEXT_BYTES)} (what one import takes) are in it.`;
  if (truncatedBy === 'count') return `More matched: only the newest ${formatCount(EXPORT_LIMIT)} are in it.`;
  return '';
}

export const BULK_ACTIONS = {
  retry: { command: 'retryNow', done: 'Retried', verb: 'retried', deliveries: 'sent again now' },
  cancel: { command: 'cancelMessage', done: 'Cancelled', verb: 'cancelled', deliveries: 'will not be retried' },
  replay: { command: 'replayMessage', done: 'Replayed', verb: 'replayed', deliveries: 'on their way, as new messages' },
} as const;
export type BulkAction = keyof typeof BULK_ACTIONS;

export interface BulkSummary {
  tone: 'success' | 'error';
  title: string;
  message: string;
}

function deliveriesIn(value: unknown): number {
  const list = typeof value === 'object' && value !== null ? (value as { deliveries?: unknown }).deliveries : undefined;
  return Array.isArray(list) ? list.length : 0;
}

export function summariseBulk(action: BulkAction, results: readonly { id: number; result: Result<unknown> }[]): BulkSummary {
  const { done, verb, deliveries } = BULK_ACTIONS[action];
  const failed = results.filter((r): r is { id: number; result: { ok: false; error: ApiError } } => !r.result.ok);
  const ok = results.length - failed.length;
  const n = (k: number, one = 'message', many = 'messages') => `${formatCount(k)} ${k === 1 ? one : many}`;
  // retryNow and cancelMessage answer the deliveries they moved, replayMessage the new message's deliveries.
  const moved = results.reduce((sum, r) => sum + (r.result.ok ? deliveriesIn(r.result.value) : 0), 0);
  const what = ok ? `${n(moved, 'delivery', 'deliveries')} ${deliveries}.` : '';
  if (failed.length === 0) return { tone: 'success', title: `${done} ${n(ok)}`, message: what };
  const first = failed[0]!;
  return {
    tone: 'error',
    title: ok ? `${done} ${n(ok)}; ${formatCount(failed.length)} could not be ${verb}` : `${n(failed.length)} could not be ${verb}`,
    message: `${what ? `${what} ` : ''}message #${first.id}: ${first.result.error.message}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`,
  };
}
