/**
 * `hookbench send`'s flags read before anything runs: `--header "Name: value"`, `--data` (the call as JSON
 * text, `@file` or `@-`), and the flag to name when the destination the flags make is refused.
 */
import { caretSnippet, jsonProblemWhere } from '../../../domain/jsonText.js';
import { parseUserJson } from '../../../domain/userJson.js';
import { readTextOrFile, UsageError, utf8Text, type CliIO } from '../../io.js';

/** The CLI flag behind a destination field, to add to schema errors (`timeoutMs: ...` came from --timeout). */
const FLAG_OF: Record<string, string> = {
  timeoutMs: '--timeout',
  'retry.maxAttempts': '--max-attempts',
  'retry.windowMs': '--retry-window',
  sharedSecret: '--secret',
};

/** A problem's message with its flag (refusalText's form). */
export const withFlagHint = (message: string, field: string | undefined): string => `${message.replace(/^patch\./, '')}${flagHint(field)}`;

function flagHint(field: string | undefined): string {
  if (!field) return '';
  field = field.replace(/^patch\./, '');
  if (FLAG_OF[field]) return ` (${FLAG_OF[field]})`;
  if (/^webhooks\[\d+\]\.headers/.test(field)) return ' (--header)';
  if (/^webhooks\[\d+\]/.test(field)) return ' (--to)';
  return '';
}

/** `"X-Env: dev"` → ['X-Env', 'dev']. */
export function parseHeaderArg(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  if (colon <= 0) {
    throw new UsageError(`--header ${JSON.stringify(raw)}: expected "Name: value" (a header name, a colon, then the value)`);
  }
  const name = raw.slice(0, colon).trim();
  const value = raw.slice(colon + 1).trim();
  if (name === '') throw new UsageError(`--header ${JSON.stringify(raw)}: the header name before ":" is empty`);
  return [name, value];
}

export function parseHeaders(raws: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const raw of raws) {
    const [name, value] = parseHeaderArg(raw);
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) throw new UsageError(`--header: "${name}" is given twice (first as "${first}"; names are case-insensitive)`);
    seen.set(name.toLowerCase(), name);
    headers[name] = value;
  }
  return headers;
}

export async function parseCall(data: string | undefined, io: CliIO): Promise<Record<string, unknown>> {
  if (data === undefined) return {};
  const bytes = await readTextOrFile(data, io, '--data');
  const source = data.startsWith('@') ? ` (${data === '@-' ? 'stdin' : data.slice(1)})` : '';
  const text = utf8Text(bytes, `--data${source}`);
  if (text.trim() === '') throw new UsageError(`--data${source}: is empty; give the call as a JSON object, e.g. '{"userId":"u1","event":"Signed Up"}'`);
  const parsed = parseUserJson(text);
  if (!parsed.ok) {
    const p = parsed.error;
    throw new UsageError(
      `--data${source}: ${jsonProblemWhere(p)}: ${p.problem}\n${caretSnippet(text, p)}`,
    );
  }
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    const got = v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
    throw new UsageError(`--data${source}: must be a JSON object (the whole call: userId, event, properties, ...), got ${got}`);
  }
  return v as Record<string, unknown>;
}
