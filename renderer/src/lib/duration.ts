/**
 * Durations as people type them in the Destinations editor: `5s`, `30 s`, `2m`, `2 min`, `1h30m`, `4h`,
 * `500ms`, `1d`, or `0`. Whole milliseconds. A number without a unit is refused: the fields show seconds and
 * hours, so `30` typed in Timeout means 30 s to whoever typed it, and read as milliseconds it would make
 * every attempt time out.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds, or an error in words. */
export function parseDuration(text: string): { ok: true; ms: number } | { ok: false; message: string } {
  const t = text.trim().toLowerCase();
  if (t === '') return { ok: false, message: 'give a duration such as 5s, 2m or 4h' };
  if (/^\d+(\.\d+)?$/.test(t)) {
    if (Number(t) === 0) return { ok: true, ms: 0 };
    return { ok: false, message: `"${t}" has no unit: write ${t}ms, ${t}s, ${t}m or ${t}h` };
  }
  const part = /(\d+(?:\.\d+)?)\s*(ms|sec|min|s|m|h|d)\s*/gy;
  let ms = 0;
  let at = 0;
  for (let match = part.exec(t); match; match = part.exec(t)) {
    ms += Number(match[1]) * UNIT_MS[match[2]!]!;
    at = part.lastIndex;
  }
  if (at !== t.length || at === 0) return { ok: false, message: `"${text.trim()}" is not a duration: write it like 5s, 2m, 1h30m or 500ms` };
  return { ok: true, ms: Math.round(ms) };
}

/** The shortest exact spelling: 5000 → `5s`, 5400000 → `1h30m`, 1500 → `1500ms`. */
export function formatDurationInput(ms: number): string {
  if (ms === 0) return '0';
  if (ms % 1000 !== 0) return `${ms}ms`;
  let rest = ms;
  let out = '';
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return out;
}

/** A comma-separated list of durations (a retry schedule); the error names the entry. */
export function parseDurationList(text: string): { ok: true; ms: number[] } | { ok: false; message: string } {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 1 && parts[0] === '') return { ok: false, message: 'give at least one delay, such as 5s, 30s, 2m' };
  const out: number[] = [];
  for (const [i, p] of parts.entries()) {
    const d = parseDuration(p);
    if (!d.ok) return { ok: false, message: `entry ${i + 1}: ${d.message}` };
    out.push(d.ms);
  }
  return { ok: true, ms: out };
}

/** The units a duration can be written in, as prose names them: `120 s`, `2 min`. */
export type DurationUnit = 'ms' | 's' | 'min' | 'h' | 'd';
const UNIT_NAME: Record<string, DurationUnit> = { ms: 'ms', s: 's', sec: 's', m: 'min', min: 'min', h: 'h', d: 'd' };
const UNIT_SIZE: Record<DurationUnit, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The unit a duration was written in, so that a problem with it is said in that unit: `500s` → s, `2 min` →
 * min, `1h30m` → min (the smallest it uses), `0` → ms. Null when it is not a duration.
 */
export function durationUnit(text: string): DurationUnit | null {
  const t = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) === 0 ? 'ms' : null;
  if (!parseDuration(t).ok) return null;
  const units = [...t.matchAll(/\d(?:\.\d+)?\s*(ms|sec|min|s|m|h|d)/g)].map((m) => UNIT_NAME[m[1]!]!);
  return units.reduce<DurationUnit | null>((small, u) => (small === null || UNIT_SIZE[u] < UNIT_SIZE[small] ? u : small), null);
}

/**
 * Milliseconds said in `unit` when they read well there (at least 1, at most two decimals): (120000, 's') →
 * `120 s`, (90000, 'min') → `1.5 min`; otherwise as spokenDuration says them: (1, 's') → `1 ms`.
 */
export function formatInUnit(ms: number, unit: DurationUnit): string {
  const there = ms / UNIT_SIZE[unit];
  if (ms === 0 || (Math.abs(there) >= 1 && Math.abs(there * 100 - Math.round(there * 100)) < 1e-9)) return `${there.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${unit}`;
  return spokenDuration(ms);
}

/** Milliseconds in the largest unit they are whole in, for prose: 604800000 → `7 d`, 120000 → `2 min`, 1500 → `1,500 ms`. */
export function spokenDuration(ms: number): string {
  const whole = (['d', 'h', 'min', 's', 'ms'] as const).find((u) => ms % UNIT_SIZE[u] === 0) ?? 'ms';
  return `${(ms / UNIT_SIZE[whole]).toLocaleString('en-US', { maximumFractionDigits: 3 })} ${whole}`;
}
