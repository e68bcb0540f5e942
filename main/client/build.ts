/**
 * Turns a call into the message that is queued, checking at the call everything the collection service would
 * refuse (docs/behaviour.md §7): a refused item makes the server refuse its whole request, so one bad call must not
 * reach a batch. The message is serialised once here; those bytes are what is measured and sent.
 */
import { tooDeepField } from '../contract/message/jsonDepth.js';
import { LIMITS } from '../contract/message/messageShapes.js';
import { normaliseTimestamp } from '../contract/message/timestamp.js';
import { suggestKey } from '../contract/suggestKey.js';
import { describeValue, loneSurrogateProblem, sentEmptyNote } from '../contract/message/messageBody.js';
import { ClientError } from './errors.js';
import type { BatchMessage, CallType, LibraryInfo, Properties } from './types.js';

export interface BuildEnv {
  /** Time of the call (ms): the timestamp when the call has none. */
  now: number;
  newMessageId: () => string;
  library: LibraryInfo;
}

/** A queued message: the object, its JSON and the JSON's size in UTF-8 bytes. */
export interface Built {
  message: BatchMessage;
  json: string;
  bytes: number;
}

type Input = Record<string, unknown>;

export function buildMessage(type: CallType, input: unknown, env: BuildEnv): Built {
  if (!isPlainObject(input)) {
    throw new ClientError(`${type}: the message must be an object (got ${describeValue(input)})`, {
      code: 'invalid_message',
      call: type,
    });
  }
  const call = input;
  unknownKey(type, call);
  const str = (field: string) => optionalString(type, call, field);
  const required = (field: string): string => {
    const v = str(field);
    if (v === undefined || v === '') {
      throw new ClientError(`${type}: ${field} is required${sentEmptyNote(call, [field])}`, { code: 'missing_field', call: type, field });
    }
    return v;
  };
  const obj = (field: string) => optionalObject(type, call, field);

  const message: Partial<BatchMessage> & { type: CallType } = { type };
  const messageId = str('messageId');
  message.messageId = messageId === undefined || messageId === '' ? env.newMessageId() : messageId;
  message.timestamp = timestampOf(type, call['timestamp'], env.now);

  switch (type) {
    case 'alias': {
      message.userId = required('userId');
      message.previousId = required('previousId');
      // Optional on an alias (the anonymous ID being aliased, as browser SDKs send it); the server delivers it.
      if (str('anonymousId')) message.anonymousId = str('anonymousId');
      break;
    }
    case 'group':
      message.groupId = required('groupId');
      identity(type, call, message);
      message.traits = obj('traits');
      break;
    case 'track':
      message.event = required('event');
      identity(type, call, message);
      message.properties = obj('properties');
      break;
    case 'identify':
      identity(type, call, message);
      message.traits = obj('traits');
      break;
    case 'page': {
      identity(type, call, message);
      message.name = str('name');
      message.category = str('category');
      const properties = obj('properties');
      const traits = obj('traits');
      if (properties !== undefined && traits !== undefined) {
        throw new ClientError(`page: give either properties or traits (the Go client's name), not both`, {
          code: 'invalid_message',
          call: type,
          field: 'traits',
        });
      }
      message.properties = properties;
      message.traits = traits;
      break;
    }
    case 'screen':
      identity(type, call, message);
      message.name = str('name');
      message.properties = obj('properties');
      break;
  }

  const context = obj('context');
  message.context = { library: { ...env.library }, ...context } as BatchMessage['context'];
  message.integrations = obj('integrations');

  const built = ordered(message) as BatchMessage;
  // What the server refuses is refused here, at the call: sent, it would refuse the whole batch with it.
  const tooDeep = tooDeepField(built as unknown as Record<string, unknown>, LIMITS.maxDepth);
  if (tooDeep) {
    throw new ClientError(`${type}: ${tooDeep.field} nests ${tooDeep.levels} levels, over the limit of ${LIMITS.maxDepth}`, {
      code: 'invalid_message',
      call: type,
      field: tooDeep.field,
      limit: LIMITS.maxDepth,
    });
  }
  const json = serialise(type, built);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > LIMITS.messageBytes) {
    throw new ClientError(
      `${type}: the message is ${bytes} bytes of JSON, over the limit of ${LIMITS.messageBytes} bytes (32 KiB) per call`,
      { code: 'message_too_large', call: type, size: bytes, limit: LIMITS.messageBytes },
    );
  }
  return { message: built, json, bytes };
}

/** Keys every call may carry; `type`, when given, must be the call's own. */
const COMMON_KEYS = ['userId', 'anonymousId', 'messageId', 'timestamp', 'context', 'integrations', 'type'];

/** The keys of each call (types.ts): anything else would be dropped unsent, so it is refused. */
const CALL_KEYS: Record<CallType, ReadonlySet<string>> = {
  identify: new Set([...COMMON_KEYS, 'traits']),
  track: new Set([...COMMON_KEYS, 'event', 'properties']),
  page: new Set([...COMMON_KEYS, 'name', 'category', 'properties', 'traits']),
  screen: new Set([...COMMON_KEYS, 'name', 'properties']),
  group: new Set([...COMMON_KEYS, 'groupId', 'traits']),
  alias: new Set([...COMMON_KEYS, 'previousId']),
};

/**
 * Refuses a key the call does not have (a typo such as `propertes` from plain JavaScript), with the key meant
 * when one is close, as the server's strict callers (composer, CLI) do; and a `type` that is not the call's.
 */
function unknownKey(type: CallType, call: Input): void {
  const known = CALL_KEYS[type];
  for (const key of Object.keys(call)) {
    if (known.has(key)) continue;
    const hint = suggestKey(key, [...known]);
    throw new ClientError(`${type}: ${key} is not a field of ${aCall(type)}${hint ? ` (did you mean ${hint}?)` : ''}`, { code: 'invalid_message', call: type, field: key });
  }
  const said = call['type'];
  if (said !== undefined && said !== type) {
    throw new ClientError(`${type}: type says ${JSON.stringify(said)} but this is ${aCall(type)}`, { code: 'invalid_message', call: type, field: 'type' });
  }
}

function aCall(type: CallType): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} call`;
}

function identity(type: CallType, call: Input, message: Partial<BatchMessage>): void {
  const userId = optionalString(type, call, 'userId');
  const anonymousId = optionalString(type, call, 'anonymousId');
  if (!userId && !anonymousId) {
    // Sent empty, not left out: said as the server says it.
    throw new ClientError(`${type}: userId or anonymousId is required${sentEmptyNote(call, ['userId', 'anonymousId'])}`, { code: 'missing_field', call: type, field: 'userId' });
  }
  if (userId) message.userId = userId;
  if (anonymousId) message.anonymousId = anonymousId;
}

function optionalString(type: CallType, call: Input, field: string): string | undefined {
  const v = call[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') {
    throw new ClientError(`${type}: ${field} must be a string (got ${describeValue(v)})`, { code: 'invalid_message', call: type, field });
  }
  const lone = STORED_AS_TEXT.has(field) ? loneSurrogateProblem(v) : null;
  if (lone) throw new ClientError(`${type}: ${field} ${lone}`, { code: 'invalid_message', call: type, field });
  return v;
}

/**
 * The fields the server keeps in indexed text columns and so refuses with a lone surrogate (contract/message/messageBody.ts,
 * loneSurrogateProblem), the whole batch with them. Elsewhere (properties, traits, their keys) the server accepts one
 * and delivers its `\ud800` escape as sent, so the client does too.
 */
const STORED_AS_TEXT = new Set(['userId', 'anonymousId', 'messageId', 'event', 'name']);

function optionalObject(type: CallType, call: Input, field: string): Properties | undefined {
  const v = call[field];
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) {
    throw new ClientError(`${type}: ${field} must be an object (got ${describeValue(v)})`, { code: 'invalid_message', call: type, field });
  }
  return v;
}

function timestampOf(type: CallType, v: unknown, now: number): string {
  if (v === undefined || v === null || v === '') return new Date(now).toISOString();
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) {
      throw new ClientError(`${type}: timestamp is an invalid Date`, { code: 'invalid_message', call: type, field: 'timestamp' });
    }
    return v.toISOString();
  }
  if (typeof v !== 'string') {
    throw new ClientError(`${type}: timestamp must be an ISO 8601 string or a Date (got ${describeValue(v)})`, {
      code: 'invalid_message',
      call: type,
      field: 'timestamp',
    });
  }
  const ts = normaliseTimestamp(v);
  if (!ts.ok) throw new ClientError(`${type}: timestamp ${ts.reason}`, { code: 'invalid_message', call: type, field: 'timestamp' });
  return ts.iso;
}

/**
 * An object that serialises as a JSON object with its own members: not an array, and not a Date, Map, Set or
 * anything with `toJSON` (which would arrive as a string or `{}` and be refused or lose its data).
 */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  if (Object.prototype.toString.call(v) !== '[object Object]') return false;
  return typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

const KEY_ORDER = [
  'type',
  'messageId',
  'timestamp',
  'userId',
  'anonymousId',
  'previousId',
  'groupId',
  'event',
  'name',
  'category',
  'properties',
  'traits',
  'context',
  'integrations',
] as const satisfies readonly (keyof BatchMessage)[];

/** The message with its keys in one readable order, undefined ones left out. */
function ordered(message: Partial<BatchMessage>): Partial<BatchMessage> {
  const out: Record<string, unknown> = {};
  for (const key of KEY_ORDER) if (message[key] !== undefined) out[key] = message[key];
  return out as Partial<BatchMessage>;
}

export function errorText(e: unknown): string {
  if (e instanceof Error) {
    const cause = e.cause instanceof Error ? e.cause.message : undefined;
    return cause && cause !== e.message ? `${e.message}: ${cause}` : e.message;
  }
  return String(e);
}

/** A value JSON.stringify would not keep as it is, and where it sits (holder and key, for its path). */
interface Unkept {
  holder: object;
  key: string;
  /** What the value is and what JSON would make of it, or a cycle's closing words. */
  words: string;
  /** A cycle or a BigInt: JSON.stringify throws on it rather than changing it. */
  unserialisable?: boolean;
}

/**
 * The message's JSON, in the one pass that makes it: a replacer looks at each value as JSON.stringify is about to
 * write it, so that a value JSON would change (NaN sent as null) or cannot write (a cycle, a BigInt) is refused
 * naming its path. Only an object's parent is remembered (for that path); nothing is walked twice, and a cycle
 * stops at the object that closes it (a walk of its own would go round it for ever).
 */
function serialise(type: CallType, built: BatchMessage): string {
  const parents = new Map<object, { holder: object; key: string }>();
  let unkept: Unkept | null = null;
  function replacer(this: object, key: string, value: unknown): unknown {
    if (unkept !== null) return undefined;
    unkept = unkeptValue(this, key, value);
    return unkept === null ? value : undefined;
  }
  function unkeptValue(holder: object, key: string, value: unknown): Unkept | null {
    const inArray = Array.isArray(holder);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { holder, key, words: `is ${String(value)}, which JSON cannot hold (it would be sent as null)` };
    } else if (typeof value === 'function' || typeof value === 'symbol') {
      return { holder, key, words: `is a ${typeof value}, which JSON cannot hold (${inArray ? 'it would be sent as null' : 'the key would be dropped'})` };
    } else if (value === undefined) {
      // An object member left undefined means "absent" (JSON leaves the key out, as the caller meant); an array
      // keeps its positions, so there it would become null.
      if (inArray) return { holder, key, words: 'is undefined, which JSON cannot hold (it would be sent as null)' };
    } else if (value === null) {
      // toJSON has run: an invalid Date became null.
      const original: unknown = (holder as Record<string, unknown>)[key];
      if (original instanceof Date) return { holder, key, words: 'is an invalid Date (it would be sent as null)' };
    } else if (typeof value === 'bigint') {
      return { holder, key, words: `is the BigInt ${String(value)}n, which JSON has no form for (send it as a string)`, unserialisable: true };
    } else if (typeof value === 'object' && value !== null) {
      const seen = parents.get(value);
      if (seen !== undefined && isAncestor(parents, value, holder)) {
        const target = pathOf(parents, seen.holder, seen.key);
        return { holder, key, words: `refers back to ${target === '' ? 'the message itself' : target}: a circular structure`, unserialisable: true };
      }
      const tag = Object.prototype.toString.call(value).slice(8, -1);
      // A Map, Set, RegExp, Error, typed array...: JSON writes only own enumerable members, which loses their data.
      if (!KEPT_BY_JSON.has(tag)) return { holder, key, words: `is a ${tag}, which JSON does not keep (it would be sent as ${jsonPreview(value)}); send a plain object or array` };
      parents.set(value, { holder, key });
    }
    return null;
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(built, replacer);
  } catch (cause) {
    throw new ClientError(`${type}: the message cannot be serialised as JSON (${errorText(cause)})`, { code: 'invalid_message', call: type, cause });
  }
  const found = unkept as Unkept | null;
  if (found !== null) {
    const path = pathOf(parents, found.holder, found.key);
    const message = found.unserialisable ? `${type}: the message cannot be serialised as JSON: ${path} ${found.words}` : `${type}: ${path} ${found.words}`;
    throw new ClientError(message, { code: 'invalid_message', call: type, field: path });
  }
  return json!;
}

/** Objects JSON writes as what they hold: plain objects and arrays, and boxed primitives (written unboxed). */
const KEPT_BY_JSON = new Set(['Object', 'Array', 'Number', 'String', 'Boolean']);

function jsonPreview(value: object): string {
  try {
    const text = JSON.stringify(value) ?? 'nothing';
    return text.length > 40 ? `${text.slice(0, 40)}…` : text;
  } catch {
    return 'an error';
  }
}

/** Whether `node` is `from` or one of the holders above it. */
function isAncestor(parents: Map<object, { holder: object }>, node: object, from: object): boolean {
  for (let at: object | undefined = from; at !== undefined; at = parents.get(at)?.holder) if (at === node) return true;
  return false;
}

/** `properties.list[1]`, `context["user agent"]`: the path of `key` in `holder`, from the parents remembered. */
function pathOf(parents: Map<object, { holder: object; key: string }>, holder: object, key: string): string {
  const steps: string[] = [];
  // Up to the message itself, whose holder (JSON.stringify's wrapper) is the one without a parent.
  for (let at = { holder, key }, up = parents.get(holder); up !== undefined; at = up, up = parents.get(at.holder)) {
    steps.push(Array.isArray(at.holder) ? `[${at.key}]` : /^[A-Za-z_$][\w$]*$/.test(at.key) ? `.${at.key}` : `[${JSON.stringify(at.key)}]`);
  }
  const path = steps.reverse().join('');
  return path.startsWith('.') ? path.slice(1) : path;
}
