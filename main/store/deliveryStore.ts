/**
 * Deliveries and their attempts: claiming due rounds, recording their results, the retry backlog and the
 * user's changes (retry, cancel). A message's status is derived from its deliveries here
 * (docs/behaviour.md §3). claimDue and recordRounds are the scheduler's hot path: positional binds.
 */
import type { AttemptRecord, DeliveryRecord, DeliveryStatus } from '../contract/deliveries.js';
import type { MessageStatus } from '../contract/messages.js';
import { toAttempt, toDelivery, type AttemptRow, type DeliveryRow } from './deliveryRows.js';
import { deriveMessageStatus } from '../domain/deliveryDecision.js';
import type { Db } from './openDb.js';
import { BulkInsert, BulkUpdate } from './bulkStatements.js';

const WAITING = `('queued', 'retrying')`;

/** A delivery claimed for a round, with what the round needs. */
export interface ClaimedDelivery {
  id: number;
  messageId: number;
  destinationId: string;
  attempts: number;
  firstAttemptAt: number | null;
  pendingUrls: string[] | null;
  /**
   * The message's body as text: its exact bytes decoded as UTF-8, which they always are (built by
   * Buffer.from of the body's JSON). Text crosses to the forwarder's thread for less than a Buffer.
   */
  body: string;
  /** Deliveries of the same message, this one included. */
  siblings: number;
  /** When the round fell due (engine time): a clock jump plays it at that time. */
  dueAt: number;
}

/**
 * An attempt as the scheduler records it: its headers as the JSON text an attempt row stores, which the
 * forwarder's thread writes (webhookRequests.ts, SendResult).
 */
export type NewAttempt = Omit<AttemptRecord, 'id' | 'requestHeaders' | 'responseHeaders'> & { requestHeaders: string; responseHeaders: string | null };

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
  /** A failure for `retry window exhausted`: the due time of the attempt that did not come, and the window's end. */
  pastWindow?: { dueAt: number; windowEndsAt: number } | undefined;
  /** Deliveries of the same message (1: its status is this delivery's). */
  siblings: number;
}

export interface StoredRound {
  round: RoundResult;
  attemptIds: number[];
  messageStatus: MessageStatus;
}

interface ClaimRow {
  id: number;
  message_id: number;
  destination_id: string;
  attempts: number;
  first_attempt_at: number | null;
  pending_urls: string | null;
  body: string;
  siblings: number;
  next_attempt_at: number;
}

export class DeliveryStore {
  private readonly statements;
  private readonly bulk;

  constructor(
    db: Db,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {
    this.statements = {
      dueDeliveries: db.prepare<[{ dueBy: number; limit: number }], ClaimRow>(
        `SELECT d.id, d.message_id, d.destination_id, d.attempts, d.first_attempt_at, d.pending_urls, CAST(m.body AS TEXT) AS body, d.next_attempt_at,
           (SELECT count(*) FROM deliveries x WHERE x.message_id = d.message_id) AS siblings
         FROM deliveries d
         JOIN destinations dest ON dest.id = d.destination_id AND dest.enabled = 1
         JOIN message_payloads m ON m.message_id = d.message_id
         WHERE d.status IN ${WAITING} AND d.next_attempt_at <= @dueBy
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
      recordAttempts: db.prepare<[{ deliveryId: number; attemptsMade: number; updatedAt: number }]>(
        `UPDATE deliveries SET attempts = @attemptsMade, updated_at = @updatedAt WHERE id = @deliveryId`,
      ),
      deliveryReason: db.prepare<[number], { status: DeliveryStatus; reason: string | null }>('SELECT status, reason FROM deliveries WHERE id = ?'),
      maxAttemptId: db.prepare<[], number | null>('SELECT max(id) FROM attempts').pluck(),
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
      deliveriesOf: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE message_id = ? ORDER BY id'),
      getDelivery: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?'),
      attemptsOfMessage: db.prepare<[number], AttemptRow>('SELECT * FROM attempts WHERE message_id = ? ORDER BY id'),
      recentAttempts: db.prepare<[number], AttemptRow & { destination_id: string }>(
        `SELECT a.*, d.destination_id FROM attempts a JOIN deliveries d ON d.id = a.delivery_id JOIN messages m ON m.id = a.message_id
         WHERE m.origin IS NULL ORDER BY a.id DESC LIMIT ?`,
      ),
      // A destination's newest deliveries by the destination index (rowid order), then their attempts: bounded
      // however many deliveries it has.
      recentAttemptsOfDestination: db.prepare<[string, number, number], AttemptRow & { destination_id: string }>(
        `SELECT a.*, d.destination_id FROM (SELECT id, destination_id FROM deliveries WHERE destination_id = ? ORDER BY id DESC LIMIT ?) d
         JOIN attempts a ON a.delivery_id = d.id JOIN messages m ON m.id = a.message_id
         WHERE m.origin IS NULL ORDER BY a.id DESC LIMIT ?`,
      ),
      setDelivery: db.prepare(
        `UPDATE deliveries SET status = @status, reason = @reason, next_attempt_at = @nextAttemptAt,
           first_attempt_at = @firstAttemptAt, pending_urls = @pendingUrls, updated_at = @updatedAt WHERE id = @id`,
      ),
      shiftWaiting: db.prepare<[{ byMs: number }]>(
        `UPDATE deliveries SET next_attempt_at = next_attempt_at - @byMs, first_attempt_at = first_attempt_at - @byMs
         WHERE status IN ${WAITING}`,
      ),
      backlog: db.prepare<[{ now: number }], { retrying: number | null; due: number | null }>(
        `SELECT sum(status = 'retrying') AS retrying, sum(next_attempt_at <= @now) AS due FROM deliveries WHERE status IN ${WAITING}`,
      ),
      dueAhead: db.prepare<[{ dueBy: number; limit: number }], { id: number; destination_id: string; attempts: number; next_attempt_at: number }>(
        `SELECT d.id, d.destination_id, d.attempts, d.next_attempt_at FROM deliveries d
         JOIN destinations dest ON dest.id = d.destination_id AND dest.enabled = 1
         WHERE d.status IN ${WAITING} AND d.next_attempt_at <= @dueBy
         ORDER BY d.next_attempt_at, d.id LIMIT @limit`,
      ),
      countDueBy: db.prepare<[number], number>(`SELECT count(*) FROM deliveries INDEXED BY deliveries_due WHERE status IN ${WAITING} AND next_attempt_at <= ?`).pluck(),
      waitingByDestination: db.prepare<[], { destination_id: string; due: number; attempts: number; first: number | null }>(
        `SELECT destination_id, min(next_attempt_at) AS due, min(attempts) AS attempts, min(first_attempt_at) AS first
         FROM deliveries WHERE status IN ${WAITING} GROUP BY destination_id`,
      ),
      // By the real time they failed; a check run's own deliveries (refused forgeries among them) are not the user's failures.
      failedSince: db.prepare<[number], { n: number }>(
        `SELECT count(*) AS n FROM deliveries d INDEXED BY deliveries_failed_real WHERE d.status = 'failed' AND d.failed_real_at >= ?
         AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = d.message_id AND m.origin IS NOT NULL)`,
      ),
      waitingOfDestination: db.prepare<[string], { id: number; message_id: number }>(
        `SELECT id, message_id FROM deliveries WHERE destination_id = ? AND status IN ('queued', 'retrying', 'delivering')`,
      ),
    };
    this.bulk = {
      attempts: new BulkInsert(
        db,
        `INSERT INTO attempts (id, delivery_id, message_id, attempt_number, webhook_index, url, outcome, retryable, status_code, error,
           started_at, finished_at, duration_ms, request_headers, signature, response_headers, response_body, response_truncated)`,
        '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      // Only a delivery still in flight takes its round's result; one cancelled meanwhile keeps its status
      // (v.column11: unless the round delivered it). A failed delivery's next_attempt_at keeps the due time
      // that fell past its window (window_ends_at).
      finishRounds: new BulkUpdate(
        db,
        'deliveries',
        11,
        `status = v.column2, reason = v.column3, attempts = v.column4, first_attempt_at = v.column5, next_attempt_at = v.column6,
         pending_urls = v.column7, updated_at = v.column8, window_ends_at = v.column9, failed_real_at = v.column10`,
        `deliveries.id = v.column1 AND (deliveries.status = 'delivering' OR v.column11)`,
      ),
      messageStatuses: new BulkUpdate(db, 'messages', 3, 'status = v.column2, status_reason = v.column3', 'messages.id = v.column1'),
    };
  }

  /**
   * Marks up to `limit` deliveries due by `dueBy` (default `now`; a clock jump claims ahead of now)
   * `delivering` (their messages too) and returns them with their bodies, earliest due first.
   */
  claimDue(now: number, limit: number, dueBy: number = now): ClaimedDelivery[] {
    return this.transaction(() => {
      const rows = this.statements.dueDeliveries.all({ dueBy, limit });
      if (rows.length === 0) return [];
      this.statements.markClaimed.run({ now, ids: JSON.stringify(rows.map((r) => r.id)) });
      this.statements.markDelivering.run(JSON.stringify([...new Set(rows.map((r) => r.message_id))]));
      return rows.map((r) => ({
        id: r.id,
        messageId: r.message_id,
        destinationId: r.destination_id,
        attempts: r.attempts,
        firstAttemptAt: r.first_attempt_at,
        pendingUrls: r.pending_urls ? (JSON.parse(r.pending_urls) as string[]) : null,
        body: r.body,
        siblings: r.siblings,
        dueAt: r.next_attempt_at,
      }));
    });
  }
  /** Moves every waiting delivery's due time and window start `byMs` earlier (the clock was reset). */
  shiftWaiting(byMs: number): void {
    this.statements.shiftWaiting.run({ byMs });
  }
  /** What claimDue(now, limit, dueBy) would claim, without claiming it nor reading bodies (a clock jump's look ahead). */
  dueAhead(dueBy: number, limit: number): { id: number; destinationId: string; attempts: number; dueAt: number }[] {
    return this.statements.dueAhead.all({ dueBy, limit }).map((r) => ({ id: r.id, destinationId: r.destination_id, attempts: r.attempts, dueAt: r.next_attempt_at }));
  }
  /**
   * Per destination with waiting deliveries: the earliest due time, the fewest rounds made and the earliest
   * window start among them (a clock jump's estimate of its rounds).
   */
  waitingByDestination(): { destinationId: string; dueAt: number; attempts: number; firstAttemptAt: number | null }[] {
    return this.statements.waitingByDestination.all().map((r) => ({ destinationId: r.destination_id, dueAt: r.due, attempts: r.attempts, firstAttemptAt: r.first }));
  }
  /** Waiting deliveries due at or before `dueBy` (engine time): what a jump to it will play. */
  countDueBy(dueBy: number): number {
    return this.statements.countDueBy.get(dueBy)!;
  }
  nextDueAt(): number | null {
    return this.statements.nextDue.get()?.due ?? null;
  }
  /** Deliveries left `delivering` by a crash go back to waiting, due now. Returns the affected message ids. */
  resumeInterrupted(now: number): number[] {
    return this.transaction(() => {
      const ids = this.statements.interruptedMessages.all().map((r) => r.message_id);
      this.statements.resumeInterrupted.run({ now });
      for (const id of ids) this.refreshMessageStatus(id);
      return ids;
    });
  }
  /**
   * Records rounds in one transaction. A delivery cancelled while its round was in flight stays cancelled
   * unless the round delivered it. Returns the rounds with the status actually stored. `realNow`: the real
   * time they are recorded at, which a failure keeps (the overview counts failures by it).
   * Each kind of row is written many rows a statement (bulkStatements.ts): the attempts, then the deliveries,
   * then the messages whose status is their one delivery's.
   */
  recordRounds(rounds: readonly RoundResult[], realNow: number): StoredRound[] {
    return this.transaction(() => {
      // Attempt ids are given here, the next after the largest, as SQLite would.
      let attemptId = (this.statements.maxAttemptId.get() ?? 0) + 1;
      const attempts = this.bulk.attempts.rows();
      const deliveries: unknown[] = [];
      const attemptIds: number[][] = [];
      for (const round of rounds) {
        const ids: number[] = [];
        for (const a of round.attempts) {
          ids.push(attemptId);
          attempts.values.push(
            attemptId++,
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
            a.requestHeaders,
            a.signature,
            a.responseHeaders,
            a.responseBody === null ? null : Buffer.from(a.responseBody, 'utf8'),
            a.responseTruncated ? 1 : 0,
          );
        }
        attemptIds.push(ids);
        deliveries.push(
          round.deliveryId,
          round.status,
          round.reason,
          round.attemptsMade,
          round.firstAttemptAt,
          round.nextAttemptAt ?? round.pastWindow?.dueAt ?? null,
          round.pendingUrls ? JSON.stringify(round.pendingUrls) : null,
          round.updatedAt,
          round.pastWindow?.windowEndsAt ?? null,
          round.status === 'failed' ? realNow : null,
          // A success is recorded even over a cancellation made while it was in flight.
          round.status === 'delivered' ? 1 : 0,
        );
      }
      attempts.flush();
      const changed = this.bulk.finishRounds.run(deliveries);
      const finishedAll = changed.length === rounds.length;
      const finished = finishedAll ? null : new Set(changed);
      const refresh = new Set<number>();
      const messages: unknown[] = [];
      const stored: StoredRound[] = rounds.map((round, i) => {
        let final = round;
        if (finished && !finished.has(round.deliveryId)) {
          // Cancelled while in flight: the attempts count, the cancellation stands.
          this.statements.recordAttempts.run({ deliveryId: round.deliveryId, attemptsMade: round.attemptsMade, updatedAt: round.updatedAt });
          const now = this.statements.deliveryReason.get(round.deliveryId);
          final = { ...round, status: now?.status ?? 'cancelled', reason: now?.reason ?? null, nextAttemptAt: null, pendingUrls: null, pastWindow: undefined };
        }
        let messageStatus: MessageStatus = final.status;
        if (round.siblings === 1) {
          // The common case: a message with one delivery has that delivery's status and reason.
          messages.push(final.messageId, final.status, final.status === 'failed' || final.status === 'cancelled' ? final.reason : null);
        } else {
          refresh.add(final.messageId);
          messageStatus = 'queued'; // replaced below
        }
        return { round: final, attemptIds: attemptIds[i]!, messageStatus };
      });
      this.bulk.messageStatuses.run(messages);
      const statuses = new Map<number, MessageStatus>();
      for (const id of refresh) statuses.set(id, this.refreshMessageStatus(id));
      for (const s of stored) if (statuses.has(s.round.messageId)) s.messageStatus = statuses.get(s.round.messageId)!;
      return stored;
    });
  }
  /** Recomputes a message's status from its deliveries; returns it. */
  refreshMessageStatus(messageId: number): MessageStatus {
    const statuses = this.statements.deliveryStatusesOf.all(messageId) as unknown as DeliveryStatus[];
    const status = deriveMessageStatus(statuses);
    if (status === null) return 'filtered';
    const reason = status === 'failed' || status === 'cancelled' ? (this.statements.firstReasonOf.get(messageId, status)?.reason ?? null) : null;
    this.statements.setMessageStatus.run(status, reason, messageId);
    return status;
  }
  deliveriesOf(messageId: number): DeliveryRecord[] {
    return this.statements.deliveriesOf.all(messageId).map(toDelivery);
  }
  getDelivery(id: number): DeliveryRecord | null {
    const row = this.statements.getDelivery.get(id);
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
    this.statements.setDelivery.run({ ...d, pendingUrls: d.pendingUrls ? JSON.stringify(d.pendingUrls) : null });
  }
  waitingDeliveriesOfDestination(destinationId: string): { id: number; messageId: number }[] {
    return this.statements.waitingOfDestination.all(destinationId).map((r) => ({ id: r.id, messageId: r.message_id }));
  }
  attemptsOfMessage(messageId: number): AttemptRecord[] {
    return this.statements.attemptsOfMessage.all(messageId).map(toAttempt);
  }
  /** The user's newest `limit` attempts (a check run's are its own), newest first, with their delivery's destination (the troubleshooting checklist). */
  recentAttempts(limit: number): (AttemptRecord & { destinationId: string })[] {
    return this.statements.recentAttempts.all(limit).map((r) => ({ ...toAttempt(r), destinationId: r.destination_id }));
  }
  /** The newest attempts (at most `limit`) of one destination's newest `limit` deliveries, newest first, as recentAttempts gives them. */
  recentAttemptsOfDestination(destinationId: string, limit: number): (AttemptRecord & { destinationId: string })[] {
    return this.statements.recentAttemptsOfDestination.all(destinationId, limit, limit).map((r) => ({ ...toAttempt(r), destinationId: r.destination_id }));
  }
  /** The retry backlog: deliveries waiting for a retry, those already due (engine time), and failures since `failedSinceReal` (real time). */
  deliveryBacklog(now: number, failedSinceReal: number): { retrying: number; due: number; failedSince: number } {
    const waiting = this.statements.backlog.get({ now });
    const failed = this.statements.failedSince.get(failedSinceReal);
    return { retrying: waiting?.retrying ?? 0, due: waiting?.due ?? 0, failedSince: failed?.n ?? 0 };
  }
}

