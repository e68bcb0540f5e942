/**
 * An HTTP listener's connections (serve's port and the mock receiver's): how many it holds and which one makes
 * room at the cap, the time a request has to arrive, and what Node's parser refused, said as every other
 * refusal is.
 */
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * A JSON answer written straight to a socket that Node's HTTP layer will not answer on (a connection refused at
 * the cap, a request its parser refused), then the connection closed.
 */
export function endWithJson(socket: Duplex, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, 'content-type: application/json; charset=utf-8', `content-length: ${Buffer.byteLength(text)}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push('connection: close');
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/**
 * Whether the client left before its request was complete: it reset the connection, or ended its side of it
 * mid-request (llhttp's HPE_INVALID_EOF_STATE, which is no malformed request). There is nothing to refuse: a
 * body it cut short is counted where the body is read, as every request whose client went away.
 */
export function clientLeft(error: { code?: string | undefined }, socket: Duplex): boolean {
  return error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || !socket.writable;
}

/** Connections held open at once, and how long a request's headers and the whole request may take to arrive. */
export const CONNECTION_LIMITS = { max: 1024, headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 } as const;

/**
 * The open connections, oldest first, each busy while it carries a request. Past `max`, the oldest that is not
 * busy is closed to make room; when every one is busy, the new connection gets 503 with Retry-After at once.
 */
export function connectionTable(max: number, requestTimeoutMs: number) {
  const open = new Map<Duplex, { busy: boolean; answering?: { req: IncomingMessage; res: ServerResponse }; contentLength?: string }>();
  return {
    opened(socket: Duplex): void {
      open.set(socket, { busy: false });
      socket.once('close', () => open.delete(socket));
      if (open.size <= max) return;
      for (const [other, state] of open) {
        if (other === socket || state.busy) continue;
        other.destroy();
        open.delete(other);
        return;
      }
      open.delete(socket);
      endWithJson(socket, 503, { error: { code: 'unavailable', message: `Hookbench holds ${max.toLocaleString('en-US')} connections that are all carrying requests; retry in a second` } }, { 'retry-after': '1' });
    },
    /** An event socket: busy for as long as it is open. */
    upgraded(socket: Duplex): void {
      const state = open.get(socket);
      if (state) state.busy = true;
    },
    busy(req: IncomingMessage, res: ServerResponse): void {
      const state = open.get(req.socket);
      if (state) {
        state.busy = true;
        state.answering = { req, res };
        state.contentLength = req.headers['content-length'];
      }
      // Node cuts slow headers itself; a body still arriving past the request timeout is cut here.
      const timer = setTimeout(() => {
        if (req.complete) return;
        if (!res.headersSent) {
          const text = JSON.stringify({ error: { code: 'invalid_request', message: `the request did not arrive in full within ${seconds(requestTimeoutMs)}`, limit: requestTimeoutMs } });
          res.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', connection: 'close' }).end(text);
        }
        req.socket.destroySoon();
      }, requestTimeoutMs);
      timer.unref();
      res.once('close', () => {
        clearTimeout(timer);
        if (state) {
          state.busy = false;
          if (state.answering?.res === res) delete state.answering;
        }
      });
    },
    /**
     * Runs `fn` once the answer in progress on this connection is out (at once when there is none): bytes the
     * parser refused after a complete request must not cut that request's answer short, or its client would
     * be told it was refused when it was handled.
     */
    afterAnswer(socket: Duplex, fn: () => void): void {
      const answering = open.get(socket)?.answering;
      // A request still arriving (a body cut short, the parser's error at its end) has no answer to wait for.
      if (!answering || !answering.req.complete || answering.res.writableFinished) return fn();
      answering.res.once('close', fn);
    },
    /** The Content-Length of the last request that began on this connection, if it had one. */
    previousContentLength(socket: Duplex): string | undefined {
      return open.get(socket)?.contentLength;
    },
    /** Whether a request has begun on this connection and not ended. */
    carrying(socket: Duplex): boolean {
      return open.get(socket)?.busy === true;
    },
    stats(): { open: number; busy: number } {
      let busy = 0;
      for (const state of open.values()) if (state.busy) busy++;
      return { open: open.size, busy };
    },
  };
}

/**
 * What the parser refused, in words: the HTTP status, why, and the limit it went past. A timeout is the
 * headers' when no request had begun on the connection (`carrying` false), else the whole request's.
 */
export function parserRefusal(
  error: { code?: string | undefined; message: string; rawPacket?: Buffer | undefined },
  timeouts: { headersTimeoutMs: number; requestTimeoutMs: number; carrying: boolean; previousContentLength?: string | undefined },
): { status: number; message: string; limit?: number } {
  // An SDK configured with https:// for this http:// port opens with a TLS handshake record (0x16, then version 3.x).
  if (error.rawPacket && error.rawPacket[0] === 0x16 && error.rawPacket[1] === 0x03) {
    return { status: 400, message: 'a TLS handshake arrived: the client was given an https:// URL, and this port speaks plain HTTP; use http:// (the ingestion URL serve printed)' };
  }
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: `the request line and headers are more than ${maxHeaderSize.toLocaleString('en-US')} bytes (a URL or header too large)`, limit: maxHeaderSize };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return timeouts.carrying
        ? { status: 408, message: `the request did not arrive in full within ${seconds(timeouts.requestTimeoutMs)}`, limit: timeouts.requestTimeoutMs }
        : { status: 408, message: `the request line and headers did not arrive within ${seconds(timeouts.headersTimeoutMs)}`, limit: timeouts.headersTimeoutMs };
    // llhttp's code alone does not say which: its message does ("Duplicate Content-Length", "Content-Length
    // can't be present with Transfer-Encoding", "Invalid character in Content-Length").
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
      if (/Transfer-Encoding/i.test(error.message)) return { status: 400, message: 'Content-Length and Transfer-Encoding together: send one of them' };
      if (/Duplicate/i.test(error.message)) return { status: 400, message: 'Content-Length is sent more than once: send one Content-Length header' };
      return { status: 400, message: 'Content-Length is not a number of bytes (one number, e.g. Content-Length: 42)' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      if (/Content-Length/i.test(error.message)) return { status: 400, message: 'Content-Length and Transfer-Encoding together: send one of them' };
      return { status: 400, message: 'the chunked body is not valid HTTP/1.1 chunked encoding' };
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, message: 'the chunked body is not valid HTTP/1.1 chunked encoding' };
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
      // Bytes after a request's body that start no request are most often the end of that body: its
      // Content-Length counted characters where a non-ASCII body has more UTF-8 bytes.
      if (timeouts.previousContentLength !== undefined) {
        return {
          status: 400,
          message: `not an HTTP/1.1 request line (METHOD /path HTTP/1.1): these bytes came after the previous request's body (Content-Length: ${timeouts.previousContentLength}) on this connection; a Content-Length shorter than its body (characters counted, not UTF-8 bytes?) leaves the body's end to be read as a new request`,
        };
      }
      return { status: 400, message: 'not an HTTP/1.1 request line (METHOD /path HTTP/1.1)' };
    default:
      return { status: 400, message: `malformed HTTP request (${error.code ?? error.message})` };
  }
}

/** The method and path of a request Node could not parse, from its first line (at most 200 characters), if there is one. */
export function requestTarget(raw: Buffer | undefined): string | null {
  if (!raw) return null;
  // The packet may end inside a long URL: the method and as much of the path as there is.
  const line = /^([A-Z]{1,16}) (\/\S*)/.exec(raw.subarray(0, 8400).toString('latin1'));
  if (!line) return null;
  const target = `${line[1]} ${line[2]}`;
  return target.length > 200 ? `${target.slice(0, 200)}…` : target;
}

