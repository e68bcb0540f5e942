/**
 * Repositories over the SQLite schema. Every statement is prepared once, here.
 */
import type {
  AttemptRecord,
  DeletionRequest,
  DeliveryRecord,
  DeliveryStatus,
  Destination,
  IngestRefusal,
  SourceUsage,
  MessageRecord,
  MessageStatus,
  Source,
} from '../contract/models.js';
import type { MessageType } from '../contract/messageShapes.js';
import { deriveMessageStatus } from '../core/deliveryDecision.js';
import { DbHealth } from './integrity.js';
import { openDb, type Db } from './openDb.js';
import { decryptNullable, encryptNullable, plainSecrets, type SecretCodec } from './secretCodec.js';
import { parseStoredCall } from './storedJson.js';

export interface NewMessage {
  messageId: string;
  sourceId: string | null;
  type: MessageType;
  userId: string | null;
  anonymousId: string | null;
  event: string | null;
  receivedAt: number;
  body: Buffer;
  /** The call as received, JSON. */
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

/** A delivery claimed for a round, with what the round needs. */
export interface ClaimedDelivery {
  id: number;
  messageId: number;
  destinationId: string;
  attempts: number;
  firstAttemptAt: number | null;
  pendingUrls: string[] | null;
  body: Buffer;
  /** Deliveries of the same message, this one included. */
  siblings: number;
}

export type NewAttempt = Omit<AttemptRecord, 'id'>;

export interface RoundResult {
  deliveryId: number;
  messageId: number;
  attempts: NewAttempt[];
  status: DeliveryStatus;
  reason: string | null;
  attemptsMade: number;
  /** Null until a first attempt was made. */
  firstAttemptAt: number | null;
  nextAttemptAt: number | null;
  pendingUrls: string[] | null;
  updatedAt: number;
  /** Deliveries of the same message (1: its status is this delivery's). */
  siblings: number;
}

/** A refusal to log: the record without its id, the body preview as the raw bytes. */
export type NewIngestRefusal = Omit<IngestRefusal, 'id' | 'bodyPreview'> & { bodyPreview?: Buffer | null };

interface RefusalRow {
  id: number;
  received_at: number;
  source_id: string | null;
  route: string;
  client_ip: string | null;
  http_status: number;
  code: string;
  message: string;
  field: string | null;
  item_index: number | null;
  body_bytes: number | null;
  body_preview: Buffer | null;
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
const MESSAGE_COLUMNS = `m.*, p.body, p.call FROM messages m JOIN message_payloads p ON p.message_id = m.id`;

export class Store {
  readonly db: Db;
  /** Whether the file can still keep writes (deleted, replaced or damaged: see integrity.ts). */
  readonly health: DbHealth;
  private readonly s;

  /** How destinations' shared secrets are kept at rest (store/secretCodec). */
  private readonly secrets: SecretCodec;

  constructor(file: string, options: { secretCodec?: SecretCodec | undefined } = {}) {
    this.secrets = options.secretCodec ?? plainSecrets;
    this.db = openDb(file);
    this.health = new DbHealth(file);
    const db = this.db;
    this.s = {
      getSetting: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      setSetting: db.prepare<[string, string]>(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      insertMessage: db.prepare<[string, string | null, MessageType, string | null, string | null, string | null, number, MessageStatus, string | null, number | null]>(
        `INSERT INTO messages (message_id, source_id, type, user_id, anonymous_id, event, received_at, status, status_reason, replay_of)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertPayload: db.prepare<[number, Buffer, string]>('INSERT INTO message_payloads (message_id, body, call) VALUES (?, ?, ?)'),
      insertDelivery: db.prepare(
        `INSERT INTO deliveries (message_id, destination_id, destination_name, status, next_attempt_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?)`,
      ),
      seenMessageIds: db.prepare<[{ ids: string; sourceId: string | null; since: number }], { message_id: string }>(
        `SELECT DISTINCT message_id FROM messages
         WHERE message_id IN (SELECT value FROM json_each(@ids)) AND source_id IS @sourceId AND received_at >= @since`,
      ),
      dueDeliveries: db.prepare<[{ now: number; limit: number }], ClaimRow>(
        `SELECT d.id, d.message_id, d.destination_id, d.attempts, d.first_attempt_at, d.pending_urls, m.body,
           (SELECT count(*) FROM deliveries x WHERE x.message_id = d.message_id) AS siblings
         FROM deliveries d
         JOIN destinations dest ON dest.id = d.destination_id AND dest.enabled = 1
         JOIN message_payloads m ON m.message_id = d.message_id
         WHERE d.status IN ${WAITING} AND d.next_attempt_at <= @now
         ORDER BY d.next_attempt_at, d.id LIMIT @limit`,
      ),
      markClaimed: db.prepare<[{ now: number; ids: string }]>(
        `UPDATE deliveries SET status = 'delivering', updated_at = @now WHERE id IN (SELECT value FROM json_each(@ids))`,
      ),
      markDelivering: db.prepare<[string]>(
        `UPDATE messages SET status = 'delivering', status_reason = NULL WHERE id IN (SELECT value FROM json_each(?))`,
      ),
      nextDue: db.prepare<[], { due: number | null }>(
        `SELECT min(d.next_attempt_at) AS due FROM deliveries d
         JOIN destinations dest ON dest.id = d.destination_id AND dest.enabled = 1
         WHERE d.status IN ${WAITING}`,
      ),
      // Only a delivery still in flight takes its round's result; one cancelled meanwhile keeps its status.
      // Positional parameters on the hot path: binding an object by name costs more than the row.
      finishRound: db.prepare<[DeliveryStatus, string | null, number, number | null, number | null, string | null, number, number, 0 | 1]>(
        `UPDATE deliveries SET status = ?, reason = ?, attempts = ?, first_attempt_at = ?, next_attempt_at = ?, pending_urls = ?, updated_at = ?
         WHERE id = ? AND (status = 'delivering' OR ?)`,
      ),
      recordAttempts: db.prepare<[{ deliveryId: number; attemptsMade: number; updatedAt: number }]>(
        `UPDATE deliveries SET attempts = @attemptsMade, updated_at = @updatedAt WHERE id = @deliveryId`,
      ),
      deliveryReason: db.prepare<[number], { status: DeliveryStatus; reason: string | null }>('SELECT status, reason FROM deliveries WHERE id = ?'),
      insertAttempt: db.prepare<unknown[]>(
        `INSERT INTO attempts (delivery_id, message_id, attempt_number, webhook_index, url, outcome, retryable, status_code, error,
           started_at, finished_at, duration_ms, request_headers, signature, response_headers, response_body, response_truncated)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      getMessage: db.prepare<[number], MessageRow>(`SELECT ${MESSAGE_COLUMNS} WHERE m.id = ?`),
      deliveriesOf: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE message_id = ? ORDER BY id'),
      getDelivery: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?'),
      attemptsOfMessage: db.prepare<[number], AttemptRow>('SELECT * FROM attempts WHERE message_id = ? ORDER BY id'),
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
      countUsage: db.prepare(
        `INSERT INTO source_usage (source_id, received, accepted, refused, filtered) VALUES (@sourceId, @received, @accepted, @refused, @filtered)
         ON CONFLICT (source_id) DO UPDATE SET received = received + excluded.received, accepted = accepted + excluded.accepted,
           refused = refused + excluded.refused, filtered = filtered + excluded.filtered`,
      ),
      usageOf: db.prepare<[string], Omit<SourceUsage, 'sourceId' | 'name'>>('SELECT received, accepted, refused, filtered FROM source_usage WHERE source_id = ?'),
      logRefusal: db.prepare(
        `INSERT INTO ingest_log (received_at, source_id, route, client_ip, http_status, code, message, field, item_index, body_bytes, body_preview)
         VALUES (@receivedAt, @sourceId, @route, @clientIp, @httpStatus, @code, @message, @field, @index, @bodyBytes, @bodyPreview)`,
      ),
      listRefusals: db.prepare<[{ beforeId: number; limit: number }], RefusalRow>(
        'SELECT * FROM ingest_log WHERE id < @beforeId ORDER BY id DESC LIMIT @limit',
      ),
      sourcesThatSaw: db.prepare<[string], { source_id: string }>(
        `SELECT DISTINCT source_id FROM messages WHERE user_id = ? AND source_id IS NOT NULL AND type != 'delete'`,
      ),
      insertDeletionRequest: db.prepare(
        'INSERT INTO deletion_requests (user_id, created_at, source_ids, message_ids) VALUES (@userId, @createdAt, @sourceIds, @messageIds)',
      ),
      listDeletionRequests: db.prepare<[], { id: number; user_id: string; created_at: number; source_ids: string; message_ids: string }>(
        'SELECT * FROM deletion_requests ORDER BY id DESC',
      ),
      updateSource: db.prepare('UPDATE sources SET kind = @kind, write_key = @writeKey WHERE id = @id'),
      insertSource: db.prepare(
        'INSERT INTO sources (id, name, kind, write_key, created_at) VALUES (@id, @name, @kind, @writeKey, @createdAt)',
      ),
      listSources: db.prepare<[], { id: string; name: string; kind: Source['kind']; write_key: string; created_at: number }>(
        'SELECT * FROM sources ORDER BY name',
      ),
    };
  }

  /** Whether the transaction in progress is one `transaction()` opened; callbacks waiting for its commit. */
  private owning = false;
  private committed: (() => void)[] = [];

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Runs `fn` in a transaction; inside an open one it simply runs (no savepoint per nested call). */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    let result: T;
    this.owning = true;
    try {
      result = this.db.transaction(fn)();
    } catch (e) {
      this.committed = [];
      throw e;
    } finally {
      this.owning = false;
    }
    const callbacks = this.committed;
    this.committed = [];
    for (const callback of callbacks) callback();
    return result;
  }

  /**
   * Runs `fn` once the transaction this store opened has committed, never if it rolls back; outside one
   * (or inside one opened directly on the connection) at once.
   */
  afterCommit(fn: () => void): void {
    if (this.owning) this.committed.push(fn);
    else fn();
  }

  // ---- settings
  getSetting(key: string): string | null {
    return this.s.getSetting.get(key)?.value ?? null;
  }
  setSetting(key: string, value: string): void {
    this.s.setSetting.run(key, value);
  }

  // ---- messages
  /** Inserts messages with their deliveries in one transaction; returns their ids. */
  insertMessages(batch: readonly { message: NewMessage; deliveries: readonly NewDelivery[] }[]): { id: number; deliveryIds: number[] }[] {
    return this.transaction(() => batch.map((b) => this.insertMessage(b.message, b.deliveries)));
  }

  /** Inserts a message and its deliveries. Call inside a transaction for batches. */
  insertMessage(message: NewMessage, deliveries: readonly NewDelivery[]): { id: number; deliveryIds: number[] } {
    const m = message;
    const id = Number(
      this.s.insertMessage.run(m.messageId, m.sourceId, m.type, m.userId, m.anonymousId, m.event, m.receivedAt, m.status, m.statusReason, m.replayOf).lastInsertRowid,
    );
    this.s.insertPayload.run(id, m.body, m.callJson);
    const deliveryIds = deliveries.map((d) =>
      Number(this.s.insertDelivery.run(id, d.destinationId, d.destinationName, d.nextAttemptAt, message.receivedAt).lastInsertRowid),
    );
    return { id, deliveryIds };
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

  listMessages(q: MessageQuery): MessageRecord[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: q.limit };
    if (q.status) {
      where.push('m.status = @status');
      params['status'] = q.status;
    }
    if (q.type) {
      where.push('m.type = @type');
      params['type'] = q.type;
    }
    if (q.beforeId !== undefined) {
      where.push('m.id < @beforeId');
      params['beforeId'] = q.beforeId;
    }
    if (q.search) {
      where.push(
        `(m.user_id LIKE @search ESCAPE '\\' OR m.anonymous_id LIKE @search ESCAPE '\\' OR m.message_id LIKE @search ESCAPE '\\' OR m.event LIKE @search ESCAPE '\\')`,
      );
      params['search'] = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    }
    const sql = `SELECT ${MESSAGE_COLUMNS} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY m.id DESC LIMIT @limit`;
    return (this.db.prepare(sql).all(params) as MessageRow[]).map(toMessage);
  }

  // ---- deliveries
  /** Marks up to `limit` due deliveries `delivering` (their messages too) and returns them with their bodies. */
  claimDue(now: number, limit: number): ClaimedDelivery[] {
    return this.transaction(() => {
      const rows = this.s.dueDeliveries.all({ now, limit });
      if (rows.length === 0) return [];
      this.s.markClaimed.run({ now, ids: JSON.stringify(rows.map((r) => r.id)) });
      this.s.markDelivering.run(JSON.stringify([...new Set(rows.map((r) => r.message_id))]));
      return rows.map((r) => ({
        id: r.id,
        messageId: r.message_id,
        destinationId: r.destination_id,
        attempts: r.attempts,
        firstAttemptAt: r.first_attempt_at,
        pendingUrls: r.pending_urls ? (JSON.parse(r.pending_urls) as string[]) : null,
        body: r.body,
        siblings: r.siblings,
      }));
    });
  }

  /** Moves every waiting delivery's due time and window start `byMs` earlier (the clock was reset). */
  shiftWaiting(byMs: number): void {
    this.db
      .prepare(
        `UPDATE deliveries SET next_attempt_at = next_attempt_at - @byMs, first_attempt_at = first_attempt_at - @byMs
         WHERE status IN ${WAITING}`,
      )
      .run({ byMs });
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
      const refresh = new Set<number>();
      const stored: StoredRound[] = [];
      for (const round of rounds) {
        const attemptIds: number[] = [];
        for (const a of round.attempts) {
          const info = this.s.insertAttempt.run(
            a.deliveryId,
            a.messageId,
            a.attemptNumber,
            a.webhookIndex,
            a.url,
            a.outcome,
            a.retryable ? 1 : 0,
            a.statusCode,
            a.error,
            a.startedAt,
            a.finishedAt,
            a.durationMs,
            JSON.stringify(a.requestHeaders),
            a.signature,
            a.responseHeaders ? JSON.stringify(a.responseHeaders) : null,
            a.responseBody === null ? null : Buffer.from(a.responseBody, 'utf8'),
            a.responseTruncated ? 1 : 0,
          );
          attemptIds.push(Number(info.lastInsertRowid));
        }
        const changed = this.s.finishRound.run(
          round.status,
          round.reason,
          round.attemptsMade,
          round.firstAttemptAt,
          round.nextAttemptAt,
          round.pendingUrls ? JSON.stringify(round.pendingUrls) : null,
          round.updatedAt,
          round.deliveryId,
          // A success is recorded even over a cancellation made while it was in flight.
          round.status === 'delivered' ? 1 : 0,
        ).changes;
        let final = round;
        if (changed === 0) {
          // Cancelled while in flight: the attempts count, the cancellation stands.
          this.s.recordAttempts.run({ deliveryId: round.deliveryId, attemptsMade: round.attemptsMade, updatedAt: round.updatedAt });
          const now = this.s.deliveryReason.get(round.deliveryId);
          final = { ...round, status: now?.status ?? 'cancelled', reason: now?.reason ?? null, nextAttemptAt: null, pendingUrls: null };
        }
        let messageStatus: MessageStatus = final.status;
        if (round.siblings === 1) {
          // The common case: a message with one delivery has that delivery's status and reason.
          this.s.setMessageStatus.run(final.status, final.status === 'failed' || final.status === 'cancelled' ? final.reason : null, final.messageId);
        } else {
          refresh.add(final.messageId);
          messageStatus = 'queued'; // replaced below
        }
        stored.push({ round: final, attemptIds, messageStatus });
      }
      const statuses = new Map<number, MessageStatus>();
      for (const id of refresh) statuses.set(id, this.refreshMessageStatus(id));
      for (const s of stored) if (statuses.has(s.round.messageId)) s.messageStatus = statuses.get(s.round.messageId)!;
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

  // ---- destinations and sources
  listDestinations(): Destination[] {
    return this.s.listDestinations.all().map((r) => toDestination(r, this.secrets));
  }

  saveDestination(d: Destination, isNew: boolean): void {
    const { id, name, enabled, sourceIds, createdAt, updatedAt, ...config } = d;
    this.transaction(() => {
      const stored = { ...config, sharedSecret: encryptNullable(this.secrets, config.sharedSecret) };
      const row = { id, name, enabled: enabled ? 1 : 0, config: JSON.stringify(stored), createdAt, updatedAt };
      if (isNew) this.s.insertDestination.run(row);
      else this.s.updateDestination.run(row);
      this.s.clearDestinationSources.run(id);
      for (const sourceId of sourceIds) this.s.addDestinationSource.run(id, sourceId);
    });
  }

  /** Deletes a source; its connections, usage counters and audiences go with it (its messages stay). */
  deleteSource(id: string): void {
    this.db.prepare('DELETE FROM sources WHERE id = ?').run(id);
  }

  /** The retry backlog: deliveries waiting for a retry, those already due, and failures since `failedSince`. */
  deliveryBacklog(now: number, failedSince: number): { retrying: number; due: number; failedSince: number } {
    const waiting = this.db
      .prepare<[{ now: number }], { retrying: number | null; due: number | null }>(
        `SELECT sum(status = 'retrying') AS retrying, sum(next_attempt_at <= @now) AS due FROM deliveries WHERE status IN ${WAITING}`,
      )
      .get({ now });
    const failed = this.db
      .prepare<[number], { n: number }>(`SELECT count(*) AS n FROM deliveries WHERE status = 'failed' AND updated_at >= ?`)
      .get(failedSince);
    return { retrying: waiting?.retrying ?? 0, due: waiting?.due ?? 0, failedSince: failed?.n ?? 0 };
  }

  deleteDestination(id: string): void {
    this.s.deleteDestination.run(id);
  }

  countUsage(sourceId: string, u: { received?: number; accepted?: number; refused?: number; filtered?: number }): void {
    this.s.countUsage.run({ sourceId, received: u.received ?? 0, accepted: u.accepted ?? 0, refused: u.refused ?? 0, filtered: u.filtered ?? 0 });
  }

  usageOf(sourceId: string): Omit<SourceUsage, 'sourceId' | 'name'> {
    return this.s.usageOf.get(sourceId) ?? { received: 0, accepted: 0, refused: 0, filtered: 0 };
  }

  logRefusal(r: NewIngestRefusal): number {
    return Number(this.s.logRefusal.run({ ...r, bodyPreview: r.bodyPreview ?? null }).lastInsertRowid);
  }

  listRefusals(q: { beforeId?: number | undefined; limit: number }): IngestRefusal[] {
    return this.s.listRefusals.all({ beforeId: q.beforeId ?? Number.MAX_SAFE_INTEGER, limit: q.limit }).map((r) => ({
      id: r.id,
      receivedAt: r.received_at,
      sourceId: r.source_id,
      route: r.route,
      clientIp: r.client_ip,
      httpStatus: r.http_status,
      code: r.code,
      message: r.message,
      field: r.field,
      index: r.item_index,
      bodyBytes: r.body_bytes,
      bodyPreview: r.body_preview ? r.body_preview.toString('utf8') : null,
    }));
  }

  /** Sources that have received a message for this user. */
  sourcesThatSaw(userId: string): string[] {
    return this.s.sourcesThatSaw.all(userId).map((r) => r.source_id);
  }

  insertDeletionRequest(r: DeletionRequest): number {
    return Number(
      this.s.insertDeletionRequest.run({ userId: r.userId, createdAt: r.createdAt, sourceIds: JSON.stringify(r.sourceIds), messageIds: JSON.stringify(r.messageIds) })
        .lastInsertRowid,
    );
  }

  listDeletionRequests(): DeletionRequest[] {
    return this.s.listDeletionRequests.all().map((r) => ({
      id: r.id,
      userId: r.user_id,
      createdAt: r.created_at,
      sourceIds: JSON.parse(r.source_ids) as string[],
      messageIds: JSON.parse(r.message_ids) as number[],
    }));
  }

  listSources(): Source[] {
    return this.s.listSources.all().map((r) => ({ id: r.id, name: r.name, kind: r.kind, writeKey: r.write_key, createdAt: r.created_at }));
  }

  updateSource(source: Source): void {
    this.s.updateSource.run(source);
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
  body: Buffer;
  siblings: number;
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
    call: parseStoredCall(r.call),
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

function toDestination(r: DestinationRow, secrets: SecretCodec): Destination {
  const config = JSON.parse(r.config) as Omit<Destination, 'id' | 'name' | 'enabled' | 'sourceIds' | 'createdAt' | 'updatedAt'>;
  config.sharedSecret = decryptNullable(secrets, config.sharedSecret);
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
