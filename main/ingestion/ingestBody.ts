/**
 * An ingestion request's body before it becomes calls (ingestPrepare.ts): decoding (gzip, with its bomb
 * guard), the write key as sent (Basic auth, else the body's), the notes a refusal adds about a Content-Type
 * label or a body that ends where it should not, and a batch's shared context and integrations merged into each call. Pure, like the rest of the
 * preparation: it runs on the ingestion thread for large bodies.
 */
import { gunzipSync } from 'node:zlib';
import { LIMITS } from '../contract/message/messageShapes.js';
import type { ApiError } from '../contract/result.js';

/** `; labelled text/csv: every body is read as JSON, whatever its label`, for a label that is not JSON's. */
export function labelNote(contentType: string | null): string {
  const label = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (label === '' || label.includes('json')) return '';
  return `; labelled ${label.slice(0, 100)}: every body is read as JSON, whatever its label`;
}

/**
 * `; labelled charset=iso-8859-1: …`, for a body refused as invalid UTF-8 or invalid JSON whose Content-Type names another charset:
 * the label says why the bytes are not UTF-8, and that it is not honoured (JSON is UTF-8, RFC 8259 §8.1).
 */
export function charsetNote(contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (!charset || charset === 'utf-8' || charset === 'utf8') return '';
  return `; labelled charset=${charset.slice(0, 40)}: the body is read as UTF-8, as JSON is; send it encoded as UTF-8`;
}

/**
 * `; <where it ends> (N bytes): was the body cut short, …?`: a body that ends inside its JSON or inside a character
 * was cut by its client, or by a Content-Length counted in characters, short of the UTF-8 bytes of non-ASCII text.
 */
export function cutShortNote(where: string, bytes: number): string {
  return `; ${where} (${bytes.toLocaleString('en-US')} bytes): was the body cut short, or its Content-Length counted in characters where UTF-8 text takes more bytes?`;
}

/** Whether JSON.parse's message says the text stopped inside the JSON (a body cut short). */
export function endsEarly(parseError: string): boolean {
  return /Unexpected end of JSON input|Unterminated string/.test(parseError);
}

/**
 * Whether the bad byte at `offset` starts a character the body's end cuts off: a Content-Length counted in
 * characters cuts non-ASCII text there as often as between characters.
 */
export function endsInsideCharacter(bytes: Uint8Array, offset: number): boolean {
  const lead = bytes[offset]!;
  const length = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  const tail = bytes.subarray(offset + 1);
  return length > 0 && tail.length < length - 1 && tail.every((b) => (b & 0xc0) === 0x80);
}

/** The body as sent, decoded: a refusal for an encoding it does not take or a body past the request limit. */
export function decodeBody(raw: Uint8Array, contentEncoding: string | null): { ok: true; body: Uint8Array } | { ok: false; error: ApiError } {
  const encoding = (contentEncoding ?? 'identity').toLowerCase().trim();
  let body = raw;
  // RFC 9110 §8.4.1.3: a recipient should treat x-gzip as gzip (older HTTP libraries still send it).
  const gzipped = raw[0] === 0x1f && raw[1] === 0x8b;
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    if (!gzipped) {
      // zlib's own words ("incorrect header check") do not say that the body was simply not compressed.
      // Only its first byte is named: the body may carry a write key, which messages never show.
      const first = raw.length === 0 ? 'the body is empty' : `it starts with byte ${raw[0]!.toString(16).padStart(2, '0')}${raw[0]! >= 0x20 && raw[0]! < 0x7f ? ` (${JSON.stringify(String.fromCharCode(raw[0]!))})` : ''}`;
      return {
        ok: false,
        error: { code: 'invalid_input', field: 'content-encoding', message: `content-encoding: says ${encoding}, but the body does not start as gzip data does (bytes 1f 8b); ${first}: compress the body, or send it without Content-Encoding` },
      };
    }
    try {
      // The bomb guard: never inflate past the request limit.
      body = gunzipSync(raw, { maxOutputLength: LIMITS.requestBytes + 1 });
    } catch (e) {
      const tooBig = (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || /Cannot create a Buffer larger|buffer.*too large/i.test(String(e));
      if (tooBig) return { ok: false, error: { code: 'request_too_large', limit: LIMITS.requestBytes, message: `request: more than ${LIMITS.requestBytes} bytes after gzip decoding` } };
      return { ok: false, error: { code: 'invalid_input', field: 'content-encoding', message: `content-encoding: ${encoding} body could not be decoded (${(e as Error).message})` } };
    }
  } else if (encoding !== 'identity' && encoding !== '') {
    return { ok: false, error: { code: 'invalid_input', field: 'content-encoding', message: `content-encoding: "${encoding}" is not supported (use gzip, x-gzip or none)` } };
  } else if (gzipped) {
    // Else refused as invalid UTF-8 at byte 1 (0x8b), which does not say what the bytes are.
    return { ok: false, error: { code: 'invalid_json', field: 'body', message: 'body: gzip data (it starts with bytes 1f 8b) sent without Content-Encoding: gzip; add that header, or send the JSON uncompressed' } };
  }
  if (body.length > LIMITS.requestBytes) {
    return { ok: false, error: { code: 'request_too_large', limit: LIMITS.requestBytes, value: body.length, message: `request: ${body.length} bytes > ${LIMITS.requestBytes}` } };
  }
  return { ok: true, body };
}

/** Batch-level context and integrations merge into each item; the item's own keys win. */
export function mergeShared(item: Record<string, unknown>, shared: { context: unknown; integrations: unknown }): Record<string, unknown> {
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

/** The write key as sent: the user of Basic auth, else the body's `writeKey`. */
export function writeKeyOf(authorization: string | null, bodyKey: unknown): string | null {
  if (authorization && /^basic\s+/i.test(authorization)) {
    const decoded = Buffer.from(authorization.replace(/^basic\s+/i, '').trim(), 'base64').toString('utf8');
    const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
    if (user) return user;
  }
  return typeof bodyKey === 'string' && bodyKey !== '' ? bodyKey : null;
}

/**
 * A write key an Authorization header carries where ingestion does not read one (writeKeyOf): as Basic auth's
 * password with an empty user name (`-u ":key"`), or under another scheme (`Bearer key`, or the bare key), as
 * people and HTTP libraries write it. `sent` says how, without the key. Null: the header holds no such key.
 */
export function misplacedWriteKey(authorization: string | null): { key: string; sent: string } | null {
  const value = authorization?.trim() ?? '';
  if (value === '') return null;
  const basic = /^basic\s+(.*)$/i.exec(value);
  if (basic) {
    const decoded = Buffer.from(basic[1]!.trim(), 'base64').toString('utf8');
    const key = decoded.startsWith(':') ? decoded.slice(1) : '';
    return key ? { key, sent: 'Basic auth with an empty user name and the key as its password' } : null;
  }
  const scheme = /^([A-Za-z][\w-]*)\s+(\S+)$/.exec(value);
  if (scheme) return { key: scheme[2]!, sent: `"Authorization: ${scheme[1]!.slice(0, 20)} …", which ingestion does not read` };
  return /\s/.test(value) ? null : { key: value, sent: 'an Authorization header without a scheme, which ingestion does not read' };
}
