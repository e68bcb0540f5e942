import { describe, expect, it } from 'vitest';
import { JSON_TEXT_MAX_DEPTH, type JsonProblem, caretSnippet, jsonProblemWhere, locateJsonError, parseJsonText } from '../../../main/domain/jsonText.js';

/** The problem found in `text`, with the 1-based line and column it names. */
function problem(text: string): { problem: string; line: number; column: number } {
  const parsed = parseJsonText(text);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  const { problem, line, column } = parsed.error;
  return { problem, line, column };
}

describe('JSON given on the command line', () => {
  it('parses valid JSON and finds no problem in it', () => {
    expect(parseJsonText('{"userId": "u1", "n": [1, -2.5e3, true, null]}')).toEqual({ ok: true, value: { userId: 'u1', n: [1, -2500, true, null] } });
    expect(locateJsonError(' [ "a\\n\\u00e9" ] ')).toBeNull();
  });

  it.each([
    ['{"userId": }', 'unexpected "}": expected a value', 1, 12],
    ['{"a": 1,}', "trailing comma before '}' (JSON does not allow one)", 1, 9],
    ['[1, 2,]', "trailing comma before ']' (JSON does not allow one)", 1, 7],
    ["{'a': 1}", 'unexpected a single quote (JSON strings use double quotes): expected a "quoted" property name', 1, 2],
    ['{a: 1}', 'unexpected "a": expected a "quoted" property name', 1, 2],
    ['{"a" 1}', `unexpected "1": expected ':' after the property name`, 1, 6],
    ['{"a": 1 "b": 2}', `unexpected "\\"": expected ',' or '}' after a property value`, 1, 9],
    ['[1 2]', `unexpected "2": expected ',' or ']' after an array element`, 1, 4],
    ['{"a": [1, {"b": 2} 3]}', `unexpected "3": expected ',' or ']' after an array element`, 1, 20],
    ['{"a": 1} x', 'unexpected "x" after the JSON value', 1, 10],
    ['{"a": "b', 'unterminated string (no closing ")', 1, 7],
    ['{"a": "\\x"}', 'invalid escape sequence in string', 1, 7],
    ['{"a": "line\nbreak"}', 'line break inside a string (write \\n)', 1, 12],
    ['{"a": 01}', 'invalid number (no leading zeros)', 1, 7],
    ['{"a": 1 // note\n}', 'a comment (JSON has none)', 1, 9],
    ['', 'unexpected end of the input: expected a value', 1, 1],
    ['{\n  "userId": "u1",\n  "event": \n}', 'unexpected "}": expected a value', 4, 1],
    ['{"a": [1, 2]', "unexpected end of the input: expected ',' or '}' after a property value", 1, 13],
    ['[1, {"a": 2}', "unexpected end of the input: expected ',' or ']' after an array element", 1, 13],
    // A file cut short that ends with a newline: shown where its content ends, not on the empty line after it.
    ['{"userId": "u1"\n', "unexpected end of the input: expected ',' or '}' after a property value", 1, 16],
    ['[,1]', 'unexpected ",": expected a value', 1, 2],
    ['{"a": 1}}', 'unexpected "}" after the JSON value', 1, 9],
    ['{"a": 1e}', 'invalid number', 1, 7],
    ['{"a": "\u0001"}', 'control character inside a string', 1, 7],
    ['\ufeff{}', 'the text starts with a byte-order mark (BOM); save it as UTF-8 without BOM', 1, 1],
  ])('%j: %s', (text, message, line, column) => {
    expect(problem(text)).toEqual({ problem: message, line, column });
  });

  it('points a caret at the problem', () => {
    const text = '{"userId": "u1", "event": }';
    const parsed = parseJsonText(text);
    if (parsed.ok) throw new Error('expected a problem');
    expect(caretSnippet(text, parsed.error)).toBe(`  ${text}\n  ${' '.repeat(26)}^`);
  });
});

describe('one JSON decoder for what a person wrote (config files, --data, scenarios)', () => {
  it('refuses a key given twice in one object, naming both places; the same key in different objects is fine', () => {
    const r = parseJsonText('{\n  "sources": [],\n  "sources": [{"name": "a"}]\n}');
    expect(r).toEqual({
      ok: false,
      error: { position: 21, line: 3, column: 3, kind: 'repeated-key', problem: 'the key "sources" appears twice in one object (first at line 2, column 3): give it once' },
    });
    expect(parseJsonText('[{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}]')).toEqual({ ok: true, value: [{ a: 1 }, { a: 2 }, { b: { a: 3 }, a: 4 }] });
    // Escapes are read as JSON reads them: "a\u0062" is "ab".
    expect(parseJsonText('{"a\\u0062": 1, "ab": 2}')).toMatchObject({ ok: false, error: { kind: 'repeated-key', column: 16 } });
    // A key-like string inside a value is not a key.
    expect(parseJsonText('{"a": "b", "c": ["a", "a"], "d": {"a": 1}}')).toMatchObject({ ok: true });
  });

  it('an unclosed file nested a million levels is refused with its line and column, without overflowing the stack', () => {
    const r = parseJsonText(`{"sources": ${'['.repeat(1_000_000)}`);
    expect(r).toMatchObject({ ok: false, error: { kind: 'nesting', line: 1, column: 12 + JSON_TEXT_MAX_DEPTH } });
    expect(jsonProblemWhere((r as { error: JsonProblem }).error)).toBe(`at line 1, column ${12 + JSON_TEXT_MAX_DEPTH} (position ${11 + JSON_TEXT_MAX_DEPTH})`);
  });

  it('valid JSON of any depth parses (each face applies its own limit, naming the field)', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(parseJsonText(deep).ok).toBe(true);
  });
});
