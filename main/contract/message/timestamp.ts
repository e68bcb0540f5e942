/**
 * ISO 8601 timestamps (docs/behaviour.md §1): any valid ISO 8601 date or date-time is normalised to UTC with
 * milliseconds. `Date.parse` alone is too lenient ("March 7" parses), so the shape is checked first.
 * A date-time without an offset is read as UTC, so the same input means the same instant on every machine.
 */
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

export type TimestampResult = { ok: true; iso: string; ms: number } | { ok: false; reason: string };

/** What SDKs send almost always, and what this function returns: UTC with milliseconds. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function normaliseTimestamp(input: string): TimestampResult {
  if (CANONICAL.test(input)) {
    // The fast path (every ingested call takes it): a canonical timestamp that names a real instant is its
    // own normal form. Its fields are read digit by digit; anything doubtful takes the general path below.
    const ms = canonicalMs(input);
    if (ms !== null) return { ok: true, iso: input, ms };
  }
  const m = ISO_8601.exec(input.trim());
  if (!m) return { ok: false, reason: `"${input}" is not an ISO 8601 date-time (e.g. 2026-11-22T06:22:02.954Z)` };
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12) return { ok: false, reason: `"${input}": month ${mo} is out of range` };
  if (day < 1 || day > daysInMonth(Number(y), month)) return { ok: false, reason: `"${input}": day ${d} is out of range` };
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return { ok: false, reason: `"${input}": time ${h}:${mi}:${s} is out of range` };
  }
  const ms = (frac + '000').slice(0, 3);
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return { ok: false, reason: `"${input}": offset ${zone} is out of range` };
    offsetMinutes = sign * (oh * 60 + om);
  }
  const epoch = utc(Number(y), month - 1, day, Number(h), Number(mi), Number(s), Number(ms)) - offsetMinutes * 60_000;
  if (!Number.isFinite(epoch)) return { ok: false, reason: `"${input}" is out of the representable range` };
  return { ok: true, iso: new Date(epoch).toISOString(), ms: epoch };
}

/** Days in a month (1–12) of the proleptic Gregorian calendar, for every year (Date.UTC would read 0 as 1900). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Date.UTC, but a year below 100 is that year (Date.UTC reads 50 as 1950). */
function utc(year: number, month0: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  if (year >= 100) return Date.UTC(year, month0, day, hour, minute, second, ms);
  const date = new Date(Date.UTC(2000, month0, day, hour, minute, second, ms));
  date.setUTCFullYear(year, month0, day);
  return date.getTime();
}

/**
 * The instant a CANONICAL string names, or null when a field is out of range: the general path then
 * decides, and says why.
 */
function canonicalMs(s: string): number | null {
  const n = (at: number, digits: number): number => {
    let v = 0;
    for (let i = at; i < at + digits; i++) v = v * 10 + (s.charCodeAt(i) - 48);
    return v;
  };
  const year = n(0, 4);
  const month = n(5, 2);
  const day = n(8, 2);
  const hour = n(11, 2);
  const minute = n(14, 2);
  const second = n(17, 2);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  return utc(year, month - 1, day, hour, minute, second, n(20, 3));
}

/** The last conversion: the calls of one batch share their receipt time. */
let lastMs = Number.NaN;
let lastIso = '';

export function isoFromMs(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}

/**
 * Why a `sentAt` (when the SDK sent the request or the call) is refused, or null when it is absent or an ISO 8601
 * date-time. It is checked, not used (docs/behaviour.md §1: a call's own timestamp is delivered as sent); a value
 * that is not a time would be stored with the call as if it were one.
 */
export function sentAtProblem(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') return `must be an ISO 8601 date-time string (got ${typeof value === 'object' ? (Array.isArray(value) ? 'an array' : 'an object') : `${typeof value} ${String(value)}`})`;
  const ts = normaliseTimestamp(value);
  return ts.ok ? null : ts.reason;
}
