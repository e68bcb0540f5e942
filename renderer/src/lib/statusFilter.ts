/**
 * The Status filter of Live and History: a message's own status, or "any delivery failed" (one status per
 * message hides a destination that refused it while another retries). One select, one value: `delivery:failed`
 * stands for the delivery filter.
 */
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../main/contract/deliveries';
import { MESSAGE_STATUSES, type MessageStatus } from '../../../main/contract/messages';

const DELIVERY_PREFIX = 'delivery:';

export type StatusChoice = { status?: MessageStatus; delivery?: DeliveryStatus };

/** The select's value for a filter (`''` for none). */
export function statusChoiceValue(choice: StatusChoice): string {
  if (choice.delivery) return `${DELIVERY_PREFIX}${choice.delivery}`;
  return choice.status ?? '';
}

/** A select value back as the filter it stands for; null when it is not one of ours. */
export function parseStatusChoice(value: string): StatusChoice | null {
  if (value === '') return {};
  if (value.startsWith(DELIVERY_PREFIX)) {
    const d = value.slice(DELIVERY_PREFIX.length);
    return (DELIVERY_STATUSES as readonly string[]).includes(d) ? { delivery: d as DeliveryStatus } : null;
  }
  return (MESSAGE_STATUSES as readonly string[]).includes(value) ? { status: value as MessageStatus } : null;
}

/** The options: any, each message status, then any delivery failed (and another delivery status a link asked for). */
export function statusChoiceOptions(anyLabel: string, current?: StatusChoice): { value: string; label: string }[] {
  const options = [{ value: '', label: anyLabel }, ...MESSAGE_STATUSES.map((s) => ({ value: s, label: s })), { value: `${DELIVERY_PREFIX}failed`, label: 'any delivery failed' }];
  if (current?.delivery && current.delivery !== 'failed') options.push({ value: `${DELIVERY_PREFIX}${current.delivery}`, label: `any delivery ${current.delivery}` });
  return options;
}
