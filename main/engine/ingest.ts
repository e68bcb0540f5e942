/**
 * The ingestion API that real analytics SDKs point at, unmodified (SPEC-NOTES §6). HTTP-agnostic: the
 * server hands it the route, headers and raw body; it answers status, headers and a JSON body.
 * A request is accepted whole or refused whole; refusals are logged with their reason, never stored as
 * messages. Accepted messages are committed before the answer.
 */
import { gunzipSync } from 'node:zlib';
import { isMessageType, LIMITS, type MessageType } from '../contract/messageShapes.js';
import type { ApiError } from '../contract/result.js';
import type { Source } from '../contract/models.js';
import type { Core } from './createCore.js';

export interface IngestRequest {
  method: string;
  /** Path without query, e.g. `/v1/batch`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body as received (possibly gzip). */
  body: Buffer;
  clientIp: string | null;
}

export interface IngestResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

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
const BROWSER_ROUTES = new Set(['i', 't', 'p', 's', 'g', 'a', 'b']);

const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Authorization, Content-Encoding',
  'access-control-max-age': '86400',
};

/** Bytes of the body kept in the refusal log. */
const PREVIEW_BYTES = 4096;

export function isIngestPath(path: string): boolean {
  return path.startsWith('/v1/');
}

export function handleIngest(core: Core, req: IngestRequest): IngestResponse {
  const route = req.path.slice('/v1/'.length).replace(/\/+$/, '');
  const single = SINGLE_ROUTES[route];
  const isBatch = BATCH_ROUTES.has(route);
  if (req.method === 'OPTIONS') return { status: 204, headers: CORS, body: null };
  if (!single && !isBatch) {
    return { status: 404, headers: CORS, body: { error: { code: 'not_found', message: `no ingestion route ${req.path}; use /v1/batch, /v1/import, /v1/<type> or /v1/{i,t,p,s,g,a,b}` } } };
  }
  if (req.method !== 'POST') {
    return { status: 405, headers: { ...CORS, allow: 'POST, OPTIONS' }, body: { error: { code: 'invalid_input', message: `${req.path} takes POST` } } };
  }

  let source: Source | null = null;
  let decoded: Buffer | null = null;
  const refuse = (status: number, error: ApiError): IngestResponse => {
    const preview = (decoded ?? req.body).subarray(0, PREVIEW_BYTES);
    core.store.logRefusal({
      receivedAt: core.clock.now(),
      sourceId: source?.id ?? null,
      route: req.path,
      clientIp: req.clientIp,
      httpStatus: status,
      code: error.code,
      message: error.message,
      field: error.field ?? null,
      index: error.index ?? null,
      bodyBytes: (decoded ?? req.body).length,
      bodyPreview: preview,
    });
    return { status, headers: CORS, body: { error } };
  };

  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  const browser = BROWSER_ROUTES.has(route);
  if (!browser && contentType && !contentType.includes('json') && !contentType.includes('text/plain')) {
    return refuse(400, { code: 'invalid_input', field: 'content-type', message: `content-type: expected application/json (got ${contentType})` });
  }

  const decodedResult = decodeBody(req);
  if (!decodedResult.ok) return refuse(400, decodedResult.error);
  decoded = decodedResult.body;

  let parsed: unknown;
  try {
    parsed = JSON.parse(decoded.toString('utf8'));
  } catch (e) {
    return refuse(400, { code: 'invalid_json', message: `body: invalid JSON (${(e as Error).message})` });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return refuse(400, { code: 'invalid_json', message: 'body: must be a JSON object' });
  }
  const payload = parsed as Record<string, unknown>;

  const writeKey = writeKeyOf(req.headers['authorization'], payload['writeKey']);
  if (!writeKey) {
    return refuse(401, { code: 'unauthorized', message: 'missing write key: send Basic auth with the write key as the user name, or "writeKey" in the body' });
  }
  source = core.sourceByWriteKey(writeKey);
  if (!source) return refuse(401, { code: 'unauthorized', message: `unknown write key "${mask(writeKey)}"` });

  let items: { type: MessageType; call: Record<string, unknown> }[];
  let prefix: (i: number) => string | undefined;
  if (isBatch) {
    const batch = payload['batch'];
    if (!Array.isArray(batch)) return refuseCounted(core, source, 0, refuse(400, { code: 'invalid_input', field: 'batch', message: 'batch: must be an array of calls' }));
    const shared = { context: payload['context'], integrations: payload['integrations'] };
    items = [];
    for (const [i, item] of batch.entries()) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        return refuseCounted(core, source, batch.length, refuse(400, { code: 'invalid_input', field: `batch[${i}]`, index: i, message: `batch[${i}]: must be an object` }));
      }
      const call = mergeShared(item as Record<string, unknown>, shared);
      const type = call['type'];
      if (!isMessageType(type) || type === 'delete') {
        return refuseCounted(
          core,
          source,
          batch.length,
          refuse(400, { code: 'unknown_type', field: `batch[${i}].type`, index: i, message: `batch[${i}].type: unknown message type ${JSON.stringify(type ?? null)}` }),
        );
      }
      items.push({ type, call });
    }
    prefix = (i) => `batch[${i}]`;
  } else {
    const type = single!;
    if (payload['type'] !== undefined && payload['type'] !== type) {
      return refuseCounted(core, source, 1, refuse(400, { code: 'invalid_input', field: 'type', message: `type: "${String(payload['type'])}" sent to ${req.path}, which takes ${type}` }));
    }
    items = [{ type, call: payload }];
    prefix = () => undefined;
  }

  // Each call's size, as received, before anything else about it (SPEC-NOTES §6). The same JSON is stored.
  const sized = items.map((item) => ({ ...item, callJson: JSON.stringify(item.call) }));
  for (const [i, item] of sized.entries()) {
    const size = Buffer.byteLength(item.callJson, 'utf8');
    if (size > LIMITS.messageBytes) {
      const where = isBatch ? `batch[${i}]` : 'body';
      return refuseCounted(
        core,
        source,
        items.length,
        refuse(400, { code: 'message_too_large', ...(isBatch ? { index: i, field: where } : {}), limit: LIMITS.messageBytes, value: size, message: `${where}: ${size} bytes > ${LIMITS.messageBytes}` }),
      );
    }
  }

  const accepted = core.ingest({ source, clientIp: req.clientIp, calls: sized, fieldPrefix: prefix });
  if (!accepted.ok) {
    const error = { ...accepted.error };
    const index = /^batch\[(\d+)\]/.exec(error.field ?? '');
    if (index) error.index = Number(index[1]);
    return refuse(400, error);
  }
  return { status: 200, headers: CORS, body: { success: true } };
}

/** Refusals after the source is known count toward its usage. */
function refuseCounted(core: Core, source: Source, calls: number, response: IngestResponse): IngestResponse {
  core.store.countUsage(source.id, { received: calls, refused: calls });
  return response;
}

function decodeBody(req: IngestRequest): { ok: true; body: Buffer } | { ok: false; error: ApiError } {
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  let body = req.body;
  if (encoding === 'gzip') {
    try {
      // The bomb guard: never inflate past the request limit.
      body = gunzipSync(req.body, { maxOutputLength: LIMITS.requestBytes + 1 });
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
  const out = { ...item };
  for (const key of ['context', 'integrations'] as const) {
    const batchLevel = shared[key];
    if (typeof batchLevel !== 'object' || batchLevel === null || Array.isArray(batchLevel)) continue;
    const own = item[key];
    out[key] = typeof own === 'object' && own !== null && !Array.isArray(own) ? { ...batchLevel, ...own } : own === undefined ? { ...batchLevel } : own;
  }
  return out;
}

export function writeKeyOf(authorization: string | string[] | undefined, bodyKey: unknown): string | null {
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  if (header && /^basic\s+/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
    const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
    if (user) return user;
  }
  return typeof bodyKey === 'string' && bodyKey !== '' ? bodyKey : null;
}

/** Write keys are secrets: logs show only their edges. */
function mask(key: string): string {
  return key.length <= 6 ? '***' : `${key.slice(0, 3)}…${key.slice(-2)}`;
}
