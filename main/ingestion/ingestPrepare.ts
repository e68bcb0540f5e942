/**
 * The CPU-heavy half of an ingestion request, with no access to the store, so that it can run on a worker
 * thread: route, decoding (gzip with its bomb guard) and JSON parsing, the write key as sent (the body's
 * helpers are in ingestBody.ts), and every call checked and built (docs/behaviour.md §7). What needs the
 * store (the write key's source, dedupe, routing, the commit, the refusal log) is done afterwards on the
 * engine's thread, by ingestion/ingest.ts.
 */
import { isMessageType, LIMITS, type MessageType } from '../contract/message/messageShapes.js';
import type { ApiError } from '../contract/result.js';
import { routedIntegrations } from '../contract/message/routing.js';
import { scanJson, tooDeepError } from '../domain/jsonDepth.js';
import { unkeptNumber } from '../contract/jsonNumbers.js';
import { firstInvalidUtf8, invalidUtf8Error } from '../domain/utf8.js';
import { buildMessageBody, describeValue } from '../contract/message/messageBody.js';
import { sentAtProblem } from '../contract/message/timestamp.js';
import { callBytes, storedCallOf } from '../store/storedJson.js';
import { charsetNote, cutShortNote, decodeBody, endsEarly, endsInsideCharacter, labelNote, mergeShared, writeKeyOf } from './ingestBody.js';
import { withOthers } from '../contract/problems.js';
import { suggestKey } from '../contract/suggestKey.js';
import { newMessageId } from './messageIds.js';

export interface PrepareRequest {
  method: string;
  /** Path without query, e.g. `/v1/batch`. */
  path: string;
  contentType: string | null;
  contentEncoding: string | null;
  authorization: string | null;
  /** The raw body as received (possibly gzip). */
  body: Uint8Array;
  clientIp: string | null;
  /** Engine time of receipt: every call's `receivedAt`, and the timestamp of calls without one. */
  receivedAt: number;
}

/**
 * The accepted calls of a request, built: what the engine's thread needs to route and store them, one array
 * a field. Column by column they cross to the engine's thread in about half the time an object a call takes
 * (the field names are not written for every call), on both threads.
 */
export interface PreparedCalls {
  count: number;
  type: MessageType[];
  messageId: string[];
  /** The call carried its own messageId (only those are deduplicated). */
  clientMessageId: boolean[];
  userId: (string | null)[];
  anonymousId: (string | null)[];
  event: (string | null)[];
  /**
   * The call's integrations object, for routing (contract/message/routing.ts), or null when routing reads nothing in it
   * (no object, or one without keys, as most SDK calls send): fewer objects to copy between threads.
   */
  integrations: unknown[];
  /** An identify's traits, stored for audience rules (undefined for other types). */
  traits: unknown[];
  /**
   * The call as received (batch-level context and integrations merged in), as stored: compact when it shares
   * values with its body (store/storedJson.ts, compactCall), its JSON otherwise.
   */
  callJson: string[];
  /** Call i's body to send is `bodies[bodyEnd[i - 1] ?? 0, bodyEnd[i])`. */
  bodyEnd: Uint32Array;
}

export type Prepared =
  /** An answer that involves no source and is not logged (CORS preflight, another method than POST to an unknown route, a wrong method). */
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: unknown }
  /**
   * Refused. `stage: 'request'`: before the write key was read (content type, encoding, JSON); `'calls'`:
   * a call is wrong; its source still has to be found, and `calls` calls counted as refused.
   */
  | { kind: 'refused'; stage: 'request' | 'calls'; writeKey: string | null; calls: number; status: number; error: ApiError; bodyBytes: number; preview: Uint8Array }
  /** Every call is valid. The bodies of all calls are in one buffer, so they cross threads in one move. */
  | { kind: 'calls'; writeKey: string | null; calls: PreparedCalls; bodies: Uint8Array<ArrayBuffer>; bodyBytes: number; preview: Uint8Array };

/** Single-call routes: server SDKs use the names, browser SDKs the letters. */
const SINGLE_ROUTES: Record<string, MessageType> = {
  identify: 'identify',
  track: 'track',
  page: 'page',
  screen: 'screen',
  group: 'group',
  alias: 'alias',
  i: 'identify',
  t: 'track',
  p: 'page',
  s: 'screen',
  g: 'group',
  a: 'alias',
};
const BATCH_ROUTES = new Set(['batch', 'import', 'b']);

/**
 * The ingestion route a request to another path most likely meant (an SDK whose endpoint lacks `/v1`, or
 * says `/v2`): its last segment as a `/v1/` route (`/batch` → `/v1/batch`, `/v2/track` → `/v1/track`),
 * `/v1/batch` for `/` and `/v1` themselves, else null.
 */
export function likelyIngestRoute(path: string): string | null {
  const segments = path.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  if (Object.hasOwn(SINGLE_ROUTES, last) || BATCH_ROUTES.has(last)) return `/v1/${last}`;
  if (segments.length === 0 || /^v\d+$/.test(last)) return '/v1/batch';
  return null;
}

export const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, Content-Encoding',
  'access-control-max-age': '86400',
};

/** Bytes of the body kept in the refusal log. */
const PREVIEW_BYTES = 4096;

/** A call of the request and its type, before it is checked and built. */
interface Item {
  type: MessageType;
  call: Record<string, unknown>;
}

/**
 * A bad call of the request: named with the others, in batch order, once every call has been looked at. `call`,
 * when given, is measured: a call too large is named as that, whatever else is wrong with it.
 */
interface ItemProblem {
  index: number;
  error: ApiError;
  call: Record<string, unknown> | null;
}

/**
 * One request as its steps go: the body as decoded so far and the write key once read (a refusal reports
 * both), and the payload once parsed. Allocated once a request, where one closure over them was.
 */
interface Intake {
  kind: 'intake';
  req: PrepareRequest;
  /** The single-call route's type; null on a batch route. */
  single: MessageType | null;
  isBatch: boolean;
  decoded: Uint8Array;
  writeKey: string | null;
  payload: Record<string, unknown> | null;
}

/** Route, decode and parse, the calls, then each call checked and built: every step may answer a refusal instead. */
export function prepareIngest(req: PrepareRequest): Prepared {
  const s = routeOf(req);
  if (s.kind !== 'intake') return s;
  const unreadable = readPayload(s);
  if (unreadable) return unreadable;
  const problems: ItemProblem[] = [];
  const items = callsOf(s, s.payload!, problems);
  if (!Array.isArray(items)) return items;
  const built = buildBodies(s, items, problems);
  if (!Array.isArray(built)) return built;
  return packCalls(s, items, built);
}

/** The request on its way when a route takes it; else the answer (CORS preflight, wrong method) or the refusal (a POST to an unknown route). */
function routeOf(req: PrepareRequest): Intake | Prepared {
  const route = req.path.slice('/v1/'.length).replace(/\/+$/, '');
  const single = SINGLE_ROUTES[route];
  const isBatch = BATCH_ROUTES.has(route);
  if (req.method === 'OPTIONS') return { kind: 'answer', status: 204, headers: CORS, body: null };
  if (!single && !isBatch) {
    // A type misspelt in the path gets the hint a misspelt "type" in a body gets; the one-letter routes are left out, as anything is one letter off them.
    const meant = route === '' ? null : suggestKey(route, ['identify', 'track', 'page', 'screen', 'group', 'alias', 'batch', 'import']);
    const hint = meant ? ` (did you mean /v1/${meant}?)` : '';
    const error: ApiError = { code: 'not_found', message: `no ingestion route ${req.path}${hint}; use /v1/batch, /v1/import, /v1/<type> or /v1/{i,t,p,s,g,a,b}` };
    // An SDK's POST to a misspelt path is kept in the ingest log (with its write key's source), as a POST outside /v1/ is: an SDK seldom shows the answer.
    if (req.method === 'POST') return { kind: 'refused', stage: 'request', writeKey: writeKeyOf(req.authorization, null), calls: 0, status: 404, error, bodyBytes: req.body.length, preview: previewOf(req.body) };
    return { kind: 'answer', status: 404, headers: CORS, body: { error } };
  }
  if (req.method !== 'POST') {
    return { kind: 'answer', status: 405, headers: { ...CORS, allow: 'POST, OPTIONS' }, body: { error: { code: 'invalid_input', message: `${req.path} takes POST (got ${req.method.slice(0, 20)})` } } };
  }
  return { kind: 'intake', req, single: isBatch ? null : single!, isBatch, decoded: req.body, writeKey: null, payload: null };
}

function refuse(s: Intake, stage: 'request' | 'calls', calls: number, status: number, error: ApiError): Prepared {
  return { kind: 'refused', stage, writeKey: s.writeKey, calls, status, error, bodyBytes: s.decoded.length, preview: previewOf(s.decoded) };
}

/** Decodes and parses the body into `s.payload`, reading the write key on the way; a refusal when it cannot, else null. */
function readPayload(s: Intake): Prepared | null {
  const { req, isBatch } = s;
  // The header's write key is known before the body is read: a body refused below is still its source's. The
  // body's `writeKey` counts only without one (writeKeyOf's order), once the body is read.
  s.writeKey = writeKeyOf(req.authorization, null);
  // The Content-Type label is not checked (docs/behaviour.md §7): SDKs send JSON under whatever label their
  // HTTP library picks (none, text/plain, a form for a gzip body), and the real collection API reads it all
  // as JSON. Only a body that is not JSON is refused; the label is named then, when it is not JSON's.
  const decodedResult = decodeBody(req.body, req.contentEncoding);
  if (!decodedResult.ok) return refuse(s, 'request', 0, 400, decodedResult.error);
  const decoded = (s.decoded = decodedResult.body);

  // Nesting is measured on the bytes, before parsing (docs/behaviour.md §7): whatever recurses later
  // (serialising the call and its body) only ever sees calls within LIMITS.maxDepth.
  const nesting = scanJson(decoded, { limit: LIMITS.maxDepth, shape: isBatch ? 'batch' : 'call' });
  if (nesting.tooDeep) {
    s.writeKey ??= writeKeyOf(null, nesting.writeKey);
    return refuse(s, 'calls', isBatch ? (nesting.batchLength ?? 0) : 1, 400, tooDeepError(nesting.tooDeep));
  }

  const badByte = firstInvalidUtf8(decoded);
  if (badByte >= 0) {
    const refusal = invalidUtf8Error(decoded, badByte);
    const cut = endsInsideCharacter(decoded, badByte) ? cutShortNote('the body ends inside a character, at its last byte', decoded.byteLength) : '';
    return refuse(s, 'request', 0, 400, { code: 'invalid_json', field: refusal.field, message: `${refusal.message}${cut}${charsetNote(req.contentType)}` });
  }

  // An empty (or blank) body is not JSON cut short, as JSON.parse's "Unexpected end of JSON input" would have it.
  if (decoded.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) {
    const what = decoded.byteLength === 0 ? 'is empty' : `is blank (${decoded.byteLength} bytes of white space)`;
    return refuse(s, 'request', 0, 400, { code: 'invalid_json', field: 'body', message: `body: ${what}: send the ${isBatch ? 'batch as {"batch": [...]}' : 'call as a JSON object'}` });
  }
  let parsed: unknown;
  let text: string;
  try {
    text = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength).toString('utf8');
    parsed = JSON.parse(text);
  } catch (e) {
    const problem = (e as Error).message;
    const cut = endsEarly(problem) ? cutShortNote("the JSON ends early, at the body's last byte", decoded.byteLength) : '';
    // UTF-16 (charset=utf-16) is valid UTF-8 byte by byte ("{" then NUL), so only the parse fails: the label explains it.
    return refuse(s, 'request', 0, 400, { code: 'invalid_json', field: 'body', message: `body: invalid JSON (${problem})${cut}${labelNote(req.contentType)}${charsetNote(req.contentType)}` });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    // A bare array of calls is the commonest: the batch object is what it lacks.
    const hint = Array.isArray(parsed) && isBatch ? ': send a batch as {"batch": [...]}' : '';
    return refuse(s, 'request', 0, 400, { code: 'invalid_json', field: 'body', message: `body: must be a JSON object (got ${describeValue(parsed)})${hint}${labelNote(req.contentType)}` });
  }
  const payload = parsed as Record<string, unknown>;
  s.writeKey ??= writeKeyOf(null, payload['writeKey']);
  const overflow = unkeptNumber(text, payload, nesting.longNumber);
  if (overflow) return refuse(s, 'calls', isBatch && Array.isArray(payload['batch']) ? payload['batch'].length : 1, 400, { code: 'invalid_input', ...overflow });
  s.payload = payload;
  return null;
}

/**
 * The calls of the payload with their types: a batch's items with its shared context and integrations merged in,
 * or the one call. A batch item that cannot be built goes into `problems` (and is left out of the calls), so that
 * the refusal names every bad item, not the first one.
 */
function callsOf(s: Intake, payload: Record<string, unknown>, problems: ItemProblem[]): Item[] | Prepared {
  if (!s.isBatch) {
    const type = s.single!;
    if (payload['type'] !== undefined && payload['type'] !== type) {
      return refuse(s, 'calls', 1, 400, { code: 'invalid_input', field: 'type', message: `type: "${String(payload['type'])}" sent to ${s.req.path}, which takes ${type}` });
    }
    return [{ type, call: withoutWriteKey(payload) }];
  }
  const batch = payload['batch'];
  if (!Array.isArray(batch)) return refuse(s, 'calls', 0, 400, { code: 'invalid_input', field: 'batch', message: 'batch: must be an array of calls' });
  const badSentAt = sentAtProblem(payload['sentAt']);
  if (badSentAt) return refuse(s, 'calls', batch.length, 400, { code: 'invalid_timestamp', field: 'sentAt', message: `sentAt: ${badSentAt}` });
  const shared = { context: payload['context'], integrations: payload['integrations'] };
  for (const key of ['context', 'integrations'] as const) {
    const value = shared[key];
    if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) {
      return refuse(s, 'calls', batch.length, 400, { code: 'invalid_input', field: key, message: `${key}: must be an object, merged into every call of the batch (got ${describeValue(value)})` });
    }
  }
  const items: Item[] = [];
  for (let i = 0; i < batch.length; i++) {
    const item: unknown = batch[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ index: i, call: null, error: { code: 'invalid_input', field: `batch[${i}]`, index: i, message: `batch[${i}]: must be an object, a call (got ${describeValue(item)})` } });
      continue;
    }
    const call = withoutWriteKey(mergeShared(item as Record<string, unknown>, shared));
    const type = call['type'];
    if (type === undefined || type === null) {
      problems.push({ index: i, call, error: { code: 'missing_field', field: `batch[${i}].type`, index: i, message: `batch[${i}].type: is required (one of track, page, screen, identify, group, alias)` } });
    } else if (!isMessageType(type) || type === 'delete') {
      problems.push({ index: i, call, error: { code: 'unknown_type', field: `batch[${i}].type`, index: i, message: `batch[${i}].type: ${unknownTypeWords(type)}` } });
    } else {
      items.push({ type, call });
    }
  }
  return items;
}

const INGESTED_TYPES = ['track', 'page', 'screen', 'identify', 'group', 'alias'] as const;

/** Why a type is refused, with the ones taken and the one most likely meant (`"trak"`, `"Track"`). */
function unknownTypeWords(type: unknown): string {
  // A delete is made by a deletion request, never sent by an SDK: said so, or the user would look for a typo.
  if (type === 'delete') return `"delete" is not a call an SDK sends (one of ${INGESTED_TYPES.join(', ')}); request a deletion with createDeletionRequest or hookbench delete-user`;
  const meant = typeof type === 'string' ? suggestKey(type, INGESTED_TYPES) : null;
  return `unknown message type ${JSON.stringify(type)} (${meant ? `did you mean "${meant}"? ` : ''}one of ${INGESTED_TYPES.join(', ')})`;
}

// Each call is limited to 32 KiB as received (docs/behaviour.md §7), and a call too large is named before any
// other fault of the request. Its stored form bounds its size (storedCallOf), so a call is serialised to be
// measured only when that bound reaches the limit, when it shares nothing with its body, or when some call is
// refused.
function tooLarge(s: Intake, i: number, size: number): ApiError {
  const limit = LIMITS.messageBytes;
  const where = s.isBatch ? `batch[${i}]` : 'body';
  return { code: 'message_too_large', ...(s.isBatch ? { index: i } : {}), field: where, limit, value: size, message: `${where}: ${size} bytes > ${limit}` };
}

type Built = ReturnType<typeof buildMessageBody>;

/** Every call's body built; when a call is refused, the refusal names every bad call (itemRefusal). */
function buildBodies(s: Intake, items: Item[], problems: ItemProblem[]): Built[] | Prepared {
  const { req, isBatch } = s;
  // The batch index of item i is i, unless items were refused before (problems, in batch order) and left out.
  let skipped = 0;
  const indexOf = (i: number): number => {
    while (skipped < problems.length && problems[skipped]!.index <= i + skipped) skipped++;
    return i + skipped;
  };
  const indexes = problems.length === 0 ? null : items.map((_, i) => indexOf(i));
  const built = items.map(({ type, call }, i) =>
    buildMessageBody(type, call, {
      receivedAt: req.receivedAt,
      newMessageId,
      strict: false,
      sizeChecked: true,
      ...(req.clientIp ? { clientIp: req.clientIp } : {}),
      ...(isBatch ? { fieldPrefix: `batch[${indexes?.[i] ?? i}]` } : {}),
    }),
  );
  if (problems.length === 0 && built.every((b) => b.ok)) return built;
  for (const [i, b] of built.entries()) {
    const index = indexes?.[i] ?? i;
    if (!b.ok) problems.push({ index, call: items[i]!.call, error: b.error });
    else {
      const size = callBytes(items[i]!.call);
      if (size > LIMITS.messageBytes) problems.push({ index, call: null, error: tooLarge(s, index, size) });
    }
  }
  return itemRefusal(s, problems);
}

/**
 * The refusal of a request with bad calls: each named once, in order, the first as the error and the others
 * counted in its message and carried in `problems` (contract/problems.ts). A call too large is named as that,
 * whatever else is wrong with it: the size is measured first.
 */
function itemRefusal(s: Intake, problems: ItemProblem[]): Prepared {
  const errors = problems
    .sort((a, b) => a.index - b.index)
    .map(({ index, call, error }) => {
      const size = call === null ? 0 : callBytes(call);
      if (size > LIMITS.messageBytes) return tooLarge(s, index, size);
      return s.isBatch && error.index === undefined ? { ...error, index } : error;
    });
  const batch = s.payload?.['batch'];
  const calls = s.isBatch && Array.isArray(batch) ? batch.length : 1;
  return refuse(s, 'calls', calls, 400, withOthers(errors[0]!, errors.slice(1)));
}

/** The built calls as columns, and their bodies in one buffer; a refusal when a call proves too large. */
function packCalls(s: Intake, items: Item[], built: Built[]): Prepared {
  const n = items.length;
  // Filled with push, not preallocated: a holey array crosses threads element by element.
  const calls: PreparedCalls = {
    count: n,
    type: [] as MessageType[],
    messageId: [] as string[],
    clientMessageId: [] as boolean[],
    userId: [] as (string | null)[],
    anonymousId: [] as (string | null)[],
    event: [] as (string | null)[],
    integrations: [] as unknown[],
    traits: [] as unknown[],
    callJson: [] as string[],
    bodyEnd: new Uint32Array(n),
  };
  // Each body's JSON is encoded once, straight into the buffer that crosses threads: a Buffer a call, then a
  // copy, cost twice as much.
  const jsons: string[] = [];
  let offset = 0;
  for (let i = 0; i < items.length; i++) {
    const { type, call } = items[i]!;
    const m = (built[i] as Extract<Built, { ok: true }>).value;
    const bytes = Buffer.byteLength(m.json, 'utf8');
    const stored = storedCallOf(call, m.body, bytes);
    if (stored.oversize !== null) {
      // Every call was built: only sizes are wrong, and every call too large from here on is named.
      const problems: ItemProblem[] = [{ index: i, call: null, error: tooLarge(s, i, stored.oversize) }];
      for (let j = i + 1; j < n; j++) {
        const size = callBytes(items[j]!.call);
        if (size > LIMITS.messageBytes) problems.push({ index: j, call: null, error: tooLarge(s, j, size) });
      }
      return itemRefusal(s, problems);
    }
    calls.type.push(type);
    calls.messageId.push(m.messageId);
    calls.clientMessageId.push(call['messageId'] !== undefined);
    calls.userId.push(m.userId);
    calls.anonymousId.push(m.anonymousId);
    calls.event.push(m.event);
    calls.integrations.push(routedIntegrations(call['integrations']));
    calls.traits.push(type === 'identify' ? call['traits'] : undefined);
    calls.callJson.push(stored.json);
    offset += bytes;
    calls.bodyEnd[i] = offset;
    jsons.push(m.json);
  }
  // A buffer of its own (not a slice of Node's shared pool), so that it can be moved to another thread.
  const all = new Uint8Array(offset);
  const into = Buffer.from(all.buffer, 0, all.byteLength);
  offset = 0;
  for (const json of jsons) offset += into.write(json, offset, 'utf8');
  return { kind: 'calls', writeKey: s.writeKey, calls, bodies: all, bodyBytes: s.decoded.length, preview: previewOf(s.decoded) };
}

/** A copy, not a view: a view would carry its whole buffer along when it crosses threads. */
function previewOf(body: Uint8Array): Uint8Array {
  return new Uint8Array(body.subarray(0, PREVIEW_BYTES));
}

/**
 * A call without the `writeKey` it may carry (single-call routes and browser SDKs send it in the body; a
 * call pasted into sendMessage may too): a secret, kept out of the stored call (docs/behaviour.md §9). The delivered body never had it: it is built
 * from the shape's keys only.
 */
export function withoutWriteKey(call: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(call, 'writeKey')) return call;
  const { writeKey: _dropped, ...rest } = call;
  return rest;
}
