/**
 * The Hookbench client (docs/behaviour.md §11): the Go v2 analytics library's semantics in TypeScript. Calls are
 * checked and queued in memory; the queue is flushed as `POST /v1/batch` requests when it holds `flushAt`
 * messages or `flushAfter` ms have passed since the last flush. Requests go out one at a time, in order,
 * each within the 500 KiB request limit; failed sends are retried with backoff, and every batch that is
 * finally dropped is reported through `onError` (or the logger): nothing is lost silently.
 */
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../contract/message/messageShapes.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';
import { batchBody, requestBytes, splitIntoRequests } from './batching.js';
import { buildMessage, errorText, type Built } from './build.js';
import { debugEnabled, stderrLogger } from './debug.js';
import { describeValue } from '../contract/message/messageBody.js';
import { isTimeout, parseBody, serverErrorOf } from './answers.js';
import { ClientError, type ServerError } from './errors.js';
import { checkOptionShape, DEFAULTS, endpointOf, fetchOf, flushAtOf, numberOption } from './options.js';
import { backoffDelay, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry.js';
import type {
  AliasMessage,
  BatchMessage,
  CallType,
  ClientOptions,
  Clock,
  FetchLike,
  FetchResponse,
  GroupMessage,
  IdentifyMessage,
  LibraryInfo,
  Logger,
  PageMessage,
  ScreenMessage,
  Timers,
  TrackMessage,
} from './types.js';

export const LIBRARY_NAME = 'hookbench-client';

export { DEFAULTS } from './options.js';
export { backoffDelay, parseRetryAfter } from './retry.js';

/** Node's timers take at most 2^31-1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/** `context.library` of every message: this package's name and version, like the real SDKs send. */
export function libraryInfo(): LibraryInfo {
  return { name: LIBRARY_NAME, version: HOOKBENCH_VERSION };
}

const systemClock: Clock = { now: () => Date.now() };
const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

type Attempt =
  | { kind: 'sent'; status: number }
  | { kind: 'retry' | 'drop'; reason: string; status?: number; body?: unknown; serverError?: ServerError; retryAfterMs?: number; cause?: unknown };

export class Client {
  readonly endpoint: string;
  readonly flushAt: number;
  readonly flushAfter: number;
  readonly maxRetries: number;
  readonly debug: boolean;

  readonly #url: string;
  readonly #headers: Record<string, string>;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #random: () => number;
  readonly #fetch: FetchLike;
  readonly #logger: Logger;
  readonly #onError: ((error: ClientError) => void) | undefined;
  readonly #backoffInitialMs: number;
  readonly #backoffMaxMs: number;
  readonly #timeoutMs: number;
  readonly #library: LibraryInfo;

  #queue: Built[] = [];
  #queueBytes = 0;
  #timer: { handle: unknown } | undefined;
  #lastFlushAt: number;
  /** The send chain: requests go out one after another, in order. Never rejects. */
  #tail: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;

  constructor(writeKey: string, options: ClientOptions = {}) {
    if (typeof writeKey !== 'string' || writeKey === '') {
      const got = writeKey === '' ? 'an empty string' : describeValue(writeKey);
      throw new ClientError(`Client: a write key is required (new Client(writeKey, options); got ${got})`, { code: 'invalid_option', field: 'writeKey' });
    }
    checkOptionShape(options);
    this.endpoint = endpointOf(options.endpoint ?? DEFAULTS.endpoint);
    this.#url = `${this.endpoint}/v1/batch`;
    this.flushAt = flushAtOf(options);
    this.flushAfter = numberOption('flushAfter', options.flushAfter, DEFAULTS.flushAfter, { min: 1, allowInfinity: true });
    this.maxRetries = numberOption('maxRetries', options.maxRetries, DEFAULTS.maxRetries, { min: 0, integer: true });
    this.#backoffInitialMs = numberOption('backoff.initialMs', options.backoff?.initialMs, DEFAULTS.backoffInitialMs, { min: 0 });
    this.#backoffMaxMs = numberOption('backoff.maxMs', options.backoff?.maxMs, DEFAULTS.backoffMaxMs, { min: 0 });
    this.#timeoutMs = numberOption('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs, { min: 1 });
    this.#clock = options.clock ?? systemClock;
    this.#timers = options.timers ?? systemTimers;
    this.#random = options.random ?? Math.random;
    this.#fetch = fetchOf(options);
    this.#logger = options.logger ?? stderrLogger;
    this.#onError = options.onError;
    this.debug = options.debug ?? debugEnabled(process.env['DEBUG']);
    this.#library = libraryInfo();
    this.#headers = {
      Authorization: `Basic ${Buffer.from(`${writeKey}:`, 'utf8').toString('base64')}`,
      'Content-Type': 'application/json',
      'User-Agent': `${LIBRARY_NAME}/${this.#library.version}`,
    };
    this.#lastFlushAt = this.#clock.now();
    this.#log(
      `client for ${this.#url}: flushAt ${this.flushAt}, flushAfter ${this.flushAfter} ms, maxRetries ${this.maxRetries}`,
    );
  }

  /** Queues an identify call; returns its messageId. Throws a ClientError when the call is refused. */
  identify(message: IdentifyMessage): string {
    return this.#enqueue('identify', message);
  }

  /** Queues a track call (`event` required); returns its messageId. */
  track(message: TrackMessage): string {
    return this.#enqueue('track', message);
  }

  /** Queues a page call; returns its messageId. */
  page(message: PageMessage): string {
    return this.#enqueue('page', message);
  }

  /** Queues a screen call; returns its messageId. */
  screen(message: ScreenMessage): string {
    return this.#enqueue('screen', message);
  }

  /** Queues a group call (`groupId` required, no event name); returns its messageId. */
  group(message: GroupMessage): string {
    return this.#enqueue('group', message);
  }

  /** Queues an alias call (`userId` and `previousId` required); returns its messageId. */
  alias(message: AliasMessage): string {
    return this.#enqueue('alias', message);
  }

  /** Messages waiting in the queue (not yet handed to a request). */
  get queued(): number {
    return this.#queue.length;
  }

  /** True once `close()` has been called: further calls throw. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /**
   * Sends everything queued so far. Resolves when it, and every request before it, has been sent or has
   * failed for good (failures go to `onError`); it never rejects.
   */
  flush(): Promise<void> {
    return this.#flushQueue('flush()');
  }

  /** Flushes, stops the timer and refuses further calls. Resolves when the queue is drained; idempotent. */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      this.#log('closing');
      this.#closing = this.#flushQueue('close()').then(() => this.#log('closed'));
    }
    return this.#closing;
  }

  #enqueue(type: CallType, input: unknown): string {
    if (this.#closing !== undefined) {
      throw new ClientError(`${type}: the client is closed`, { code: 'closed', call: type });
    }
    const built = buildMessage(type, input, { now: this.#clock.now(), newMessageId: randomUUID, library: this.#library });
    if (this.#queue.length > 0 && requestBytes(this.#queueBytes + built.bytes, this.#queue.length + 1) > LIMITS.requestBytes) {
      this.#flushQueue(`a request of ${LIMITS.requestBytes} bytes is full`);
    }
    this.#queue.push(built);
    this.#queueBytes += built.bytes;
    this.#log(`queued ${type} ${built.message.messageId} (${built.bytes} bytes, ${plural(this.#queue.length, 'message')} queued)`);
    if (this.#queue.length >= this.flushAt) this.#flushQueue(`flushAt ${this.flushAt} reached`);
    else this.#arm();
    return built.message.messageId;
  }

  /** Arms the flushAfter timer for `lastFlush + flushAfter`, if messages wait and it is not armed. */
  #arm(): void {
    if (this.#timer !== undefined || this.#queue.length === 0 || !Number.isFinite(this.flushAfter)) return;
    const due = Math.min(MAX_TIMER_MS, Math.max(0, this.#lastFlushAt + this.flushAfter - this.#clock.now()));
    const timer: { handle: unknown } = { handle: undefined };
    timer.handle = this.#timers.setTimeout(() => {
      if (this.#timer !== timer) return;
      this.#timer = undefined;
      void this.#flushQueue(`flushAfter ${this.flushAfter} ms elapsed`);
    }, due);
    this.#timer = timer;
  }

  #disarm(): void {
    if (this.#timer === undefined) return;
    this.#timers.clearTimeout(this.#timer.handle);
    this.#timer = undefined;
  }

  #flushQueue(reason: string): Promise<void> {
    this.#disarm();
    this.#lastFlushAt = this.#clock.now();
    if (this.#queue.length === 0) return this.#tail;
    const items = this.#queue;
    this.#queue = [];
    this.#queueBytes = 0;
    const requests = splitIntoRequests(items, LIMITS.requestBytes);
    this.#log(`flushing ${plural(items.length, 'message')} in ${plural(requests.length, 'request')} (${reason})`);
    for (const request of requests) {
      this.#tail = this.#tail.then(() => this.#send(request)).catch((e: unknown) => this.#logger.error(`internal error: ${errorText(e)}`));
    }
    return this.#tail;
  }

  async #send(items: Built[]): Promise<void> {
    const attempts = this.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(items, attempt, attempts);
      if (outcome.kind === 'sent') return;
      if (outcome.kind === 'retry' && attempt < attempts) {
        const backoff = backoffDelay(attempt, this.#backoffInitialMs, this.#backoffMaxMs, this.#random);
        const delay = Math.max(backoff, Math.min(outcome.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
        this.#log(`retrying ${plural(items.length, 'message')} in ${delay} ms after ${outcome.reason} (attempt ${attempt} of ${attempts} failed)`);
        await new Promise<void>((resolve) => this.#timers.setTimeout(resolve, Math.min(delay, MAX_TIMER_MS)));
        continue;
      }
      this.#drop(items, outcome, attempt);
      return;
    }
  }

  async #attempt(items: Built[], attempt: number, attempts: number): Promise<Attempt> {
    const body = batchBody(
      items.map((i) => i.json),
      new Date(this.#clock.now()).toISOString(),
    );
    this.#log(`POST ${this.#url}: ${plural(items.length, 'message')}, ${Buffer.byteLength(body, 'utf8')} bytes (attempt ${attempt} of ${attempts})`);
    let res: FetchResponse;
    try {
      res = await this.#fetch(this.#url, {
        method: 'POST',
        headers: { ...this.#headers },
        body,
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'manual',
      });
    } catch (cause) {
      const reason = isTimeout(cause) ? `no response within ${this.#timeoutMs} ms` : `network error: ${errorText(cause)}`;
      this.#log(reason);
      return { kind: 'retry', reason, cause };
    }
    const { status } = res;
    let text = '';
    try {
      text = await res.text();
    } catch {
      // the status decides; the body is only for the report
    }
    this.#log(`response ${status}${text ? `: ${truncate(text, 200)}` : ''}`);
    if (status >= 200 && status < 300) return { kind: 'sent', status };
    const body_ = parseBody(text);
    const serverError = serverErrorOf(body_);
    const detail = serverError?.message ? `: ${serverError.code ? `${serverError.code}: ` : ''}${serverError.message}` : '';
    const reason = `HTTP ${status}${detail}`;
    const base = { reason, status, ...(body_ !== undefined ? { body: body_ } : {}), ...(serverError ? { serverError } : {}) };
    if (status === 429 || status >= 500) {
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), this.#clock.now());
      return { kind: 'retry', ...base, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    }
    if (status >= 300 && status < 400) return { kind: 'drop', ...base, reason: `HTTP ${status}: redirect not followed` };
    return { kind: 'drop', ...base };
  }

  #drop(items: Built[], outcome: Exclude<Attempt, { kind: 'sent' }>, attempts: number): void {
    const permanent = outcome.kind === 'drop';
    const message =
      `${LIBRARY_NAME}: dropped ${plural(items.length, 'message')}: ${outcome.reason}` +
      (permanent ? ' (not retried)' : ` (after ${plural(attempts, 'attempt')})`);
    const messages: BatchMessage[] = items.map((i) => i.message);
    const error = new ClientError(message, {
      code: permanent ? 'rejected' : 'delivery_failed',
      attempts,
      messages,
      ...(outcome.status !== undefined ? { status: outcome.status } : {}),
      ...(outcome.body !== undefined ? { body: outcome.body } : {}),
      ...(outcome.serverError !== undefined ? { serverError: outcome.serverError } : {}),
      ...(outcome.cause !== undefined ? { cause: outcome.cause } : {}),
    });
    this.#log(message);
    const onError = this.#onError;
    if (onError === undefined) {
      if (!this.debug) this.#logger.error(message);
      return;
    }
    try {
      const result: unknown = onError(error);
      if (result instanceof Promise) result.catch((e: unknown) => this.#logger.error(`onError failed: ${errorText(e)}`));
    } catch (e) {
      this.#logger.error(`onError threw: ${errorText(e)}; the dropped batch: ${message}`);
    }
  }

  #log(message: string): void {
    if (this.debug) this.#logger.debug(message);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
