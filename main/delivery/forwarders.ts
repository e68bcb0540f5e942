/**
 * Where rounds are signed and sent from. `InlineForwarder` works on the engine's own thread; `WorkerForwarder`
 * on a worker thread, so that signing and HTTP (undici, TLS) run on the second core while the engine's thread
 * accepts messages and records results in SQLite. Both behave the same, byte for byte.
 */
import type { Dispatcher } from 'undici';
import type { Webhook } from '../contract/destinations.js';
import { Dispatchers, prepareRequest, sendToWebhookThen, type PreparedRequest, type SendResult } from './webhookRequests.js';
import { JobWorker } from '../platform/jobWorker.js';

export interface RoundRequest {
  webhooks: readonly Webhook[];
  /** The body's exact bytes, or (a claimed delivery's) those bytes as UTF-8 text, made bytes where it is signed. */
  body: Uint8Array | string;
  secret: string | null;
  timeoutMs: number;
  caFile: string | null;
  /** Made due by a clock jump: sent through the jump's pools, not queued behind the live per-origin cap. */
  jump?: boolean;
  /** Fast-forward unanswered attempts: no response headers after this long ends the attempt (a jump's only). */
  fastForwardMs?: number | null;
}

export interface Forwarder {
  /** One POST per webhook, concurrently; results in the same order. */
  sendRound(request: RoundRequest): Promise<SendResult[]>;
  /**
   * sendRound with callbacks instead of a promise, where the forwarder has it (the engine sends thousands of
   * rounds a second): `done` with the results or `failed`, once.
   */
  sendRoundThen?(request: RoundRequest, done: (results: SendResult[]) => void, failed: (e: unknown) => void): void;
  /** A destination's trust configuration changed: drop the pool built for it. */
  invalidate(caFile: string | null): void;
  close(): Promise<void>;
}

/** A round ready to send: each webhook's request prepared (headers, signature) over the exact body. */
export interface PreparedRound {
  requests: PreparedRequest[];
  body: Uint8Array;
  timeoutMs: number;
  caFile: string | null;
  jump: boolean;
  fastForwardMs: number | null;
}

/** Sends prepared rounds (on whichever thread it lives). */
export class RoundSender {
  private readonly dispatchers: Dispatchers;

  constructor(dispatcher?: Dispatcher) {
    this.dispatchers = new Dispatchers(dispatcher);
  }

  send(r: PreparedRound): Promise<SendResult[]> {
    return new Promise((resolve, reject) => this.sendThen(r, resolve, reject));
  }

  /** send() with callbacks (the forwarder's thread): `done` with every request's result in order, or `failed` once. */
  sendThen(r: PreparedRound, done: (results: SendResult[]) => void, failed: (e: unknown) => void): void {
    const dispatcher = this.dispatchers.for({ caFile: r.caFile }, r.jump);
    const gate = r.jump ? this.dispatchers.jumpGate : this.dispatchers.gate;
    const results: SendResult[] = [];
    let left = r.requests.length;
    let over = false;
    if (left === 0) return done(results);
    r.requests.forEach((request, i) => {
      sendToWebhookThen(
        { request, body: r.body, timeoutMs: r.timeoutMs, fastForwardMs: r.fastForwardMs, dispatcher, gate, realNow: Date.now },
        (result) => {
          results[i] = result;
          if (--left === 0 && !over) {
            over = true;
            done(results);
          }
        },
        (e) => {
          if (over) return;
          over = true;
          failed(e);
        },
      );
    });
  }

  invalidate(caFile: string | null): void {
    this.dispatchers.invalidate(caFile);
  }

  close(): Promise<void> {
    return this.dispatchers.close();
  }
}

export const prepareRound = (r: RoundRequest): PreparedRound => {
  const body = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
  return {
    requests: r.webhooks.map((webhook) => prepareRequest(webhook, r.secret, body)),
    body,
    timeoutMs: r.timeoutMs,
    caFile: r.caFile,
    jump: r.jump ?? false,
    fastForwardMs: r.fastForwardMs ?? null,
  };
};

export class InlineForwarder implements Forwarder {
  private readonly sender: RoundSender;

  constructor(dispatcher?: Dispatcher) {
    this.sender = new RoundSender(dispatcher);
  }

  sendRound(r: RoundRequest): Promise<SendResult[]> {
    return this.sender.send(prepareRound(r));
  }

  invalidate(caFile: string | null): void {
    this.sender.invalidate(caFile);
  }

  close(): Promise<void> {
    return this.sender.close();
  }
}

/** What the forwarder's thread is told besides rounds: a destination's trust configuration changed. */
export interface InvalidateMessage {
  caFile: string | null;
}

/**
 * A round as it crosses to the forwarder's thread, and its results as they cross back: arrays of the fields in
 * a fixed order, not objects, since the structured clone writes every key of every object it copies. A
 * destination's own webhooks array, when a round goes to all of them as configured, is the same object in
 * every round of a batch, which the clone copies once.
 */
export type RoundOnWire = [webhooks: readonly Webhook[], body: Uint8Array | string, secret: string | null, timeoutMs: number, caFile: string | null, jump: boolean, fastForwardMs: number | null];
/** SendResult's fields in this order, one result after the other. */
export type ResultsOnWire = unknown[];
const RESULT_FIELDS = 12;

export const roundToWire = (r: RoundRequest): RoundOnWire => [r.webhooks, r.body, r.secret, r.timeoutMs, r.caFile, r.jump ?? false, r.fastForwardMs ?? null];

export const roundFromWire = (w: RoundOnWire): RoundRequest => ({
  webhooks: w[0],
  body: w[1],
  secret: w[2],
  timeoutMs: w[3],
  caFile: w[4],
  jump: w[5],
  fastForwardMs: w[6],
});

export function resultsToWire(results: readonly SendResult[]): ResultsOnWire {
  const out: unknown[] = [];
  for (const s of results) {
    out.push(s.outcome, s.retryable, s.permanentReason, s.statusCode, s.error, s.retryAfterMs, s.durationMs, s.requestHeaders, s.signature, s.responseHeaders, s.responseBody, s.responseTruncated);
  }
  return out;
}

export function resultsFromWire(w: ResultsOnWire): SendResult[] {
  const out: SendResult[] = [];
  for (let i = 0; i + RESULT_FIELDS <= w.length; i += RESULT_FIELDS) {
    out.push({
      outcome: w[i] as SendResult['outcome'],
      retryable: w[i + 1] as boolean,
      permanentReason: w[i + 2] as string | null,
      statusCode: w[i + 3] as number | null,
      error: w[i + 4] as string | null,
      retryAfterMs: w[i + 5] as number | null,
      durationMs: w[i + 6] as number,
      requestHeaders: w[i + 7] as string,
      signature: w[i + 8] as string | null,
      responseHeaders: w[i + 9] as string | null,
      responseBody: w[i + 10] as string | null,
      responseTruncated: w[i + 11] as boolean,
    });
  }
  return out;
}

/**
 * Rounds are signed and sent on the forwarder's thread: the engine's thread also accepts messages and
 * writes every row, and is the one that runs out of time first under load.
 */
export class WorkerForwarder implements Forwarder {
  private readonly jobs = new JobWorker<RoundOnWire, SendResult[], InvalidateMessage>({ name: 'delivery/forwarderWorker', decode: resultsFromWire });

  /** The round crosses as the engine asks for it (not yet signed); each result comes back with its signature and headers. */
  sendRound(r: RoundRequest): Promise<SendResult[]> {
    return this.jobs.run(roundToWire(r));
  }

  sendRoundThen(r: RoundRequest, done: (results: SendResult[]) => void, failed: (e: unknown) => void): void {
    this.jobs.send(roundToWire(r), done, failed);
  }

  invalidate(caFile: string | null): void {
    this.jobs.tell({ caFile });
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}

/**
 * The forwarder a core sends through: one given (tests), inline when asked or when a dispatcher replaces the
 * engine's own pools (a dispatcher cannot cross to a thread), and the forwarder thread otherwise.
 */
export function chooseForwarder(choice: 'worker' | 'inline' | Forwarder | undefined, dispatcher: Dispatcher | undefined): Forwarder {
  if (typeof choice === 'object') return choice;
  return dispatcher || choice === 'inline' ? new InlineForwarder(dispatcher) : new WorkerForwarder();
}
