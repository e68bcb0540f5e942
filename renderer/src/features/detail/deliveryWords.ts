/** What a delivery card says of its rounds and attempts. */
import type { DeliveryRecord } from '../../../../main/contract/deliveries';
import { plural } from '../../lib/format';

/**
 * The card's count. A round is one POST to each pending webhook, an attempt one of those POSTs: with one
 * webhook they are the same, so the card counts attempts; with several it counts both, or five `#1` rows
 * would sit under "1 attempt".
 */
export function deliveryCount(delivery: Pick<DeliveryRecord, 'status' | 'attempts'>, attempts: number, webhooks: number): string {
  const rounds = delivery.attempts;
  if (delivery.status === 'delivering') return webhooks > 1 ? `round ${rounds + 1} in flight` : `attempt ${rounds + 1} in flight`;
  if (webhooks <= 1) return plural(rounds, 'attempt');
  return `${plural(rounds, 'round')} · ${plural(attempts, 'attempt')}`;
}
