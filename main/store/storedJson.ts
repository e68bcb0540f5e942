/**
 * Writing and reading the JSON the store holds.
 *
 * Rows written before the nesting limit existed (docs/behaviour.md §7) may nest thousands of levels: parsing
 * them is safe (V8's JSON.parse does not recurse), but whatever serialises them afterwards (an API answer, an
 * event, a replay) would overflow the stack. Such a stored call reads as a small object that says so; the
 * message's body keeps the exact bytes as text.
 *
 * A call as received mostly repeats its body (userId, event, properties, context, messageId, timestamp are
 * the same values), so intake stores it compact, whatever path the call came by (docs/architecture.md, Store): `[keys, own]`, the call's
 * keys in the order received and the values that are not its body's. A stored call is always a JSON object
 * or this array, so the first character tells them apart; rows of every earlier version are objects.
 */
import { LIMITS } from '../contract/message/messageShapes.js';
import { scanJsonText, type TooDeep } from '../domain/jsonDepth.js';

/** The key of the object that stands in for a stored call too deep to show. */
export const TOO_DEEP_KEY = '$tooDeep';

/** The key of the object that stands in for a stored call in a form this version does not read. */
export const UNREADABLE_KEY = '$unreadable';

/** The field of stored JSON (a call or a body) that nests deeper than LIMITS.maxDepth, or null. */
export function storedTooDeep(json: string): TooDeep | null {
  return scanJsonText(json, { limit: LIMITS.maxDepth }).tooDeep;
}

/**
 * Keys whose value SQL reads from the stored call (diagnostics/diagnosticsQueries.ts reads `integrations`): always
 * kept in `own`, so that one JSON path finds them in either form.
 */
const ALWAYS_OWN = new Set(['integrations']);

/**
 * The call as ingestion stores it, when it shares values with its body: `[keys, own]`. A value is shared when
 * the body holds the very same value under the same key (the builder copies strings and objects over as
 * they are), so the body's JSON of it is the call's. Null when nothing is shared: the call's own JSON is
 * stored then.
 */
export function compactCall(call: Record<string, unknown>, body: Record<string, unknown>): string | null {
  // Written out by hand: this runs for every ingested call, and one JSON.stringify of [keys, own] cost
  // three times as much (an object built for it, every key serialised twice).
  const keys = Object.keys(call);
  let own = '';
  let shared = 0;
  for (const key of keys) {
    const value = call[key];
    if (value !== null && body[key] === value && Object.hasOwn(body, key) && !ALWAYS_OWN.has(key)) {
      shared++;
      continue;
    }
    const json = JSON.stringify(value);
    if (json === undefined) continue; // not JSON (a call parsed from JSON has none): dropped, as JSON.stringify(call) drops it
    own += `${own === '' ? '' : ','}${JSON.stringify(key)}:${json}`;
  }
  return shared === 0 ? null : `[${keysJson(keys)},{${own}}]`;
}

/** A call's size as JSON, in UTF-8 bytes: what the 32 KiB limit measures. */
export function callBytes(call: Record<string, unknown>): number {
  return Buffer.byteLength(JSON.stringify(call), 'utf8');
}

/**
 * The call as intake stores it (compactCall's form when it shares values with its body, its JSON otherwise),
 * and its size when that is past the 32 KiB limit, else null. The body's bytes plus three times the compact
 * form bound the size (a UTF-16 unit is at most three UTF-8 bytes), so a call is serialised whole to be
 * measured only when that bound passes the limit.
 */
export function storedCallOf(call: Record<string, unknown>, body: Record<string, unknown>, bodyBytes: number): { json: string; oversize: number | null } {
  const compact = compactCall(call, body);
  if (compact !== null) {
    const size = bodyBytes + 3 * compact.length > LIMITS.messageBytes ? callBytes(call) : 0;
    return { json: compact, oversize: size > LIMITS.messageBytes ? size : null };
  }
  const json = JSON.stringify(call);
  const size = Buffer.byteLength(json, 'utf8');
  return { json, oversize: size > LIMITS.messageBytes ? size : null };
}

/** The calls of one SDK come with the same keys in the same order: the last list's JSON is kept. */
let lastKeys: readonly string[] = [];
let lastKeysJson = '[]';

function keysJson(keys: readonly string[]): string {
  if (keys.length !== lastKeys.length || keys.some((key, i) => key !== lastKeys[i])) {
    lastKeys = keys;
    lastKeysJson = JSON.stringify(keys);
  }
  return lastKeysJson;
}

/**
 * A stored call (either form; the body is only read for the compact one): parsed, or, when it nests too
 * deep, `{"$tooDeep": "..."}` explaining why it is not shown.
 */
export function parseStoredCall(json: string, body: Buffer | string): Record<string, unknown> {
  const tooDeep = storedTooDeep(json);
  if (tooDeep) {
    return {
      [TOO_DEEP_KEY]: `not shown: ${tooDeep.field} nests ${tooDeep.levels} levels, more than ${LIMITS.maxDepth} (stored before the nesting limit); the body holds the exact bytes`,
    };
  }
  const parsed = JSON.parse(json) as unknown;
  if (!Array.isArray(parsed)) return parsed as Record<string, unknown>;
  const [keys, own] = parsed as [unknown, unknown];
  const from = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown;
  if (!Array.isArray(keys) || !isObject(own) || !isObject(from)) return { [UNREADABLE_KEY]: 'not shown: the stored call is not in a form this Hookbench reads; the body holds the exact bytes' };
  const call: Record<string, unknown> = {};
  for (const key of keys) {
    if (typeof key !== 'string') continue;
    // defineProperty: a key named "__proto__" is a key like any other here, as it was in the JSON received.
    Object.defineProperty(call, key, { value: Object.hasOwn(own, key) ? own[key] : from[key], enumerable: true, writable: true, configurable: true });
  }
  return call;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
