/**
 * Each source's calls per minute of engine time over the last hour, in memory (the Sources screen's
 * sparkline; docs/behaviour.md §7). The totals are kept in SQLite (`source_usage`); these buckets start
 * empty after a restart. A source's buckets hold 60 minutes in a ring, like AcceptedRate's seconds.
 */
import { USAGE_COUNTERS, type SourceUsageMinutes, type UsageCounter } from '../contract/sources.js';

export const MINUTE_MS = 60_000;
const MINUTES = 60;

interface Ring {
  /** The minute (engine ms / 60,000) each slot counts, or -1. */
  minutes: Float64Array;
  counts: Record<UsageCounter, Float64Array>;
}

export class UsageMinutes {
  private readonly rings = new Map<string, Ring>();

  add(sourceId: string, atMs: number, counts: Partial<Record<UsageCounter, number>>): void {
    let ring = this.rings.get(sourceId);
    if (!ring) {
      ring = { minutes: new Float64Array(MINUTES).fill(-1), counts: { received: new Float64Array(MINUTES), accepted: new Float64Array(MINUTES), refused: new Float64Array(MINUTES), filtered: new Float64Array(MINUTES) } };
      this.rings.set(sourceId, ring);
    }
    const minute = Math.floor(atMs / MINUTE_MS);
    const slot = minute % MINUTES;
    if (ring.minutes[slot] !== minute) {
      ring.minutes[slot] = minute;
      for (const c of USAGE_COUNTERS) ring.counts[c][slot] = 0;
    }
    for (const c of USAGE_COUNTERS) ring.counts[c][slot]! += counts[c] ?? 0;
  }

  /** The 60 minutes up to and including the one of `nowMs`, oldest first. */
  lastHour(sourceId: string, nowMs: number): SourceUsageMinutes {
    const current = Math.floor(nowMs / MINUTE_MS);
    const first = current - MINUTES + 1;
    const out: SourceUsageMinutes = { from: first * MINUTE_MS, minuteMs: MINUTE_MS, received: [], accepted: [], refused: [], filtered: [] };
    const ring = this.rings.get(sourceId);
    for (let minute = first; minute <= current; minute++) {
      const slot = ((minute % MINUTES) + MINUTES) % MINUTES;
      const counted = ring !== undefined && ring.minutes[slot] === minute;
      for (const c of USAGE_COUNTERS) out[c].push(counted ? ring.counts[c][slot]! : 0);
    }
    return out;
  }

  forget(sourceId: string): void {
    this.rings.delete(sourceId);
  }
}
