/**
 * When the engine's next tick runs. One tick is one transaction, so under load ticks are spaced out to let
 * each commit carry many rounds; when the engine is quiet a tick runs at once, so a lone message is claimed
 * and its result recorded without waiting out the interval twice. Between ticks a timer wakes the engine at
 * the earliest due row.
 */
import type { MonotonicTime } from '../platform/clock.js';

/** Minimum real time between two ticks (transactions) while busy. */
const TICK_INTERVAL_MS = 20;
/** A tick that recorded and claimed fewer rows than this leaves the engine quiet: the next tick need not wait. */
const BUSY_TICK_ROWS = 16;
const MAX_TIMER_MS = 2 ** 31 - 1;

export class TickPacer {
  private queued = false;
  private lastStart = 0;
  private lastRows = 0;
  private timer: unknown = null;
  private timerDue: number | null = null;

  constructor(
    private readonly time: MonotonicTime,
    private readonly tick: () => void,
    /** What the timer at the earliest due row calls (the engine's wake, which knows whether it is paused). */
    private readonly wake: () => void,
  ) {}

  /** A tick is asked for and has not run yet. */
  get pending(): boolean {
    return this.queued;
  }

  /** Asks for a tick soon (coalesced): at once when the last one moved few rows, else TICK_INTERVAL_MS after it began. */
  request(): void {
    if (this.queued) return;
    this.queued = true;
    const wait = this.lastRows < BUSY_TICK_ROWS ? 0 : this.lastStart + TICK_INTERVAL_MS - this.time.now();
    if (wait <= 0) setImmediate(() => this.run());
    else this.time.setTimeout(() => this.run(), wait);
  }

  private run(): void {
    this.queued = false;
    this.tick();
  }

  /** A tick begins now: returns when the one before began (pacing time). */
  begin(): { at: number; previous: number } {
    const previous = this.lastStart;
    this.lastStart = this.time.now();
    return { at: this.lastStart, previous };
  }

  /** The tick that began last recorded and claimed `rows` rows. */
  end(rows: number): void {
    this.lastRows = rows;
  }

  /**
   * Wakes the engine `delay` ms from now, for the row due at `due`; a timer already set for the same
   * row stays. On the pacing timer: engine time runs at its rate, and a test's manual time decides when it fires.
   */
  wakeIn(delay: number, due: number): void {
    if (this.timer && this.timerDue === due) return;
    this.cancelWake();
    this.timerDue = due;
    this.timer = this.time.setTimeout(() => {
      this.timer = null;
      this.timerDue = null;
      this.wake();
    }, Math.min(Math.max(0, delay), MAX_TIMER_MS));
  }

  cancelWake(): void {
    if (this.timer) this.time.clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = null;
  }
}
