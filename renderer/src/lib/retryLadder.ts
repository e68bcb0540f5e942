/**
 * The retries still to come for a delivery, if every one of them fails: the ghost markers of the timeline.
 * The next one is the engine's own (delivery.nextAttemptAt, jitter included); the later ones are nominal
 * (the schedule's delay, give or take the jitter), up to the window and the attempt cap.
 */
import type { DeliveryRecord, RetryPolicy } from '../../../main/contract/models';

export interface GhostAttempt {
  attemptNumber: number;
  /** Engine time it falls due (nominal for all but the first). */
  at: number;
  /** True for the engine's scheduled time; false for a projection (shown with "≈"). */
  exact: boolean;
  /** ± this many ms, from the policy's jitter (0 for the exact one). */
  spreadMs: number;
}

/** Attempts listed at most, so a tiny schedule over a long window stays readable. */
export const MAX_GHOSTS = 30;

export function futureAttempts(delivery: Pick<DeliveryRecord, 'attempts' | 'firstAttemptAt' | 'nextAttemptAt' | 'status'>, policy: RetryPolicy): GhostAttempt[] {
  if (delivery.nextAttemptAt === null || (delivery.status !== 'retrying' && delivery.status !== 'queued')) return [];
  const first = delivery.firstAttemptAt ?? delivery.nextAttemptAt;
  const windowEnd = first + policy.windowMs;
  const ghosts: GhostAttempt[] = [{ attemptNumber: delivery.attempts + 1, at: delivery.nextAttemptAt, exact: true, spreadMs: 0 }];
  let at = delivery.nextAttemptAt;
  for (let attempt = delivery.attempts + 2; ghosts.length < MAX_GHOSTS; attempt++) {
    if (policy.maxAttempts !== undefined && attempt > policy.maxAttempts) break;
    // Attempt n is retry n-1, whose delay is schedule[n-2]; past the end the last entry repeats.
    const delay = policy.schedule[Math.min(attempt - 1, policy.schedule.length) - 1] ?? 0;
    if (delay <= 0) break;
    at += delay;
    if (at > windowEnd) break;
    ghosts.push({ attemptNumber: attempt, at, exact: false, spreadMs: Math.round(delay * policy.jitter) });
  }
  return ghosts;
}
