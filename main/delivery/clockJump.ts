/**
 * A clock jump (Engine.advance, docs/behaviour.md §5): its state while it plays, the progress it reports, and
 * the estimate of how many rounds it will play.
 */
import type { RetryPolicy } from '../contract/destinations.js';
import type { ClockJump } from '../contract/overview.js';

/** During a jump with Fast-forward unanswered attempts on: no response headers after this long ends an attempt. */
export const FAST_FORWARD_AFTER_MS = 1_000;
/** Least real time between two progress reports of a jump. */
export const JUMP_REPORT_MS = 250;

/** What a finished (or interrupted) advance played. */
export interface AdvanceOutcome {
  cancelled: boolean;
  attemptsPlayed: number;
  rounds: number;
}

/** A clock jump in progress (Engine.advance). */
export interface Jump {
  /** Engine time the jump goes to. */
  target: number;
  fromOffsetMs: number;
  targetOffsetMs: number;
  fastForward: boolean;
  /** Per delivery, how many of its rounds this jump has played: the longest chain is the jump's round. */
  depth: Map<number, number>;
  round: number;
  estimate: number;
  attemptsPlayed: number;
  cancelled: boolean;
  /** Resolves the advance's wait: the jump is over, finished or interrupted. */
  finish: () => void;
  /** Stores the offset the jump has reached (the advance's persistOffset), as it moves it. */
  keepOffset: (offsetMs: number) => void;
  lastReport: number;
  reportTimer: unknown;
  /** Monotonic real time when the jump began, and when each of its rounds began (index = round - 1). */
  startedAt: number;
  roundStartedAt: number[];
  /** Deliveries due by the target when the jump began. */
  due: number;
  /** Deliveries whose chain the jump has finished (delivered, failed, cancelled, or waiting past the target). */
  settled: Set<number>;
}

/** A jump of `ms` from engine time `now` and offset `fromOffsetMs`, not yet started. */
export function newJump(now: number, fromOffsetMs: number, ms: number, fastForward: boolean, startedAt = 0): Jump {
  return {
    target: now + ms,
    fromOffsetMs,
    targetOffsetMs: fromOffsetMs + ms,
    fastForward,
    depth: new Map(),
    round: 0,
    estimate: 0,
    attemptsPlayed: 0,
    cancelled: false,
    finish: () => undefined,
    keepOffset: () => undefined,
    lastReport: 0,
    reportTimer: null,
    startedAt,
    roundStartedAt: [],
    due: 0,
    settled: new Set(),
  };
}

/** The jump has started the round of a delivery: the longest chain of rounds is the jump's round. */
export function jumpStartedRound(jump: Jump, deliveryId: number, at: number): void {
  const depth = (jump.depth.get(deliveryId) ?? 0) + 1;
  jump.depth.set(deliveryId, depth);
  jump.settled.delete(deliveryId);
  if (depth > jump.round) {
    jump.round = depth;
    jump.roundStartedAt.push(at);
  }
}

/** A round of the jump was recorded: its delivery is settled when nothing more of it falls due by the target. */
export function jumpRecordedRound(jump: Jump, round: { deliveryId: number; status: string; nextAttemptAt: number | null }): void {
  if (!jump.depth.has(round.deliveryId)) return;
  const waiting = (round.status === 'retrying' || round.status === 'queued') && round.nextAttemptAt !== null && round.nextAttemptAt <= jump.target;
  if (!waiting) jump.settled.add(round.deliveryId);
}

/** What getClock and the clockJumpUpdated event say of a jump in progress. */
export function jumpProgress(jump: Jump, offsetMs: number, attemptsInFlight: number, now: number): ClockJump {
  const estimate = Math.max(jump.estimate, jump.round);
  const starts = jump.roundStartedAt;
  // The pace of the rounds begun so far; the current one is part-way, so what is left of it is its pace less its age.
  const msPerRound = starts.length >= 2 ? (starts[starts.length - 1]! - starts[0]!) / (starts.length - 1) : null;
  const msLeft = msPerRound === null ? null : Math.max(0, msPerRound * (estimate - jump.round + 1) - (now - starts[starts.length - 1]!));
  return {
    fromOffsetMs: jump.fromOffsetMs,
    targetOffsetMs: jump.targetOffsetMs,
    reachedOffsetMs: Math.min(offsetMs, jump.targetOffsetMs),
    attemptsInFlight,
    attemptsPlayed: jump.attemptsPlayed,
    round: jump.round,
    roundsEstimate: estimate,
    fastForward: jump.fastForward,
    elapsedMs: Math.max(0, now - jump.startedAt),
    msPerRound: msPerRound === null ? null : Math.round(msPerRound),
    msLeft: msLeft === null ? null : Math.round(msLeft),
    deliveries: { settled: jump.settled.size, total: Math.max(jump.due, jump.depth.size) },
  };
}

/**
 * About how many rounds a jump to `target` plays: for each destination's waiting delivery with the most
 * rounds left, its nominal schedule (no jitter, instant answers) up to the target and its window.
 */
export function estimateRounds(
  waiting: readonly { destinationId: string; dueAt: number; attempts: number; firstAttemptAt: number | null }[],
  policyOf: (destinationId: string) => RetryPolicy | undefined,
  target: number,
): number {
  let most = 0;
  for (const w of waiting) {
    const policy = policyOf(w.destinationId);
    if (!policy) continue;
    let at = w.dueAt;
    let made = w.attempts;
    let rounds = 0;
    while (at <= target && rounds < 1_000) {
      rounds++;
      made++;
      if (policy.maxAttempts !== undefined && made >= policy.maxAttempts) break;
      at += policy.schedule[Math.min(made, policy.schedule.length) - 1] ?? 0;
      if (at > (w.firstAttemptAt ?? w.dueAt) + policy.windowMs) break;
    }
    if (rounds > most) most = rounds;
  }
  return most;
}
