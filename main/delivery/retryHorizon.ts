/**
 * How far a clock jump may play ahead. Per round in flight (by delivery id) it keeps the earliest engine time
 * the round's result could make a retry due (its start plus its next delay; Retry-After only lengthens it).
 * A jump plays nothing beyond the earliest of these before that round is back, so rounds start in time order
 * while many wait on the network at once.
 */
import type { RetryPolicy } from '../contract/destinations.js';
import { jitterUnit, retryDelay } from '../domain/retryPolicy.js';

/** What the horizon needs of a delivery to know its next delay. */
type DeliveryRef = { id: number; destinationId: string; attempts: number };

export class RetryHorizon {
  private readonly bounds = new Map<number, number>();

  constructor(
    private readonly policyOf: (destinationId: string) => RetryPolicy | undefined,
    private readonly seed: number,
  ) {}

  /** A round of this delivery started at `startedAt` (engine time). */
  started(delivery: DeliveryRef, startedAt: number): void {
    this.bounds.set(delivery.id, startedAt + this.nextDelayAtLeast(delivery));
  }

  /** The delivery's round is back: it no longer bounds a jump. */
  finished(deliveryId: number): void {
    this.bounds.delete(deliveryId);
  }

  /** A clock reset moved every waiting delivery back by `by` ms: the rounds in flight follow. */
  shift(by: number): void {
    for (const [id, bound] of this.bounds) this.bounds.set(id, bound - by);
  }

  /** The earliest engine time a round in flight could make a retry due (Infinity with none in flight). */
  earliest(): number {
    let earliest = Infinity;
    for (const bound of this.bounds.values()) if (bound < earliest) earliest = bound;
    return earliest;
  }

  /**
   * How far ahead of now a jump's tick may claim: its target, the horizon of the rounds in flight, and the
   * horizon of the rounds this tick starts (in due order, each one's start plus its next delay bounds the rest).
   */
  dueBy(target: number, now: number, room: number, dueAhead: (dueBy: number, limit: number) => (DeliveryRef & { dueAt: number })[]): number {
    let horizon = Math.min(target, this.earliest());
    let dueBy = now;
    for (const d of dueAhead(horizon, room)) {
      if (d.dueAt > horizon) break;
      dueBy = Math.max(dueBy, d.dueAt);
      horizon = Math.min(horizon, Math.max(d.dueAt, now) + this.nextDelayAtLeast(d));
    }
    return dueBy;
  }

  /** The shortest delay the delivery's next retry can have after this round (Infinity: there is none). */
  private nextDelayAtLeast(delivery: DeliveryRef): number {
    const policy = this.policyOf(delivery.destinationId);
    if (!policy) return Infinity;
    const attemptNumber = delivery.attempts + 1;
    if (policy.maxAttempts !== undefined && attemptNumber >= policy.maxAttempts) return Infinity;
    return retryDelay(policy, attemptNumber, jitterUnit(this.seed, delivery.id, attemptNumber));
  }
}
