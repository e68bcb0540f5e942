/**
 * Actions on many messages at once (History's selection): each message is one command, run one after the
 * other; the outcome is summed up in one sentence, naming the first refusal (pure: unit-tested).
 */
import type { ApiError, Result } from '../../../../main/contract/result';

export const BULK_ACTIONS = {
  retry: { command: 'retryNow', done: 'Retried', verb: 'retried' },
  cancel: { command: 'cancelMessage', done: 'Cancelled', verb: 'cancelled' },
  replay: { command: 'replayMessage', done: 'Replayed', verb: 'replayed' },
} as const;
export type BulkAction = keyof typeof BULK_ACTIONS;

export interface BulkSummary {
  tone: 'success' | 'error';
  title: string;
  message: string;
}

export function summariseBulk(action: BulkAction, results: readonly { id: number; result: Result<unknown> }[]): BulkSummary {
  const { done, verb } = BULK_ACTIONS[action];
  const failed = results.filter((r): r is { id: number; result: { ok: false; error: ApiError } } => !r.result.ok);
  const ok = results.length - failed.length;
  const n = (k: number) => `${k.toLocaleString()} ${k === 1 ? 'message' : 'messages'}`;
  if (failed.length === 0) return { tone: 'success', title: `${done} ${n(ok)}`, message: '' };
  const first = failed[0]!;
  return {
    tone: 'error',
    title: ok ? `${done} ${n(ok)}; ${failed.length.toLocaleString()} could not be ${verb}` : `${n(failed.length)} could not be ${verb}`,
    message: `message #${first.id}: ${first.result.error.message}${failed.length > 1 ? ` (and ${failed.length - 1} more)` : ''}`,
  };
}
