/**
 * JSON a user gives in a file, on stdin or in a flag (a config file, a scenarios file, an export to import,
 * send --data): the one parse every such face goes through. parseJsonText reads it (syntax, a key given
 * twice), then a number a double does not keep is refused naming its field, as the typed API refuses it: JSON.parse
 * makes 1e400 Infinity, which JSON.stringify would send on as null, and 9007199254740993 9007199254740992.
 */
import { firstUnkeptLiteral, unkeptNumber } from '../contract/jsonNumbers.js';
import { lineColumn, parseJsonText, type JsonParse } from './jsonText.js';

export function parseUserJson(text: string): JsonParse {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  const overflow = unkeptNumber(text, parsed.value);
  if (!overflow) return parsed;
  const position = firstUnkeptLiteral(text)?.position ?? 0;
  return { ok: false, error: { position, ...lineColumn(text, position), problem: overflow.message, kind: 'number', field: overflow.field } };
}
