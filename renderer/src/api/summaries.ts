/** A list row (MessageSummary) from a full message record, as sendMessage and replayMessage return. */
import { deliveryFields, deliverySummary } from '../../../main/contract/messageSummary';
import type { DeliveryRecord, MessageRecord, MessageSummary } from '../../../main/contract/models';

const encoder = new TextEncoder();

export function summarize(m: MessageRecord, deliveries: DeliveryRecord[] = []): MessageSummary {
  const anonymousId = typeof m.call['anonymousId'] === 'string' ? m.call['anonymousId'] : null;
  return {
    id: m.id,
    messageId: m.messageId,
    type: m.type,
    sourceId: m.sourceId,
    userId: m.userId,
    anonymousId,
    event: m.event,
    status: m.status,
    statusReason: m.statusReason,
    receivedAt: m.receivedAt,
    replayOf: m.replayOf,
    bytes: encoder.encode(m.body).length,
    // Their attempts are not in a sendMessage answer: the next messageUpdated brings the last outcome.
    ...deliveryFields(deliveries.map((d) => deliverySummary(d))),
  };
}
