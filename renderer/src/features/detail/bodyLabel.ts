/** What the message pane calls its body: by what happened to it, never "delivered" when it was not. */
import type { MessageDetail } from '../../../../main/contract/messages';

import { formatBytes } from '../../lib/format';

type Detail = Pick<MessageDetail, 'message' | 'deliveries' | 'attempts'>;

/** An attempt reached an endpoint with the body: it answered, or timed out waiting after the request went out. */
function someAttemptSent(detail: Detail): boolean {
  return detail.attempts.some((a) => a.statusCode !== null || a.outcome === 'timeout');
}

export function bodyLabel(detail: Detail): string {
  const { status } = detail.message;
  if (detail.deliveries.some((d) => d.status === 'delivered')) return 'Body delivered';
  const sent = someAttemptSent(detail);
  if (status === 'filtered') return 'Body not sent: filtered';
  if (status === 'cancelled') return sent ? 'Body sent, not delivered: cancelled' : 'Body not sent: cancelled';
  if (status === 'failed') return sent ? 'Body sent, not delivered: failed' : 'Body not delivered: failed';
  return sent ? 'Body sent, not delivered yet' : 'Body to deliver';
}

/**
 * The Size fact: the call against the 32 KiB limit (as received), and the body signed for the webhooks, said to
 * be sent only once an attempt sent it (not for a filtered message, nor one refused at every TLS handshake: the
 * body's own label says why it was not).
 */
export function sizeFact(detail: Detail, encode: (text: string) => Uint8Array = (t) => new TextEncoder().encode(t)): string {
  const sent = detail.deliveries.some((d) => d.status === 'delivered') || someAttemptSent(detail);
  const call = formatBytes(encode(JSON.stringify(detail.message.call)).length);
  const body = formatBytes(encode(detail.message.body).length);
  return `call ${call} of 32 KiB · body ${sent ? 'sent ' : ''}${body}`;
}
