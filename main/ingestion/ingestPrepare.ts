/**
 * The CPU-heavy half of an ingestion request, with no access to the store, so that it can run on a worker
 * thread: route, decoding (gzip with its bomb guard), JSON parsing, the write key as sent, and every call
 * checked and built (docs/behaviour.md §7). What needs the store (the write key's source, dedupe, routing, the
 * commit, the refusal log) is done afterwards on the engine's thread, by ingestion/ingest.ts.
 */
import { gunzipSync } from 'node:zlib';
import { isMessageType, LIMITS, type MessageType } from '../contract/message/messageShapes.js';
import type { ApiError } from '../contract/result.js';
import { routedIntegrations } from '../contract/message/routing.js';
import { scanJson, tooDeepError } from '../domain/jsonDepth.js';
import { overflowingNumber } from '../domain/jsonNumbers.js';
import { firstInvalidUtf8, invalidUtf8Error } from '../domain/utf8.js';
import { buildMessageBody, describeValue } from '../contract/message/messageBody.js';
import { compactCall } from '../store/storedJson.js';
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
  /** An answer that involves no source and is not logged (CORS preflight, unknown route, wrong method). */
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

export function prepareIngest(req: PrepareRequest): Prepared {
  const route = req.path.slice('/v1/'.length).replace(/\/+$/, '');
  const single = SINGLE_ROUTES[route];
  const isBatch = BATCH_ROUTES.has(route);
  if (req.method === 'OPTIONS') return { kind: 'answer', status: 204, headers: CORS, body: null };
  if (!single && !isBatch) {
    return { kind: 'answer', status: 404, headers: CORS, body: { error: { code: 'not_found', message: `no ingestion route ${req.path}; use /v1/batch, /v1/import, /v1/<type> or /v1/{i,t,p,s,g,a,b}` } } };
  }
  if (req.method !== 'POST') {
    return { kind: 'answer', status: 405, headers: { ...CORS, allow: 'POST, OPTIONS' }, body: { error: { code: 'invalid_input', message: `${req.path} takes POST` } } };
  }

  let decoded: Uint8Array = req.body;
  let writeKey: string | null = null;
  const refuse = (stage: 'request' | 'calls', calls: number, status: number, error: ApiError): Prepared => ({
    kind: 'refused',
    stage,
    writeKey,
    calls,
    status,
    error,
    bodyBytes: decoded.length,
    preview: previewOf(decoded),
  });

  // The Content-Type label is not checked (docs/behaviour.md §7): SDKs send JSON under whatever label their
  // HTTP library picks (none, text/plain, a form for a gzip body), and the real collection API reads it all
  // as JSON. Only a body that is not JSON is refused; the label is named then, when it is not JSON's.
  const decodedResult = decodeBody(req.body, req.contentEncoding);
  if (!decodedResult.ok) return refuse('request', 0, 400, decodedResult.error);
  decoded = decodedResult.body;

  // Nesting is measured on the bytes, before parsing (docs/behaviour.md §7): whatever recurses later
  // (serialising the call and its body) only ever sees calls within LIMITS.maxDepth.
  const nesting = scanJson(decoded, { limit: LIMITS.maxDepth, shape: isBatch ? 'batch' : 'call' });
  if (nesting.tooDeep) {
    writeKey = writeKeyOf(req.authorization, nesting.writeKey);
    return refuse('calls', isBatch ? (nesting.batchLength ?? 0) : 1, 400, tooDeepError(nesting.tooDeep));
  }

  const badByte = firstInvalidUtf8(decoded);
  if (badByte >= 0) {
    writeKey = writeKeyOf(req.authorization, null);
    return refuse('request', 0, 400, { code: 'invalid_json', ...invalidUtf8Error(decoded, badByte) });
  }

  let parsed: unknown;
  let text: string;
  try {
    text = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength).toString('utf8');
    parsed = JSON.parse(text);
  } catch (e) {
    return refuse('request', 0, 400, { code: 'invalid_json', field: 'body', message: `body: invalid JSON (${(e as Error).message})${labelNote(req.contentType)}` });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return refuse('request', 0, 400, { code: 'invalid_json', field: 'body', message: `body: must be a JSON object${labelNote(req.contentType)}` });
  }
  const payload = parsed as Record<string, unknown>;
  writeKey = writeKeyOf(req.authorization, payload['writeKey']);
  const overflow = overflowingNumber(text, payload);
  if (overflow) return refuse('calls', isBatch && Array.isArray(payload['batch']) ? payload['batch'].length : 1, 400, { code: 'invalid_input', ...overflow });

  let items: { type: MessageType; call: Record<string, unknown> }[];
  if (isBatch) {
    const batch = payload['batch'];
    if (!Array.isArray(batch)) return refuse('calls', 0, 400, { code: 'invalid_input', field: 'batch', message: 'batch: must be an array of calls' });
    const shared = { context: payload['context'], integrations: payload['integrations'] };
    for (const key of ['context', 'integrations'] as const) {
      const value = shared[key];
      if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) {
        return refuse('calls', batch.length, 400, { code: 'invalid_input', field: key, message: `${key}: must be an object, merged into every call of the batch (got ${describeValue(value)})` });
      }
    }
    items = [];
    for (const [i, item] of batch.entries()) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        return refuse('calls', batch.length, 400, { code: 'invalid_input', field: `batch[${i}]`, index: i, message: `batch[${i}]: must be an object` });
      }
      const call = withoutWriteKey(mergeShared(item as Record<string, unknown>, shared));
      const type = call['type'];
      if (!isMessageType(type) || type === 'delete') {
        return refuse('calls', batch.length, 400, { code: 'unknown_type', field: `batch[${i}].type`, index: i, message: `batch[${i}].type: unknown message type ${JSON.stringify(type ?? null)}` });
      }
      items.push({ type, call });
    }
  } else {
    const type = single!;
    if (payload['type'] !== undefined && payload['type'] !== type) {
      return refuse('calls', 1, 400, { code: 'invalid_input', field: 'type', message: `type: "${String(payload['type'])}" sent to ${req.path}, which takes ${type}` });
    }
    items = [{ type, call: withoutWriteKey(payload) }];
  }

  // Each call is limited to 32 KiB as received (docs/behaviour.md §7), and a call too large is named before any
  // other fault of the request. Measuring means serialising the call, which is what its stored form avoids:
  // every value a call shares with its body is in the body's bytes, so the body plus the stored form (its keys
  // and its other values, at most 3 bytes a UTF-16 unit) bounds the call's size, and the call is serialised
  // only when that bound reaches the limit, when it shares nothing, or when some call is refused.
  const limit = LIMITS.messageBytes;
  const sizeOf = (call: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(call), 'utf8');
  const tooLarge = (i: number, size: number): Prepared => {
    const where = isBatch ? `batch[${i}]` : 'body';
    return refuse('calls', items.length, 400, {
      code: 'message_too_large',
      ...(isBatch ? { index: i, field: where } : {}),
      limit,
      value: size,
      message: `${where}: ${size} bytes > ${limit}`,
    });
  };
  const built = items.map(({ type, call }, i) =>
    buildMessageBody(type, call, {
      receivedAt: req.receivedAt,
      newMessageId,
      strict: false,
      sizeChecked: true,
      ...(req.clientIp ? { clientIp: req.clientIp } : {}),
      ...(isBatch ? { fieldPrefix: `batch[${i}]` } : {}),
    }),
  );
  const failed = built.find((b) => !b.ok);
  if (failed && !failed.ok) {
    for (const [i, { call }] of items.entries()) {
      const size = sizeOf(call);
      if (size > limit) return tooLarge(i, size);
    }
    const index = /^batch\[(\d+)\]/.exec(failed.error.field ?? '');
    return refuse('calls', items.length, 400, index ? { ...failed.error, index: Number(index[1]) } : failed.error);
  }

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
  for (const [i, { type, call }] of items.entries()) {
    const m = (built[i] as Extract<(typeof built)[number], { ok: true }>).value;
    const compact = compactCall(call, m.body);
    const json = compact === null ? JSON.stringify(call) : null;
    const bytes = Buffer.byteLength(m.json, 'utf8');
    const bound = json !== null ? Buffer.byteLength(json, 'utf8') : bytes + 3 * compact!.length;
    if (bound > limit) {
      const size = json !== null ? bound : sizeOf(call);
      if (size > limit) return tooLarge(i, size);
    }
    calls.type.push(type);
    calls.messageId.push(m.messageId);
    calls.clientMessageId.push(call['messageId'] !== undefined);
    calls.userId.push(m.userId);
    calls.anonymousId.push(m.anonymousId);
    calls.event.push(m.event);
    calls.integrations.push(routedIntegrations(call['integrations']));
    calls.traits.push(type === 'identify' ? call['traits'] : undefined);
    calls.callJson.push(compact ?? json!);
    offset += bytes;
    calls.bodyEnd[i] = offset;
    jsons.push(m.json);
  }
  // A buffer of its own (not a slice of Node's shared pool), so that it can be moved to another thread.
  const all = new Uint8Array(offset);
  const into = Buffer.from(all.buffer, 0, all.byteLength);
  offset = 0;
  for (const json of jsons) offset += into.write(json, offset, 'utf8');
  return { kind: 'calls', writeKey, calls, bodies: all, bodyBytes: decoded.length, preview: previewOf(decoded) };
}

/** `; labelled text/csv: every body is read as JSON, whatever its label`, for a label that is not JSON's. */
function labelNote(contentType: string | null): string {
  const label = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (label === '' || label.includes('json')) return '';
  return `; labelled ${label.slice(0, 100)}: every body is read as JSON, whatever its label`;
}

/** A copy, not a view: a view would carry its whole buffer along when it crosses threads. */
function previewOf(body: Uint8Array): Uint8Array {
  return new Uint8Array(body.subarray(0, PREVIEW_BYTES));
}

function decodeBody(raw: Uint8Array, contentEncoding: string | null): { ok: true; body: Uint8Array } | { ok: false; error: ApiError } {
  const encoding = (contentEncoding ?? 'identity').toLowerCase().trim();
  let body = raw;
  if (encoding === 'gzip') {
    try {
      // The bomb guard: never inflate past the request limit.
      body = gunzipSync(raw, { maxOutputLength: LIMITS.requestBytes + 1 });
    } catch (e) {
      const tooBig = (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger|buffer.*too large/i.test(String(e));
      if (tooBig) return { ok: false, error: { code: 'request_too_large', limit: LIMITS.requestBytes, message: `request: more than ${LIMITS.requestBytes} bytes after gzip decoding` } };
      return { ok: false, error: { code: 'invalid_input', field: 'content-encoding', message: `content-encoding: gzip body could not be decoded (${(e as Error).message})` } };
    }
  } else if (encoding !== 'identity' && encoding !== '') {
    return { ok: false, error: { code: 'invalid_input', field: 'content-encoding', message: `content-encoding: "${encoding}" is not supported (use gzip or none)` } };
  }
  if (body.length > LIMITS.requestBytes) {
    return { ok: false, error: { code: 'request_too_large', limit: LIMITS.requestBytes, value: body.length, message: `request: ${body.length} bytes > ${LIMITS.requestBytes}` } };
  }
  return { ok: true, body };
}

/** Batch-level context and integrations merge into each item; the item's own keys win. */
function mergeShared(item: Record<string, unknown>, shared: { context: unknown; integrations: unknown }): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const key of ['context', 'integrations'] as const) {
    const batchLevel = shared[key];
    if (typeof batchLevel !== 'object' || batchLevel === null || Array.isArray(batchLevel)) continue;
    const own = item[key];
    out ??= { ...item };
    out[key] = typeof own === 'object' && own !== null && !Array.isArray(own) ? { ...batchLevel, ...own } : own === undefined ? { ...batchLevel } : own;
  }
  return out ?? item;
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

function writeKeyOf(authorization: string | null, bodyKey: unknown): string | null {
  if (authorization && /^basic\s+/i.test(authorization)) {
    const decoded = Buffer.from(authorization.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
    const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
    if (user) return user;
  }
  return typeof bodyKey === 'string' && bodyKey !== '' ? bodyKey : null;
}
