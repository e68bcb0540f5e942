/**
 * The words of a limit broken, for every schema: which limit and which value (`must be at most 200
 * characters (got 1,001)`), not zod's own (`Too big: expected number to be <=120000`); a field left out
 * `is required`, a value not among the allowed names them and the value given. Installed once, for
 * the whole process, by importing this module; a schema's own message for a limit still wins.
 *
 * A schema that names what it wants when the type is wrong gives that message for the wrong type only
 * (`wrongType`): a message given as a plain string would answer every issue of the schema, a value too
 * long included ("must be a string" for a string of 1,001 characters).
 */
import { z } from 'zod';
import { describeValue } from './message/messageBody.js';

const count = (n: number | bigint): string => n.toLocaleString('en-US');

type Issue = z.core.$ZodRawIssue;

/** The type a field wants, as a JSON writer says it. */
const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  null: 'null',
};

/** Our words for an issue: a limit broken, a field left out, a value not among the allowed; undefined for any other (zod's own words then). */
export function issueWords(issue: Issue): string | undefined {
  // An enum or a literal left out is an invalid value to zod; to the user it is a field left out all the same.
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) return 'is required';
  // zod's own words here ("Invalid input: expected number, received string") name neither the value nor a type a
  // JSON writer knows; a schema that says more for its wrong type (wrongType) still wins.
  if (issue.code === 'invalid_type') return `must be ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`} (got ${describeValue(issue.input)})`;
  if (issue.code === 'invalid_value' && issue.values.length > 1) {
    const shown = issue.input === undefined ? '' : ` (got ${JSON.stringify(issue.input)?.slice(0, 80) ?? String(issue.input)})`;
    return `must be one of ${issue.values.map((v) => String(v)).join(', ')}${shown}`;
  }
  // zod says only "Invalid key in record"; the key's own schema says what is wrong with it (`values[""]: the key must not be empty`).
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0]?.message;
    return inner ? `the key ${inner}` : undefined;
  }
  if (issue.code !== 'too_big' && issue.code !== 'too_small') return undefined;
  const big = issue.code === 'too_big';
  const bound = big ? issue.maximum : issue.minimum;
  if (typeof bound !== 'number' && typeof bound !== 'bigint') return undefined;
  const input = issue.input;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string': {
      const length = typeof input === 'string' ? input.length : null;
      if (!big && Number(bound) === 1) return 'must not be empty';
      return `must be ${big ? 'at most' : 'at least'} ${count(bound)} characters${length !== null ? ` (got ${count(length)})` : ''}`;
    }
    case 'number':
    case 'int':
    case 'bigint': {
      const got = typeof input === 'number' || typeof input === 'bigint' ? ` (got ${count(input)})` : '';
      const words = big ? (inclusive ? 'at most' : 'less than') : inclusive ? 'at least' : 'more than';
      return `must be ${words} ${count(bound)}${got}`;
    }
    case 'array':
    case 'set': {
      const size = Array.isArray(input) ? input.length : input instanceof Set ? input.size : null;
      const items = Number(bound) === 1 ? 'item' : 'items';
      return `must have ${big ? 'at most' : 'at least'} ${count(bound)} ${items}${size !== null ? ` (got ${count(size)})` : ''}`;
    }
    default:
      return undefined;
  }
}

/** A schema's message for a value of the wrong type only; its limits keep their own words (issueWords). */
export function wrongType(message: string): (issue: Issue) => string | undefined {
  // A field left out was given no type at all: it `is required` (issueWords), not "must be a string".
  return (issue) => (issue.code === 'invalid_type' && issue.input !== undefined ? `${message} (got ${describeValue(issue.input)})` : undefined);
}

/**
 * A value not among the allowed, said in our words (the names and the value given) followed by what the
 * names mean; a field left out still `is required`. A plain string would answer every issue alike.
 */
export function oneOf(note: string): (issue: Issue) => string | undefined {
  return (issue) => {
    const words = issueWords(issue);
    return issue.code === 'invalid_value' && words ? `${words}; ${note}` : words;
  };
}

z.config({ customError: issueWords });
