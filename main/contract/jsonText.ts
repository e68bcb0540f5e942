/**
 * Checks of JSON text a person wrote that JSON.parse does not make (pure, shared with the renderer, whose forms
 * read JSON too): a key given twice in one object, and where a position is as line and column.
 */
import { unkeptNumber } from './jsonNumbers.js';

export interface JsonProblem {
  /** Offset in the text (UTF-16 code units, which equal characters for the usual ASCII JSON). */
  position: number;
  line: number;
  column: number;
  problem: string;
  /** A syntax error (`invalid JSON`), or valid JSON refused for nesting too deep, a key given twice or a number beyond a double. */
  kind?: 'nesting' | 'repeated-key' | 'number';
  /** The field the problem is in (`scenarios[0].body.amount`), when it is in one. */
  field?: string;
}

/** The index of the quote that closes the string opened at `open` (or the text's end): escapes are skipped. */
export function stringEnd(text: string, open: number): number {
  const n = text.length;
  let i = open + 1;
  for (; i < n; i++) {
    const d = text.charCodeAt(i);
    if (d === 0x22) break;
    if (d === 0x5c) i++;
  }
  return i;
}

/** The 1-based line and column of a position in the text. */
export function lineColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lastNewline = -1;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastNewline = i;
    }
  }
  return { line, column: position - lastNewline };
}

/**
 * The first key that appears twice in one object, said with both places. For text JSON.parse accepted: one
 * pass with a stack of the open objects' keys, no recursion (any depth).
 */
export function repeatedKey(text: string): JsonProblem | null {
  // Per open container: its keys (objects) or null (arrays); and whether the next string is a key.
  const open: (Map<string, number> | null)[] = [];
  let keyNext = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      i = stringEnd(text, i);
      if (!keyNext) continue;
      keyNext = false;
      const keys = open.at(-1)!;
      const raw = text.slice(start, i + 1);
      const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      const first = keys.get(key);
      if (first === undefined) {
        keys.set(key, start);
        continue;
      }
      const was = lineColumn(text, first);
      return { position: start, ...lineColumn(text, start), problem: `the key ${JSON.stringify(key)} appears twice in one object (first at line ${was.line}, column ${was.column}): give it once`, kind: 'repeated-key' };
    }
    if (c === 0x7b) {
      open.push(new Map());
      keyNext = true;
    } else if (c === 0x5b) {
      open.push(null);
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    } else if (c === 0x2c) {
      keyNext = open.at(-1) instanceof Map;
    }
  }
  return null;
}

/**
 * JSON a person typed into a form, read as the API reads a body: JSON.parse, then a key given twice and a number
 * a double does not keep are refused (JSON.parse would drop the first and change the second without a word).
 */
export function readTypedJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { ok: false, message: `not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const repeated = repeatedKey(text);
  if (repeated) return { ok: false, message: `${repeated.problem} (line ${repeated.line}, column ${repeated.column})` };
  const number = unkeptNumber(text, value);
  return number ? { ok: false, message: number.message } : { ok: true, value };
}
