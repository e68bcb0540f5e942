/**
 * The forwarding engine: claims due deliveries from SQLite, sends a round to their webhooks, records the
 * outcome and schedules the next round. Retries are rows, never only timers: the one timer here just wakes
 * the engine at the earliest due row, and a restart resumes from the rows.
 */
import type { EngineEvent } from '../contract/events.js';
import type { Destination } from '../contract/destinations.js';
import type { ClockJump } from '../contract/overview.js';
import { corruptionError, isCorruptionError, isWriteFailure } from '../store/integrity.js';
import type { ClaimedDelivery, Store, StoredRound } from '../store/store.js';
import { realMonotonicTime, type Clock, type MonotonicTime } from '../platform/clock.js';
import type { Result } from '../contract/result.js';
import { estimateRounds, jumpProgress, jumpRecordedRound, jumpStartedRound, JUMP_REPORT_MS, newJump, type AdvanceOutcome, type Jump } from './clockJump.js';
import type { Forwarder } from './forwarders.js';
import { InFlightWindow } from './inFlightWindow.js';
import { TickPacer } from './tickPacer.js';
import { RetryHorizon } from './retryHorizon.js';
import { playRound, requeuedRound, roundEvents, type ExpectRequest, type PlayedRound, type RoundContext } from './round.js';

export { FAST_FORWARD_AFTER_MS, type AdvanceOutcome } from './clockJump.js';
export { MAX_IN_FLIGHT, MIN_IN_FLIGHT } from './inFlightWindow.js';

/** What the engine needs of the store: the deliveries' repository, transactions and the file's health. */
export type EngineStore = Pick<Store, 'deliveries' | 'transaction' | 'health'>;

export interface EngineOptions {
  store: EngineStore;
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
  expectRequest?: ExpectRequest;
  /** Whether anybody listens (events are built only then). */
  listening: () => boolean;
  /**
   * Rounds in flight at once: the window starts at `minInFlight` (default 256) and adapts up to
   * `maxInFlight` (default 2,048) to what the webhooks can take (inFlightWindow.ts).
   */
  minInFlight?: number;
  maxInFlight?: number;
  /** Rounds were recorded (the per-minute counts of getDestinationTimeline). */
  recorded?: (rounds: readonly { destinationId: string; round: StoredRound['round'] }[]) => void;
  /** A clock jump began, progressed or ended (null); called at most every JUMP_REPORT_MS. */
  onJump?: (jump: ClockJump | null) => void;
  /** Pacing time and its timers: tick spacing, round times for the window, the wake-up at the next due row, jump reports (default: performance.now and real timers). */
  time?: MonotonicTime;
}

/** How long a round that could not run (not a failed attempt) waits before it runs again. */
const REQUEUE_MS = 1_000;
/** How long finished rounds wait before they are recorded again, after a write failed (a full disk). */
const RECORD_RETRY_MS = 250;
/**
 * Scheduling works in ticks. One tick is one transaction: it records every round that finished since the
 * last tick and claims due deliveries for the capacity that freed up. Batching the commits this way is what
 * lets the engine log every attempt at thousands of deliveries per second.
 */
export class Engine {
  private readonly options: EngineOptions;
  /** Rounds allowed in flight now (inFlightWindow.ts). */
  private readonly window: InFlightWindow;
  /** Rounds claimed and not yet recorded. */
  private inFlight = 0;
  /** Attempts (one POST to one webhook) out on the network now. */
  private attemptsOut = 0;
  /** Finished rounds waiting for the next tick's transaction. */
  private writes: PlayedRound[] = [];
  /** When the next tick runs (tickPacer.ts). */
  private readonly pacer: TickPacer;
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
  /** How far a jump may play ahead of the rounds in flight (retryHorizon.ts). */
  private readonly horizon: RetryHorizon;
  private readonly time: MonotonicTime;
  /** What each round asks of the engine (round.ts). */
  private readonly rounds: RoundContext;

  constructor(options: EngineOptions) {
    this.options = options;
    this.time = options.time ?? realMonotonicTime;
    this.pacer = new TickPacer(this.time, () => this.tick(), () => this.wake());
    this.window = new InFlightWindow(options);
    this.horizon = new RetryHorizon((id) => options.destination(id)?.retry, options.seed);
    this.rounds = {
      ...options,
      time: this.time,
      window: this.window,
      attemptsOut: (by) => (this.attemptsOut += by),
      shifted: () => this.shifted,
    };
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

  /** Ask for a tick soon (coalesced): new work was stored, or a round finished (tickPacer.ts says when). */
  wake(): void {
    // Paused (or before start()) nothing is claimed and accepted work waits in SQLite; finished rounds are
    // still recorded.
    if (!this.started && this.writes.length === 0) return;
    this.pacer.request();
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
    return this.inFlight === 0 && this.writes.length === 0 && !this.pacer.pending;
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
    const { at: tickAt, previous: previousTick } = this.pacer.begin();
    this.stats.ticks++;
    const batch = this.writes;
    this.writes = [];
    const outstanding = this.inFlight - batch.length;
    const room = this.closed || !this.started ? 0 : this.window.size - outstanding;
    const jump = this.jump;
    const now = this.options.clock.now();
    let stored: StoredRound[] = [];
    let claimed: ClaimedDelivery[] = [];
    try {
      this.options.store.transaction(() => {
        if (batch.length) stored = this.options.store.deliveries.recordRounds(batch.map((w) => w.round), this.options.clock.realNow());
        // A jump claims ahead of now, up to its target, but never past the earliest time a round still out
        // could make a retry due (RetryHorizon.dueBy); after recording, so the retries just scheduled count.
        if (room > 0) claimed = this.options.store.deliveries.claimDue(now, room, jump ? this.horizon.dueBy(jump.target, now, room, (dueBy, limit) => this.options.store.deliveries.dueAhead(dueBy, limit)) : now);
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
    this.pacer.end(batch.length + claimed.length);
    this.stats.roundsRecorded += batch.length;
    this.stats.deliveriesClaimed += claimed.length;
    this.stats.tickMs += this.time.now() - tickAt;
    this.window.adapt({ at: tickAt, gapMs: tickAt - previousTick, outstanding, room, claimed: claimed.length });
    this.stats.window = this.window.size;
    if (this.window.size > this.stats.maxWindow) this.stats.maxWindow = this.window.size;
    if (this.options.listening()) stored.forEach((s, i) => roundEvents(s, batch[i]!.destination).forEach((event) => this.options.emit(event)));
    if (stored.length > 0) this.options.recorded?.(stored.map((s, i) => ({ destinationId: batch[i]!.destination.id, round: s.round })));
    if (jump) for (const s of stored) jumpRecordedRound(jump, s.round);
    let movedOffset = false;
    if (jump && claimed.length > 0) {
      // Engine time moves to the latest round the jump starts now; each round starts at its own due time.
      const latest = claimed[claimed.length - 1]!.dueAt;
      if (latest > this.options.clock.now()) {
        this.options.clock.setOffset(latest - this.options.clock.realNow());
        movedOffset = true;
      }
    }
    for (const delivery of claimed) {
      this.inFlight++;
      const startedAt = Math.max(delivery.dueAt, now);
      this.horizon.started(delivery, startedAt);
      if (jump) jumpStartedRound(jump, delivery.id, this.time.now());
      playRound(this.rounds, delivery, startedAt, jump, this.recordPlayed, (e: unknown) => {
        // Not a delivery outcome (the forwarder thread died, or a bug): nothing was recorded as attempted,
        // so the delivery waits a moment and runs again.
        console.error(`hookbench: round for delivery ${delivery.id} did not run; it is retried in ${REQUEUE_MS} ms`, e);
        const now = this.options.clock.now();
        this.record({
          round: requeuedRound(delivery, now, now + REQUEUE_MS),
          destination: { id: delivery.destinationId, name: this.options.destination(delivery.destinationId)?.name ?? '' },
        });
      });
    }
    if (jump && movedOffset) {
      // Kept before any of these rounds is recorded (a later tick records them), after they are out: killed
      // mid-jump, the workbench starts again where the jump had got to, so that no recorded attempt lies in its
      // future (the offset only moves forward).
      try {
        jump.keepOffset(this.options.clock.offsetMs());
      } catch (e) {
        // A full disk: the advance keeps it when the jump ends, as before; the rounds still play.
        if (!isWriteFailure(e)) throw e;
      }
    }
    this.armTimer();
    if (jump) this.jumpTicked(jump);
    this.checkIdle();
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
      this.options.onJump(jumpProgress(jump, this.options.clock.offsetMs(), this.attemptsOut, this.time.now()));
      return;
    }
    jump.reportTimer = this.time.setTimeout(() => {
      jump.reportTimer = null;
      if (this.jump === jump) this.reportJump(jump);
    }, wait);
  }

  /** The jump in progress, or null (getClock). */
  jumpState(): ClockJump | null {
    return this.jump ? jumpProgress(this.jump, this.options.clock.offsetMs(), this.attemptsOut, this.time.now()) : null;
  }

  /** Finished rounds that could not be recorded (a full disk) go back in the queue after RECORD_RETRY_MS. */
  private retryRecording(batch: PlayedRound[]): void {
    const timer = setTimeout(() => {
      this.writes.unshift(...batch);
      this.wake();
    }, RECORD_RETRY_MS);
    timer.unref();
  }

  private clearTimer(): void {
    this.pacer.cancelWake();
  }

  private armTimer(): void {
    if (this.closed || !this.started || this.inFlight >= this.window.size) return; // a finishing round will tick
    const due = this.options.store.deliveries.nextDueAt();
    if (due === null) return this.clearTimer();
    this.pacer.wakeIn(due - this.options.clock.now(), due);
  }

  /** Re-read due times (a destination was enabled, a retry pulled forward, the clock moved). */
  reschedule(): void {
    this.clearTimer();
    this.wake();
  }

  /** record(), bound once: what every round calls when it is done. */
  private readonly recordPlayed = (played: PlayedRound): void => this.record(played);

  /** Queue a finished round for the next tick's transaction. */
  private record(played: PlayedRound): void {
    this.horizon.finished(played.round.deliveryId);
    this.writes.push(played);
    this.wake();
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
    this.horizon.shift(by);
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
      const jump = newJump(clock.now(), startOffset, ms, fastForward, this.time.now());
      if (this.started && !this.closed) {
        jump.estimate = estimateRounds(this.options.store.deliveries.waitingByDestination(), (id) => this.options.destination(id)?.retry, jump.target);
        jump.due = this.options.store.deliveries.countDueBy(jump.target);
        jump.keepOffset = persistOffset;
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
