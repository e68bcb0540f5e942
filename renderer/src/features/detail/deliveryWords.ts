/** What a delivery card says of its rounds and attempts, and of webhooks left failed beside a success. */
import type { AttemptRecord, DeliveryRecord } from '../../../../main/contract/deliveries';
import { listWords, triesWords } from '../../../../main/contract/message/deliveryWords';

/**
 * The card's count. A round is one POST to each pending webhook, an attempt one of those POSTs: with one
 * webhook they are the same, so the card counts attempts; with several it counts both, or five `#1` rows
 * would sit under "1 attempt".
 */
export function deliveryCount(delivery: Pick<DeliveryRecord, 'status' | 'attempts'>, attempts: number, webhooks: number): string {
  const rounds = delivery.attempts;
  if (delivery.status === 'delivering') return webhooks > 1 ? `round ${rounds + 1} in flight` : `attempt ${rounds + 1} in flight`;
  // Before its first round there is nothing to count apart: '0 attempts', as with one webhook and in the list.
  return triesWords(rounds, attempts, webhooks > 1 && rounds > 0);
}

function webhookList(indexes: number[]): string {
  return `${indexes.length === 1 ? 'webhook' : 'webhooks'} ${listWords(indexes.map((i) => String(i + 1)))}`;
}

/**
 * A delivered delivery whose other webhooks failed: why its badge is green over red rows, and that those
 * webhooks are not retried. Null when every webhook that was tried succeeded.
 */
export function deliveredDespite(delivery: Pick<DeliveryRecord, 'status'>, attempts: Pick<AttemptRecord, 'webhookIndex' | 'attemptNumber' | 'outcome'>[]): string | null {
  if (delivery.status !== 'delivered') return null;
  const last = new Map<number, Pick<AttemptRecord, 'attemptNumber' | 'outcome'>>();
  for (const a of attempts) {
    const seen = last.get(a.webhookIndex);
    if (!seen || a.attemptNumber > seen.attemptNumber) last.set(a.webhookIndex, a);
  }
  const byIndex = [...last.entries()].sort(([a], [b]) => a - b);
  const ok = byIndex.filter(([, a]) => a.outcome === 'success').map(([i]) => i);
  const failed = byIndex.filter(([, a]) => a.outcome !== 'success').map(([i]) => i);
  if (ok.length === 0 || failed.length === 0) return null;
  return `Delivered: ${webhookList(ok)} answered 2xx, and one success delivers the message, so ${webhookList(failed)} ${failed.length === 1 ? 'is' : 'are'} not retried.`;
}

/**
 * Webhooks a waiting delivery leaves out of its next round because their last attempt failed for good (a
 * 410, a TLS refusal): their timelines simply stop, beside others with ghost markers. Null when none is left
 * out, or the delivery is not waiting for a round.
 */
export function notRetried(
  delivery: Pick<DeliveryRecord, 'status'>,
  webhooks: { index: number; pending: boolean; last: Pick<AttemptRecord, 'outcome' | 'retryable' | 'statusCode'> | undefined }[],
): string | null {
  if (delivery.status !== 'queued' && delivery.status !== 'retrying' && delivery.status !== 'delivering') return null;
  const dropped = webhooks.filter((w) => !w.pending && w.last !== undefined && w.last.outcome !== 'success' && !w.last.retryable);
  if (dropped.length === 0) return null;
  const what = dropped.map((w) => (w.last!.statusCode !== null ? `HTTP ${w.last!.statusCode}` : w.last!.outcome === 'tls_error' ? 'TLS refused' : w.last!.outcome.replace('_', ' ')));
  return `Not retried: ${webhookList(dropped.map((w) => w.index))} failed for good (${what.join(', ')}); only webhooks that failed retryably get the next round.`;
}
