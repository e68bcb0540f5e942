import type { MessageType } from './message/messageShapes.js';
import type { ReceiverCheck, SignatureVerdict } from './receiver/receiver.js';

/** docs/behaviour.md §3: these names are contracts (store, API, UI, docs). */
export const DELIVERY_STATUSES = ['queued', 'delivering', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const MESSAGE_STATUSES = ['filtered', 'queued', 'delivering', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const ATTEMPT_OUTCOMES = ['success', 'timeout', 'http_error', 'network_error', 'tls_error'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Reasons with fixed wording (docs/behaviour.md §3); the per-status ones are built by `reasons` below. */
export const REASONS = {
  windowExhausted: 'retry window exhausted',
  cancelledByUser: 'cancelled by user',
  destinationDeleted: 'destination deleted',
  duplicateMessageId: 'duplicate messageId',
  selfSigned: 'tls: self-signed certificate',
} as const;

export const reasons = {
  permanentHttp: (status: number): string => `permanent: HTTP ${status}`,
  redirect: (status: number): string => `redirect not followed (${status})`,
  maxAttempts: (n: number): string => `max attempts reached (${n})`,
};

export const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * The destinations `hookbench send` sends through (`hookbench send`, `hookbench send 2`, ...): the CLI's
 * own helpers, connected to no source. Troubleshooting does not report them as the user's problems.
 */
export const SEND_DESTINATION = 'hookbench send';

export function isSendDestination(name: string): boolean {
  return name === SEND_DESTINATION || /^hookbench send \d+$/.test(name);
}

/**
 * The destinations a check run sends through the engine (main/check/engineRoute.ts): signed with the
 * secret, with another secret on purpose, and unsigned. They and their messages are the check's.
 */
export const CHECK_DESTINATIONS = { valid: 'hookbench check', 'wrong-secret': 'hookbench check (another secret)', none: 'hookbench check (unsigned)' } as const;

/** Whose a destination is: the user's, or one a tool of Hookbench's keeps for itself (names are reserved). */
export const DESTINATION_OWNERS = ['user', 'check', 'send'] as const;
export type DestinationOwner = (typeof DESTINATION_OWNERS)[number];

export function destinationOwner(name: string): DestinationOwner {
  if (isSendDestination(name)) return 'send';
  return (Object.values(CHECK_DESTINATIONS) as string[]).includes(name) ? 'check' : 'user';
}

/**
 * Where a message came from when it is not the user's traffic: `check` for the messages a check run sends
 * through the engine. Lists, counters and troubleshooting leave them out unless asked (`origin: 'check'`).
 */
export const MESSAGE_ORIGINS = ['check'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];

/** The default retry schedule: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h (the last entry repeats). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  schedule: [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000],
  windowMs: 4 * 60 * 60 * 1000,
  jitter: 0.2,
};

export interface RetryPolicy {
  /** Delay before retry n (1-based) is schedule[n-1]; past the end the last entry repeats. */
  schedule: number[];
  /** A retry is scheduled only when it falls due at or before first attempt + windowMs. */
  windowMs: number;
  /** Fraction of each delay added or removed at random (0.2 = ±20 %). */
  jitter: number;
  /** Optional cap on attempts (rounds), counting the first one. */
  maxAttempts?: number;
}

export interface Webhook {
  url: string;
  headers: Record<string, string>;
}

export interface EventFilters {
  /** When non-empty, only track calls with these event names are delivered. */
  allowEvents: string[];
  /** Track calls with these event names are never delivered. */
  blockEvents: string[];
}

export interface Destination {
  id: string;
  name: string;
  enabled: boolean;
  /** Ids of connected sources. */
  sourceIds: string[];
  sharedSecret: string | null;
  webhooks: Webhook[];
  caFile: string | null;
  timeoutMs: number;
  retry: RetryPolicy;
  filters: EventFilters;
  createdAt: number;
  updatedAt: number;
}

/** listDestinationStats looks at each destination's newest deliveries, at most this many. */
export const DESTINATION_STATS_WINDOW = 100;

/** What the Destinations list shows of one destination's deliveries (listDestinationStats). */
export interface DestinationStats {
  destinationId: string;
  /** Deliveries waiting or in flight (queued, retrying, delivering): what deleting the destination cancels. */
  pending: number;
  /** Its newest deliveries looked at: at most DESTINATION_STATS_WINDOW. */
  recent: number;
  /** Of those, delivered and failed for good. */
  delivered: number;
  failed: number;
  /** failed / (delivered + failed) among them; null while none of them has finished. */
  failureRate: number | null;
  /** Its newest delivery (by message): status, reason, and when it last changed (engine time). */
  last: { deliveryId: number; messageId: number; status: DeliveryStatus; reason: string | null; at: number } | null;
}

/**
 * One destination's last hour per minute of engine time (getDestinationTimeline), oldest first (60 each; the
 * last is the minute now, still counting). Counted in memory as the engine records each round: the minutes
 * start empty after a restart.
 */
export interface DestinationTimeline {
  destinationId: string;
  /** Engine time at which the first minute starts. */
  from: number;
  minuteMs: number;
  /** Rounds that minute that delivered the message, failed and scheduled a retry, or failed for good. */
  delivered: number[];
  retried: number[];
  failed: number[];
  /** Latency of the minute's attempts in ms (null: none), from buckets a quarter apart: within 12 %. */
  p50: (number | null)[];
  p95: (number | null)[];
  /**
   * Deliveries waiting for a retry at the end of each minute: the last is `backlogNow`; earlier minutes are
   * worked back from the rounds recorded since (a retry cancelled by hand leaves no round, so before it they
   * read low; never below 0).
   */
  backlog: number[];
  /** Deliveries of this destination waiting for a retry now (read from the database). */
  backlogNow: number;
}

export const SOURCE_KINDS = ['web', 'mobile', 'server'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface Source {
  id: string;
  name: string;
  kind: SourceKind;
  writeKey: string;
  createdAt: number;
}

export interface MessageRecord {
  /** Hookbench's own id (a replay that keeps `messageId` is still a new message). */
  id: number;
  messageId: string;
  type: MessageType;
  sourceId: string | null;
  userId: string | null;
  event: string | null;
  status: MessageStatus;
  /** Why it is filtered, failed or cancelled. */
  statusReason: string | null;
  /** Engine time of receipt, ms since the epoch. */
  receivedAt: number;
  /** The body as delivered: the exact bytes, as UTF-8 text. */
  body: string;
  /** The call as it was received (before shaping). */
  call: Record<string, unknown>;
  replayOf: number | null;
  /** `check` for a check run's own message; absent for the user's traffic. */
  origin?: MessageOrigin;
}

export interface DeliveryRecord {
  id: number;
  messageId: number;
  destinationId: string;
  destinationName: string;
  status: DeliveryStatus;
  reason: string | null;
  /** Rounds attempted so far (a round sends to every pending webhook at once). */
  attempts: number;
  firstAttemptAt: number | null;
  nextAttemptAt: number | null;
  /** Webhook URLs the next round will send to. */
  pendingUrls: string[];
  updatedAt: number;
  /**
   * Only on a delivery failed with `retry window exhausted`: when the attempt that did not come would have
   * fallen due, and the end of the window (first attempt + retry.windowMs) it fell past. Engine times.
   */
  pastWindow?: { dueAt: number; windowEndsAt: number };
}

export interface AttemptRecord {
  id: number;
  deliveryId: number;
  messageId: number;
  /** Round number, 1 for the first attempt. */
  attemptNumber: number;
  webhookIndex: number;
  url: string;
  outcome: AttemptOutcome;
  retryable: boolean;
  statusCode: number | null;
  /** Human-readable cause for anything but success (`timeout after 5000 ms`, `ECONNREFUSED`, ...). */
  error: string | null;
  /** Engine times, ms since the epoch. */
  startedAt: number;
  finishedAt: number;
  /** Real milliseconds from sending to response headers (or to the failure). */
  durationMs: number;
  requestHeaders: Record<string, string>;
  /** Lowercase hex X-Signature sent, when the destination has a secret. */
  signature: string | null;
  responseHeaders: Record<string, string> | null;
  /** The first 64 KiB of the response body (UTF-8, lossy). */
  responseBody: string | null;
  responseTruncated: boolean;
}

export interface MessageDetail {
  message: MessageRecord;
  deliveries: DeliveryRecord[];
  attempts: AttemptRecord[];
  /**
   * getMessage only, when attempts went to the mock receiver of this workbench: what the receiver made of
   * each request (its signature verdict) and the capture to open. Absent when there is none.
   */
  receiverChecks?: ReceiverCheck[];
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** listMessages' page. */
export interface MessagePage extends Page<MessageSummary> {
  /**
   * Present when the page stopped before `limit` items to answer quickly: a `text` filter searches the bodies
   * of messages the history index does not cover yet one by one, a bounded number a page. About `left` of
   * them are still to search below `nextCursor`; follow it (the page may even be empty).
   */
  searching?: { left: number };
}

export interface ClockState {
  /** Engine time, ms since the epoch. */
  now: number;
  /** Engine time minus real time. */
  offsetMs: number;
}

/** A clock jump (advanceClock) in progress: how far it got and what it is playing (docs/behaviour.md §5). */
export interface ClockJump {
  /** The offset when the jump began, the offset it is going to, and the offset it has reached. */
  fromOffsetMs: number;
  targetOffsetMs: number;
  reachedOffsetMs: number;
  /** Attempts (one POST to one webhook) out on the network now: the jump's, and any live ones it waits for. */
  attemptsInFlight: number;
  /** Attempts the jump has finished so far. */
  attemptsPlayed: number;
  /** The jump's rounds so far: the longest chain of one delivery's attempts it played one after another. */
  round: number;
  /** About how many rounds the jump takes (the retry schedules of what waits); never below `round`. */
  roundsEstimate: number;
  /** Fast-forward unanswered attempts is on for this jump. */
  fastForward: boolean;
  /** Real milliseconds since the jump began. */
  elapsedMs: number;
  /**
   * Real milliseconds a round has taken so far (a round waits for its slowest answer: the destination's
   * timeout when attempts go unanswered); null until a second round has begun.
   */
  msPerRound: number | null;
  /** About how many real milliseconds are left (rounds left at msPerRound); null while it cannot be told yet. */
  msLeft: number | null;
  /** Deliveries the jump plays (due by its target when it began, and any that came due on the way) and how many of them it has settled (delivered, failed for good, or waiting past the target). */
  deliveries: { settled: number; total: number };
}

/** The clock with its time-travel state: getClock. */
export interface ClockStatus extends ClockState {
  /** The persisted **Fast-forward unanswered attempts** setting (setFastForward). */
  fastForward: boolean;
  /** The jump in progress, or null. */
  jump: ClockJump | null;
}

/** What advanceClock answers: where the clock is, and what the jump played. */
export interface ClockAdvance extends ClockState {
  /** True when Cancel or resetClock interrupted the jump: the clock stays where it got to (or at real time). */
  cancelled: boolean;
  /** Attempts the jump finished, and its rounds (see ClockJump.round). */
  attemptsPlayed: number;
  rounds: number;
}

/**
 * An attempt ended early by **Fast-forward unanswered attempts** has outcome `timeout` and an `error` that
 * starts with this: `fast-forwarded after 1 s without response headers (...)` (docs/behaviour.md §5).
 */
export const FAST_FORWARDED = 'fast-forwarded';

export function isFastForwarded(attempt: Pick<AttemptRecord, 'outcome' | 'error'>): boolean {
  return attempt.outcome === 'timeout' && attempt.error !== null && attempt.error.startsWith(`${FAST_FORWARDED} `);
}

/** A refused ingestion request: not a message, kept with its reason (docs/behaviour.md §2). */
export interface IngestRefusal {
  id: number;
  receivedAt: number;
  sourceId: string | null;
  route: string;
  clientIp: string | null;
  httpStatus: number;
  code: string;
  message: string;
  field: string | null;
  index: number | null;
  /** The limit that was exceeded (bytes, levels), when the refusal is about one. */
  limit: number | null;
  bodyBytes: number | null;
  /** The first 4 KiB of the decoded body. */
  bodyPreview: string | null;
}

export const USAGE_COUNTERS = ['received', 'accepted', 'refused', 'filtered'] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];

/**
 * A source's counters per minute of engine time over the last hour, oldest first (60 each; the last is
 * the minute now, still counting). Kept in memory: they start at zero after a restart.
 */
export interface SourceUsageMinutes {
  /** Engine time at which the first minute starts. */
  from: number;
  minuteMs: number;
  received: number[];
  accepted: number[];
  refused: number[];
  filtered: number[];
}

export interface SourceUsage {
  sourceId: string;
  name: string;
  /** Calls received, accepted (stored as messages), refused (in refused requests), filtered (routed nowhere). */
  received: number;
  accepted: number;
  refused: number;
  filtered: number;
  lastHour: SourceUsageMinutes;
}

/** A deletion request and the `delete` messages it created (one per affected source). */
export interface DeletionRequest {
  id: number;
  userId: string;
  createdAt: number;
  sourceIds: string[];
  messageIds: number[];
}

/**
 * A message as lists show it: no body or call (those stay in SQLite and come with getMessage), plus what a
 * row needs from its deliveries.
 */
export interface MessageSummary {
  id: number;
  messageId: string;
  type: MessageType;
  sourceId: string | null;
  userId: string | null;
  anonymousId: string | null;
  event: string | null;
  status: MessageStatus;
  statusReason: string | null;
  receivedAt: number;
  replayOf: number | null;
  /** Size of the delivered body in bytes. */
  bytes: number;
  /** Rounds attempted so far: the most of any of its deliveries. */
  attempts: number;
  /** The earliest next attempt of its waiting deliveries (engine time), or null. */
  nextAttemptAt: number | null;
  destinationIds: string[];
  /**
   * The mock receiver's X-Signature verdict on this message: per delivery the newest checked request's,
   * the worst of those (`invalid`, then `missing`, then `valid`). Absent when no attempt went to an
   * endpoint that checks signatures.
   */
  receiverVerdict?: SignatureVerdict;
  /** `check` for a check run's own message; absent for the user's traffic. */
  origin?: MessageOrigin;
  /**
   * Each destination's delivery at a glance, in the order they were created: one message can be delivered
   * to one destination, refused on another and retrying on a third while its own status reads `retrying`.
   */
  deliveries: DeliverySummary[];
}

/** One delivery as a list row shows it (built by contract/message/messageSummary.ts, the one builder). */
export interface DeliverySummary {
  destinationId: string;
  destinationName: string;
  status: DeliveryStatus;
  /** Why it failed or was cancelled (docs/behaviour.md §3), else null. */
  reason: string | null;
  attempts: number;
  /** Engine time of its next attempt while it waits, else null. */
  nextAttemptAt: number | null;
  /** The outcome and HTTP status of its newest attempt; null before the first (and the status without a response). */
  lastOutcome: AttemptOutcome | null;
  lastStatusCode: number | null;
}

/**
 * A top-bar counter: how many messages it counted and the listMessages filter that lists exactly those
 * messages (taken at the same instant, so opening it shows that many rows).
 */
export interface MessageCounter {
  messages: number;
  filter: MessageFilter;
}

/** listMessages' filters (every one optional, all combined with AND). */
export interface MessageFilter {
  status?: MessageStatus | undefined;
  type?: MessageType | undefined;
  sourceId?: string | undefined;
  /** Messages with a delivery to this destination. */
  destinationId?: string | undefined;
  userId?: string | undefined;
  /** Track event (or page/screen name), exactly. */
  event?: string | undefined;
  /** A substring of the delivered body (case-insensitive for ASCII). */
  text?: string | undefined;
  /** Received at or after / before this engine time (ms since the epoch). */
  from?: number | undefined;
  to?: number | undefined;
  /** Messages with at least one delivery in this status (`failed`: any delivery failed, whatever the others did). */
  delivery?: DeliveryStatus | undefined;
  /** With `delivery`: that delivery reached its status at or after this engine time (ms since the epoch). */
  deliverySince?: number | undefined;
  /**
   * Messages with a delivery that failed at or after this real time (ms since the epoch). Real, not engine,
   * time: a clock jump's failures happened just now for the user, and Reset offset does not move them.
   */
  failedSince?: number | undefined;
  /** Only a check run's own messages (lists leave them out otherwise). */
  origin?: MessageOrigin | undefined;
}

/** What the top bar and the overview show: counts, the retry backlog and the clock. */
export interface Overview {
  /** Messages per status. */
  counts: Record<MessageStatus, number>;
  /** Every stored message. */
  totalMessages: number;
  /**
   * The top bar's counters, in messages, each with the filter that lists them: being sent now (status
   * `delivering`), waiting for a retry (status `retrying`), and with a delivery that failed in the last
   * hour of real time (`failedSince`: a jump's failures count as just now; Reset offset changes nothing).
   */
  messageCounters: { inFlight: MessageCounter; retrying: MessageCounter; failedLastHour: MessageCounter };
  /** Deliveries being attempted right now. */
  inFlight: number;
  /** Deliveries waiting for a retry. */
  retrying: number;
  /** Deliveries that failed for good within the last hour (real time). */
  failedLastHour: number;
  /** Waiting deliveries already due. */
  dueRetries: number;
  /** When the next waiting delivery falls due (engine time), or null when none waits. */
  nextDueAt: number | null;
  clock: ClockState;
  /** Forwarding is held (pauseForwarding): accepted messages wait, queued. */
  paused: boolean;
  /** Calls accepted by ingestion and the API in the last minute (engine time). */
  acceptedLastMinute: number;
}

/** Where this workbench lives and how to reach it. URLs are null where the face has no such listener. */
export interface Settings {
  dataDir: string;
  databaseFile: string;
  /** Size of the database and its WAL, in bytes. */
  databaseBytes: number;
  version: string;
  versions: { node: string; electron: string | null; sqlite: string };
  /** The typed API and ingestion base URL (no token). */
  url: string | null;
  /** The UI's URL with its token. */
  uiUrl: string | null;
  /** Base URL SDKs point at: `<ingestUrl>/v1/batch`. */
  ingestUrl: string | null;
  receiverUrl: string | null;
  receiverTlsUrl: string | null;
}

export const SECRET_KINDS = ['destination', 'source', 'receiver'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];
