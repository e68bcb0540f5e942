/**
 * Deeply nested JSON for the hardening tests: a call whose properties nest thousands of arrays is
 * ~10 KB, inside every size limit, and deep enough to overflow any recursive walk.
 */

/** `[[[...]]]`, `levels` arrays deep, as text (never built as an object by recursion). */
export function nestedArrays(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

/** A track call whose `properties` is `{"a": <levels arrays>}` (so properties nests levels + 1), as JSON text. */
export function deepTrackCallJson(levels: number, extra: Record<string, unknown> = {}): string {
  const head = JSON.stringify({ type: 'track', userId: 'u1', event: 'Deep', ...extra });
  return `${head.slice(0, -1)},"properties":{"a":${nestedArrays(levels)}}}`;
}

/** The delivered body of such a call, as Hookbench would have serialised it before a nesting limit existed. */
export function deepTrackBody(levels: number, messageId: string): string {
  return `{"version":1,"type":"track","userId":"u1","event":"Deep","properties":{"a":${nestedArrays(levels)}},"timestamp":"2026-01-02T03:04:05.678Z","messageId":"${messageId}"}`;
}
