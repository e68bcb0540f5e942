/**
 * Repositories over the SQLite schema. Every statement is prepared once, here.
 */
import type {
  AttemptRecord,
  DeliveryRecord,
  DeliveryStatus,
  Destination,
  MessageRecord,
  MessageStatus,
  Source,
} from '../contract/models.js';
import type { MessageType } from '../contract/messageShapes.js';
import { deriveMessageStatus } from '../core/deliveryDecision.js';
import { openDb, type Db } from './openDb.js';

export interface NewMessage {
  messageId: string;
  sourceId: string | null;
  type: MessageType;
  userId: string | null;
  anonymousId: string | null;
  event: string | null;
  receivedAt: number;
  body: Buffer;
  call: Record<string, unknown>;
  status: MessageStatus;
  statusReason: string | null;
  replayOf: number | null;
}

export interface NewDelivery {
  destinationId: string;
  destinationName: string;
  nextAttemptAt: number;
}

/** A delivery claimed for a round, with what the round needs. */
export interface ClaimedDelivery {
  id: number;
  messageId: number;
  destinationId: string;
  attempts: number;
  firstAttemptAt: number | null;
  pendingUrls: string[] | null;
  body: Buffer;
}

export type NewAttempt = Omit<AttemptRecord, 'id'>;

export interface RoundResult {
  deliveryId: number;
  messageId: number;
  attempts: NewAttempt[];
  status: DeliveryStatus;
  reason: string | null;
  attemptsMade: number;
  firstAttemptAt: number;
  nextAttemptAt: number | null;
  pendingUrls: string[] | null;
  updatedAt: number;
}

export interface StoredRound {
  round: RoundResult;
  attemptIds: number[];
  messageStatus: MessageStatus;
}

export interface MessageQuery {
  status?: MessageStatus | undefined;
  type?: MessageType | undefined;
  /** Matches userId, anonymousId, messageId or event (substring). */
  search?: string | undefined;
  /** Messages with id below this (the previous page's cursor). */
  beforeId?: number | undefined;
  limit: number;
}

interface MessageRow {
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

interface DeliveryRow {
  id: number;
  message_id: number;
  destination_id: string;
  destination_name: string;
  status: DeliveryStatus;
  reason: string | null;
  attempts: number;
  first_attempt_at: number | null;
  next_attempt_at: number | null;
  pending_urls: string | null;
  updated_at: number;
}

interface AttemptRow {
  id: number;
  delivery_id: number;
  message_id: number;
  attempt_number: number;
  webhook_index: number;
  url: string;
  outcome: AttemptRecord['outcome'];
  retryable: number;
  status_code: number | null;
  error: string | null;
  started_at: number;
  finished_at: number;
  duration_ms: number;
  request_headers: string;
  signature: string | null;
  response_headers: string | null;
  response_body: Buffer | null;
  response_truncated: number;
}

interface DestinationRow {
  id: string;
  name: string;
  enabled: number;
  config: string;
  created_at: number;
  updated_at: number;
  source_ids: string | null;
}

const WAITING = `('queued', 'retrying')`;

export class Store {
  readonly db: Db;
  private readonly s;

  constructor(file: string) {
    this.db = openDb(file);
    const db = this.db;
    this.s = {
      getSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      setSetting: db.prepare<[string, string]>(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      insertMessage: db.prepare(
        `INSERT INTO messages (message_id, source_id, type, user_id, anonymous_id, event, received_at, body, call, status, status_reason, replay_of)
         VALUES (@messageId, @sourceId, @type, @userId, @anonymousId, @event, @receivedAt, @body, @call, @status, @statusReason, @replayOf)`,
      ),
      insertDelivery: db.prepare(
        `INSERT INTO deliveries (message_id, destination_id, destination_name, status, next_attempt_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?)`,
      ),
      seenMessageId: db.prepare<[string, string | null, number], { id: number }>(
        `SELECT id FROM messages WHERE message_id = ? AND source_id IS ? AND received_at >= ? LIMIT 1`,
      ),
      claimDue: db.prepare<[{ now: number; limit: number }], ClaimRow>(
        `UPDATE deliveries SET status = 'delivering', updated_at = @now
         WHERE id IN (
           SELECT d.id FROM deliveries d JOIN destinations dest ON dest.id = d.destination_id AND dest.enabled = 1
           WHERE d.status IN ${WAITING} AND d.next_attempt_at <= @now
           ORDER BY d.next_attempt_at, d.id LIMIT @limit)
         RETURNING id, message_id, destination_id, attempts, first_attempt_at, pending_urls, next_attempt_at`,
      ),
      markDelivering: db.prepare<[string]>(
        `UPDATE messages SET status = 'delivering', status_reason = NULL WHERE id IN (SELECT value FROM json_each(?))`,
      ),
      bodyOf: db.prepare<[number], { body: Buffer }>('SELECT body FROM messages WHERE id = ?'),
      nextDue: db.prepare<[], { due: number | null }>(
        `SELECT min(d.next_attempt_at) AS due FROM deliveries d
         JOIN destinations dest ON dest.id = d.destination_id AND dest.enabled = 1
         WHERE d.status IN ${WAITING}`,
      ),
      finishRound: db.prepare(
        `UPDATE deliveries SET status = @status, reason = @reason, attempts = @attemptsMade, first_attempt_at = @firstAttemptAt,
           next_attempt_at = @nextAttemptAt, pending_urls = @pendingUrls, updated_at = @updatedAt
         WHERE id = @deliveryId`,
      ),
      deliveryStatus: db.prepare<[number], { status: DeliveryStatus }>('SELECT status FROM deliveries WHERE id = ?'),
      insertAttempt: db.prepare(
        `INSERT INTO attempts (delivery_id, message_id, attempt_number, webhook_index, url, outcome, retryable, status_code, error,
           started_at, finished_at, duration_ms, request_headers, signature, response_headers, response_body, response_truncated)
         VALUES (@deliveryId, @messageId, @attemptNumber, @webhookIndex, @url, @outcome, @retryable, @statusCode, @error,
           @startedAt, @finishedAt, @durationMs, @requestHeaders, @signature, @responseHeaders, @responseBody, @responseTruncated)`,
      ),
      deliveryStatusesOf: db.prepare<[number], { status: DeliveryStatus }>('SELECT status FROM deliveries WHERE message_id = ?').pluck(),
      setMessageStatus: db.prepare<[MessageStatus, string | null, number]>(
        'UPDATE messages SET status = ?, status_reason = ? WHERE id = ?',
      ),
      firstReasonOf: db.prepare<[number, DeliveryStatus], { reason: string | null }>(
        'SELECT reason FROM deliveries WHERE message_id = ? AND status = ? ORDER BY id LIMIT 1',
      ),
      resumeInterrupted: db.prepare<[{ now: number }]>(
        `UPDATE deliveries SET status = CASE WHEN attempts = 0 THEN 'queued' ELSE 'retrying' END,
           next_attempt_at = min(coalesce(next_attempt_at, @now), @now), updated_at = @now
         WHERE status = 'delivering'`,
      ),
      interruptedMessages: db.prepare<[], { message_id: number }>(
        `SELECT DISTINCT message_id FROM deliveries WHERE status = 'delivering'`,
      ),
      getMessage: db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?'),
      deliveriesOf: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE message_id = ? ORDER BY id'),
      getDelivery: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?'),
      attemptsOfMessage: db.prepare<[number], AttemptRow>('SELECT * FROM attempts WHERE message_id = ? ORDER BY id'),
      attemptsOfDelivery: db.prepare<[number], AttemptRow>('SELECT * FROM attempts WHERE delivery_id = ? ORDER BY id'),
      setDelivery: db.prepare(
        `UPDATE deliveries SET status = @status, reason = @reason, next_attempt_at = @nextAttemptAt,
           first_attempt_at = @firstAttemptAt, pending_urls = @pendingUrls, updated_at = @updatedAt WHERE id = @id`,
      ),
      waitingOfDestination: db.prepare<[string], { id: number; message_id: number }>(
        `SELECT id, message_id FROM deliveries WHERE destination_id = ? AND status IN ('queued', 'retrying', 'delivering')`,
      ),
      insertDestination: db.prepare(
        'INSERT INTO destinations (id, name, enabled, config, created_at, updated_at) VALUES (@id, @name, @enabled, @config, @createdAt, @updatedAt)',
      ),
      updateDestination: db.prepare(
        'UPDATE destinations SET name = @name, enabled = @enabled, config = @config, updated_at = @updatedAt WHERE id = @id',
      ),
      deleteDestination: db.prepare<[string]>('DELETE FROM destinations WHERE id = ?'),
      clearDestinationSources: db.prepare<[string]>('DELETE FROM destination_sources WHERE destination_id = ?'),
      addDestinationSource: db.prepare<[string, string]>('INSERT INTO destination_sources (destination_id, source_id) VALUES (?, ?)'),
      listDestinations: db.prepare<[], DestinationRow>(
        `SELECT d.*, (SELECT json_group_array(source_id) FROM destination_sources ds WHERE ds.destination_id = d.id) AS source_ids
         FROM destinations d ORDER BY d.name`,
      ),
      insertSource: db.prepare(
        'INSERT INTO sources (id, name, kind, write_key, created_at) VALUES (@id, @name, @kind, @writeKey, @createdAt)',
      ),
      listSources: db.prepare<[], { id: string; name: string; kind: Source['kind']; write_key: string; created_at: number }>(
        'SELECT * FROM sources ORDER BY name',
      ),
    };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- settings
  getSetting(key: string): string | null {
    return this.s.getSetting.get(key)?.value ?? null;
  }
  setSetting(key: string, value: string): void {
    this.s.setSetting.run(key, value);
  }

  // ---- messages
  /** Inserts a message and its deliveries; returns the message id. Call inside a transaction for batches. */
  insertMessage(message: NewMessage, deliveries: readonly NewDelivery[]): number {
    const info = this.s.insertMessage.run({ ...message, call: JSON.stringify(message.call) });
    const id = Number(info.lastInsertRowid);
    for (const d of deliveries) this.s.insertDelivery.run(id, d.destinationId, d.destinationName, d.nextAttemptAt, message.receivedAt);
    return id;
  }

  /** Was this (source, messageId) accepted at or after `since`? */
  seenMessageId(messageId: string, sourceId: string | null, since: number): boolean {
    return this.s.seenMessageId.get(messageId, sourceId, since) !== undefined;
  }

  getMessage(id: number): MessageRecord | null {
    const row = this.s.getMessage.get(id);
    return row ? toMessage(row) : null;
  }

  listMessages(q: MessageQuery): MessageRecord[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: q.limit };
    if (q.status) {
      where.push('status = @status');
      params['status'] = q.status;
    }
    if (q.type) {
      where.push('type = @type');
      params['type'] = q.type;
    }
    if (q.beforeId !== undefined) {
      where.push('id < @beforeId');
      params['beforeId'] = q.beforeId;
    }
    if (q.search) {
      where.push(
        `(user_id LIKE @search ESCAPE '\\' OR anonymous_id LIKE @search ESCAPE '\\' OR message_id LIKE @search ESCAPE '\\' OR event LIKE @search ESCAPE '\\')`,
      );
      params['search'] = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    }
    const sql = `SELECT * FROM messages ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
    return (this.db.prepare(sql).all(params) as MessageRow[]).map(toMessage);
  }

  // ---- deliveries
  /** Marks up to `limit` due deliveries `delivering` (their messages too) and returns them. */
  claimDue(now: number, limit: number): ClaimedDelivery[] {
    const rows = this.transaction(() => {
      const claimed = this.s.claimDue.all({ now, limit });
      if (claimed.length) this.s.markDelivering.run(JSON.stringify([...new Set(claimed.map((r) => r.message_id))]));
      return claimed;
    });
    return rows.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      destinationId: r.destination_id,
      attempts: r.attempts,
      firstAttemptAt: r.first_attempt_at,
      pendingUrls: r.pending_urls ? (JSON.parse(r.pending_urls) as string[]) : null,
      body: this.s.bodyOf.get(r.message_id)!.body,
    }));
  }

  nextDueAt(): number | null {
    return this.s.nextDue.get()?.due ?? null;
  }

  /** Deliveries left `delivering` by a crash go back to waiting, due now. Returns the affected message ids. */
  resumeInterrupted(now: number): number[] {
    return this.transaction(() => {
      const ids = this.s.interruptedMessages.all().map((r) => r.message_id);
      this.s.resumeInterrupted.run({ now });
      for (const id of ids) this.refreshMessageStatus(id);
      return ids;
    });
  }

  /**
   * Records rounds in one transaction. A delivery cancelled while its round was in flight stays cancelled
   * unless the round delivered it. Returns the rounds with the status actually stored.
   */
  recordRounds(rounds: readonly RoundResult[]): StoredRound[] {
    return this.transaction(() => {
      const messages = new Map<number, MessageStatus>();
      const stored: StoredRound[] = [];
      for (const round of rounds) {
        const attemptIds: number[] = [];
        for (const a of round.attempts) {
          const info = this.s.insertAttempt.run({
            ...a,
            retryable: a.retryable ? 1 : 0,
            requestHeaders: JSON.stringify(a.requestHeaders),
            responseHeaders: a.responseHeaders ? JSON.stringify(a.responseHeaders) : null,
            responseBody: a.responseBody === null ? null : Buffer.from(a.responseBody, 'utf8'),
            responseTruncated: a.responseTruncated ? 1 : 0,
          });
          attemptIds.push(Number(info.lastInsertRowid));
        }
        const current = this.s.deliveryStatus.get(round.deliveryId)?.status;
        let final = round;
        if (current === 'cancelled' && round.status !== 'delivered') {
          final = { ...round, status: 'cancelled', reason: null, nextAttemptAt: null };
          // keep the cancellation's own reason
          const row = this.s.getDelivery.get(round.deliveryId)!;
          final.reason = row.reason;
        }
        this.s.finishRound.run({
          deliveryId: final.deliveryId,
          status: final.status,
          reason: final.reason,
          attemptsMade: final.attemptsMade,
          firstAttemptAt: final.firstAttemptAt,
          nextAttemptAt: final.nextAttemptAt,
          pendingUrls: final.pendingUrls ? JSON.stringify(final.pendingUrls) : null,
          updatedAt: final.updatedAt,
        });
        messages.set(final.messageId, 'queued');
        stored.push({ round: final, attemptIds, messageStatus: 'queued' });
      }
      for (const id of messages.keys()) messages.set(id, this.refreshMessageStatus(id));
      for (const s of stored) s.messageStatus = messages.get(s.round.messageId)!;
      return stored;
    });
  }

  /** Recomputes a message's status from its deliveries; returns it. */
  refreshMessageStatus(messageId: number): MessageStatus {
    const statuses = this.s.deliveryStatusesOf.all(messageId) as unknown as DeliveryStatus[];
    const status = deriveMessageStatus(statuses);
    if (status === null) return 'filtered';
    const reason = status === 'failed' || status === 'cancelled' ? (this.s.firstReasonOf.get(messageId, status)?.reason ?? null) : null;
    this.s.setMessageStatus.run(status, reason, messageId);
    return status;
  }

  deliveriesOf(messageId: number): DeliveryRecord[] {
    return this.s.deliveriesOf.all(messageId).map(toDelivery);
  }

  getDelivery(id: number): DeliveryRecord | null {
    const row = this.s.getDelivery.get(id);
    return row ? toDelivery(row) : null;
  }

  setDelivery(d: {
    id: number;
    status: DeliveryStatus;
    reason: string | null;
    nextAttemptAt: number | null;
    firstAttemptAt: number | null;
    pendingUrls: string[] | null;
    updatedAt: number;
  }): void {
    this.s.setDelivery.run({ ...d, pendingUrls: d.pendingUrls ? JSON.stringify(d.pendingUrls) : null });
  }

  waitingDeliveriesOfDestination(destinationId: string): { id: number; messageId: number }[] {
    return this.s.waitingOfDestination.all(destinationId).map((r) => ({ id: r.id, messageId: r.message_id }));
  }

  attemptsOfMessage(messageId: number): AttemptRecord[] {
    return this.s.attemptsOfMessage.all(messageId).map(toAttempt);
  }

  attemptsOfDelivery(deliveryId: number): AttemptRecord[] {
    return this.s.attemptsOfDelivery.all(deliveryId).map(toAttempt);
  }

  // ---- destinations and sources
  listDestinations(): Destination[] {
    return this.s.listDestinations.all().map(toDestination);
  }

  saveDestination(d: Destination, isNew: boolean): void {
    const { id, name, enabled, sourceIds, createdAt, updatedAt, ...config } = d;
    this.transaction(() => {
      const row = { id, name, enabled: enabled ? 1 : 0, config: JSON.stringify(config), createdAt, updatedAt };
      if (isNew) this.s.insertDestination.run(row);
      else this.s.updateDestination.run(row);
      this.s.clearDestinationSources.run(id);
      for (const sourceId of sourceIds) this.s.addDestinationSource.run(id, sourceId);
    });
  }

  deleteDestination(id: string): void {
    this.s.deleteDestination.run(id);
  }

  listSources(): Source[] {
    return this.s.listSources.all().map((r) => ({ id: r.id, name: r.name, kind: r.kind, writeKey: r.write_key, createdAt: r.created_at }));
  }

  insertSource(source: Source): void {
    this.s.insertSource.run(source);
  }
}

interface ClaimRow {
  id: number;
  message_id: number;
  destination_id: string;
  attempts: number;
  first_attempt_at: number | null;
  pending_urls: string | null;
  next_attempt_at: number;
}

function toMessage(r: MessageRow): MessageRecord {
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
    body: r.body.toString('utf8'),
    call: JSON.parse(r.call) as Record<string, unknown>,
    replayOf: r.replay_of,
  };
}

function toDelivery(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    messageId: r.message_id,
    destinationId: r.destination_id,
    destinationName: r.destination_name,
    status: r.status,
    reason: r.reason,
    attempts: r.attempts,
    firstAttemptAt: r.first_attempt_at,
    nextAttemptAt: r.status === 'queued' || r.status === 'retrying' ? r.next_attempt_at : null,
    pendingUrls: r.pending_urls ? (JSON.parse(r.pending_urls) as string[]) : [],
    updatedAt: r.updated_at,
  };
}

function toAttempt(r: AttemptRow): AttemptRecord {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    messageId: r.message_id,
    attemptNumber: r.attempt_number,
    webhookIndex: r.webhook_index,
    url: r.url,
    outcome: r.outcome,
    retryable: r.retryable === 1,
    statusCode: r.status_code,
    error: r.error,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    durationMs: r.duration_ms,
    requestHeaders: JSON.parse(r.request_headers) as Record<string, string>,
    signature: r.signature,
    responseHeaders: r.response_headers ? (JSON.parse(r.response_headers) as Record<string, string>) : null,
    responseBody: r.response_body ? r.response_body.toString('utf8') : null,
    responseTruncated: r.response_truncated === 1,
  };
}

function toDestination(r: DestinationRow): Destination {
  const config = JSON.parse(r.config) as Omit<Destination, 'id' | 'name' | 'enabled' | 'sourceIds' | 'createdAt' | 'updatedAt'>;
  return {
    id: r.id,
    name: r.name,
    enabled: r.enabled === 1,
    sourceIds: r.source_ids ? (JSON.parse(r.source_ids) as string[]) : [],
    ...config,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
