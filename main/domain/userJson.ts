/**
 * JSON a user gives in a file, on stdin or in a flag (a config file, a scenarios file, an export to import,
 * send --data): the one parse every such face goes through. parseJsonText reads it (syntax, a key given
 * twice), then a number beyond a double is refused naming its field, as the typed API refuses it: JSON.parse
 * makes 1e400 Infinity, which JSON.stringify would send on as null.
 */
import { overflowingNumber } from './jsonNumbers.js';
import { lineColumn, parseJsonText, stringEnd, type JsonParse } from './jsonText.js';

export function parseUserJson(text: string): JsonParse {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  const overflow = overflowingNumber(text, parsed.value);
  if (!overflow) return parsed;
  const position = firstOverflowingLiteral(text);
  return { ok: false, error: { position, ...lineColumn(text, position), problem: overflow.message, kind: 'number', field: overflow.field } };
}

/** Where the first number literal beyond a double starts (outside strings), or 0. One pass, no recursion. */
function firstOverflowingLiteral(text: string): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      while (i + 1 < n && /[-+.eE0-9]/.test(text[i + 1]!)) i++;
      if (!Number.isFinite(Number(text.slice(start, i + 1)))) return start;
    }
  }
  return 0;
}

