/** A list row (MessageSummary) from a full message record, as sendMessage and replayMessage return. */
import type { DeliveryRecord, MessageRecord, MessageSummary } from '../../../main/contract/models';

const encoder = new TextEncoder();

export function summarize(m: MessageRecord, deliveries: DeliveryRecord[] = []): MessageSummary {
  const anonymousId = typeof m.call['anonymousId'] === 'string' ? m.call['anonymousId'] : null;
  const waiting = deliveries.map((d) => d.nextAttemptAt).filter((t): t is number => t !== null);
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
    attempts: Math.max(0, ...deliveries.map((d) => d.attempts)),
    nextAttemptAt: waiting.length ? Math.min(...waiting) : null,
    destinationIds: [...new Set(deliveries.map((d) => d.destinationId))],
  };
}
