/**
 * Public types of the Hookbench client library (docs/behaviour.md §11): the message objects each call takes, the
 * messages as they travel in a `/v1/batch` request, and the client's options with their injectable parts.
 */
import type { Dispatcher } from 'undici';
import type { ClientError } from './errors.js';

/** Free-form attributes: event properties, user or group traits, context, integrations. */
export type Properties = Record<string, unknown>;

/** The six calls the client makes. */
export type CallType = 'identify' | 'track' | 'page' | 'screen' | 'group' | 'alias';

/** Every call names the user: `userId`, `anonymousId` or both (an empty string counts as absent). */
export type Identity = { userId: string; anonymousId?: string } | { userId?: string; anonymousId: string };

/** Optional parts every call may carry. */
export interface CommonFields {
  /** Extra context (device, ip, locale, ...). The client adds `context.library`. */
  context?: Properties;
  /** Turns destinations on or off for this call: `{ All: false, Webhooks: true }`. Keys are case sensitive. */
  integrations?: Properties;
  /** ISO 8601 string or Date, for historical import. Absent: the time of the call. */
  timestamp?: string | Date;
  /** Absent: the client assigns a UUID. */
  messageId?: string;
}

export type IdentifyMessage = Identity & CommonFields & { traits?: Properties };

export type TrackMessage = Identity & CommonFields & { event: string; properties?: Properties };

/** `traits` is the Go client's name for the page's properties; give one or the other. */
export type PageMessage = Identity &
  CommonFields & { name?: string; category?: string; properties?: Properties; traits?: Properties };

export type ScreenMessage = Identity & CommonFields & { name?: string; properties?: Properties };

/** Group needs `groupId` and a user; it has no event name. */
export type GroupMessage = Identity & CommonFields & { groupId: string; traits?: Properties };

/** `userId` is the new ID, `previousId` the ID to alias from (typically the anonymous ID). */
export interface AliasMessage extends CommonFields {
  userId: string;
  previousId: string;
  /** The anonymous ID being aliased, when the caller has one (sent as given). */
  anonymousId?: string;
}

export interface LibraryInfo {
  name: string;
  version: string;
}

/** One message as it is sent in a batch: the call plus `type`, `messageId`, `timestamp` and `context.library`. */
export interface BatchMessage {
  type: CallType;
  messageId: string;
  /** ISO 8601, UTC with milliseconds. */
  timestamp: string;
  userId?: string;
  anonymousId?: string;
  previousId?: string;
  groupId?: string;
  event?: string;
  name?: string;
  category?: string;
  properties?: Properties;
  traits?: Properties;
  context: Properties & { library: LibraryInfo };
  integrations?: Properties;
}

/** The body of `POST /v1/batch`. */
export interface BatchBody {
  batch: BatchMessage[];
  /** When the request was sent (each attempt), ISO 8601. */
  sentAt: string;
}

/** Reads the time (ms since the epoch). Injectable so tests run on a fake clock. */
export interface Clock {
  now(): number;
}

/** The two timer functions the client uses (the flushAfter timer and retry backoff). Injectable for tests. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What the client needs of a fetch response. */
export interface FetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface FetchInit {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  redirect: 'manual';
}

/** A fetch function: global `fetch`, undici's `fetch`, or a test double. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** Where log lines go. `console` fits. Debug lines are written only when debugging is on. */
export interface Logger {
  debug(message: string): void;
  error(message: string): void;
}

export interface BackoffOptions {
  /** First retry delay. Default 100 ms; it doubles on each retry. */
  initialMs?: number;
  /** Cap of the doubling delay. Default 10 000 ms. */
  maxMs?: number;
}

export interface ClientOptions {
  /** Base URL of the collection service; requests go to `${endpoint}/v1/batch`. Default `http://127.0.0.1:4400`. */
  endpoint?: string;
  /** Flush when this many messages are queued. Default 20; `1` sends every call at once. */
  flushAt?: number;
  /** Alias of `flushAt` (the Go client's `Size`). */
  size?: number;
  /** Flush when this many ms have passed since the last flush. Default 5000. `Infinity` turns the timer off. */
  flushAfter?: number;
  /** Retries of a failed send (network error, timeout, 5xx, 429). Default 3 (4 attempts in all). */
  maxRetries?: number;
  /** Exponential backoff between retries, with ±25 % jitter. */
  backoff?: BackoffOptions;
  /** Per-request timeout in ms (real time). Default 15 000. A timeout is retried like a network error. */
  timeoutMs?: number;
  /** Time source for timestamps, `sentAt` and the flushAfter schedule. Default `Date`. */
  clock?: Clock;
  /** Timer functions for the flushAfter timer and backoff waits. Default the global ones. */
  timers?: Timers;
  /** Random source in [0, 1) for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /** HTTP: a fetch function. Default the global `fetch` (or undici's when `dispatcher` is given). */
  fetch?: FetchLike;
  /** HTTP: an undici dispatcher (Agent, Pool, ProxyAgent, MockAgent); requests then use undici's fetch. */
  dispatcher?: Dispatcher;
  /** Where log lines go. Default: stderr, each line prefixed `analytics `. */
  logger?: Logger;
  /** Debug logging on or off. Default: on when the DEBUG environment variable lists `analytics`. */
  debug?: boolean;
  /**
   * Called once for every batch that is dropped (a 4xx other than 429, or retries exhausted), with the
   * messages it held. Without it, dropped batches are written through `logger.error`.
   */
  onError?: (error: ClientError) => void;
}
