/**
 * Messages and their payloads (the exact body and the call as received): inserted with their deliveries in
 * the intake's transaction, read by id, and the few questions asked of them (dedupe, who saw a user).
 * Lists and counts are in messageQueries.ts. The insert is the hot path: positional binds.
 */
import type { MessageOrigin, MessageRecord, MessageStatus } from '../contract/messages.js';
import type { MessageType } from '../contract/message/messageShapes.js';
import type { StoredBatch } from './historyTail.js';
import type { Db } from './openDb.js';
import { parseStoredCall } from './storedJson.js';
import { BulkInsert } from './bulkStatements.js';

const MESSAGE_COLUMNS = `m.*, p.body, p.call FROM messages m JOIN message_payloads p ON p.message_id = m.id`;

export interface NewMessage {
  messageId: string;
  sourceId: string | null;
  type: MessageType;
  userId: string | null;
  anonymousId: string | null;
  event: string | null;
  receivedAt: number;
  body: Buffer;
  /** The call as received: compact when it shares values with its body (store/storedJson.ts, compactCall), its JSON otherwise. */
  callJson: string;
  status: MessageStatus;
  statusReason: string | null;
  replayOf: number | null;
  /** `check` for a check run's own message; absent (null) for the user's traffic. */
  origin?: MessageOrigin | null;
}

export interface NewDelivery {
  destinationId: string;
  destinationName: string;
  nextAttemptAt: number;
}

export interface MessageRow {
  id: number;
  message_id: string;
  source_id: string | null;
  type: MessageType;
  user_id: string | null;
  anonymous_id: string | null;
  event: string | null;
  received_at: number;
  body: Buffer;
  call: string;
  status: MessageStatus;
  status_reason: string | null;
  replay_of: number | null;
  origin: MessageOrigin | null;
}

export class MessageStore {
  private readonly statements;
  private readonly bulk;

  constructor(
    db: Db,
    private readonly transaction: <T>(fn: () => T) => T,
    /** Told of every insert, with the first id given (the history tail, historyTail.ts, learns from it). */
    private readonly onStored: (first: number, batch: readonly StoredBatch[]) => void = () => {},
  ) {
    this.statements = {
      // json_each drives the join (CROSS JOIN keeps that order): one probe of the dedupe index an id, and no
      // temporary table, which `IN (SELECT …)` and DISTINCT each built.
      seenMessageIds: db
        .prepare<[{ ids: string; sourceId: string | null; since: number }], string>(
          `SELECT m.message_id FROM json_each(@ids) j CROSS JOIN messages m ON m.message_id = j.value
           WHERE m.source_id IS @sourceId AND m.received_at >= @since`,
        )
        .pluck(),
      getMessage: db.prepare<[number], MessageRow>(`SELECT ${MESSAGE_COLUMNS} WHERE m.id = ?`),
      storedBetween: db
        .prepare<[number, number], [number, string, string | null, string | null, string | null, number]>(
          'SELECT id, type, source_id, user_id, event, received_at FROM messages WHERE id > ? AND id <= ? ORDER BY id',
        )
        .raw(),
      deliveriesBetween: db
        .prepare<[number, number], [number, string]>('SELECT message_id, destination_id FROM deliveries WHERE message_id > ? AND message_id <= ? ORDER BY message_id')
        .raw(),
      maxMessageId: db.prepare<[], number | null>('SELECT max(id) FROM messages').pluck(),
      maxDeliveryId: db.prepare<[], number | null>('SELECT max(id) FROM deliveries').pluck(),
    };
    // Per row only what differs from row to row; what a whole request shares (its source, its time) is bound
    // once per statement (see BulkInsert).
    this.bulk = {
      messages: new BulkInsert(
        db,
        'INSERT INTO messages (id, message_id, type, user_id, anonymous_id, event, status, status_reason, source_id, received_at, replay_of, origin)',
        '(?, ?, ?, ?, ?, ?, ?, ?, @sourceId, @receivedAt, @replayOf, @origin)',
        ['sourceId', 'receivedAt', 'replayOf', 'origin'],
      ),
      payloads: new BulkInsert(db, 'INSERT INTO message_payloads (message_id, body, call)', '(?, ?, ?)'),
      deliveries: new BulkInsert(
        db,
        'INSERT INTO deliveries (id, message_id, destination_id, destination_name, next_attempt_at, updated_at, status)',
        `(?, ?, ?, ?, @nextAttemptAt, @updatedAt, 'queued')`,
        ['nextAttemptAt', 'updatedAt'],
      ),
    };
  }

  /**
   * The filter values of the messages with ids in (after, upTo], in id order, in runs of consecutive ids:
   * what the history tail is told of messages stored before this process started.
   */
  storedBetween(after: number, upTo: number): { first: number; batch: StoredBatch[] }[] {
    const messages = this.statements.storedBetween.all(after, upTo);
    const deliveries = this.statements.deliveriesBetween.all(after, upTo);
    const runs: { first: number; batch: StoredBatch[] }[] = [];
    let run: { first: number; batch: StoredBatch[] } | null = null;
    let d = 0;
    for (const [id, type, sourceId, userId, event, receivedAt] of messages) {
      if (!run || id !== run.first + run.batch.length) runs.push((run = { first: id, batch: [] }));
      while (d < deliveries.length && deliveries[d]![0] < id) d++;
      const destinations: { destinationId: string }[] = [];
      while (d < deliveries.length && deliveries[d]![0] === id) destinations.push({ destinationId: deliveries[d++]![1] });
      run.batch.push({ message: { type, sourceId, userId, event, receivedAt }, deliveries: destinations });
    }
    return runs;
  }

  /**
   * Inserts messages with their deliveries in one transaction (or the one in progress); returns their ids. Rows
   * go in ROWS_PER_INSERT at a time, with their ids given here (the next after the largest, as SQLite would).
   */
  insertMessages(batch: readonly { message: NewMessage; deliveries: readonly NewDelivery[] }[]): { id: number; deliveryIds: number[] }[] {
    return this.transaction(() => {
      let id = (this.statements.maxMessageId.get() ?? 0) + 1;
      const first = id;
      let deliveryId = (this.statements.maxDeliveryId.get() ?? 0) + 1;
      const messages = this.bulk.messages.rows();
      const payloads = this.bulk.payloads.rows();
      const deliveries = this.bulk.deliveries.rows();
      const ids = batch.map(({ message: m, deliveries: ds }) => {
        const out = { id: id++, deliveryIds: [] as number[] };
        messages.share(m.sourceId, m.receivedAt, m.replayOf, m.origin ?? null);
        messages.values.push(out.id, m.messageId, m.type, m.userId, m.anonymousId, m.event, m.status, m.statusReason);
        payloads.values.push(out.id, m.body, m.callJson);
        for (const d of ds) {
          out.deliveryIds.push(deliveryId);
          deliveries.share(d.nextAttemptAt, m.receivedAt);
          deliveries.values.push(deliveryId++, out.id, d.destinationId, d.destinationName);
        }
        return out;
      });
      messages.flush();
      payloads.flush();
      deliveries.flush();
      this.onStored(first, batch);
      return ids;
    });
  }
  /** Inserts a message and its deliveries (insertMessages with one). */
  insertMessage(message: NewMessage, deliveries: readonly NewDelivery[]): { id: number; deliveryIds: number[] } {
    return this.insertMessages([{ message, deliveries }])[0]!;
  }
  /** Which of these messageIds did this source send at or after `since`? */
  seenMessageIds(messageIds: readonly string[], sourceId: string | null, since: number): Set<string> {
    if (messageIds.length === 0) return new Set();
    return new Set(this.statements.seenMessageIds.all({ ids: JSON.stringify(messageIds), sourceId, since }));
  }
  getMessage(id: number): MessageRecord | null {
    const row = this.statements.getMessage.get(id);
    return row ? toMessage(row) : null;
  }
}

/** The columns every view of a message row shares (messageQueries.ts builds summaries from them too). */
export function messageFields(r: Omit<MessageRow, 'body' | 'call'>): Omit<MessageRecord, 'body' | 'call'> {
  return {
    id: r.id,
    messageId: r.message_id,
    type: r.type,
    sourceId: r.source_id,
    userId: r.user_id,
    event: r.event,
    status: r.status,
    statusReason: r.status_reason,
    receivedAt: r.received_at,
    replayOf: r.replay_of,
    ...(r.origin ? { origin: r.origin } : {}),
  };
}

function toMessage(r: MessageRow): MessageRecord {
  return { ...messageFields(r), body: r.body.toString('utf8'), call: parseStoredCall(r.call, r.body) };
}
