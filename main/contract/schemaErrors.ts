/**
 * A schema's failure as an ApiError: the field path (`webhooks[0].headers.X-Env`), the rule, the limit, and
 * for an unknown key a "did you mean" the schema knows at that place.
 */
import type { z } from 'zod';
import type { ApiError, Result } from './result.js';
import { withOthers } from './problems.js';
import { suggestKey } from './suggestKey.js';

export { suggestKey };
// Every schema's limits in our words, wherever the schema was declared (zodWords.ts).
import './zodWords.js';

// Zod-free, so that ingestion (which loads no schema) counts several problems the same way.
export { eachProblem, MORE_PROBLEMS, withOthers } from './problems.js';

/** `webhooks[0].headers.X-Env` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    // A key a dotted path cannot show (empty, or with dots, brackets or quotes) is written quoted: `[""]`.
    else if (typeof key === 'string' && !/^[^.[\]"]+$/.test(key)) out += `[${JSON.stringify(key)}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Validate `input` with `schema`; on failure the first issue becomes an ApiError naming its field, the others its `problems`. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): Result<z.infer<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: issueToError(parsed.error.issues, prefix, schema) };
}

/**
 * The first issue as an ApiError naming its field. An unknown key is named itself (`destinations[0].secret`),
 * with a "did you mean" when `schema` is given and knows a close key at that place.
 */
export function issueToError(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = [], schema?: z.core.$ZodType): ApiError {
  const issue = issues[0];
  if (!issue) return { code: 'invalid_input', message: 'invalid input' };
  let message: string | undefined;
  let path: readonly PropertyKey[] = issue.path;
  if (issue.code === 'unrecognized_keys') {
    const [first, ...others] = issue.keys;
    if (first !== undefined) path = [...issue.path, first];
    message = `${unknownKeyWords(first, issue.path, schema)}${others.length ? `; also unknown: ${others.join(', ')}` : ''}`;
  }
  const error = errorAt(issue, path, prefix, message);
  // Each named with its field and limit, so that one answer shows everything to fix.
  return issues.length > 1 ? withOthers(error, issuesToErrors(issues.slice(1), prefix, schema), issues.length - 1) : error;
}

/**
 * Every issue as an ApiError naming its field, each unknown key on its own: what a file a person edits
 * (a config file) answers, so that one run shows every problem to fix.
 */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = [], schema?: z.core.$ZodType): ApiError[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => errorAt(issue, [...issue.path, key], prefix, unknownKeyWords(key, issue.path, schema))) : [errorAt(issue, issue.path, prefix)],
  );
}

/** Several problems as one error: the first's field and code, and a message listing them all, one a line. */
export function combineErrors(errors: readonly ApiError[]): ApiError {
  const first = errors[0];
  if (!first) return { code: 'invalid_input', message: 'invalid input' };
  if (errors.length === 1) return first;
  return { ...first, message: `${errors.length} problems:\n${errors.map((e) => `  ${e.message}`).join('\n')}` };
}

function unknownKeyWords(key: string | undefined, at: readonly PropertyKey[], schema?: z.core.$ZodType): string {
  const hint = key !== undefined && schema ? (suggestKey(key, keysAt(schema, at)) ?? nestedHome(key, at, schema)) : null;
  return `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}`;
}

/**
 * The field one level down that takes `key` as it is (`patch.rewind` for a `rewind` written beside `patch`):
 * a key put one level too high is as common a slip as a misspelt one.
 */
function nestedHome(key: string, at: readonly PropertyKey[], schema: z.core.$ZodType): string | null {
  for (const parent of keysAt(schema, at)) {
    if (keysAt(schema, [...at, parent]).includes(key)) return `${parent}.${key}`;
  }
  return null;
}

function errorAt(issue: z.core.$ZodIssue, path: readonly PropertyKey[], prefix: readonly PropertyKey[], message = issue.message): ApiError {
  const field = formatPath([...prefix, ...path]);
  const error: ApiError = {
    code: 'invalid_input',
    message: field ? `${field}: ${message}` : message,
  };
  if (field) error.field = field;
  const limit = limitOf(issue);
  if (limit !== undefined) error.limit = limit;
  return error;
}

function limitOf(issue: z.core.$ZodIssue): number | undefined {
  // A record's key that breaks a limit: the limit is the key schema's.
  if (issue.code === 'invalid_key') return issue.issues[0] ? limitOf(issue.issues[0]) : undefined;
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    const bound = issue.code === 'too_big' ? issue.maximum : issue.minimum;
    return typeof bound === 'number' ? bound : Number(bound);
  }
  if (issue.code === 'custom' && issue.params && typeof issue.params['limit'] === 'number') return issue.params['limit'];
  return undefined;
}

/** What `_zod.def` holds for the schema kinds keysAt walks through. */
interface WalkDef {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  left?: z.core.$ZodType;
  right?: z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
  getter?: () => z.core.$ZodType;
}

/** The keys an object schema knows at `path` inside `schema` (every object a union or intersection may reach). */
export function keysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  const visit = (s: z.core.$ZodType | undefined, i: number, depth: number): void => {
    if (!s || depth > 100) return;
    const def = s._zod.def as unknown as WalkDef;
    const next = path[i];
    switch (def.type) {
      case 'object':
        if (i === path.length) for (const k of Object.keys(def.shape ?? {})) keys.add(k);
        else if (typeof next === 'string' && def.shape && Object.hasOwn(def.shape, next)) visit(def.shape[next], i + 1, depth + 1);
        return;
      case 'array':
        if (typeof next === 'number') visit(def.element, i + 1, depth + 1);
        return;
      case 'record':
        if (i < path.length) visit(def.valueType, i + 1, depth + 1);
        return;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        visit(def.innerType, i, depth + 1);
        return;
      case 'pipe':
        visit(def.in, i, depth + 1);
        visit(def.out, i, depth + 1);
        return;
      case 'intersection':
        visit(def.left, i, depth + 1);
        visit(def.right, i, depth + 1);
        return;
      case 'union':
        for (const option of def.options ?? []) visit(option, i, depth + 1);
        return;
      case 'lazy':
        visit(def.getter?.(), i, depth + 1);
        return;
      default:
        return;
    }
  };
  visit(schema, 0, 0);
  return [...keys];
}

