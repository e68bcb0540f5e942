/**
 * The one builder of a list row (MessageSummary) and of what it says about a message's deliveries
 * (`attempts`, `webhookAttempts`, `nextAttemptAt`, `destinationIds`, `deliveries`). The store's lists, intake's
 * `messageAccepted` and the renderer's rows for a message it just sent all build it here, so the three
 * never disagree.
 */
import type { DeliveryRecord, DeliveryStatus } from '../deliveries.js';
import type { DeliverySummary, MessageRecord, MessageSummary } from '../messages.js';
import type { SignatureVerdict } from '../receiver/receiver.js';

/** A message's own columns, as a MessageRecord has them (its body and call are not part of a row). */
export type MessageColumns = Omit<MessageRecord, 'body' | 'call'>;

/** What a row says beyond the message's columns: read from the call and the body, or from the captures. */
export interface SummaryExtras {
  anonymousId: string | null;
  /** The delivered body's size in bytes. */
  bytes: number;
  receiverVerdict?: SignatureVerdict | null | undefined;
}

export function messageSummary(m: MessageColumns, extras: SummaryExtras, deliveries: DeliverySummary[]): MessageSummary {
  return {
    id: m.id,
    messageId: m.messageId,
    type: m.type,
    sourceId: m.sourceId,
    userId: m.userId,
    anonymousId: extras.anonymousId,
    event: m.event,
    status: m.status,
    statusReason: m.statusReason,
    receivedAt: m.receivedAt,
    replayOf: m.replayOf,
    bytes: extras.bytes,
    ...deliveryFields(deliveries),
    ...(extras.receiverVerdict ? { receiverVerdict: extras.receiverVerdict } : {}),
    ...(m.origin ? { origin: m.origin } : {}),
  };
}

export type DeliveryFields = Pick<MessageSummary, 'attempts' | 'webhookAttempts' | 'nextAttemptAt' | 'destinationIds' | 'deliveries'>;

const WAITING: readonly DeliveryStatus[] = ['queued', 'retrying'];

export function deliveryFields(deliveries: DeliverySummary[]): DeliveryFields {
  let attempts = 0;
  let webhookAttempts = 0;
  let nextAttemptAt: number | null = null;
  const destinationIds: string[] = [];
  for (const d of deliveries) {
    attempts = Math.max(attempts, d.attempts);
    webhookAttempts += d.webhookAttempts;
    if (WAITING.includes(d.status) && d.nextAttemptAt !== null && (nextAttemptAt === null || d.nextAttemptAt < nextAttemptAt)) nextAttemptAt = d.nextAttemptAt;
    if (!destinationIds.includes(d.destinationId)) destinationIds.push(d.destinationId);
  }
  return { attempts, webhookAttempts, nextAttemptAt, destinationIds, deliveries };
}

/** A delivery's glance from its columns; `next` only counts while it waits. */
export function deliverySummary(d: Omit<DeliverySummary, 'nextAttemptAt' | 'lastOutcome' | 'lastStatusCode'> & Partial<Pick<DeliverySummary, 'nextAttemptAt' | 'lastOutcome' | 'lastStatusCode'>>): DeliverySummary {
  return {
    destinationId: d.destinationId,
    destinationName: d.destinationName,
    status: d.status,
    reason: d.reason,
    attempts: d.attempts,
    webhookAttempts: d.webhookAttempts,
    nextAttemptAt: WAITING.includes(d.status) ? (d.nextAttemptAt ?? null) : null,
    lastOutcome: d.lastOutcome ?? null,
    lastStatusCode: d.lastStatusCode ?? null,
  };
}

/**
 * The one builder of a DeliveryRecord (the store's rows and the engine's deliveryUpdated events): a next
 * attempt only counts while the delivery waits, and `pastWindow` is there only when known.
 */
export function deliveryRecord(d: Omit<DeliveryRecord, 'pastWindow'> & { pastWindow?: DeliveryRecord['pastWindow'] | null }): DeliveryRecord {
  const { pastWindow, ...rest } = d;
  return { ...rest, nextAttemptAt: WAITING.includes(d.status) ? d.nextAttemptAt : null, ...(pastWindow ? { pastWindow } : {}) };
}

/** Messages with at least one delivery in `status` (the status filter's "any delivery failed"). */
export function hasDelivery(message: Pick<MessageSummary, 'deliveries'>, status: DeliveryStatus): boolean {
  return message.deliveries.some((d) => d.status === status);
}
