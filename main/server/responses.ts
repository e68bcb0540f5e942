/**
 * The HTTP server's reading and answering: a body read within its limits, JSON and text answers (the typed
 * API's compressed when the client accepts it), the HTTP status of each API error code, the client's
 * address, and the log of clients that hang up mid-request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { ApiError, ErrorCode } from '../contract/result.js';
import { encodeBounded, WIRE_MAX_DEPTH } from './eventFrame.js';

const STATUS_OF: Record<ErrorCode, number> = {
  invalid_input: 400,
  invalid_json: 400,
  invalid_timestamp: 400,
  missing_field: 400,
  missing_identity: 400,
  unknown_type: 400,
  unknown_field: 400,
  message_too_large: 400,
  request_too_large: 400,
  nesting_too_deep: 400,
  invalid_config: 400,
  invalid_request: 400,
  not_found: 404,
  conflict: 409,
  unauthorized: 401,
  data_dir_locked: 409,
  unavailable: 503,
  internal: 500,
};

export function httpStatusOf(error: ApiError): number {
  return STATUS_OF[error.code] ?? 500;
}

/**
 * The refusal of a body readBody stopped at `limit`: reading stops there, so its size is known only as the client
 * declared it (`value`, from Content-Length); a chunked body declares none and is "more than" the limit.
 */
export function tooLargeError(req: IncomingMessage, limit: number): ApiError & { code: 'request_too_large'; limit: number; value?: number } {
  const declared = /^\d+$/.test(req.headers['content-length'] ?? '') ? Number(req.headers['content-length']) : null;
  return declared
    ? { code: 'request_too_large', limit, value: declared, message: `request: ${declared} bytes > ${limit} (its Content-Length)` }
    : { code: 'request_too_large', limit, message: `request: more than ${limit} bytes` };
}

/**
 * Reads the body up to `limit` bytes; past that, stops keeping it and answers 'too_large' (the rest is drained
 * and discarded; the answer closes the connection). The body is a copy in a buffer of its own; `chunks`, when
 * given, keeps what was read. Listeners, not `for await`: leaving that loop early destroys the request, and with
 * it the socket the answer must go out on.
 */
export function readBody(req: IncomingMessage, limit: number, chunks: Buffer[] = [], shared?: { bytes: number; limit: number }, res?: ServerResponse): Promise<Buffer | 'too_large' | 'busy'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
    let size = 0;
    const stop = (): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      res?.off('close', onAnswered);
      if (shared) shared.bytes -= size;
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (shared) shared.bytes += chunk.length;
      if (size > limit) {
        stop();
        req.resume();
        resolve('too_large');
        return;
      }
      if (shared && shared.bytes > shared.limit) {
        stop();
        req.resume();
        resolve('busy');
        return;
      }
      chunks.push(chunk);
    };
    // A request torn down mid-body ends with 'close' (and maybe 'error'): its bytes are no longer held.
    const onClose = (): void => {
      if (req.complete) return;
      stop();
      reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    };
    // Answered before the body came in full (the request timeout's 408): Node detaches the request from its
    // socket once the answer is out, so neither its end nor its close may ever come to give the bytes back.
    const onAnswered = (): void => {
      stop();
      reject(Object.assign(new Error('answered before the body arrived'), { code: 'ECONNRESET' }));
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (e: Error): void => {
      stop();
      reject(e);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    res?.once('close', onAnswered);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204) {
    res.writeHead(204, headers).end();
    return;
  }
  // An answer that cannot be serialised whole (JSON nested too deep) goes out with its deep part replaced.
  const text = encodeBounded(body, (e) => console.warn(`hookbench: an answer had to be cut to ${WIRE_MAX_DEPTH} levels to be sent (${String(e)})`));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers }).end(text);
}

/** Whether an Accept-Encoding header accepts `encoding` (a q=0 refuses it). */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== encoding && name !== '*') continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return q === undefined || Number(q) > 0;
  }
  return false;
}

/** Answers smaller than this go out as they are: compressing them would save less than it costs. */
export const COMPRESS_ABOVE_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The encoding an answer of `bytes` goes out in: brotli (quality 5, a few ms for a list of 500 messages) or
 * gzip when the client accepts one, nothing for a small answer or a client that accepts neither.
 */
export function answerEncoding(acceptEncoding: string | undefined, bytes: number): 'br' | 'gzip' | null {
  if (bytes <= COMPRESS_ABOVE_BYTES) return null;
  if (acceptsEncoding(acceptEncoding, 'br')) return 'br';
  if (acceptsEncoding(acceptEncoding, 'gzip')) return 'gzip';
  return null;
}

/** sendJson for the typed API: the same JSON, compressed when it is worth it and the client accepts it (Vary says so). */
export async function sendJsonEncoded(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): Promise<void> {
  const text = encodeBounded(body, (e) => console.warn(`hookbench: an answer had to be cut to ${WIRE_MAX_DEPTH} levels to be sent (${String(e)})`));
  const raw = Buffer.from(text, 'utf8');
  const encoding = answerEncoding(req.headers['accept-encoding'], raw.length);
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', vary: 'accept-encoding' };
  if (!encoding) {
    res.writeHead(status, { ...headers, 'content-length': raw.length }).end(raw);
    return;
  }
  const packed =
    encoding === 'br'
      ? await brotli(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT } })
      : await gzipped(raw);
  res.writeHead(status, { ...headers, 'content-encoding': encoding, 'content-length': packed.length }).end(packed);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

export function clientIp(req: IncomingMessage): string | null {
  const ip = req.socket?.remoteAddress ?? null;
  return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** A request whose client went away before sending all of its body: no fault of ours, and no stack trace. */
export function isClientAbort(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || (e instanceof Error && e.message === 'aborted');
}

/**
 * Says that clients abort in one line, then at most one line a minute with the count since: a client that
 * retries in a loop must not flood the log.
 */
export function clientAbortLog(now: () => number = Date.now, log: (line: string) => void = (line) => console.warn(line)) {
  let count = 0;
  let unsaid = 0;
  let saidAt = -Infinity;
  return {
    get count() {
      return count;
    },
    add(): void {
      count++;
      unsaid++;
      if (now() - saidAt < 60_000) return;
      log(count === 1 ? 'hookbench: a client closed its connection before sending the whole request (counted from now on, one line a minute at most)' : `hookbench: ${unsaid} more client${unsaid === 1 ? '' : 's'} closed the connection before sending the whole request (${count} in all)`);
      unsaid = 0;
      saidAt = now();
    },
  };
}
