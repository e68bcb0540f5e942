/**
 * The mock receiver's captures: every request it answered, stored with its exact body bytes and announced
 * as a `requestCaptured` event, and the commands that list, read and clear them. A capture that cannot be
 * stored (a full disk) loses only its record: the request is still answered.
 */
import type { CommandParsed } from '../contract/dispatch.js';
import type { EventOf } from '../contract/events.js';
import type { CapturePage, CaptureRecord } from '../contract/receiver/receiver.js';
import { err, ok, type Result } from '../contract/result.js';
import { isWriteFailure } from '../store/integrity.js';
import { captureRecord, type NewCapture, type ReceiverStore } from './receiverStore.js';

/** A page of captures holds this many when the call does not say. */
const DEFAULT_PAGE = 50;

export class ReceiverCaptures {
  private readonly failures = new CaptureFailureLog();

  constructor(
    private readonly store: ReceiverStore,
    private readonly emit: (event: EventOf<'requestCaptured'> | EventOf<'captureUpdated'>) => void,
  ) {}

  /**
   * Newest first, in pages of `limit` (1 to 1000, default 50), with the retention: how many captures are
   * kept at most, and how many older ones were removed to keep within it.
   */
  listCaptures(input: CommandParsed<'listCaptures'> = {}): Result<CapturePage> {
    const limit = input.limit ?? DEFAULT_PAGE;
    let beforeId: number | undefined;
    if (input.cursor !== undefined && input.cursor !== null) {
      beforeId = Number(input.cursor);
      if (!Number.isSafeInteger(beforeId)) {
        return err({ code: 'invalid_input', field: 'cursor', message: `cursor: ${JSON.stringify(input.cursor)} is not a cursor from this list` });
      }
    }
    const items = this.store.listCaptures({ receiver: input.receiver, messageId: input.messageId, beforeId, limit: limit + 1 });
    const more = items.length > limit;
    if (more) items.pop();
    return ok({ items, nextCursor: more ? String(items.at(-1)!.id) : null, ...this.store.retention() });
  }

  /** The captures of the requests the engine's attempts of one message sent, oldest first. */
  capturesOfMessage(messageRef: number): CaptureRecord[] {
    return this.store.capturesOfMessage(messageRef);
  }

  getCapture(input: CommandParsed<'getCapture'>): Result<CaptureRecord> {
    const capture = this.store.getCapture(input.id);
    return capture ? ok(capture) : err({ code: 'not_found', field: 'id', message: `no capture with id ${input.id}`, value: input.id });
  }

  /** Deletes the captures of one endpoint name, or all of them. */
  clearCaptures(input: CommandParsed<'clearCaptures'> = {}): Result<{ deleted: number }> {
    return ok({ deleted: this.store.clearCaptures(input.receiver) });
  }

  /** Stores one answered request (requestHandler.ts) and announces it; `position` is its endpoint's script position after it. */
  record(capture: NewCapture | null, position: { name: string; answered: number } | null): number | null {
    let id: number;
    try {
      if (capture === null) {
        // Not captured (the check's load): only the endpoint's script moved on.
        if (position) this.store.setAnswered(position);
        return null;
      }
      id = this.store.insertCapture(capture, position);
    } catch (e) {
      // The request is still answered by its script; only the record is lost (e.g. the database closed first,
      // or the disk is full: one line then, and a count, not a line per request).
      if (isWriteFailure(e)) this.failures.failed((e as Error).message);
      else console.error('hookbench receiver: could not store a capture', e);
      return null;
    }
    this.failures.stored();
    try {
      this.emit({ type: 'requestCaptured', capture: captureRecord(id, capture) });
    } catch (e) {
      console.error('hookbench receiver: requestCaptured listener failed', e);
    }
    return id;
  }

  /** The client of a capture closed the connection before its answer went out: kept and announced (captureUpdated). */
  clientClosed(id: number, afterMs: number): void {
    try {
      const capture = this.store.setClientClosed(id, afterMs);
      if (capture) this.emit({ type: 'captureUpdated', capture });
    } catch (e) {
      // Only the record misses it; the request was handled as it was.
      if (!isWriteFailure(e)) console.error('hookbench receiver: could not record a closed connection', e);
    }
  }
}

/** How often, at most, a count of captures still not stored is said. */
export const CAPTURE_FAILURE_REPEAT_MS = 60_000;

/**
 * Captures that could not be stored (a full disk fails every request alike): the first failure in one line,
 * then at most one line a minute with the count since, and one line when a capture is stored again.
 */
export class CaptureFailureLog {
  private failing: { since: number; total: number; unsaid: number; saidAt: number } | null = null;
  private readonly log: { line(text: string): void; now(): number };

  /** `log` says a line and reads the wall clock that paces repeats (tests give their own). */
  constructor(log?: { line(text: string): void; now(): number }) {
    this.log = log ?? { line: (text) => console.error(text), now: Date.now };
  }

  failed(why: string): void {
    const now = this.log.now();
    const f = this.failing;
    if (!f) {
      this.failing = { since: now, total: 1, unsaid: 0, saidAt: now };
      this.log.line(`hookbench receiver: could not store a capture: ${why}; requests are still answered, and further failures are counted (a line a minute at most)`);
      return;
    }
    f.total++;
    f.unsaid++;
    if (now - f.saidAt < CAPTURE_FAILURE_REPEAT_MS) return;
    this.log.line(`hookbench receiver: could not store a capture: ${why} (${f.unsaid} more since the last line, ${f.total} since ${new Date(f.since).toISOString()})`);
    f.unsaid = 0;
    f.saidAt = now;
  }

  stored(): void {
    const f = this.failing;
    if (!f) return;
    this.failing = null;
    this.log.line(`hookbench receiver: captures are stored again; ${f.total} request${f.total === 1 ? ' was' : 's were'} answered without being captured since ${new Date(f.since).toISOString()}`);
  }
}
