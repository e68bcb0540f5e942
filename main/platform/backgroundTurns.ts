/**
 * The schedule of a background task that works in short turns while the core is quiet (the history indexer,
 * retention): one pending turn at a time, on the next turn of the event loop (0 ms) or after a delay, never
 * holding the process open (unless asked to); once stopped it schedules nothing, and a turn already queued does not run.
 */
export class BackgroundTurns {
  private timer: NodeJS.Timeout | NodeJS.Immediate | null = null;
  private running = false;

  /**
   * `holdOpen`: on a worker thread of its own the turns are all there is to do. An unref'd immediate does not
   * wake a thread's event loop there: it would run only when something else did, so they are kept ref'd.
   */
  constructor(
    private readonly turn: () => void,
    private readonly holdOpen = false,
  ) {}

  get stopped(): boolean {
    return !this.running;
  }

  /** Starts the turns (the first after `firstInMs`); false when they were already running. */
  start(firstInMs: number): boolean {
    if (this.running) return false;
    this.running = true;
    this.later(firstInMs);
    return true;
  }

  stop(): void {
    this.running = false;
    this.clear();
  }

  /** The next turn in `ms` (0: as soon as the event loop is free), replacing the one pending. */
  later(ms: number): void {
    if (!this.running) return;
    this.clear();
    const run = () => {
      this.timer = null;
      if (this.running) this.turn();
    };
    this.timer = ms === 0 ? setImmediate(run) : setTimeout(run, ms);
    if (!this.holdOpen) this.timer.unref();
  }

  private clear(): void {
    if (!this.timer) return;
    clearTimeout(this.timer as NodeJS.Timeout);
    clearImmediate(this.timer as NodeJS.Immediate);
    this.timer = null;
  }
}
