import { describe, expect, it } from 'vitest';
import { caretSnippet, locateJsonError, parseJsonText } from '../../main/domain/jsonText.js';

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
    ['{"a": [1, 2]', "unexpected the end of the input: expected ',' or '}' after a property value", 1, 13],
    ['[1, {"a": 2}', "unexpected the end of the input: expected ',' or ']' after an array element", 1, 13],
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
