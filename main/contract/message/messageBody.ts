/**
 * Builds the delivered body of each message type from a call, driven entirely by MESSAGE_SHAPES. The body
 * is serialised once here (`json`); those exact bytes, as UTF-8, are what is sent, signed and stored.
 * Pure, shared with the renderer (the composer previews the bytes a call would send); main/domain/messages.ts
 * wraps it for the engine.
 */
import { callNestingError } from './jsonDepth.js';
import { knownCallKeys, LIMITS, MESSAGE_SHAPES, type FieldDef, type MessageType } from './messageShapes.js';
import type { ApiError, Result } from '../result.js';
import { normaliseTimestamp, isoFromMs, sentAtProblem } from './timestamp.js';
import { suggestKey } from '../suggestKey.js';

export interface BuildOptions {
  /** Engine time of receipt (ms): the timestamp when the call has none. */
  receivedAt: number;
  /** Used when the call carries no `messageId`. */
  newMessageId: () => string;
  /** Refuse keys the type does not know (the composer and CLI); SDK traffic is lenient. */
  strict?: boolean;
  /** Filled into `context.ip` when the call's context has none (ingest). */
  clientIp?: string;
  /** Prefix for error fields, e.g. `batch[3]`. */
  fieldPrefix?: string;
  /**
   * The caller already measured the call against the 32 KiB limit and LIMITS.maxDepth (ingestion does, on
   * the bytes, to name the item).
   */
  sizeChecked?: boolean;
  /**
   * The caller already measured the call's nesting against LIMITS.maxDepth (the typed API's intake does,
   * before it serialises the call); the size is still measured here.
   */
  depthChecked?: boolean;
  /** UTF-8 length of a string (the engine passes Node's fast one); a pure count by default. */
  byteLength?: (text: string) => number;
  /**
   * The call was accepted before and is read back from an export (an import): its `sentAt` and `integrations` are
   * not checked, since earlier versions stored any value (routing reads a non-object as none) and a user's own
   * history must come back as it was stored.
   */
  acceptedBefore?: boolean;
}

export interface BuiltBody {
  type: MessageType;
  messageId: string;
  userId: string | null;
  anonymousId: string | null;
  /** What lists show and filter by: a track's event, a page's or screen's name (null for other types). */
  event: string | null;
  /** The body object, keys in the spec's order. */
  body: Record<string, unknown>;
  /** `JSON.stringify(body)`: the one serialisation (its UTF-8 bytes are what is sent). */
  json: string;
}

type Call = Record<string, unknown>;

/** Each type's fields and extras, in reading order (computed once: this runs for every call). */
const FIELDS_OF = Object.fromEntries(
  Object.entries(MESSAGE_SHAPES).map(([type, shape]) => [type, [...shape.fields, ...shape.extras]]),
) as unknown as Record<MessageType, readonly FieldDef[]>;

/** Extras are added only when the call has them: an absent object extra is left out, not `{}`. */
const EXTRA_FIELDS = new Set<FieldDef>(Object.values(MESSAGE_SHAPES).flatMap((shape) => shape.extras));

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** UTF-8 bytes of a string, counted (a lone surrogate counts 3, as the replacement character it becomes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

type Refusal = { ok: false; error: ApiError };

// The steps below are plain functions taking what they need, not closures made inside buildMessageBody:
// it runs for every message ingested, and a closure is an allocation per call.

/** "a track call", "an identify call": the type with its article, as the refusals say it. */
function aCall(type: MessageType): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} call`;
}

/** A refusal naming the field, under the caller's prefix (`batch[3].`, or '' for none). */
function refusal(prefix: string, code: ApiError['code'], field: string | undefined, message: string): Refusal {
  return { ok: false, error: { code, message: field ? `${prefix}${field}: ${message}` : message, ...(field ? { field: `${prefix}${field}` } : {}) } };
}

/**
 * The call measured against LIMITS.maxDepth and the 32 KiB limit, for a caller that has not measured its size
 * (options.sizeChecked); the refusal, else null.
 */
function measureCall(call: Call, options: BuildOptions): Refusal | null {
  // Nesting first: measuring the size serialises the call, which recurses (docs/behaviour.md §7).
  if (!options.depthChecked) {
    const tooDeep = callNestingError(call, options.fieldPrefix ?? '');
    if (tooDeep) return { ok: false, error: tooDeep };
  }
  const size = (options.byteLength ?? utf8Length)(JSON.stringify(call) ?? '');
  return size <= LIMITS.messageBytes ? null : callTooLarge(size, options.fieldPrefix);
}

/** The refusal of a call of `size` bytes, past the 32 KiB limit (`prefix`: where the call sits, as in BuildOptions.fieldPrefix). */
export function callTooLarge(size: number, prefix: string | undefined): Refusal {
  return {
    ok: false,
    error: {
      code: 'message_too_large',
      message: `${prefix ?? 'call'}: ${size} bytes > ${LIMITS.messageBytes}`,
      limit: LIMITS.messageBytes,
      value: size,
      ...(prefix ? { field: prefix } : {}),
    },
  };
}

/** The first key of the call its type does not know (strict callers), refused with a hint; else null. */
function unknownKey(type: MessageType, call: Call, prefix: string): Refusal | null {
  const known = knownCallKeys(type);
  for (const key of Object.keys(call)) {
    if (!known.has(key)) {
      // A typo is named as well as a case slip: `evnt`, `propertes` and `userid` each get the field they meant.
      const hint = suggestKey(key, [...known]);
      return refusal(prefix, 'unknown_field', key, `unknown field for ${aCall(type)}${hint ? ` (did you mean "${hint}"?)` : ''}`);
    }
  }
  return null;
}

/** An identifier of the call: absent, null and '' are null; anything but a valid Unicode string is refused. */
function optionalString(call: Call, key: string, prefix: string): Result<string | null> {
  const v = call[key];
  if (v === undefined || v === null) return { ok: true, value: null };
  if (typeof v !== 'string') return refusal(prefix, 'invalid_input', key, `must be a string (got ${describeValue(v)})`);
  const lone = loneSurrogateProblem(v);
  if (lone) return refusal(prefix, 'invalid_input', key, lone);
  return { ok: true, value: v === '' ? null : v };
}

/** The body's timestamp: the call's, normalised, else the time of receipt; the string itself, not wrapped, or the refusal. */
function readTimestamp(rawTs: unknown, receivedAt: number, prefix: string): string | Refusal {
  if (rawTs === undefined || rawTs === null || rawTs === '') return isoFromMs(receivedAt);
  if (typeof rawTs !== 'string') return refusal(prefix, 'invalid_timestamp', 'timestamp', `must be an ISO 8601 string (got ${describeValue(rawTs)})`);
  const ts = normaliseTimestamp(rawTs);
  return ts.ok ? ts.iso : refusal(prefix, 'invalid_timestamp', 'timestamp', ts.reason);
}

/** The body object: the shape's keys in the spec's order, then messageId, anonymousId, an added context and the extras. */
function assembleBody(
  type: MessageType,
  values: Map<string, unknown>,
  userId: string | null,
  anonymousId: string | null,
  messageId: string,
  timestamp: string,
  context: Record<string, unknown> | null,
): Record<string, unknown> {
  const shape = MESSAGE_SHAPES[type];
  const body: Record<string, unknown> = {};
  for (const key of shape.order) {
    switch (key) {
      case 'version':
        body['version'] = 1;
        break;
      case 'type':
        body['type'] = type;
        break;
      case 'userId':
        if (userId !== null) body['userId'] = userId;
        break;
      case 'User ID':
        body['User ID'] = userId;
        break;
      case 'timestamp':
        body['timestamp'] = timestamp;
        break;
      case 'context':
        body['context'] = context ?? {};
        break;
      default:
        if (values.has(key)) body[key] = values.get(key);
    }
  }
  body['messageId'] = messageId;
  if (anonymousId !== null) body['anonymousId'] = anonymousId;
  if (context !== null && !shape.contextIsCore) body['context'] = context;
  for (const extra of shape.extras) if (values.has(extra.out)) body[extra.out] = values.get(extra.out);
  return body;
}

export function buildMessageBody(type: MessageType, call: Call, options: BuildOptions): Result<BuiltBody> {
  const prefix = options.fieldPrefix ? `${options.fieldPrefix}.` : '';
  // Ingestion measured the nesting and the size on the bytes already (sizeChecked).
  if (!options.sizeChecked) {
    const refused = measureCall(call, options);
    if (refused) return refused;
  }
  if (options.strict) {
    const refused = unknownKey(type, call, prefix);
    if (refused) return refused;
  }
  if (call['type'] !== undefined && call['type'] !== type) {
    return refusal(prefix, 'invalid_input', 'type', `says "${String(call['type'])}" but this is ${aCall(type)}`);
  }

  const userId = optionalString(call, 'userId', prefix);
  if (!userId.ok) return userId;
  const anonymousId = optionalString(call, 'anonymousId', prefix);
  if (!anonymousId.ok) return anonymousId;
  if (MESSAGE_SHAPES[type].identity === 'user' && userId.value === null) {
    return refusal(prefix, 'missing_field', 'userId', `is required for ${aCall(type)}${sentEmptyNote(call, ['userId'])}`);
  }
  if (userId.value === null && anonymousId.value === null) {
    return refusal(prefix, 'missing_identity', 'userId', `${aCall(type)} needs userId or anonymousId${sentEmptyNote(call, ['userId', 'anonymousId'])}`);
  }

  const messageIdIn = optionalString(call, 'messageId', prefix);
  if (!messageIdIn.ok) return messageIdIn;
  const messageId = messageIdIn.value ?? options.newMessageId();
  const timestamp = readTimestamp(call['timestamp'], options.receivedAt, prefix);
  if (typeof timestamp !== 'string') return timestamp;
  // Browser SDKs send sentAt on each call; checked like the batch's (ingestPrepare.ts), never used to move timestamp.
  if (call['sentAt'] !== undefined && !options.acceptedBefore) {
    const badSentAt = sentAtProblem(call['sentAt']);
    if (badSentAt) return refusal(prefix, 'invalid_timestamp', 'sentAt', badSentAt);
  }

  let context: Record<string, unknown> | null = null;
  if (call['context'] !== undefined && call['context'] !== null) {
    if (!isPlainObject(call['context'])) return refusal(prefix, 'invalid_input', 'context', `must be an object (got ${describeValue(call['context'])})`);
    context = call['context'];
  }
  // Routing reads integrations as an object of destination names; any other value would be dropped unread.
  const integrations = call['integrations'];
  if (integrations !== undefined && integrations !== null && !isPlainObject(integrations) && !options.acceptedBefore) return refusal(prefix, 'invalid_input', 'integrations', `must be an object of destination names (got ${describeValue(integrations)})`);
  if (options.clientIp && (context === null || context['ip'] === undefined)) {
    context = { ...(context ?? {}), ip: options.clientIp };
  }

  const values = new Map<string, unknown>();
  for (const field of FIELDS_OF[type]) {
    const read = readField(field, call);
    if (!read.ok) return refusal(prefix, read.code, read.field, read.message);
    if (read.value !== undefined) values.set(field.out, read.value);
  }
  const body = assembleBody(type, values, userId.value, anonymousId.value, messageId, timestamp, context);

  const labelKey = type === 'page' || type === 'screen' ? 'name' : 'event';
  const label = values.get(labelKey);
  const event = typeof label === 'string' ? label : null;
  if (event !== null) {
    const lone = loneSurrogateProblem(event);
    if (lone) return refusal(prefix, 'invalid_input', labelKey, lone);
  }
  return {
    ok: true,
    value: {
      type,
      messageId,
      userId: userId.value,
      anonymousId: anonymousId.value,
      event,
      body,
      json: JSON.stringify(body),
    },
  };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The identifiers stored in indexed columns (userId, anonymousId, event, messageId) must be valid Unicode:
 * SQLite stores text as UTF-8, where a lone UTF-16 surrogate (`"\ud800"` in JSON) becomes U+FFFD while the
 * body keeps the escape, and two different ids would become one. Refused, naming the field
 * (docs/behaviour.md §7).
 */
export function loneSurrogateProblem(value: string): string | null {
  const found = LONE_SURROGATE.exec(value);
  if (!found) return null;
  const hex = found[0].charCodeAt(0).toString(16);
  return `contains a lone surrogate (\\u${hex} at position ${found.index}): not valid Unicode, so it cannot be stored or compared; send the whole character or drop it`;
}

type FieldRead = { ok: true; value: unknown } | { ok: false; code: ApiError['code']; field: string; message: string };

function readField(field: FieldDef, call: Call): FieldRead {
  let name = field.from[0]!;
  let raw: unknown = undefined;
  for (const candidate of field.from) {
    const v = call[candidate];
    if (v === undefined || v === null) continue;
    if (raw !== undefined) {
      const present = field.from.filter((n) => call[n] !== undefined && call[n] !== null);
      return { ok: false, code: 'invalid_input', field: present[1]!, message: `give either ${present.join(' or ')}, not both` };
    }
    name = candidate;
    raw = v;
  }
  if (field.kind === 'object') {
    if (raw === undefined) return { ok: true, value: EXTRA_FIELDS.has(field) ? undefined : {} };
    if (!isPlainObject(raw)) return { ok: false, code: 'invalid_input', field: name, message: `must be an object (got ${describeValue(raw)})` };
    return { ok: true, value: raw };
  }
  if (raw === undefined || raw === '') {
    if (field.required) return { ok: false, code: 'missing_field', field: name, message: `is required${sentEmptyNote({ [name]: raw }, [name])}` };
    return { ok: true, value: undefined };
  }
  if (typeof raw !== 'string') return { ok: false, code: 'invalid_input', field: name, message: `must be a string (got ${describeValue(raw)})` };
  return { ok: true, value: raw };
}

/**
 * ` (userId is an empty string)`, ` (userId and anonymousId are empty strings)`, or ` (it is an empty string)` for one
 * required field: an empty value counts as none, as analytics servers take it, and the refusal says it was sent
 * empty, not left out. '' when none of `fields` is an empty string.
 */
export function sentEmptyNote(call: Record<string, unknown>, fields: readonly string[]): string {
  const empty = fields.filter((k) => call[k] === '');
  if (empty.length === 0) return '';
  if (fields.length === 1) return ' (it is an empty string)';
  return ` (${empty.join(' and ')} ${empty.length > 1 ? 'are empty strings' : 'is an empty string'})`;
}

/**
 * A value in words for an error message: `an array`, `number 3`, `the string "s"`, so that `"5s"` reads as the
 * string it is. Values JSON never carries (undefined, a Date, a Map) are named too, for the client library's calls.
 */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof Date) return 'a Date';
  // Never its source text, which String() would give.
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'object') {
    const tag = Object.prototype.toString.call(v).slice(8, -1);
    if (tag !== 'Object') return `a ${tag}`;
    return typeof (v as { toJSON?: unknown }).toJSON === 'function' ? 'an object with toJSON()' : 'an object';
  }
  return `${typeof v} ${String(v)}`;
}
