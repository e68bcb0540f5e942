/**
 * The engine's state as the top bar and the control commands answer it: the clock and a clock jump, the
 * overview's counters, and where this workbench lives (settings).
 */
import type { MessageCounter, MessageStatus } from './messages.js';

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
