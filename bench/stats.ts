/** Small measurement helpers: percentiles, a peak-RSS sampler, CPU time. */

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentiles of `values` (sorted in place). */
export function summarize(values: Float64Array): LatencySummary {
  const n = values.length;
  if (n === 0) return { count: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN, mean: Number.NaN };
  values.sort();
  const rank = (p: number): number => values[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!;
  let sum = 0;
  for (const v of values) sum += v;
  return { count: n, p50: rank(50), p99: rank(99), max: values[n - 1]!, mean: sum / n };
}

/** Samples process RSS every `intervalMs` while running; `stop()` returns the peak seen, in bytes. */
export class RssSampler {
  private peak = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs = 50) {}

  start(): void {
    this.peak = process.memoryUsage.rss();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    return this.peak;
  }

  private sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }
}

/** Collect garbage when node runs with --expose-gc (npm run bench does), so contenders start level. */
export function collectGarbage(): void {
  globalThis.gc?.();
}

export const MiB = 1024 * 1024;
