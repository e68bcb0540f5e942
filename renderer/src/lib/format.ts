/**
 * Formatting for times, offsets, durations, sizes and counts: one wording across the UI, in the UI's
 * language (English). Nothing here asks Intl: the first Intl format a fresh browser process makes loads the
 * locale's data (15-20 ms measured), which the first screen would pay in its first render.
 */
import type { ClockJump } from '../../../main/contract/overview';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The clock's offset: "+5 s", "+12 min", "+4 h", "+2 h 05 min", "+1 d 03 h". */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  const total = Math.round(Math.abs(ms) / 1000);
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d > 0) return h ? `${sign}${d} d ${pad(h)} h` : `${sign}${d} d`;
  if (h > 0) return m ? `${sign}${h} h ${pad(m)} min` : `${sign}${h} h`;
  if (m > 0) return s ? `${sign}${m} min ${pad(s)} s` : `${sign}${m} min`;
  return `${sign}${s} s`;
}

/** A span of time in words: "4 s", "2 min 10 s", "1 h 05 min". */
export function formatSpan(ms: number): string {
  return formatOffset(Math.abs(ms)).slice(1);
}

/** Until an engine time: "in 4 s", "due now". */
export function formatCountdown(at: number, now: number): string {
  const ms = at - now;
  if (ms <= 500) return 'due now';
  return `in ${formatSpan(ms)}`;
}

/** A countdown for a narrow column: "4s", "1m 58s", "2h 05m", "due". */
export function formatShortCountdown(at: number, now: number): string {
  const total = Math.round((at - now) / 1000);
  if (total <= 0) return 'due';
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${pad(m)}m`;
  if (m > 0) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}

/** A request's duration: "26 ms", "5.00 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Time of day for a list row, with the day when it is not `now`'s day: "12:09:28", "Nov 22 12:09:28". */
export function formatRowTime(at: number, now: number): string {
  return sameDay(at, now) ? formatClock(at) : `${formatDay(at)} ${formatClock(at)}`;
}

/** The time of day: "12:09:28". */
export function formatClock(at: number): string {
  const date = new Date(at);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** The day: "Nov 27". */
export function formatDay(at: number): string {
  const date = new Date(at);
  return `${MONTHS[date.getMonth()]} ${date.getDate()}`;
}

/** A number with its thousands grouped and at most 3 decimals, as en-US writes it: "1,234,567", "1,234.5". */
export function formatCount(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return String(n);
  const [whole = '0', fraction] = String(Math.round(Math.abs(n) * 1000) / 1000).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${n < 0 && (whole !== '0' || fraction) ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

export function sameDay(a: number, b: number): boolean {
  return new Date(a).toDateString() === new Date(b).toDateString();
}

/** A precise timestamp: "2026-11-22 12:09:28.969". */
export function formatTimestamp(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** How long ago an engine time was: "just now", "12 s ago", "3 min ago", "2 h 05 min ago". */
export function formatAgo(at: number, now: number): string {
  const ms = now - at;
  if (ms < 1000) return 'just now';
  return `${formatSpan(ms)} ago`;
}

/**
 * A jump's progress in words, headline first: how long it has left in time ("about 35 s left"), or with
 * Fast-forward what moves ("12 of 30 deliveries settled"); then the rounds and their pace ("round 2 of ~8,
 * ~5 s each"). Before its first attempt it says what it is about to play, never "0 attempts".
 */
export function jumpProgressParts(jump: ClockJump): [headline: string, detail: string] {
  const { settled, total } = jump.deliveries;
  const deliveries = total === 1 ? '1 delivery' : `${formatCount(total)} deliveries`;
  if (jump.round === 0 && jump.attemptsInFlight === 0) return ['starting', total === 0 ? 'nothing due yet' : `${deliveries} due`];
  // Only attempts already out when it began (live ones it waits for): no rounds of its own, nothing of its own settled.
  if (total === 0 && jump.attemptsInFlight > 0) return [`waiting for ${jump.attemptsInFlight === 1 ? 'the attempt' : `${formatCount(jump.attemptsInFlight)} attempts`} in flight`, 'nothing else due yet'];
  const estimate = Math.max(jump.roundsEstimate, jump.round, 1);
  const left = jump.msLeft === null ? null : jump.msLeft < 1_000 ? 'almost done' : `about ${formatSpan(Math.round(jump.msLeft / 1_000) * 1_000)} left`;
  const pace = jump.msPerRound === null ? '' : `, ~${formatSpan(Math.max(1_000, Math.round(jump.msPerRound / 1_000) * 1_000))} each`;
  const rounds = `round ${Math.max(jump.round, 1)} of ~${estimate}${pace}`;
  if (jump.fastForward) return [`${formatCount(settled)} of ${deliveries} settled`, left ? `${left} · ${rounds}` : rounds];
  return [left ?? 'timing the first round', rounds];
}

export function jumpProgressText(jump: ClockJump): string {
  return jumpProgressParts(jump).join(' · ');
}
