/**
 * The retries still to come for a delivery, if every one of them fails: the ghost markers of the timeline.
 * The next one is the engine's own (delivery.nextAttemptAt, jitter included); the later ones are nominal
 * (the schedule's delay, give or take the jitter), up to the window and the attempt cap.
 */
import type { DeliveryRecord } from '../../../main/contract/deliveries';
import type { RetryPolicy } from '../../../main/contract/destinations';

export interface GhostAttempt {
  attemptNumber: number;
  /** Engine time it falls due (nominal for all but the first). */
  at: number;
  /** True for the engine's scheduled time; false for a projection (shown with "≈"). */
  exact: boolean;
  /** ± this many ms, from the policy's jitter (0 for the exact one). */
  spreadMs: number;
}

/**
 * Whether a waiting (or sending) delivery's next round goes to this webhook, known by the URLs it was
 * configured with and sent to (pendingUrls may name either: `receiver:<name>` or what it resolved to). No
 * pendingUrls means every webhook: a first round, or one Retry now gave a failed delivery.
 */
export function awaitsWebhook(pendingUrls: readonly string[], webhooks: number, urls: readonly (string | undefined)[]): boolean {
  return webhooks === 1 || pendingUrls.length === 0 || urls.some((u) => u !== undefined && pendingUrls.includes(u));
}

/**
 * A ghost marker in words: its label on the timeline and what Advance moves the clock to. The engine's own
 * due attempt is the first one (not a retry) while the delivery has made none.
 */
export function ghostWords(g: Pick<GhostAttempt, 'attemptNumber' | 'exact'>): { label: string; target: string } {
  if (!g.exact) return { label: 'if it fails again', target: `attempt #${g.attemptNumber} (if the retries before it fail too)` };
  return g.attemptNumber === 1 ? { label: 'first attempt', target: 'the first attempt' } : { label: 'next retry', target: 'this retry' };
}

/** Attempts listed at most, so a tiny schedule over a long window stays readable. */
export const MAX_GHOSTS = 30;

/**
 * `retryAfterMs`: the endpoint's last Retry-After, which replaces any shorter delay (assumed to be
 * answered again on each failure); `now`, engine time, from which an overdue attempt's successors count.
 */
export function futureAttempts(
  delivery: Pick<DeliveryRecord, 'attempts' | 'firstAttemptAt' | 'nextAttemptAt' | 'status'>,
  policy: RetryPolicy,
  retryAfterMs: number | null = null,
  now: number | null = null,
): GhostAttempt[] {
  if (delivery.nextAttemptAt === null || (delivery.status !== 'retrying' && delivery.status !== 'queued')) return [];
  const first = delivery.firstAttemptAt ?? delivery.nextAttemptAt;
  const windowEnd = first + policy.windowMs;
  const ghosts: GhostAttempt[] = [{ attemptNumber: delivery.attempts + 1, at: delivery.nextAttemptAt, exact: true, spreadMs: 0 }];
  // An attempt overdue (forwarding paused, the clock moved past it) is played when it can be, not before now: the
  // retries after it count from then. `now`: engine time.
  let at = now === null ? delivery.nextAttemptAt : Math.max(delivery.nextAttemptAt, now);
  for (let attempt = delivery.attempts + 2; ghosts.length < MAX_GHOSTS; attempt++) {
    if (policy.maxAttempts !== undefined && attempt > policy.maxAttempts) break;
    // Attempt n is retry n-1, whose delay is schedule[n-2]; past the end the last entry repeats.
    const scheduled = policy.schedule[Math.min(attempt - 1, policy.schedule.length) - 1] ?? 0;
    const delay = retryAfterMs !== null && retryAfterMs > scheduled ? retryAfterMs : scheduled;
    if (delay <= 0) break;
    at += delay;
    if (at > windowEnd) break;
    ghosts.push({ attemptNumber: attempt, at, exact: false, spreadMs: delay === scheduled ? Math.round(delay * policy.jitter) : 0 });
  }
  return ghosts;
}

/** Retry-After as milliseconds when it is delay-seconds (an HTTP date is left to the engine). */
export function retryAfterMs(headers: Record<string, string> | null): number | null {
  if (!headers) return null;
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after');
  return entry && /^\d+$/.test(entry[1].trim()) ? Number(entry[1].trim()) * 1000 : null;
}

export interface PolicyLadder {
  /** Every attempt if each one fails: attempt 1 at 0, then the retries, times from the first attempt. */
  attempts: { attemptNumber: number; atMs: number; spreadMs: number }[];
  /** Why there is no further attempt: the window, the attempt cap, or (a long ladder) the list's own cap. */
  end: 'window' | 'maxAttempts' | 'listed';
}

/**
 * The retry ladder a policy gives a delivery that always fails, from its first attempt (the Destinations
 * editor's preview): the same walk as the ghost markers, with nominal delays (± jitter).
 */
export function policyLadder(policy: RetryPolicy): PolicyLadder {
  const first = { attemptNumber: 1, atMs: 0, spreadMs: 0 };
  if (policy.maxAttempts !== undefined && policy.maxAttempts <= 1) return { attempts: [first], end: 'maxAttempts' };
  const firstDelay = policy.schedule[0] ?? 0;
  if (firstDelay <= 0 || firstDelay > policy.windowMs) return { attempts: [first], end: 'window' };
  const ghosts = futureAttempts({ status: 'retrying', attempts: 1, firstAttemptAt: 0, nextAttemptAt: firstDelay }, policy);
  const attempts = [first, ...ghosts.map((g, i) => ({ attemptNumber: g.attemptNumber, atMs: g.at, spreadMs: i === 0 ? Math.round(firstDelay * policy.jitter) : g.spreadMs }))];
  const last = attempts[attempts.length - 1]!;
  if (policy.maxAttempts !== undefined && last.attemptNumber >= policy.maxAttempts) return { attempts, end: 'maxAttempts' };
  return { attempts, end: ghosts.length >= MAX_GHOSTS ? 'listed' : 'window' };
}
