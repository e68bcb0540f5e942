/** What the message pane calls its body: by what happened to it, never "delivered" when it was not. */
import type { MessageDetail } from '../../../../main/contract/messages';

export function bodyLabel(detail: Pick<MessageDetail, 'message' | 'deliveries' | 'attempts'>): string {
  const { status } = detail.message;
  if (detail.deliveries.some((d) => d.status === 'delivered')) return 'Body delivered';
  const sent = detail.attempts.some((a) => a.statusCode !== null || a.outcome === 'timeout');
  if (status === 'filtered') return 'Body not sent: filtered';
  if (status === 'cancelled') return sent ? 'Body sent, not delivered: cancelled' : 'Body not sent: cancelled';
  if (status === 'failed') return sent ? 'Body sent, not delivered: failed' : 'Body not delivered: failed';
  return sent ? 'Body sent, not delivered yet' : 'Body to deliver';
}
