/** A manual clock and timer API: time moves only through advance(). */
export class ManualTime {
  #now = Date.UTC(2026, 10, 22, 6, 0, 0);
  #seq = 0;
  readonly #timers = new Map<number, { at: number; fn: () => void }>();
  #waiters: (() => void)[] = [];

  now(): number {
    return this.#now;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.#seq;
    this.#timers.set(id, { at: this.#now + ms, fn });
    for (const w of this.#waiters.splice(0)) w();
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }
  get pending(): number {
    return this.#timers.size;
  }
  /** Delay until the earliest pending timer. */
  nextDelay(): number | undefined {
    const ats = [...this.#timers.values()].map((t) => t.at);
    return ats.length ? Math.min(...ats) - this.#now : undefined;
  }
  /** Resolves as soon as a timer is pending. */
  untilPending(): Promise<void> {
    if (this.#timers.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
  /** Moves time forward, firing every timer that falls due, in time order. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= target && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.#timers.delete(next[0]);
      this.#now = next[1].at;
      next[1].fn();
    }
    this.#now = target;
  }
  /** Waits for the next timer, then fires it. */
  async fireNext(): Promise<number> {
    await this.untilPending();
    const delay = this.nextDelay() ?? 0;
    this.advance(delay);
    return delay;
  }
}
