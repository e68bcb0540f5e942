/**
 * JSON given on the command line, with errors a person can act on: V8's JSON.parse messages do not always
 * carry a position ("Unexpected token '}', ... is not valid JSON"), so a small strict scanner finds where
 * and what went wrong, reported as line, column and byte position with the line and a caret.
 */

export interface JsonProblem {
  /** Offset in the text (UTF-16 code units, which equal characters for the usual ASCII JSON). */
  position: number;
  line: number;
  column: number;
  problem: string;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: JsonProblem };

export function parseJsonText(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const located = locateJsonError(text);
    if (located) return { ok: false, error: located };
    // The scanner found nothing (should not happen): fall back on V8's message and position.
    const message = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(message);
    const position = pos ? Number(pos[1]) : 0;
    return { ok: false, error: { position, ...lineColumn(text, position), problem: message } };
  }
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

function lineColumn(text: string, position: number): { line: number; column: number } {
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

class Stop {
  constructor(
    readonly position: number,
    readonly problem: string,
  ) {}
}

/** The first syntax error in `text` by the JSON grammar (RFC 8259), or null when it is valid. */
export function locateJsonError(text: string): JsonProblem | null {
  let i = 0;
  const n = text.length;
  const describe = (at: number): string => {
    if (at >= n) return 'the end of the input';
    const ch = text[at]!;
    if (ch === "'") return "a single quote (JSON strings use double quotes)";
    return JSON.stringify(ch);
  };
  const stop = (problem: string, at = i): never => {
    throw new Stop(at, problem);
  };
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else stop(`unexpected ${describe(i)}: expected a value`);
  };
  const string = () => {
    const open = i;
    i++; // opening quote
    for (;;) {
      if (i >= n) stop('unterminated string (no closing ")', open);
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c === 92) {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else stop('invalid escape sequence in string');
        continue;
      }
      if (c < 0x20) stop(c === 10 ? 'line break inside a string (write \\n)' : 'control character inside a string');
      i++;
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const number = () => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m || m[0] === '-' || m[0] === '') stop('invalid number');
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') return object();
    if (ch === '[') return array();
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    stop(i >= n ? 'unexpected end of the input: expected a value' : `unexpected ${describe(i)}: expected a value`);
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') {
        stop(
          text[i] === '}'
            ? "trailing comma before '}' (JSON does not allow one)"
            : i >= n
              ? 'unexpected end of the input: expected a "quoted" property name'
              : `unexpected ${describe(i)}: expected a "quoted" property name`,
        );
      }
      string();
      ws();
      if (text[i] !== ':') stop(`unexpected ${describe(i)}: expected ':' after the property name`);
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      stop(`unexpected ${describe(i)}: expected ',' or '}' after a property value`);
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === ']') stop("trailing comma before ']' (JSON does not allow one)");
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      stop(`unexpected ${describe(i)}: expected ',' or ']' after an array element`);
    }
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) stop('the text starts with a byte-order mark (BOM); save it as UTF-8 without BOM', 0);
    value();
    ws();
    if (i < n) stop(`unexpected ${describe(i)} after the JSON value`);
    return null;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    return { position: e.position, ...lineColumn(text, e.position), problem: e.problem };
  }
}
