/**
 * One HTTP POST of a message's exact bytes to one webhook, with a hard timeout to response headers.
 * undici's own timers tick coarsely (~0.5 s), so they are off and the deadline is our own timer.
 */
import type { Dispatcher } from 'undici';
import { LIMITS } from '../contract/message/messageShapes.js';
import type { AttemptOutcome } from '../contract/deliveries.js';
import { classifyNetworkError, classifyStatus, fastForwardedOutcome, timeoutOutcome } from '../domain/outcome.js';
import { parseRetryAfter } from '../domain/retryPolicy.js';
import { partsOf, type OriginGate } from './connectionPools.js';
import type { PreparedRequest } from './preparedRequest.js';
import { doneWriting, willWrite, wireHeaders, type WireWatcher } from './wireHeaders.js';

export { CONNECTIONS_PER_ORIGIN, Dispatchers, JUMP_CONNECTIONS_PER_ORIGIN, OriginGate } from './connectionPools.js';
export { prepareRequest, USER_AGENT, type PreparedRequest } from './preparedRequest.js';
export { wireHeaders } from './wireHeaders.js';

export interface SendResult {
  outcome: AttemptOutcome;
  retryable: boolean;
  permanentReason: string | null;
  statusCode: number | null;
  error: string | null;
  retryAfterMs: number | null;
  durationMs: number;
  /**
   * The request headers exactly as the socket carried them, in wire order (host, connection and
   * content-length included, docs/behaviour.md §2); the prepared ones when nothing was written. As the JSON
   * of that object, which is how an attempt stores it: text crosses from the forwarder's thread for less
   * than an object of strings, and the engine's thread writes it as it is.
   */
  requestHeaders: string;
  signature: string | null;
  /** The response's headers, as the JSON of an object (see requestHeaders); null without a response. */
  responseHeaders: string | null;
  responseBody: string | null;
  responseTruncated: boolean;
}

/** What one request to one webhook needs: the request prepared, its exact body, its deadline, where it goes through. */
export interface WebhookSend {
  request: PreparedRequest;
  body: Uint8Array;
  timeoutMs: number;
  /** Fast-forward unanswered attempts (a clock jump's): no response headers after this long ends the attempt. */
  fastForwardMs?: number | null;
  dispatcher: Dispatcher;
  gate: OriginGate;
  realNow: () => number;
}

/** One request, once its origin has a slot for it: its result (sendToWebhookThen as a promise). */
export function sendToWebhook(args: WebhookSend): Promise<SendResult> {
  return new Promise((resolve, reject) => sendToWebhookThen(args, resolve, reject));
}

/**
 * One request, once its origin has a slot for it, with callbacks (the forwarder's thread sends thousands a
 * second): `done` with the result, or `failed` when the request could not even be started. The request goes
 * through undici's dispatch API: no stream or AbortSignal per request. Its timer covers connect + send +
 * response headers; once the headers are in, the body (first 64 KiB kept) gets its own budget and never
 * changes the outcome.
 */
export function sendToWebhookThen(args: WebhookSend, done: (result: SendResult) => void, failed: (e: unknown) => void): void {
  args.gate.enter(args.request.url, (release) => {
    // Once, as a promise settles once: a dispatch that threw still has its exchange's timer, which answers later.
    let over = false;
    try {
      startRequest(args, (result) => {
        if (over) return;
        over = true;
        // Out of undici's own call: releasing the slot starts the next request of the origin, which must not
        // be dispatched from inside this one's handler (the header block undici announces is told to the
        // exchange that started last: wireHeaders.ts).
        queueMicrotask(() => {
          release();
          done(result);
        });
      });
    } catch (e) {
      if (over) return;
      over = true;
      release();
      failed(e);
    }
  });
}

/** Starts the request; `resolve` is called once with its result (Exchange). */
function startRequest(args: WebhookSend, resolve: (result: SendResult) => void): void {
  const { origin, path } = partsOf(args.request.url);
  const fastForwardMs = args.fastForwardMs != null && args.fastForwardMs < args.timeoutMs ? args.fastForwardMs : null;
  const exchange = new Exchange(args.request, args.body.byteLength, args.timeoutMs, fastForwardMs, args.realNow, resolve);
  args.dispatcher.dispatch({ origin, path, method: 'POST', headers: args.request.headers, body: args.body, headersTimeout: 0, bodyTimeout: 0 }, exchange);
}

/**
 * One request's life as undici's dispatch handler. One object per request, with its methods on the
 * prototype, and one timer re-armed for the body: this runs for every attempt, and allocations here are
 * what the forwarder's thread spends its time collecting.
 */
class Exchange implements Dispatcher.DispatchHandler, WireWatcher {
  private controller: Dispatcher.DispatchController | null = null;
  private finished = false;
  private timedOut = false;
  /** Set once the response headers are in: from then on the status stands. */
  private response: { status: number; headers: Record<string, string>; durationMs: number } | null = null;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private truncated = false;
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  /** The header block undici wrote to the socket (observeWire), once it has. */
  private wire: string | null = null;

  constructor(
    private readonly request: PreparedRequest,
    private readonly bodyBytes: number,
    private readonly timeoutMs: number,
    /** Shorter than timeoutMs when the attempt is fast-forwarded (docs/behaviour.md §5), else null. */
    private readonly fastForwardMs: number | null,
    private readonly realNow: () => number,
    private readonly resolve: (result: SendResult) => void,
  ) {
    // Phase one: response headers within timeoutMs. Phase two (the same timer, refreshed): the body.
    this.timer = setTimeout(() => this.onTimer(), fastForwardMs ?? timeoutMs);
  }

  private elapsed(): number {
    return Math.round((performance.now() - this.started) * 100) / 100;
  }

  private onTimer(): void {
    if (this.response) {
      this.truncated = true;
      this.abort(new Error('body timeout'));
      this.finish(this.answered(this.response));
    } else {
      this.timedOut = true;
      this.abort(new Error('timeout'));
      this.finish(this.failed(null)); // even before a connection exists: the attempt is over
    }
  }

  private abort(reason: Error): void {
    if (this.controller && !this.controller.aborted) this.controller.abort(reason);
  }

  wroteHeaders(block: string): void {
    this.wire = block;
  }

  /** What the attempt records: the headers as written, or the prepared ones when nothing was. */
  private sentHeaders(result: SendResult): SendResult {
    result.requestHeaders = JSON.stringify(this.wire !== null ? wireHeaders(this.wire, this.bodyBytes) : this.request.headers);
    return result;
  }

  private finish(result: SendResult): void {
    if (this.finished) return;
    this.finished = true;
    doneWriting(this);
    clearTimeout(this.timer);
    this.resolve(this.sentHeaders(result));
  }

  // Results are built field by field, not with object spreads: on this path, spreads cost a third of the request.
  private failed(e: unknown): SendResult {
    const failure = !this.timedOut
      ? classifyNetworkError(...errorCode(e))
      : this.fastForwardMs !== null
        ? fastForwardedOutcome(this.fastForwardMs, this.timeoutMs)
        : timeoutOutcome(this.timeoutMs);
    return {
      outcome: failure.outcome,
      retryable: failure.retryable,
      permanentReason: failure.permanentReason,
      statusCode: null,
      error: failure.error,
      retryAfterMs: null,
      durationMs: this.elapsed(),
      requestHeaders: '', // sentHeaders
      signature: this.request.signature,
      responseHeaders: null,
      responseBody: null,
      responseTruncated: false,
    };
  }

  private answered(r: { status: number; headers: Record<string, string>; durationMs: number }): SendResult {
    const classified = classifyStatus(r.status);
    return {
      outcome: classified.outcome,
      retryable: classified.retryable,
      permanentReason: classified.permanentReason,
      statusCode: r.status,
      error: classified.outcome === 'success' ? null : `HTTP ${r.status}`,
      retryAfterMs: classified.retryable ? parseRetryAfter(r.headers['retry-after'], this.realNow()) : null,
      durationMs: r.durationMs,
      requestHeaders: '', // sentHeaders
      signature: this.request.signature,
      responseHeaders: JSON.stringify(r.headers),
      responseBody: this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks, this.size).toString('utf8'),
      responseTruncated: this.truncated,
    };
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.finished) controller.abort(new Error('timeout'));
    else willWrite(this); // undici writes this request's headers next, in this same step (observeWire)
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (this.finished) return;
    this.response = { status: statusCode, headers: flattenHeaders(headers), durationMs: this.elapsed() };
    this.timer.refresh();
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.truncated) return;
    if (this.size + chunk.length > LIMITS.responseBodyBytes) {
      this.chunks.push(chunk.subarray(0, LIMITS.responseBodyBytes - this.size));
      this.size = LIMITS.responseBodyBytes;
      this.truncated = true;
      // The exchange ends here: reading the rest to keep the connection would read a 1 GB or endless answer
      // to its end. Closing costs one new connection.
      this.abort(new Error('response body past the kept 64 KiB'));
      if (this.response) this.finish(this.answered(this.response));
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  onResponseEnd(): void {
    if (this.response) this.finish(this.answered(this.response));
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    // After the headers the status stands; the body is just cut short.
    if (this.response) {
      this.truncated = true;
      this.finish(this.answered(this.response));
    } else this.finish(this.failed(error));
  }
}

function errorCode(e: unknown): [string | undefined, string] {
  // undici wraps socket errors: the useful code may sit on the error or on its cause.
  let current: unknown = e;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const err = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof err.code === 'string' && !err.code.startsWith('UND_ERR') && err.code !== 'ABORT_ERR') {
      return [err.code, String(err.message ?? err.code)];
    }
    if (!err.cause) return [typeof err.code === 'string' ? err.code : undefined, String(err.message ?? 'request failed')];
    current = err.cause;
  }
  return [undefined, String(e)];
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
