/**
 * Messages as the API answers them: the statuses and origins, the stored record and its detail, the list
 * row and its filter, pages, and deletion requests (the `delete` messages they create).
 */
import type { AttemptOutcome, AttemptRecord, DeliveryRecord, DeliveryStatus } from './deliveries.js';
import type { MessageType } from './message/messageShapes.js';
import type { ReceiverCheck, SignatureVerdict } from './receiver/receiver.js';

/** Like the delivery statuses, these names are contracts (store, API, UI, docs). */
export const MESSAGE_STATUSES = ['filtered', 'queued', 'delivering', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * Where a message came from when it is not the user's traffic: `check` for the messages a check run sends
 * through the engine. Lists, counters and troubleshooting leave them out unless asked (`origin: 'check'`).
 */
export const MESSAGE_ORIGINS = ['check'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];

/** Why a message has no source: a check run's own messages are not the user's sends. */
export function noSourceReason(origin: MessageOrigin | undefined): string {
  return origin === 'check' ? 'sent by a check run: the Check screen or hookbench check' : 'sent directly from Compose, the API or the CLI';
}

/** What a message without a source says in its Source fact (the UI's and `hookbench show`'s). */
export const noSourceText = (origin: MessageOrigin | undefined): string => `none (${noSourceReason(origin)})`;

export interface MessageRecord {
  /** Hookbench's own id (a replay that keeps `messageId` is still a new message). */
  id: number;
  messageId: string;
  type: MessageType;
  sourceId: string | null;
  userId: string | null;
  event: string | null;
  status: MessageStatus;
  /** Why it is filtered, failed or cancelled. */
  statusReason: string | null;
  /** Engine time of receipt, ms since the epoch. */
  receivedAt: number;
  /** The body as delivered: the exact bytes, as UTF-8 text. */
  body: string;
  /** The call as it was received (before shaping). */
  call: Record<string, unknown>;
  replayOf: number | null;
  /** `check` for a check run's own message; absent for the user's traffic. */
  origin?: MessageOrigin;
}

export interface MessageDetail {
  message: MessageRecord;
  deliveries: DeliveryRecord[];
  attempts: AttemptRecord[];
  /**
   * getMessage only, when attempts went to the mock receiver of this workbench: what the receiver made of
   * each request (its signature verdict) and the capture to open. Absent when there is none.
   */
  receiverChecks?: ReceiverCheck[];
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** listMessages' page. */
export interface MessagePage extends Page<MessageSummary> {
  /**
   * Present when the page stopped before `limit` items to answer quickly: a `text` filter searches the bodies
   * of messages the history index does not cover yet one by one, a bounded number a page. About `left` of
   * them are still to search below `nextCursor`; follow it (the page may even be empty).
   */
  searching?: { left: number };
}

/**
 * A message as lists show it: no body or call (those stay in SQLite and come with getMessage), plus what a
 * row needs from its deliveries.
 */
export interface MessageSummary {
  id: number;
  messageId: string;
  type: MessageType;
  sourceId: string | null;
  userId: string | null;
  anonymousId: string | null;
  event: string | null;
  status: MessageStatus;
  statusReason: string | null;
  receivedAt: number;
  replayOf: number | null;
  /** Size of the delivered body in bytes. */
  bytes: number;
  /** Rounds attempted so far: the most of any of its deliveries. */
  attempts: number;
  /**
   * Attempts made so far, all its deliveries together: one per POST to one webhook (docs/behaviour.md's
   * glossary), so a round to three webhooks counts 3. The same as `attempts` for one delivery to one webhook.
   */
  webhookAttempts: number;
  /** The earliest next attempt of its waiting deliveries (engine time), or null. */
  nextAttemptAt: number | null;
  destinationIds: string[];
  /**
   * The mock receiver's X-Signature verdict on this message: per delivery the newest checked request's,
   * the worst of those (`invalid`, then `missing`, then `valid`). Absent when no attempt went to an
   * endpoint that checks signatures.
   */
  receiverVerdict?: SignatureVerdict;
  /** `check` for a check run's own message; absent for the user's traffic. */
  origin?: MessageOrigin;
  /**
   * Each destination's delivery at a glance, in the order they were created: one message can be delivered
   * to one destination, refused on another and retrying on a third while its own status reads `retrying`.
   */
  deliveries: DeliverySummary[];
}

/** One delivery as a list row shows it (built by contract/message/messageSummary.ts, the one builder). */
export interface DeliverySummary {
  destinationId: string;
  destinationName: string;
  status: DeliveryStatus;
  /** Why it failed or was cancelled (docs/behaviour.md §3), else null. */
  reason: string | null;
  /** Rounds attempted so far (a round sends to every pending webhook at once), as DeliveryRecord.attempts. */
  attempts: number;
  /**
   * Attempts made so far: one per POST to one webhook, so `attempts` rounds to three webhooks count up to
   * 3 × `attempts`. More than `attempts` means a round went to several webhooks.
   */
  webhookAttempts: number;
  /** Engine time of its next attempt while it waits, else null. */
  nextAttemptAt: number | null;
  /** The outcome and HTTP status of its newest attempt (of a delivered one, its newest success); null before the first (and the status without a response). */
  lastOutcome: AttemptOutcome | null;
  lastStatusCode: number | null;
}

/**
 * A top-bar counter: how many messages it counted and the listMessages filter that lists exactly those
 * messages (taken at the same instant, so opening it shows that many rows).
 */
export interface MessageCounter {
  messages: number;
  filter: MessageFilter;
}

/** listMessages' filters (every one optional, all combined with AND). */
export interface MessageFilter {
  status?: MessageStatus | undefined;
  type?: MessageType | undefined;
  sourceId?: string | undefined;
  /** Messages with a delivery to this destination. */
  destinationId?: string | undefined;
  userId?: string | undefined;
  /** Track event (or page/screen name), exactly. */
  event?: string | undefined;
  /** A substring of the delivered body (case-insensitive for ASCII). */
  text?: string | undefined;
  /** Received at or after / before this engine time (ms since the epoch). */
  from?: number | undefined;
  to?: number | undefined;
  /** Messages with at least one delivery in this status (`failed`: any delivery failed, whatever the others did). */
  delivery?: DeliveryStatus | undefined;
  /** With `delivery`: that delivery reached its status at or after this engine time (ms since the epoch). */
  deliverySince?: number | undefined;
  /**
   * Messages with a delivery that failed at or after this real time (ms since the epoch). Real, not engine,
   * time: a clock jump's failures happened just now for the user, and Reset offset does not move them.
   */
  failedSince?: number | undefined;
  /** Only a check run's own messages (lists leave them out otherwise). */
  origin?: MessageOrigin | undefined;
}

/** A deletion request and the `delete` messages it created (one per affected source). */
export interface DeletionRequest {
  id: number;
  userId: string;
  createdAt: number;
  sourceIds: string[];
  messageIds: number[];
}
