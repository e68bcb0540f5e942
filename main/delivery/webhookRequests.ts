/**
 * One HTTP POST of a message's exact bytes to one webhook, with a hard timeout to response headers.
 * undici's own timers tick coarsely (~0.5 s), so they are off and the deadline is our own timer.
 */
import { subscribe } from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { rootCertificates } from 'node:tls';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { LIMITS } from '../contract/messageShapes.js';
import { urlCredentials } from '../contract/urls.js';
import type { AttemptOutcome, Destination, Webhook } from '../contract/models.js';
import { classifyNetworkError, classifyStatus, fastForwardedOutcome, timeoutOutcome } from '../domain/outcome.js';
import { parseRetryAfter } from '../domain/retryPolicy.js';
import { signBody } from '../domain/signature.js';
import { FILE_LIMITS, readBoundedText } from '../platform/boundedFile.js';

export const USER_AGENT = 'Hookbench/1.0';

/**
 * undici (slow to load) is loaded with the first pool, on the thread that sends: the engine's own thread
 * only signs rounds (prepareRequest), and a CLI command that sends nothing never loads it.
 */
let undici: typeof Undici | null = null;
const loadUndici = (): typeof Undici => (undici ??= createRequire(import.meta.url)('undici') as typeof Undici);

/** docs/behaviour.md §2: at most 16 concurrent connections per origin. */
export const CONNECTIONS_PER_ORIGIN = 16;
/**
 * The cap for a clock jump's attempts (docs/behaviour.md §5): they fell due over hours of engine time and
 * are played at once, so queueing them behind the live cap would make a jump as slow as its message count.
 * As many as the engine ever has in flight.
 */
export const JUMP_CONNECTIONS_PER_ORIGIN = 2_048;

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
   * content-length included, docs/behaviour.md §2); the prepared ones when nothing was written.
   */
  requestHeaders: Record<string, string>;
  /** Whether requestHeaders are the ones written to the socket (false: the request never went out). */
  headersOnWire: boolean;
  signature: string | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  responseTruncated: boolean;
}

/** One webhook's request, ready to send: its URL and exact headers (signature included). */
export interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  signature: string | null;
}

/**
 * The request headers for one webhook: ours, then its static ones (which can never override ours). A URL's
 * `user:password@` goes out as `Authorization: Basic` (docs/behaviour.md §2), unless a static Authorization
 * header is configured, which wins, as `curl -H` does over a URL's credentials.
 */
export function prepareRequest(webhook: Webhook, secret: string | null, body: Uint8Array): PreparedRequest {
  const signature = secret ? signBody(secret, body) : null;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(body.byteLength),
    'user-agent': USER_AGENT,
  };
  if (signature) headers['x-signature'] = signature;
  if (webhook.url.includes('@')) {
    const basic = basicAuthOf(webhook.url);
    if (basic && !Object.keys(webhook.headers).some((name) => name.toLowerCase() === 'authorization')) headers['authorization'] = basic;
  }
  for (const [name, value] of Object.entries(webhook.headers)) headers[name] = value;
  return { url: webhook.url, headers, signature };
}

/** `http://ada:p%40ss@host/` → `Basic base64("ada:p@ss")`; null without credentials. */
const basicAuths = new Map<string, string | null>();
function basicAuthOf(url: string): string | null {
  let basic = basicAuths.get(url);
  if (basic === undefined) {
    const credentials = urlCredentials(url);
    basic = credentials ? `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}` : null;
    if (basicAuths.size > 1_000) basicAuths.clear();
    basicAuths.set(url, basic);
  }
  return basic;
}

/** `http://host:port/path?q` → the parts undici's dispatch takes, parsed once per URL. */
const urlParts = new Map<string, { origin: string; path: string }>();
function partsOf(url: string): { origin: string; path: string } {
  let parts = urlParts.get(url);
  if (!parts) {
    const u = new URL(url);
    parts = { origin: u.origin, path: `${u.pathname}${u.search}` };
    if (urlParts.size > 10_000) urlParts.clear();
    urlParts.set(url, parts);
  }
  return parts;
}

const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

/**
 * What the socket carried. undici announces each request's header block on a diagnostics channel just
 * after it calls the request's handler (onRequestStart), in the same synchronous step and before any other
 * request is written: the exchange that started last is the one whose block this is. undici appends
 * `content-length` to that block as it writes a buffer body, so the record adds it last, as the wire has it.
 * Subscribed on the thread that sends (each worker has its own channels).
 */
let writing: Exchange | null = null;
let observing = false;

function willWrite(exchange: Exchange): void {
  writing = exchange;
}

function observeWire(): void {
  if (observing) return;
  observing = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const exchange = writing;
    writing = null;
    const m = message as { request: { method?: string }; headers: string };
    if (exchange && m.request.method === 'POST') exchange.wroteHeaders(m.headers);
  });
}

/** `POST /p HTTP/1.1\r\nhost: h\r\n...` (a header block without its blank line) → the headers in order, content-length last. */
export function wireHeaders(block: string, contentLength: number): Record<string, string> {
  const out: Record<string, string> = {};
  let start = block.indexOf('\r\n') + 2;
  while (start > 1 && start < block.length) {
    const end = block.indexOf('\r\n', start);
    if (end < 0) break;
    const colon = block.indexOf(':', start);
    if (colon > start && colon < end) out[block.slice(start, colon)] = block.slice(block.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1, end);
    start = end + 2;
  }
  out['content-length'] = String(contentLength);
  return out;
}

/**
 * At most `limit` requests in flight per origin. Requests wait here, not in undici's queue, so that the
 * timeout measures the request itself ("from send to response headers"), never time spent waiting for a
 * pooled connection.
 */
export class OriginGate {
  private readonly slots = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  /** Resolves with a release function once a slot for the URL's origin is free. */
  acquire(url: string): Promise<() => void> | (() => void) {
    const { origin } = partsOf(url);
    let slot = this.slots.get(origin);
    if (!slot) {
      slot = { active: 0, waiting: [] };
      this.slots.set(origin, slot);
    }
    const s = slot;
    const release = () => {
      const next = s.waiting.shift();
      if (next) next();
      else if (--s.active === 0) this.slots.delete(origin);
    };
    if (s.active < this.limit) {
      s.active++;
      return release;
    }
    return new Promise((resolve) => s.waiting.push(() => resolve(release)));
  }
}

/**
 * Dispatchers per trust configuration: destinations without a caFile share one pool (16 connections per
 * origin across all of them); a caFile gets its own, trusting the system roots plus that file. A clock
 * jump's attempts have pools and a gate of their own, with the larger JUMP_CONNECTIONS_PER_ORIGIN.
 */
export class Dispatchers {
  private readonly pools = new Map<string, Dispatcher>();
  readonly gate = new OriginGate(CONNECTIONS_PER_ORIGIN);
  readonly jumpGate = new OriginGate(JUMP_CONNECTIONS_PER_ORIGIN);

  constructor(
    private readonly injected: Dispatcher | undefined,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    observeWire();
  }

  for(destination: Pick<Destination, 'caFile'>, jump = false): Dispatcher {
    if (this.injected) return this.injected;
    const key = `${jump ? 'jump:' : ''}${destination.caFile ?? ''}`;
    let pool = this.pools.get(key);
    if (!pool) {
      const connect = destination.caFile
        ? { ca: [...rootCertificates, readBoundedText(destination.caFile, FILE_LIMITS.caFile)], rejectUnauthorized: true }
        : { rejectUnauthorized: true };
      const options = {
        connections: jump ? JUMP_CONNECTIONS_PER_ORIGIN : CONNECTIONS_PER_ORIGIN,
        pipelining: 1,
        // Disabled: the deadline is the per-attempt timer in sendToWebhook (undici's timers tick coarsely).
        headersTimeout: 0,
        bodyTimeout: 0,
        connect,
      };
      const env = this.env;
      const httpProxy = env['HTTP_PROXY'] ?? env['http_proxy'];
      const httpsProxy = env['HTTPS_PROXY'] ?? env['https_proxy'];
      const noProxy = env['NO_PROXY'] ?? env['no_proxy'];
      const { Agent, EnvHttpProxyAgent } = loadUndici();
      pool = PROXY_VARS.some((v) => env[v])
        ? new EnvHttpProxyAgent({
            ...options,
            ...(httpProxy ? { httpProxy } : {}),
            ...(httpsProxy ? { httpsProxy } : {}),
            ...(noProxy ? { noProxy } : {}),
            requestTls: connect,
            proxyTls: { rejectUnauthorized: true },
            // As curl does: http:// targets in absolute form through the proxy, https:// through a CONNECT tunnel.
            proxyTunnel: false,
          })
        : new Agent(options);
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Forget a trust configuration (its caFile changed). */
  invalidate(caFile: string | null): void {
    for (const key of [caFile ?? '', `jump:${caFile ?? ''}`]) {
      const pool = this.pools.get(key);
      if (pool) {
        this.pools.delete(key);
        void pool.close().catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }
}

export async function sendToWebhook(args: {
  request: PreparedRequest;
  body: Uint8Array;
  timeoutMs: number;
  /** Fast-forward unanswered attempts (a clock jump's): no response headers after this long ends the attempt. */
  fastForwardMs?: number | null;
  dispatcher: Dispatcher;
  gate: OriginGate;
  realNow: () => number;
}): Promise<SendResult> {
  const acquired = args.gate.acquire(args.request.url);
  const release = typeof acquired === 'function' ? acquired : await acquired;
  try {
    return await sendNow(args);
  } finally {
    release();
  }
}

/**
 * The request itself, through undici's dispatch API: no stream or AbortSignal per request (this is the
 * engine's hot path). The timer covers connect + send + response headers; once the headers are in, the
 * body (first 64 KiB kept) gets its own budget and never changes the outcome.
 */
function sendNow(args: {
  request: PreparedRequest;
  body: Uint8Array;
  timeoutMs: number;
  fastForwardMs?: number | null;
  dispatcher: Dispatcher;
  realNow: () => number;
}): Promise<SendResult> {
  const { origin, path } = partsOf(args.request.url);
  return new Promise<SendResult>((resolve) => {
    const fastForwardMs = args.fastForwardMs != null && args.fastForwardMs < args.timeoutMs ? args.fastForwardMs : null;
    const exchange = new Exchange(args.request, args.body.byteLength, args.timeoutMs, fastForwardMs, args.realNow, resolve);
    args.dispatcher.dispatch({ origin, path, method: 'POST', headers: args.request.headers, body: args.body, headersTimeout: 0, bodyTimeout: 0 }, exchange);
  });
}

/**
 * One request's life as undici's dispatch handler. One object per request, with its methods on the
 * prototype, and one timer re-armed for the body: this runs for every attempt, and allocations here are
 * what the forwarder's thread spends its time collecting.
 */
class Exchange implements Dispatcher.DispatchHandler {
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
    if (this.wire !== null) {
      result.requestHeaders = wireHeaders(this.wire, this.bodyBytes);
      result.headersOnWire = true;
    }
    return result;
  }

  private finish(result: SendResult): void {
    if (this.finished) return;
    this.finished = true;
    if (writing === this) writing = null;
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
      requestHeaders: this.request.headers,
      headersOnWire: false,
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
      requestHeaders: this.request.headers,
      headersOnWire: false,
      signature: this.request.signature,
      responseHeaders: r.headers,
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
