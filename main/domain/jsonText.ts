/**
 * JSON a person wrote (`send --data`, a config file), with errors they can act on: V8's JSON.parse messages
 * do not always carry a position ("Unexpected token '}', ... is not valid JSON"), so on failure jsonc-parser (VS Code's
 * JSON scanner, here in strict mode: no comments, no trailing commas) finds where and what went wrong,
 * reported as line, column and position with the line and a caret.
 */
import { printParseErrorCode, visit } from 'jsonc-parser';
import { lineColumn, repeatedKey, stringEnd, type JsonProblem } from '../contract/jsonText.js';

export { lineColumn, repeatedKey, stringEnd, type JsonProblem };

/** `invalid JSON at line 3, column 33 (position 49)`, or `at line …` for valid JSON refused for another reason. */
export function jsonProblemWhere(p: JsonProblem): string {
  return `${p.kind ? '' : 'invalid JSON '}at line ${p.line}, column ${p.column} (position ${p.position})`;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: JsonProblem };

/**
 * Invalid JSON nesting past this is refused before the error is located: jsonc-parser, which finds where the
 * text went wrong, walks it with the call stack, which a file nested 10,000 levels overflows. Valid JSON of
 * any depth parses (JSON.parse does not recurse), and each face then applies its own limit with the field it
 * concerns (a call: LIMITS.maxDepth).
 */
export const JSON_TEXT_MAX_DEPTH = 512;

/**
 * Parses JSON a person wrote: JSON.parse, then each object's keys checked for repeats (JSON.parse keeps the
 * last silently, which would drop the first without a word); on a syntax error, where and what. Every
 * problem is said with its line and column.
 */
export function parseJsonText(text: string, maxDepth: number = JSON_TEXT_MAX_DEPTH): JsonParse {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    const deep = tooDeepAt(text, maxDepth);
    if (deep !== null) {
      return { ok: false, error: { position: deep, ...lineColumn(text, deep), problem: `nests deeper than ${maxDepth} levels (arrays and objects inside one another) and is not valid JSON`, kind: 'nesting' } };
    }
    const located = locateJsonError(text);
    if (located) return { ok: false, error: located };
    // The scanner found nothing (should not happen): fall back on V8's message and position.
    const message = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(message);
    const position = pos ? Number(pos[1]) : 0;
    return { ok: false, error: { position, ...lineColumn(text, position), problem: message } };
  }
  const repeated = repeatedKey(text);
  return repeated ? { ok: false, error: repeated } : { ok: true, value };
}

/** Where nesting first goes past `limit` (outside strings), or null. One pass, no recursion. */
function tooDeepAt(text: string, limit: number): number | null {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return i;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return null;
}

/** `  {"userId": }` + `             ^` : the offending line (clipped around the position) and a caret. */
export function caretSnippet(text: string, p: JsonProblem, width = 60): string {
  const lines = text.split('\n');
  const line = (lines[p.line - 1] ?? '').replace(/\r$/, '');
  const col = p.column - 1;
  const start = Math.max(0, Math.min(col - Math.floor(width / 2), line.length - width));
  const clipped = line.slice(start, start + width);
  const pre = start > 0 ? '…' : '';
  const post = start + width < line.length ? '…' : '';
  return `  ${pre}${clipped}${post}\n  ${' '.repeat(pre.length + col - start)}^`;
}


/** The first syntax error in `text` by the JSON grammar (RFC 8259), or null when it is valid. */
export function locateJsonError(text: string): JsonProblem | null {
  if (text.charCodeAt(0) === 0xfeff) {
    return { position: 0, line: 1, column: 1, problem: 'the text starts with a byte-order mark (BOM); save it as UTF-8 without BOM' };
  }
  // The first error, with what the grammar expected there, followed through the scanner's own events.
  let first: Located | null = null;
  const open: ('object' | 'array')[] = [];
  let expecting: Expecting = 'value';
  const afterValue = () => {
    expecting = open.length ? 'separator' : 'end';
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        open.push('object');
        expecting = 'property';
      },
      onArrayBegin: () => {
        open.push('array');
        expecting = 'value';
      },
      onObjectEnd: () => {
        open.pop();
        afterValue();
      },
      onArrayEnd: () => {
        open.pop();
        afterValue();
      },
      onObjectProperty: () => {
        expecting = 'colon';
      },
      onSeparator: (character) => {
        expecting = character === ':' || open.at(-1) === 'array' ? 'value' : 'property';
      },
      onLiteralValue: afterValue,
      onError: (error, offset, length) => {
        first ??= { error: printParseErrorCode(error), offset, length, inside: open.at(-1) ?? null, expecting };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  if (!first) return null;
  const { problem, at } = describeError(text, first);
  return { position: at, ...lineColumn(text, at), problem };
}

type Expecting = 'value' | 'property' | 'colon' | 'separator' | 'end';

interface Located {
  /** jsonc-parser's name for the error (its codes are a const enum, which isolated modules cannot read). */
  error: string;
  offset: number;
  length: number;
  inside: 'object' | 'array' | null;
  expecting: Expecting;
}

/** What is at `at`, in words. */
function found(text: string, at: number): string {
  if (at >= text.length) return 'end of the input';
  const ch = text[at]!;
  if (ch === "'") return 'a single quote (JSON strings use double quotes)';
  if (ch === '/') return 'a comment (JSON has none)';
  return JSON.stringify(ch);
}

/** The problem in words, and where it is (the error's offset, or the exact character within its token). */
function describeError(text: string, e: Located): { problem: string; at: number } {
  const at = e.offset;
  const here = found(text, at);
  const ch = text[at];
  const end = at >= text.length;
  // Input that ends too soon is shown where its content ends, not on the empty line after a final newline.
  const problem = (p: string, where = end ? text.trimEnd().length : at) => ({ problem: p, at: where });
  switch (e.error) {
    case 'UnexpectedEndOfString': {
      const stop = at + e.length;
      if (text[stop] === '\n' || text[stop] === '\r') return problem('line break inside a string (write \\n)', stop);
      return problem('unterminated string (no closing ")');
    }
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      return problem('invalid escape sequence in string');
    case 'InvalidCharacter':
      return problem('control character inside a string');
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return problem('invalid number');
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return problem('a comment (JSON has none)');
    case 'ColonExpected':
      return problem(`unexpected ${here}: expected ':' after the property name`);
    // Reported after the scanner has closed the object or array for itself.
    case 'CloseBraceExpected':
      return problem(`unexpected ${here}: expected ',' or '}' after a property value`);
    case 'CloseBracketExpected':
      return problem(`unexpected ${here}: expected ',' or ']' after an array element`);
  }
  // The rest (an unexpected token, a missing value, name or comma) are told by what the grammar expected.
  if (/[0-9]/.test(ch ?? '') && text[at - 1] === '0' && !/[0-9.]/.test(text[at - 2] ?? '')) return problem('invalid number (no leading zeros)', at - 1);
  switch (e.expecting) {
    case 'property':
      if (ch === '}') return problem("trailing comma before '}' (JSON does not allow one)");
      return problem(end ? 'unexpected end of the input: expected a "quoted" property name' : `unexpected ${here}: expected a "quoted" property name`);
    case 'colon':
      return problem(`unexpected ${here}: expected ':' after the property name`);
    case 'separator':
      return problem(
        e.inside === 'array' ? `unexpected ${here}: expected ',' or ']' after an array element` : `unexpected ${here}: expected ',' or '}' after a property value`,
      );
    case 'end':
      return problem(`unexpected ${here} after the JSON value`);
    case 'value':
      if (ch === ']' && e.inside === 'array') return problem("trailing comma before ']' (JSON does not allow one)");
      return problem(end ? 'unexpected end of the input: expected a value' : `unexpected ${here}: expected a value`);
  }
}
