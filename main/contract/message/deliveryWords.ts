/**
 * Words about a delivery that the CLI and the UI both print, so the two never tell it differently.
 */
import type { AttemptRecord, DeliveryRecord } from '../deliveries.js';
import type { DeliverySummary } from '../messages.js';

/** `45 s`, `1 min 30 s`, `12 min`, `1 h 46 min`, `4 h` (seconds only under an hour). */
export function spanWords(ms: number): string {
  const totalS = Math.round(Math.max(0, ms) / 1000);
  if (totalS < 60) return `${totalS} s`;
  if (totalS < 3600) return totalS % 60 ? `${Math.floor(totalS / 60)} min ${totalS % 60} s` : `${totalS / 60} min`;
  // Whole minutes gone by, as the UI's countdowns count them: Why? and the timeline say the same at the same moment.
  const totalMin = Math.floor(totalS / 60);
  const min = totalMin % 60;
  return min ? `${Math.floor(totalMin / 60)} h ${min} min` : `${Math.floor(totalMin / 60)} h`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, ... */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/**
 * Why a delivery failed with `retry window exhausted` made no further attempt: the next one would have
 * fallen due after the window's end. "after 7 attempts over 1 h 46 min" alone reads as a contradiction of
 * "retries for up to 4 h"; this says what happened to the 8th. With several webhooks what did not come is a
 * round ("no 9th round"), as triesWords counts it. Null when the delivery does not carry it (another reason,
 * or a row from before the engine kept it).
 */
export function pastWindowWords(d: Pick<DeliveryRecord, 'attempts' | 'firstAttemptAt' | 'pastWindow'>, several: boolean): string | null {
  const past = pastWindowFacts(d);
  return past && `no ${past.next} ${several ? 'round' : 'attempt'}: it would have fallen due ${past.due} after the first, past the ${past.window} retry window`;
}

/**
 * The same as a clause after "retry window exhausted after 7 attempts: ": "the 8th would have fallen due
 * 4 h 31 min after the first, past the 4 h retry window" (the Why? panel; "the 9th round" with several webhooks).
 */
export function pastWindowClause(d: Pick<DeliveryRecord, 'attempts' | 'firstAttemptAt' | 'pastWindow'>, several: boolean): string | null {
  const past = pastWindowFacts(d);
  return past && `the ${past.next}${several ? ' round' : ''} would have fallen due ${past.due} after the first, past the ${past.window} retry window`;
}

function pastWindowFacts(d: Pick<DeliveryRecord, 'attempts' | 'firstAttemptAt' | 'pastWindow'>): { next: string; due: string; window: string } | null {
  if (!d.pastWindow || d.firstAttemptAt === null) return null;
  const { dueAt, windowEndsAt } = d.pastWindow;
  return { next: ordinal(d.attempts + 1), due: spanWords(dueAt - d.firstAttemptAt), window: spanWords(windowEndsAt - d.firstAttemptAt) };
}

/**
 * How many tries a delivery took: `3 attempts` with one webhook; with several a round (one POST to each
 * pending webhook) is not an attempt, so `1 round · 3 attempts`, as the detail pane's card counts them.
 */
export function triesWords(rounds: number, attempts: number, severalWebhooks: boolean): string {
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return severalWebhooks ? `${count(rounds, 'round')} · ${count(attempts, 'attempt')}` : count(rounds, 'attempt');
}

/** Whether a delivery's attempts went to several webhooks: then its rounds and its attempts are counted apart. */
export function severalWebhooks(attempts: readonly Pick<AttemptRecord, 'webhookIndex'>[]): boolean {
  return new Set(attempts.map((a) => a.webhookIndex)).size > 1;
}

/** How many tries a delivery took, from its record and its own attempts (getMessage's): `1 round · 3 attempts`. */
export function recordTriesWords(d: Pick<DeliveryRecord, 'attempts'>, own: readonly Pick<AttemptRecord, 'webhookIndex'>[]): string {
  return triesWords(d.attempts, own.length, severalWebhooks(own));
}

/**
 * The same from a list row's delivery (MessageSummary.deliveries), which counts POSTs rather than webhooks:
 * more attempts than rounds means a round went to several webhooks.
 */
export function summaryTriesWords(d: Pick<DeliverySummary, 'attempts' | 'webhookAttempts'>): string {
  return triesWords(d.attempts, d.webhookAttempts, d.webhookAttempts > d.attempts);
}

/** "1", "1 and 2", "1, 2 and 3": a list in a sentence (webhooks, destinations, states). */
export const listWords = (items: readonly string[]): string => (items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`);
