/** Counts accepted calls per second of engine time over the last minute, in memory (the overview's rate). */
export class AcceptedRate {
  private readonly counts = new Float64Array(60);
  private readonly seconds = new Float64Array(60).fill(-1);

  add(atMs: number, n: number): void {
    const second = Math.floor(atMs / 1000);
    const slot = second % 60;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot]! += n;
  }

  /** Calls accepted within the 60 s up to `nowMs`. */
  lastMinute(nowMs: number): number {
    const now = Math.floor(nowMs / 1000);
    let total = 0;
    for (let i = 0; i < 60; i++) if (this.seconds[i]! > now - 60 && this.seconds[i]! <= now) total += this.counts[i]!;
    return total;
  }
}
