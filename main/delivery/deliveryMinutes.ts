/**
 * Each destination's deliveries per minute of engine time over the last hour, in memory (the Destinations
 * screen's chart, getDestinationTimeline), counted as the engine records its rounds. Deliveries and attempts
 * have no index by time (one would cost every delivery on the hot path), so reading an hour back from SQLite
 * would scan every attempt of that hour; a ring of 60 minutes per destination costs a few increments per
 * round and answers in O(60). Like the Sources screen's minutes, it starts empty after a restart.
 */
import type { RoundResult } from '../store/deliveryStore.js';
import type { DestinationTimeline } from '../contract/destinations.js';

export const MINUTE_MS = 60_000;
const MINUTES = 60;

/** Latency buckets grow by a quarter each: bucket i holds [1.25^(i-1), 1.25^i) ms, up to ~4 min (the longest timeout is 2 min). */
const RATIO = 1.25;
const BUCKETS = 56;
const LOG_RATIO = Math.log(RATIO);

const bucketOf = (ms: number): number => (ms < 1 ? 0 : Math.min(BUCKETS - 1, 1 + Math.floor(Math.log(ms) / LOG_RATIO)));
/** A bucket's value: its geometric middle (within 12 % of any duration in it). */
const valueOf = (bucket: number): number => (bucket === 0 ? 0.5 : Math.round(RATIO ** (bucket - 0.5) * 10) / 10);

interface Ring {
  /** The minute (engine ms / 60,000) each slot counts, or -Infinity. */
  minutes: Float64Array;
  delivered: Float64Array;
  retried: Float64Array;
  failed: Float64Array;
  /** Deliveries that started waiting for a retry (their first attempt failed) and that stopped waiting (a later attempt settled them). */
  entered: Float64Array;
  left: Float64Array;
  /** Attempts' durations: BUCKETS counts per slot. */
  latency: Float64Array;
}

/** A destination's minutes as counted here: the timeline less what the database adds (the backlog now). */
export type DeliveryMinutesOf = Omit<DestinationTimeline, 'destinationId' | 'backlog' | 'backlogNow'> & {
  /** Per minute: deliveries that started waiting for a retry, minus those that stopped; null before counting began. */
  backlogChange: (number | null)[];
};

function newRing(): Ring {
  return {
    minutes: new Float64Array(MINUTES).fill(-Infinity),
    delivered: new Float64Array(MINUTES),
    retried: new Float64Array(MINUTES),
    failed: new Float64Array(MINUTES),
    entered: new Float64Array(MINUTES),
    left: new Float64Array(MINUTES),
    latency: new Float64Array(MINUTES * BUCKETS),
  };
}

const slotOf = (minute: number): number => ((minute % MINUTES) + MINUTES) % MINUTES;

export class DeliveryMinutes {
  private readonly rings = new Map<string, Ring>();
  /** The minute counting began (engine time at start): nothing is known of a backlog before it. */
  private readonly firstMinute: number;

  constructor(sinceMs = -Infinity) {
    this.firstMinute = Math.floor(sinceMs / MINUTE_MS);
  }

  /** Counts recorded rounds (those that attempted nothing, a requeue, are not deliveries). */
  addRounds(rounds: readonly { destinationId: string; round: RoundResult }[]): void {
    for (const { destinationId, round } of rounds) if (round.attempts.length > 0) this.add(destinationId, round);
  }

  private add(destinationId: string, round: RoundResult): void {
    let ring = this.rings.get(destinationId);
    if (!ring) {
      ring = newRing();
      this.rings.set(destinationId, ring);
    }
    const minute = Math.floor(round.updatedAt / MINUTE_MS);
    const slot = slotOf(minute);
    const held = ring.minutes[slot]!;
    if (held !== minute) {
      // A newer minute in this slot wins over a round recorded late for an older one; a slot from more than an
      // hour ahead is from before the clock was reset: it is reused.
      if (held > minute && held <= minute + MINUTES) return;
      ring.minutes[slot] = minute;
      for (const counts of [ring.delivered, ring.retried, ring.failed, ring.entered, ring.left]) counts[slot] = 0;
      ring.latency.fill(0, slot * BUCKETS, (slot + 1) * BUCKETS);
    }
    if (round.status === 'delivered') ring.delivered[slot]!++;
    else if (round.status === 'retrying') ring.retried[slot]!++;
    else if (round.status === 'failed') ring.failed[slot]!++;
    const waiting = round.status === 'retrying';
    if (round.attemptsMade === 1 && waiting) ring.entered[slot]!++;
    else if (round.attemptsMade > 1 && !waiting) ring.left[slot]!++;
    for (const a of round.attempts) ring.latency[slot * BUCKETS + bucketOf(a.durationMs)]!++;
  }

  /** The 60 minutes up to and including the one of `nowMs`, oldest first. */
  lastHour(destinationId: string, nowMs: number): DeliveryMinutesOf {
    const current = Math.floor(nowMs / MINUTE_MS);
    const first = current - MINUTES + 1;
    const out: DeliveryMinutesOf = { from: first * MINUTE_MS, minuteMs: MINUTE_MS, delivered: [], retried: [], failed: [], p50: [], p95: [], backlogChange: [] };
    const ring = this.rings.get(destinationId);
    for (let minute = first; minute <= current; minute++) {
      const slot = slotOf(minute);
      const counted = ring !== undefined && ring.minutes[slot] === minute;
      out.delivered.push(counted ? ring.delivered[slot]! : 0);
      out.retried.push(counted ? ring.retried[slot]! : 0);
      out.failed.push(counted ? ring.failed[slot]! : 0);
      out.backlogChange.push(minute < this.firstMinute ? null : counted ? ring.entered[slot]! - ring.left[slot]! : 0);
      const [p50, p95] = counted ? percentiles(ring.latency.subarray(slot * BUCKETS, (slot + 1) * BUCKETS), [50, 95]) : [null, null];
      out.p50.push(p50 ?? null);
      out.p95.push(p95 ?? null);
    }
    return out;
  }

  forget(destinationId: string): void {
    this.rings.delete(destinationId);
  }
}

/** Nearest-rank percentiles of a histogram (null when it is empty). */
function percentiles(counts: Float64Array, ps: number[]): (number | null)[] {
  let total = 0;
  for (const c of counts) total += c;
  if (total === 0) return ps.map(() => null);
  return ps.map((p) => {
    const rank = Math.max(1, Math.ceil((p / 100) * total));
    let seen = 0;
    for (let b = 0; b < counts.length; b++) {
      seen += counts[b]!;
      if (seen >= rank) return valueOf(b);
    }
    return valueOf(counts.length - 1);
  });
}
