/**
 * Messages and their payloads (the exact body and the call as received): inserted with their deliveries in
 * the intake's transaction, read by id, and the few questions asked of them (dedupe, who saw a user).
 * Lists and counts are in messageQueries.ts. The insert is the hot path: positional binds.
 */
import type { MessageRecord, MessageStatus } from '../contract/models.js';
import type { MessageType } from '../contract/messageShapes.js';
import type { Db } from './openDb.js';
import { parseStoredCall } from './storedJson.js';

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
  /** The call as received: its JSON, or (ingestion) compact (store/storedJson.ts, compactCall). */
  callJson: string;
  status: MessageStatus;
  statusReason: string | null;
  replayOf: number | null;
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
}

export class MessageStore {
  private readonly s;
  private readonly bulk;

  constructor(
    db: Db,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {
    this.s = {
      seenMessageIds: db.prepare<[{ ids: string; sourceId: string | null; since: number }], { message_id: string }>(
        `SELECT DISTINCT message_id FROM messages
         WHERE message_id IN (SELECT value FROM json_each(@ids)) AND source_id IS @sourceId AND received_at >= @since`,
      ),
      getMessage: db.prepare<[number], MessageRow>(`SELECT ${MESSAGE_COLUMNS} WHERE m.id = ?`),
      maxMessageId: db.prepare<[], number | null>('SELECT max(id) FROM messages').pluck(),
      maxDeliveryId: db.prepare<[], number | null>('SELECT max(id) FROM deliveries').pluck(),
      // No index on user_id (migration 007): the history index's user facet up to its watermark, then the
      // messages past it, read in id order.
      sourcesThatSaw: db.prepare<[{ userId: string }], { source_id: string }>(
        `SELECT m.source_id FROM history_facets f CROSS JOIN messages m
         WHERE f.key = (SELECT key FROM history_keys WHERE facet = 'user:' || @userId)
           AND m.id = f.id AND m.source_id IS NOT NULL AND m.type != 'delete'
         UNION
         SELECT source_id FROM messages NOT INDEXED
         WHERE id > (SELECT covered FROM history_state WHERE id = 1)
           AND user_id = @userId AND source_id IS NOT NULL AND type != 'delete'`,
      ),
    };
    this.bulk = {
      messages: new BulkInsert(
        db,
        'INSERT INTO messages (id, message_id, source_id, type, user_id, anonymous_id, event, received_at, status, status_reason, replay_of)',
        '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      payloads: new BulkInsert(db, 'INSERT INTO message_payloads (message_id, body, call)', '(?, ?, ?)'),
      deliveries: new BulkInsert(
        db,
        'INSERT INTO deliveries (id, message_id, destination_id, destination_name, next_attempt_at, updated_at, status)',
        `(?, ?, ?, ?, ?, ?, 'queued')`,
      ),
    };
  }

  /**
   * Inserts messages with their deliveries in one transaction (or the one in progress); returns their ids. Rows
   * go in ROWS_PER_INSERT at a time, with their ids given here (the next after the largest, as SQLite would).
   */
  insertMessages(batch: readonly { message: NewMessage; deliveries: readonly NewDelivery[] }[]): { id: number; deliveryIds: number[] }[] {
    return this.transaction(() => {
      let id = (this.s.maxMessageId.get() ?? 0) + 1;
      let deliveryId = (this.s.maxDeliveryId.get() ?? 0) + 1;
      const messages: unknown[] = [];
      const payloads: unknown[] = [];
      const deliveries: unknown[] = [];
      const ids = batch.map(({ message: m, deliveries: ds }) => {
        const out = { id: id++, deliveryIds: [] as number[] };
        messages.push(out.id, m.messageId, m.sourceId, m.type, m.userId, m.anonymousId, m.event, m.receivedAt, m.status, m.statusReason, m.replayOf);
        payloads.push(out.id, m.body, m.callJson);
        for (const d of ds) {
          out.deliveryIds.push(deliveryId);
          deliveries.push(deliveryId++, out.id, d.destinationId, d.destinationName, d.nextAttemptAt, m.receivedAt);
        }
        return out;
      });
      this.bulk.messages.run(messages);
      this.bulk.payloads.run(payloads);
      this.bulk.deliveries.run(deliveries);
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
    return new Set(this.s.seenMessageIds.all({ ids: JSON.stringify(messageIds), sourceId, since }).map((r) => r.message_id));
  }
  getMessage(id: number): MessageRecord | null {
    const row = this.s.getMessage.get(id);
    return row ? toMessage(row) : null;
  }
  /** Sources that have received a message for this user. */
  sourcesThatSaw(userId: string): string[] {
    return this.s.sourcesThatSaw.all({ userId }).map((r) => r.source_id);
  }
}

/**
 * Rows per multi-row INSERT on the ingestion path. One statement for 25 rows costs less than 25 statements
 * (measured with bench/ingest.ts: ~1.7 µs of the ~12 µs of SQLite work a message); the rows left over go one
 * by one.
 */
const ROWS_PER_INSERT = 25;

class BulkInsert {
  private readonly many;
  private readonly one;
  private readonly columns: number;

  constructor(db: Db, head: string, row: string) {
    this.columns = row.split('?').length - 1;
    this.one = db.prepare(`${head} VALUES ${row}`);
    this.many = db.prepare(`${head} VALUES ${Array<string>(ROWS_PER_INSERT).fill(row).join(', ')}`);
  }

  /** `values`: every row's values, one row after the other. */
  run(values: readonly unknown[]): void {
    const width = this.columns;
    const step = ROWS_PER_INSERT * width;
    let at = 0;
    for (; at + step <= values.length; at += step) this.many.run(values.slice(at, at + step));
    for (; at < values.length; at += width) this.one.run(values.slice(at, at + width));
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
  };
}

function toMessage(r: MessageRow): MessageRecord {
  return { ...messageFields(r), body: r.body.toString('utf8'), call: parseStoredCall(r.call, r.body) };
}
