/**
 * The forwarding engine: claims due deliveries from SQLite, sends a round to their webhooks, records the
 * outcome and schedules the next round. Retries are rows, never only timers: the one timer here just wakes
 * the engine at the earliest due row, and a restart resumes from the rows.
 */
import type { EngineEvent } from '../contract/events.js';
import type { AttemptRecord, ClockJump, Destination, Webhook } from '../contract/models.js';
import { deliveryRecord } from '../contract/messageSummary.js';
import { decideAfterRound, type WebhookResult } from '../domain/deliveryDecision.js';
import { jitterUnit, retryDelay } from '../domain/retryPolicy.js';
import { corruptionError, isCorruptionError, isWriteFailure } from '../store/integrity.js';
import type { ClaimedDelivery, RoundResult, Store, StoredRound } from '../store/store.js';
import { realMonotonicTime, type Clock, type MonotonicTime } from '../platform/clock.js';
import type { Result } from '../contract/result.js';
import type { SendResult } from './webhookRequests.js';
import type { Forwarder } from './forwarders.js';

/** The result of a round to a webhook that could not be resolved to an address. */
function unresolvable(why: string): SendResult {
  return {
    outcome: 'network_error',
    retryable: true,
    permanentReason: null,
    statusCode: null,
    error: why,
    retryAfterMs: null,
    durationMs: 0,
    requestHeaders: {},
    headersOnWire: false,
    signature: null,
    responseHeaders: null,
    responseBody: null,
    responseTruncated: false,
  };
}

export interface EngineOptions {
  store: Store;
  clock: Clock;
  forwarder: Forwarder;
  /** Seed for retry jitter. */
  seed: number;
  /** Current destination configuration by id (attempts use it at attempt time). */
  destination: (id: string) => Destination | undefined;
  /** A configured webhook URL as it is to be contacted now (`receiver:<name>` → the receiver's URL). */
  resolveUrl: (url: string) => Result<string>;
  emit: (event: EngineEvent) => void;
  /**
   * The engine is about to send a round's request to this URL (the mock receiver links the capture to the
   * attempt); the answer is called once the round has finished. Null: not a receiver URL.
   */
  expectRequest?: (url: string, body: Buffer, attempt: { messageRef: number; deliveryId: number; attemptNumber: number; webhookIndex: number }) => (() => void) | null;
  /** Whether anybody listens (events are built only then). */
  listening: () => boolean;
  /**
   * Rounds in flight at once: the window starts at `minInFlight` (default 256) and adapts up to
   * `maxInFlight` (default 2,048) to what the webhooks can take (see Engine.adapt).
   */
  minInFlight?: number;
  maxInFlight?: number;
  /** A clock jump began, progressed or ended (null); called at most every JUMP_REPORT_MS. */
  onJump?: (jump: ClockJump | null) => void;
  /** Pacing time and its timers: tick spacing, round times for the window, the wake-up at the next due row, jump reports (default: performance.now and real timers). */
  time?: MonotonicTime;
}

/** During a jump with Fast-forward unanswered attempts on: no response headers after this long ends an attempt. */
export const FAST_FORWARD_AFTER_MS = 1_000;
/** Least real time between two progress reports of a jump. */
const JUMP_REPORT_MS = 250;

/** What a finished (or interrupted) advance played. */
export interface AdvanceOutcome {
  cancelled: boolean;
  attemptsPlayed: number;
  rounds: number;
}

/** A clock jump in progress (Engine.advance). */
interface Jump {
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
  lastReport: number;
  reportTimer: unknown;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long a round that could not run (not a failed attempt) waits before it runs again. */
const REQUEUE_MS = 1_000;
/** How long finished rounds wait before they are recorded again, after a write failed (a full disk). */
const RECORD_RETRY_MS = 250;
/** Minimum real time between two ticks (transactions) while busy. */
const TICK_INTERVAL_MS = 20;
/** A tick that recorded and claimed fewer rows than this leaves the engine quiet: the next tick need not wait. */
const BUSY_TICK_ROWS = 16;
/** The window's default bounds (rounds in flight). Each round holds its body (at most 32 KiB) until recorded. */
export const MIN_IN_FLIGHT = 256;
export const MAX_IN_FLIGHT = 2_048;
/** How the window moves when it limits a tick's claim (see Engine.adapt). */
const GROW = 1.5;
const SHRINK = 0.9;
/** The share of a round's time spent waiting (for a connection, a thread) below which more window helps, and above which it only queues. */
const GROW_BELOW_WAITING = 0.3;
const SHRINK_ABOVE_WAITING = 0.6;

interface PendingWrite {
  round: RoundResult;
  destination: Pick<Destination, 'id' | 'name'>;
}

/**
 * Scheduling works in ticks. One tick is one transaction: it records every round that finished since the
 * last tick and claims due deliveries for the capacity that freed up. Batching the commits this way is what
 * lets the engine log every attempt at thousands of deliveries per second.
 */
export class Engine {
  private readonly options: EngineOptions;
  private readonly minInFlight: number;
  private readonly maxInFlight: number;
  /** Rounds allowed in flight now, between minInFlight and maxInFlight (see adapt). */
  private window: number;
  /** Over the rounds finished since the last tick: their time from claim to result, and their requests' own time (ms). */
  private roundMs = 0;
  private requestMs = 0;
  private timedRounds = 0;
  /** No change of the window before this time: the rounds it let in must finish first to be judged. */
  private adaptAfter = 0;
  /** Rounds claimed and not yet recorded. */
  private inFlight = 0;
  /** Attempts (one POST to one webhook) out on the network now. */
  private attemptsOut = 0;
  private tickQueued = false;
  private lastTick = 0;
  /** Rounds recorded plus deliveries claimed by the last tick. */
  private lastTickRows = 0;
  private timer: unknown = null;
  private timerDue: number | null = null;
  private writes: PendingWrite[] = [];
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** Claiming rounds (start() .. pause()); finished rounds are recorded either way. */
  private started = false;
  /** Whether start() has queued again the rounds a crash interrupted (once, on the first start). */
  private resumed = false;
  private advancing: Promise<unknown> = Promise.resolve();
  /** The jump in progress, if any (advance). */
  private jump: Jump | null = null;
  /** Bumped by cancelAdvances: advances queued before it resolve as cancelled without moving the clock. */
  private generation = 0;
  /** All resets together (ms): a round in flight across a reset moves its next due time back by what it missed. */
  private shifted = 0;
  /**
   * Per round in flight (by delivery id): the earliest engine time its result could make a retry due (its
   * start plus its next delay; Retry-After only lengthens it). A jump plays nothing beyond the earliest of
   * these before that round is back, so rounds start in time order while many wait on the network at once.
   */
  private readonly bounds = new Map<number, number>();
  private readonly time: MonotonicTime;

  constructor(options: EngineOptions) {
    this.options = options;
    this.time = options.time ?? realMonotonicTime;
    this.minInFlight = Math.max(1, options.minInFlight ?? Math.min(MIN_IN_FLIGHT, options.maxInFlight ?? MIN_IN_FLIGHT));
    this.maxInFlight = Math.max(this.minInFlight, options.maxInFlight ?? MAX_IN_FLIGHT);
    this.window = this.minInFlight;
  }

  /**
   * Starts the scheduler; the first time, rounds a crash interrupted (left `delivering`) are queued again.
   * After pause(), starts it again.
   */
  start(): void {
    if (!this.resumed) {
      this.resumed = true;
      this.options.store.deliveries.resumeInterrupted(this.options.clock.now());
    }
    this.started = true;
    this.wake();
  }

  /** Stops claiming rounds: accepted work waits in SQLite until start(); rounds in flight finish and are recorded. */
  pause(): void {
    this.started = false;
    this.clearTimer();
    // A jump in progress stops playing; its advance moves the offset the rest of the way (docs/behaviour.md §5).
    this.jump?.finish();
  }

  /**
   * Ask for a tick soon (coalesced): new work was stored, or a round finished. Under load, ticks are at
   * least TICK_INTERVAL_MS apart so each commit carries many rounds (a commit's cost is mostly per commit,
   * not per row); when the engine is quiet (the last tick moved few rows), a tick runs at once, so a lone
   * message is claimed and its result recorded without waiting out the interval twice.
   */
  wake(): void {
    // Paused (or before start()) nothing is claimed and accepted work waits in SQLite; finished rounds are
    // still recorded.
    if (this.tickQueued || (!this.started && this.writes.length === 0)) return;
    this.tickQueued = true;
    const wait = this.lastTickRows < BUSY_TICK_ROWS ? 0 : this.lastTick + TICK_INTERVAL_MS - this.time.now();
    if (wait <= 0) setImmediate(() => this.tick());
    else this.time.setTimeout(() => this.tick(), wait);
  }

  /** Stops claiming new rounds and waits for the ones in flight to be recorded. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearTimer();
    this.jump?.finish();
    await this.idle();
  }

  /** Resolves when nothing is in flight and every finished round is committed. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.inFlight === 0 && this.writes.length === 0 && !this.tickQueued;
  }

  private checkIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Counters for benchmarks and diagnostics; `window` is the in-flight window now, `maxWindow` the largest it reached. */
  readonly stats = { ticks: 0, roundsRecorded: 0, deliveriesClaimed: 0, tickMs: 0, window: 0, maxWindow: 0 };

  private tick(): void {
    this.tickQueued = false;
    const previousTick = this.lastTick;
    this.lastTick = this.time.now();
    this.stats.ticks++;
    const batch = this.writes;
    this.writes = [];
    const outstanding = this.inFlight - batch.length;
    const room = this.closed || !this.started ? 0 : this.window - outstanding;
    const jump = this.jump;
    const now = this.options.clock.now();
    let stored: StoredRound[] = [];
    let claimed: ClaimedDelivery[] = [];
    try {
      this.options.store.transaction(() => {
        if (batch.length) stored = this.options.store.deliveries.recordRounds(batch.map((w) => w.round));
        // A jump claims ahead of now, up to its target, but never past the earliest time a round still out
        // could make a retry due (jumpDueBy); after recording, so the retries just scheduled count.
        if (room > 0) claimed = this.options.store.deliveries.claimDue(now, room, jump ? this.jumpDueBy(jump, now, room) : now);
      });
    } catch (e) {
      // Nothing is reported as done that is not stored. A damaged database is said once (its health
      // listeners), not at every tick; its rows stay `delivering` and resume on the next start.
      const health = this.options.store.health;
      if (isCorruptionError(e)) health.fail(corruptionError(health.file, (e as Error).message));
      else if (isWriteFailure(e) && !this.closed && !health.problem) {
        // A full disk passes: the finished rounds are kept and recorded again a moment later, so that their
        // deliveries carry on once there is room, without a restart (docs/behaviour.md §10).
        health.writeFailed(e);
        this.retryRecording(batch);
        return;
      } else if (isWriteFailure(e)) health.writeFailed(e);
      else console.error('hookbench: recording rounds failed', e);
    }
    this.inFlight -= batch.length;
    this.lastTickRows = batch.length + claimed.length;
    this.stats.roundsRecorded += batch.length;
    this.stats.deliveriesClaimed += claimed.length;
    this.stats.tickMs += this.time.now() - this.lastTick;
    this.adapt(outstanding, room, claimed.length, this.lastTick - previousTick);
    if (this.options.listening()) stored.forEach((s, i) => this.emitRound(s, batch[i]!.destination));
    if (jump && claimed.length > 0) {
      // Engine time moves to the latest round the jump starts now; each round starts at its own due time.
      const latest = claimed[claimed.length - 1]!.dueAt;
      if (latest > this.options.clock.now()) this.options.clock.setOffset(latest - this.options.clock.realNow());
    }
    for (const delivery of claimed) {
      this.inFlight++;
      const startedAt = Math.max(delivery.dueAt, now);
      this.bounds.set(delivery.id, startedAt + this.nextDelayAtLeast(delivery));
      if (jump) {
        const depth = (jump.depth.get(delivery.id) ?? 0) + 1;
        jump.depth.set(delivery.id, depth);
        if (depth > jump.round) jump.round = depth;
      }
      this.runRound(delivery, startedAt, jump).catch((e: unknown) => {
        // Not a delivery outcome (the forwarder thread died, or a bug): nothing was recorded as attempted,
        // so the delivery waits a moment and runs again.
        console.error(`hookbench: round for delivery ${delivery.id} did not run; it is retried in ${REQUEUE_MS} ms`, e);
        const now = this.options.clock.now();
        this.record(
          {
            deliveryId: delivery.id,
            messageId: delivery.messageId,
            attempts: [],
            status: delivery.attempts === 0 ? 'queued' : 'retrying',
            reason: null,
            attemptsMade: delivery.attempts,
            firstAttemptAt: delivery.firstAttemptAt,
            nextAttemptAt: now + REQUEUE_MS,
            pendingUrls: delivery.pendingUrls,
            updatedAt: now,
            siblings: delivery.siblings,
          },
          { id: delivery.destinationId, name: this.options.destination(delivery.destinationId)?.name ?? '' },
        );
      });
    }
    this.armTimer();
    if (jump) this.jumpTicked(jump);
    this.checkIdle();
  }

  /** The earliest engine time a round in flight could make a retry due (Infinity with none in flight). */
  private horizon(): number {
    let earliest = Infinity;
    for (const bound of this.bounds.values()) if (bound < earliest) earliest = bound;
    return earliest;
  }

  /**
   * How far ahead of now a jump's tick may claim: its target, the horizon of the rounds in flight, and the
   * horizon of the rounds this tick starts (in due order, each one's start plus its next delay bounds the rest).
   */
  private jumpDueBy(jump: Jump, now: number, room: number): number {
    let horizon = Math.min(jump.target, this.horizon());
    let dueBy = now;
    for (const d of this.options.store.deliveries.dueAhead(horizon, room)) {
      if (d.dueAt > horizon) break;
      dueBy = Math.max(dueBy, d.dueAt);
      horizon = Math.min(horizon, Math.max(d.dueAt, now) + this.nextDelayAtLeast(d));
    }
    return dueBy;
  }

  /** The shortest delay the delivery's next retry can have after this round (Infinity: there is none). */
  private nextDelayAtLeast(delivery: Pick<ClaimedDelivery, 'id' | 'destinationId' | 'attempts'>): number {
    const policy = this.options.destination(delivery.destinationId)?.retry;
    if (!policy) return Infinity;
    const attemptNumber = delivery.attempts + 1;
    if (policy.maxAttempts !== undefined && attemptNumber >= policy.maxAttempts) return Infinity;
    return retryDelay(policy, attemptNumber, jitterUnit(this.options.seed, delivery.id, attemptNumber));
  }

  /** After a tick of a jump: over when nothing is in flight and nothing more falls due by its target. */
  private jumpTicked(jump: Jump): void {
    if (this.closed || !this.started) return jump.finish();
    if (this.inFlight === 0 && this.writes.length === 0) {
      const due = this.options.store.deliveries.nextDueAt();
      if (due === null || due > jump.target) return jump.finish();
    }
    this.reportJump(jump);
  }

  /** Reports the jump's progress now, or once JUMP_REPORT_MS after the last report (the last word is never lost). */
  private reportJump(jump: Jump): void {
    if (!this.options.onJump || jump.reportTimer) return;
    const wait = jump.lastReport + JUMP_REPORT_MS - this.time.now();
    if (wait <= 0) {
      jump.lastReport = this.time.now();
      this.options.onJump(this.jumpProgress(jump));
      return;
    }
    jump.reportTimer = this.time.setTimeout(() => {
      jump.reportTimer = null;
      if (this.jump === jump) this.reportJump(jump);
    }, wait);
  }

  private jumpProgress(jump: Jump): ClockJump {
    return {
      fromOffsetMs: jump.fromOffsetMs,
      targetOffsetMs: jump.targetOffsetMs,
      reachedOffsetMs: Math.min(this.options.clock.offsetMs(), jump.targetOffsetMs),
      attemptsInFlight: this.attemptsOut,
      attemptsPlayed: jump.attemptsPlayed,
      round: jump.round,
      roundsEstimate: Math.max(jump.estimate, jump.round),
      fastForward: jump.fastForward,
    };
  }

  /** The jump in progress, or null (getClock). */
  jumpState(): ClockJump | null {
    return this.jump ? this.jumpProgress(this.jump) : null;
  }

  /**
   * About how many rounds a jump to `target` plays: for each destination's waiting delivery with the most
   * rounds left, its nominal schedule (no jitter, instant answers) up to the target and its window.
   */
  private estimateRounds(target: number): number {
    let most = 0;
    for (const w of this.options.store.deliveries.waitingByDestination()) {
      const policy = this.options.destination(w.destinationId)?.retry;
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

  /** Finished rounds that could not be recorded (a full disk) go back in the queue after RECORD_RETRY_MS. */
  private retryRecording(batch: PendingWrite[]): void {
    const timer = setTimeout(() => {
      this.writes.unshift(...batch);
      this.wake();
    }, RECORD_RETRY_MS);
    timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) this.time.clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = null;
  }

  /**
   * The window follows what the webhooks can take (Little's law: rounds in flight = rate × the time a
   * round takes), within [minInFlight, maxInFlight]. It moves only when it limited this tick's claim (more
   * may be due than it let in). It grows when
   * - rounds finish faster than ticks come and most of the last ones are done (fewer than a quarter still
   *   out): the forwarder sat idle until this tick, so each tick must hand it more (a fast webhook; a
   *   fixed window of 256 made 256 per 20 ms tick, 12,800 a second, a ceiling on a fast machine), or
   * - rounds spend most of their time sending, not waiting for one of an origin's 16 connections
   *   (docs/behaviour.md §2): slow webhooks with free connections (a fixed window made 256 ÷ latency one).
   * It shrinks when rounds mostly wait for a connection and much is still out: a larger window would
   * only lengthen that queue (and hold more bodies). After a change it waits until the rounds claimed
   * under the new window have come back (the rounds finishing now were claimed a round's time ago), so
   * that it does not overshoot.
   */
  private adapt(outstanding: number, room: number, claimed: number, tickGapMs: number): void {
    const rounds = this.timedRounds;
    const meanRoundMs = rounds > 0 ? this.roundMs / rounds : 0;
    const waitingShare = rounds > 0 && this.roundMs > 0 ? Math.max(0, 1 - this.requestMs / this.roundMs) : 1;
    this.roundMs = 0;
    this.requestMs = 0;
    this.timedRounds = 0;
    if (room > 0 && claimed === room && rounds > 0 && this.lastTick >= this.adaptAfter) {
      const before = this.window;
      const idleUntilTick = outstanding < this.window / 4 && meanRoundMs < tickGapMs;
      if (idleUntilTick || waitingShare < GROW_BELOW_WAITING) {
        this.window = Math.min(this.maxInFlight, Math.ceil(this.window * GROW));
      } else if (waitingShare > SHRINK_ABOVE_WAITING && outstanding > this.window / 2) {
        this.window = Math.max(this.minInFlight, Math.floor(this.window * SHRINK));
      }
      if (this.window !== before) this.adaptAfter = this.lastTick + 1.5 * meanRoundMs + tickGapMs;
    }
    this.stats.window = this.window;
    if (this.window > this.stats.maxWindow) this.stats.maxWindow = this.window;
  }

  private armTimer(): void {
    if (this.closed || !this.started || this.inFlight >= this.window) return; // a finishing round will tick
    const due = this.options.store.deliveries.nextDueAt();
    if (due === null) return this.clearTimer();
    if (this.timer && this.timerDue === due) return;
    this.clearTimer();
    const delay = Math.min(Math.max(0, due - this.options.clock.now()), MAX_TIMER_MS);
    this.timerDue = due;
    // On the pacing timer too: engine time runs at its rate, and a test's manual time then decides when it fires.
    this.timer = this.time.setTimeout(() => {
      this.timer = null;
      this.timerDue = null;
      this.wake();
    }, delay);
  }

  /** Re-read due times (a destination was enabled, a retry pulled forward, the clock moved). */
  reschedule(): void {
    this.clearTimer();
    this.wake();
  }

  /**
   * One round, started at `startedAt` (engine time: now, or its due time when a jump plays it). It finishes
   * at its start plus the real time it took, so a round a jump played keeps its own place in engine time.
   */
  private async runRound(claimed: ClaimedDelivery, startedAt: number, jump: Jump | null): Promise<void> {
    const { clock } = this.options;
    const destination = this.options.destination(claimed.destinationId);
    const attemptNumber = claimed.attempts + 1;
    const firstAttemptAt = claimed.firstAttemptAt ?? startedAt;
    const shiftedAtStart = this.shifted;
    if (!destination || destination.webhooks.length === 0) {
      this.record(
        {
          deliveryId: claimed.id,
          messageId: claimed.messageId,
          attempts: [],
          status: destination ? 'failed' : 'cancelled',
          reason: destination ? 'no webhooks configured' : 'destination deleted',
          attemptsMade: claimed.attempts,
          firstAttemptAt: claimed.firstAttemptAt,
          nextAttemptAt: null,
          pendingUrls: null,
          updatedAt: startedAt,
          siblings: claimed.siblings,
        },
        { id: claimed.destinationId, name: destination?.name ?? '' },
      );
      return;
    }

    // Retry only the webhooks that failed retryably, as they are configured now; if the configuration no
    // longer has any of them, the round goes to every current webhook.
    let targets = destination.webhooks.map((webhook, index) => ({ webhook, index }));
    if (claimed.pendingUrls) {
      const pending = new Set(claimed.pendingUrls);
      const still = targets.filter((t) => pending.has(t.webhook.url));
      if (still.length) targets = still;
    }

    if (this.options.listening()) {
      for (const t of targets) {
        this.options.emit({
          type: 'attemptStarted',
          deliveryId: claimed.id,
          messageId: claimed.messageId,
          destinationId: destination.id,
          attemptNumber,
          webhookIndex: t.index,
          url: t.webhook.url,
          startedAt,
        });
      }
    }

    // Receiver references resolve now; one that cannot (the receiver is gone or not listening) fails like an
    // unreachable host, without a request.
    const resolved = targets.map((t) => this.options.resolveUrl(t.webhook.url));
    const reachable: Webhook[] = [];
    const expecting: (() => void)[] = [];
    resolved.forEach((r, i) => {
      if (!r.ok) return;
      reachable.push({ ...targets[i]!.webhook, url: r.value });
      const done = this.options.expectRequest?.(r.value, claimed.body, { messageRef: claimed.messageId, deliveryId: claimed.id, attemptNumber, webhookIndex: targets[i]!.index });
      if (done) expecting.push(done);
    });
    const sentAt = this.time.now();
    const realStart = clock.realNow();
    this.attemptsOut += targets.length;
    let replies: SendResult[];
    try {
      replies = await this.options.forwarder.sendRound({
        webhooks: reachable,
        body: claimed.body,
        secret: destination.sharedSecret,
        timeoutMs: destination.timeoutMs,
        caFile: destination.caFile,
        jump: jump !== null,
        fastForwardMs: jump?.fastForward ? FAST_FORWARD_AFTER_MS : null,
      });
    } finally {
      this.attemptsOut -= targets.length;
      for (const done of expecting) done();
    }
    if (jump) jump.attemptsPlayed += targets.length;
    if (replies.length > 0) {
      // For the window (adapt): the round's time from hand-over to result, and its slowest request's own time.
      let slowest = 0;
      for (const reply of replies) if (reply.durationMs > slowest) slowest = reply.durationMs;
      this.roundMs += this.time.now() - sentAt;
      this.requestMs += slowest;
      this.timedRounds++;
    }
    let next = 0;
    const sent = resolved.map((r) => (r.ok ? replies[next++]! : unresolvable(r.error.message)));
    const finishedAt = startedAt + Math.max(0, clock.realNow() - realStart);
    const results: WebhookResult[] = sent.map((s, i) => ({
      url: targets[i]!.webhook.url,
      outcome: s.outcome,
      retryable: s.retryable,
      permanentReason: s.permanentReason,
      retryAfterMs: s.retryAfterMs,
    }));
    const decision = decideAfterRound({
      results,
      policy: destination.retry,
      attemptsMade: attemptNumber,
      firstAttemptAt,
      finishedAt,
      unit: jitterUnit(this.options.seed, claimed.id, attemptNumber),
    });
    // A reset while this round was out moved every waiting delivery back by its offset: this one follows.
    const shift = this.shifted - shiftedAtStart;
    this.record(
      {
        deliveryId: claimed.id,
        messageId: claimed.messageId,
        attempts: sent.map((s, i) => ({
          deliveryId: claimed.id,
          messageId: claimed.messageId,
          destinationId: destination.id,
          attemptNumber,
          webhookIndex: targets[i]!.index,
          url: resolved[i]!.ok ? resolved[i]!.value : targets[i]!.webhook.url,
          outcome: s.outcome,
          retryable: s.retryable,
          statusCode: s.statusCode,
          error: s.error,
          startedAt,
          finishedAt,
          durationMs: s.durationMs,
          requestHeaders: s.requestHeaders,
          signature: s.signature,
          responseHeaders: s.responseHeaders,
          responseBody: s.responseBody,
          responseTruncated: s.responseTruncated,
        })),
        status: decision.status,
        reason: decision.reason,
        attemptsMade: attemptNumber,
        firstAttemptAt: firstAttemptAt - shift,
        nextAttemptAt: decision.status === 'retrying' ? decision.nextAttemptAt - shift : null,
        pendingUrls: decision.status === 'retrying' ? decision.pendingUrls : null,
        pastWindow: decision.status === 'failed' ? decision.pastWindow : undefined,
        updatedAt: finishedAt,
        siblings: claimed.siblings,
      },
      destination,
    );
  }

  /** Queue a finished round for the next tick's transaction. */
  private record(round: RoundResult, destination: Pick<Destination, 'id' | 'name'>): void {
    this.bounds.delete(round.deliveryId);
    this.writes.push({ round, destination });
    this.wake();
  }

  private emitRound({ round, attemptIds, messageStatus }: StoredRound, destination: Pick<Destination, 'id' | 'name'>): void {
    round.attempts.forEach((a, i) => {
      const attempt: AttemptRecord = { ...a, id: attemptIds[i]! };
      this.options.emit({ type: 'attemptFinished', attempt });
    });
    const delivery = deliveryRecord({
      id: round.deliveryId,
      messageId: round.messageId,
      destinationId: destination.id,
      destinationName: destination.name,
      status: round.status,
      reason: round.reason,
      attempts: round.attemptsMade,
      firstAttemptAt: round.firstAttemptAt,
      nextAttemptAt: round.nextAttemptAt,
      pendingUrls: round.pendingUrls ?? [],
      updatedAt: round.updatedAt,
      pastWindow: round.pastWindow ?? null,
    });
    this.options.emit({ type: 'deliveryUpdated', delivery, messageStatus });
  }

  /** The rounds being attempted right now. */
  get roundsInFlight(): number {
    return this.inFlight;
  }

  /**
   * Interrupts the jump in progress (it stops where it got to; its rounds in flight finish and are
   * recorded) and every advance queued behind it. Returns whether there was one to interrupt.
   */
  cancelAdvances(): boolean {
    this.generation++;
    const jump = this.jump;
    if (!jump) return false;
    jump.cancelled = true;
    jump.finish();
    return true;
  }

  /**
   * Back to real time, interrupting any advance in progress. Waiting deliveries keep their distance to now
   * (a retry due in 30 s is still due in 30 s; one already due stays due), and so do their windows; rounds
   * in flight do the same when they come back. Returns the offset it took away.
   */
  resetOffset(persist: (shiftedBy: number) => void): number {
    this.cancelAdvances();
    const { clock, store } = this.options;
    const by = clock.offsetMs();
    if (by === 0) return 0;
    store.transaction(() => {
      store.deliveries.shiftWaiting(by);
      clock.resetOffset();
      persist(by);
    });
    this.shifted += by;
    for (const [id, bound] of this.bounds) this.bounds.set(id, bound - by);
    this.reschedule();
    return by;
  }

  /**
   * docs/behaviour.md §5: move engine time forward by `ms`, playing every round that falls due on the way in
   * time order (each new retry computed from engine time), and resolve once the rounds it played are
   * recorded, or at once when cancelAdvances or resetOffset interrupts it. Rounds whose due times are close
   * are out on the network together, and a jump's requests are not queued behind the live per-origin cap:
   * a jump takes one real wait per round of a delivery, whatever the number of messages.
   * Calls are serialised: a second advance starts when the first has finished.
   */
  advance(ms: number, fastForward: boolean, persistOffset: (offsetMs: number) => void): Promise<AdvanceOutcome & { movedMs: number }> {
    const generation = this.generation;
    const run = async () => {
      const { clock } = this.options;
      if (generation !== this.generation) return { cancelled: true, attemptsPlayed: 0, rounds: 0, movedMs: 0 };
      const startOffset = clock.offsetMs();
      const shiftedAtStart = this.shifted;
      const jump: Jump = {
        target: clock.now() + ms,
        fromOffsetMs: startOffset,
        targetOffsetMs: startOffset + ms,
        fastForward,
        depth: new Map(),
        round: 0,
        estimate: 0,
        attemptsPlayed: 0,
        cancelled: false,
        finish: () => undefined,
        lastReport: 0,
        reportTimer: null,
      };
      if (this.started && !this.closed) {
        jump.estimate = this.estimateRounds(jump.target);
        this.jump = jump;
        this.clearTimer();
        const over = new Promise<void>((resolve) => (jump.finish = resolve));
        this.reportJump(jump);
        this.wake();
        await over;
        if (jump.reportTimer) this.time.clearTimeout(jump.reportTimer);
        this.jump = null;
      }
      if (!jump.cancelled) clock.setOffset(startOffset + ms);
      persistOffset(clock.offsetMs());
      this.options.onJump?.(null);
      this.reschedule();
      const movedMs = this.shifted === shiftedAtStart ? clock.offsetMs() - startOffset : 0;
      return { cancelled: jump.cancelled, attemptsPlayed: jump.attemptsPlayed, rounds: jump.round, movedMs };
    };
    const next = this.advancing.then(run, run);
    this.advancing = next.catch(() => undefined);
    return next;
  }
}
