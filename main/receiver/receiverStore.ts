/**
 * The mock receiver's tables (migration 003): endpoints and captured requests. Every statement is
 * prepared once, here, on the same database the core uses.
 */
import { isUtf8 } from 'node:buffer';
import type { CaptureAttempt, CaptureRecord, CaptureStep, ResponseScript, SignatureCheck, SignatureVerdict } from '../contract/receiver/receiver.js';
import type { Db } from '../store/openDb.js';
import { decryptNullable, encryptNullable, plainSecrets, type SecretCodec } from '../store/secretCodec.js';

export interface StoredReceiver {
  name: string;
  secret: string | null;
  refuseInvalidSignatures: boolean;
  script: ResponseScript;
  answered: number;
  createdAt: number;
  updatedAt: number;
}

/** A capture as the service builds it; `headers` and the body's base64/text are derived on the way out. */
export type NewCapture = Omit<CaptureRecord, 'id' | 'headers' | 'body'> & { body: Buffer };

export interface CaptureQuery {
  receiver?: string | undefined;
  messageId?: string | undefined;
  /** Captures with id below this (the previous page's cursor). */
  beforeId?: number | undefined;
  limit: number;
}

interface ReceiverRow {
  name: string;
  secret: string | null;
  refuse_invalid_signatures: number;
  script: string;
  answered: number;
  created_at: number;
  updated_at: number;
}

interface CaptureRow {
  id: number;
  receiver: string | null;
  matched: number;
  listener: 'http' | 'https';
  method: string;
  path: string;
  raw_headers: string;
  body: Buffer;
  body_size: number;
  body_truncated: number;
  arrived_at: number;
  remote_address: string | null;
  step: string;
  signature_verdict: SignatureVerdict | null;
  signature: string | null;
  message_id: string | null;
  attempt_message: number | null;
  attempt_delivery: number | null;
  attempt_number: number | null;
  attempt_webhook: number | null;
  sent_by: 'check' | null;
  /** Read with the row: the name of the destination of the attempt's delivery (the deliveries table keeps it). */
  attempt_destination?: string | null;
}

/** A capture's attempt's destination, from its delivery (a capture stores the ids of its attempt only). */
const ATTEMPT_DESTINATION = '(SELECT destination_name FROM deliveries WHERE deliveries.id = captures.attempt_delivery) AS attempt_destination';

/** The newest captures kept by default; older ones are pruned as new ones arrive. */
export const DEFAULT_MAX_CAPTURES = 10_000;
/** The captures' bodies kept at most, in bytes, by default: 10,000 captures of 1 MiB would be 10 GiB. */
export const DEFAULT_MAX_CAPTURE_BYTES = 64 * 1024 * 1024;
/** The settings row counting captures pruned to keep within the limit. */
const PRUNED_SETTING = 'receiver.capturesPruned';

export class ReceiverStore {
  private readonly statements;
  private readonly listVariants = new Map<string, ReturnType<Db['prepare']>>();

  /** The bytes of the bodies kept, counted once at start and then as captures come and go. */
  private bodyBytes: number;

  constructor(
    readonly db: Db,
    private readonly maxCaptures: number = DEFAULT_MAX_CAPTURES,
    /** How endpoints' secrets are kept at rest (store/secretCodec). */
    private readonly secrets: SecretCodec = plainSecrets,
    private readonly maxCaptureBytes: number = DEFAULT_MAX_CAPTURE_BYTES,
    /**
     * The store's transaction (Store.transaction), which the history index's thread yields to; by default one
     * opened on the connection directly.
     */
    private readonly storeTransaction: (<T>(fn: () => T) => T) | null = null,
  ) {
    this.statements = {
      listReceivers: db.prepare<[], ReceiverRow>('SELECT * FROM receivers ORDER BY name'),
      insertReceiver: db.prepare(
        `INSERT INTO receivers (name, secret, refuse_invalid_signatures, script, answered, created_at, updated_at)
         VALUES (@name, @secret, @refuse, @script, @answered, @createdAt, @updatedAt)`,
      ),
      updateReceiver: db.prepare(
        `UPDATE receivers SET name = @name, secret = @secret, refuse_invalid_signatures = @refuse, script = @script, answered = @answered,
           updated_at = @updatedAt
         WHERE name = @oldName`,
      ),
      renameCaptures: db.prepare<[string, string]>('UPDATE captures SET receiver = ? WHERE receiver = ?'),
      deleteReceiver: db.prepare<[string]>('DELETE FROM receivers WHERE name = ?'),
      setAnswered: db.prepare<[number, string]>('UPDATE receivers SET answered = ? WHERE name = ?'),
      insertCapture: db.prepare(
        `INSERT INTO captures (receiver, matched, listener, method, path, raw_headers, body, body_size, body_truncated,
           arrived_at, remote_address, step, signature_verdict, signature, message_id,
           attempt_message, attempt_delivery, attempt_number, attempt_webhook, sent_by)
         VALUES (@receiver, @matched, @listener, @method, @path, @rawHeaders, @body, @bodySize, @bodyTruncated,
           @arrivedAt, @remoteAddress, @step, @signatureVerdict, @signature, @messageId,
           @attemptMessage, @attemptDelivery, @attemptNumber, @attemptWebhook, @sentBy)`,
      ),
      setStep: db.prepare<[string, number]>('UPDATE captures SET step = ? WHERE id = ?'),
      prune: db.prepare<[number]>('DELETE FROM captures WHERE id <= ?'),
      bytesUpTo: db.prepare<[number], { n: number }>('SELECT coalesce(sum(length(body)), 0) AS n FROM captures WHERE id <= ?'),
      allBytes: db.prepare<[], { n: number }>('SELECT coalesce(sum(length(body)), 0) AS n FROM captures'),
      oldest: db.prepare<[], { id: number; n: number }>('SELECT id, length(body) AS n FROM captures ORDER BY id'),
      getPruned: db.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = '${PRUNED_SETTING}'`),
      addPruned: db.prepare<[{ n: number }]>(
        `INSERT INTO settings (key, value) VALUES ('${PRUNED_SETTING}', @n)
         ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + @n`,
      ),
      getCapture: db.prepare<[number], CaptureRow>(`SELECT *, ${ATTEMPT_DESTINATION} FROM captures WHERE id = ?`),
      capturesOfMessage: db.prepare<[number], CaptureRow>(`SELECT *, ${ATTEMPT_DESTINATION} FROM captures WHERE attempt_message = ? ORDER BY id`),
      clearAll: db.prepare<[]>('DELETE FROM captures'),
      clearReceiver: db.prepare<[string]>('DELETE FROM captures WHERE receiver = ?'),
    };
    this.bodyBytes = this.statements.allBytes.get()!.n;
  }

  /** Runs `fn` in one transaction; inside an open one it simply runs. */
  transaction<T>(fn: () => T): T {
    if (this.storeTransaction) return this.storeTransaction(fn);
    if (this.db.inTransaction) return fn();
    return this.db.transaction(fn).immediate();
  }

  listReceivers(): StoredReceiver[] {
    return this.statements.listReceivers.all().map((r) => ({
      name: r.name,
      secret: decryptNullable(this.secrets, r.secret),
      refuseInvalidSignatures: r.refuse_invalid_signatures === 1,
      script: JSON.parse(r.script) as ResponseScript,
      answered: r.answered,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }));
  }

  insertReceiver(r: StoredReceiver): void {
    this.statements.insertReceiver.run(receiverParams(r, this.secrets));
  }

  /** Saves an endpoint under its (possibly new) name; a rename carries its captures along. */
  updateReceiver(oldName: string, r: StoredReceiver): void {
    this.transaction(() => {
      this.statements.updateReceiver.run({ ...receiverParams(r, this.secrets), oldName });
      if (oldName !== r.name) this.statements.renameCaptures.run(r.name, oldName);
    });
  }

  deleteReceiver(name: string): boolean {
    return this.statements.deleteReceiver.run(name).changes > 0;
  }

  /**
   * Stores a capture and, when an endpoint answered, its new sequence position, in one transaction.
   * Returns the capture's id.
   */
  /** An endpoint's script position after a request that was answered and not captured. */
  setAnswered(position: { name: string; answered: number }): void {
    this.statements.setAnswered.run(position.answered, position.name);
  }

  /** Notes that the client closed the connection before the answer; the capture as it is now (null: pruned or cleared meanwhile). */
  setClientClosed(id: number, afterMs: number): CaptureRecord | null {
    const capture = this.getCapture(id);
    if (!capture) return null;
    const step: CaptureStep = { ...capture.step, clientClosedAfterMs: afterMs };
    this.statements.setStep.run(JSON.stringify(step), id);
    return { ...capture, step };
  }

  insertCapture(c: NewCapture, position: { name: string; answered: number } | null): number {
    let kept = this.bodyBytes;
    const inserted = this.transaction(() => {
      const id = Number(
        this.statements.insertCapture.run({
          receiver: c.receiver,
          matched: c.matched ? 1 : 0,
          listener: c.listener,
          method: c.method,
          path: c.path,
          rawHeaders: JSON.stringify(c.rawHeaders),
          body: c.body,
          bodySize: c.bodySize,
          bodyTruncated: c.bodyTruncated ? 1 : 0,
          arrivedAt: c.arrivedAt,
          remoteAddress: c.remoteAddress,
          step: JSON.stringify(c.step),
          signatureVerdict: c.signature?.verdict ?? null,
          signature: c.signature ? JSON.stringify(c.signature) : null,
          messageId: c.messageId,
          attemptMessage: c.attempt?.messageRef ?? null,
          attemptDelivery: c.attempt?.deliveryId ?? null,
          attemptNumber: c.attempt?.attemptNumber ?? null,
          attemptWebhook: c.attempt?.webhookIndex ?? null,
          sentBy: c.sentBy,
        }).lastInsertRowid,
      );
      if (position) this.statements.setAnswered.run(position.answered, position.name);
      let bytes = this.bodyBytes + c.body.byteLength;
      let pruned = 0;
      if (id > this.maxCaptures) {
        bytes -= this.statements.bytesUpTo.get(id - this.maxCaptures)!.n;
        pruned += this.statements.prune.run(id - this.maxCaptures).changes;
      }
      if (bytes > this.maxCaptureBytes) {
        const cut = this.oldestToFree(bytes - this.maxCaptureBytes, id);
        if (cut) {
          pruned += this.statements.prune.run(cut.id).changes;
          bytes -= cut.freed;
        }
      }
      if (pruned > 0) this.statements.addPruned.run({ n: pruned });
      kept = bytes;
      return id;
    });
    // Counted only once the capture is stored: a failed write leaves the count as it was.
    this.bodyBytes = kept;
    return inserted;
  }

  /** The newest of the oldest captures whose bodies add up to `excess` bytes, never `newest` itself. */
  private oldestToFree(excess: number, newest: number): { id: number; freed: number } | null {
    let id = 0;
    let freed = 0;
    for (const row of this.statements.oldest.iterate()) {
      if (row.id >= newest) break;
      id = row.id;
      freed += row.n;
      if (freed >= excess) break;
    }
    return id === 0 ? null : { id, freed };
  }

  getCapture(id: number): CaptureRecord | null {
    const row = this.statements.getCapture.get(id);
    return row ? toCapture(row) : null;
  }

  /** The captures of the requests the engine's attempts of one message sent, oldest first. */
  capturesOfMessage(messageRef: number): CaptureRecord[] {
    return this.statements.capturesOfMessage.all(messageRef).map(toCapture);
  }

  /** Newest first. */
  listCaptures(q: CaptureQuery): CaptureRecord[] {
    const where: string[] = [];
    if (q.receiver !== undefined) where.push('receiver = @receiver');
    if (q.messageId !== undefined) where.push('message_id = @messageId');
    if (q.beforeId !== undefined) where.push('id < @beforeId');
    const key = where.join(' AND ');
    let statement = this.listVariants.get(key);
    if (!statement) {
      // One prepared statement per filter combination (at most eight), each able to use its index.
      statement = this.db.prepare(`SELECT *, ${ATTEMPT_DESTINATION} FROM captures ${key ? `WHERE ${key}` : ''} ORDER BY id DESC LIMIT @limit`);
      this.listVariants.set(key, statement);
    }
    const params: Record<string, unknown> = { limit: q.limit };
    if (q.receiver !== undefined) params['receiver'] = q.receiver;
    if (q.messageId !== undefined) params['messageId'] = q.messageId;
    if (q.beforeId !== undefined) params['beforeId'] = q.beforeId;
    return (statement.all(params) as CaptureRow[]).map(toCapture);
  }

  /**
   * The most captures kept and the most bytes of their bodies, and how many older ones were removed to keep
   * within them (docs/behaviour.md §10).
   */
  retention(): { limit: number; limitBytes: number; pruned: number } {
    return { limit: this.maxCaptures, limitBytes: this.maxCaptureBytes, pruned: Number(this.statements.getPruned.get()?.value ?? 0) };
  }

  /** Deletes the captures of one endpoint name, or all of them; returns how many. */
  clearCaptures(receiver?: string): number {
    const deleted = receiver === undefined ? this.statements.clearAll.run().changes : this.statements.clearReceiver.run(receiver).changes;
    this.bodyBytes = this.statements.allBytes.get()!.n;
    return deleted;
  }
}

/** An endpoint as its row's statement parameters (SQLite has no booleans). */
function receiverParams(r: StoredReceiver, secrets: SecretCodec) {
  const { refuseInvalidSignatures, ...rest } = r;
  return { ...rest, secret: encryptNullable(secrets, r.secret), refuse: refuseInvalidSignatures ? 1 : 0, script: JSON.stringify(r.script) };
}

function toCapture(r: CaptureRow): CaptureRecord {
  return captureRecord(r.id, {
    receiver: r.receiver,
    matched: r.matched === 1,
    listener: r.listener,
    method: r.method,
    path: r.path,
    rawHeaders: JSON.parse(r.raw_headers) as [string, string][],
    body: r.body,
    bodySize: r.body_size,
    bodyTruncated: r.body_truncated === 1,
    arrivedAt: r.arrived_at,
    remoteAddress: r.remote_address,
    step: JSON.parse(r.step) as CaptureStep,
    signature: r.signature ? (JSON.parse(r.signature) as SignatureCheck) : null,
    messageId: r.message_id,
    attempt: attemptOf(r),
    sentBy: r.sent_by === 'check' ? 'check' : null,
  });
}

function attemptOf(r: CaptureRow): CaptureAttempt | null {
  if (r.attempt_message === null || r.attempt_delivery === null || r.attempt_number === null || r.attempt_webhook === null) return null;
  return { messageRef: r.attempt_message, deliveryId: r.attempt_delivery, destinationName: r.attempt_destination ?? null, attemptNumber: r.attempt_number, webhookIndex: r.attempt_webhook };
}

/** The record of a stored capture (also what its event carries, built without reading it back). */
export function captureRecord(id: number, c: NewCapture): CaptureRecord {
  const headers: Record<string, string> = {};
  for (const [name, value] of c.rawHeaders) {
    const lower = name.toLowerCase();
    headers[lower] = Object.hasOwn(headers, lower) ? `${headers[lower]}, ${value}` : value;
  }
  const { body, ...rest } = c;
  return {
    id,
    ...rest,
    headers,
    body: { base64: body.toString('base64'), text: isUtf8(body) ? body.toString('utf8') : null },
  };
}
