/**
 * Durations as people type them in the Destinations editor: `5s`, `30 s`, `2m`, `2 min`, `1h30m`, `4h`,
 * `500ms`, `1d`, or a bare number of milliseconds. Whole milliseconds.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds, or an error in words. */
export function parseDuration(text: string): { ok: true; ms: number } | { ok: false; message: string } {
  const t = text.trim().toLowerCase();
  if (t === '') return { ok: false, message: 'give a duration such as 5s, 2m or 4h' };
  if (/^\d+$/.test(t)) return { ok: true, ms: Number(t) };
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
