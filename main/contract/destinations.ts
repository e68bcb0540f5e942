/**
 * Destinations: their record, retry policy and filters, the names Hookbench reserves for its own tools
 * (`hookbench send`, the check's), what the Destinations list shows of their deliveries, and the kinds of
 * secret revealSecret shows.
 */
import type { DeliveryStatus } from './deliveries.js';

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
   * read low; never below 0). Null for minutes before Hookbench started: nothing was counted then.
   */
  backlog: (number | null)[];
  /** Deliveries of this destination waiting for a retry now (read from the database). */
  backlogNow: number;
}

export const SECRET_KINDS = ['destination', 'source', 'receiver'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];
