/** A list row (MessageSummary) from a full message record, as commands such as replayMessage return. */
import type { MessageRecord } from '../../../main/contract/models';
import type { MessageSummary } from './planned';

const encoder = new TextEncoder();

export function summarize(m: MessageRecord): MessageSummary {
  const anonymousId = typeof m.call['anonymousId'] === 'string' ? m.call['anonymousId'] : null;
  return {
    id: m.id,
    messageId: m.messageId,
    type: m.type,
    sourceId: m.sourceId,
    userId: m.userId,
    anonymousId,
    event: m.event ?? (typeof m.call['name'] === 'string' ? m.call['name'] : null),
    status: m.status,
    statusReason: m.statusReason,
    receivedAt: m.receivedAt,
    replayOf: m.replayOf,
    bytes: encoder.encode(m.body).length,
    attempts: 0,
    nextAttemptAt: null,
    destinationIds: [],
  };
}
