/** A list row (MessageSummary) from a full message record and its deliveries, as sendMessage and replayMessage answer. */
import { deliverySummary, messageSummary } from '../../../main/contract/message/messageSummary';
import type { DeliveryRecord } from '../../../main/contract/deliveries';
import type { MessageRecord, MessageSummary } from '../../../main/contract/messages';

const encoder = new TextEncoder();

export function summarize(m: MessageRecord, deliveries: DeliveryRecord[] = []): MessageSummary {
  const anonymousId = typeof m.call['anonymousId'] === 'string' ? m.call['anonymousId'] : null;
  // A sendMessage answer's deliveries are new (no round yet, so no attempt): the next messageUpdated brings
  // the rounds, the attempts and the last outcome.
  return messageSummary(m, { anonymousId, bytes: encoder.encode(m.body).length }, deliveries.map((d) => deliverySummary({ ...d, webhookAttempts: 0 })));
}
