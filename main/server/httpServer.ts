/**
 * One HTTP server for the browser and CI faces (docs/behaviour.md §10): the ingestion API under /v1/, the typed
 * API under /api/ (POST /api/<command>, Bearer token), pushed events on the WebSocket /api/events, and the
 * UI at /. The API only answers requests addressed to this machine's loopback names (DNS-rebinding guard).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_BATCHING } from '../contract/events.js';
import { LIMITS } from '../contract/message/messageShapes.js';
import { isCommandName } from '../contract/commands.js';
import { dispatch, type CommandHandlers } from '../contract/dispatch.js';
import { overflowingNumber } from '../domain/jsonNumbers.js';
import { maskEvent } from '../domain/secrets.js';
import { firstInvalidUtf8, invalidUtf8Error } from '../domain/utf8.js';
import { IMPORT_LIMITS } from '../contract/importMessages.js';
import type { Core } from '../app/createCore.js';
import { IngestService, isIngestPath, type IngestOptions } from '../ingestion/ingest.js';
import { likelyIngestRoute } from '../ingestion/ingestPrepare.js';
import { connectionTable, CONNECTION_LIMITS, endWithJson, parserRefusal, requestTarget } from './connections.js';
import { createEventBatcher } from './eventBatcher.js';
import { createFrameEncoder } from './eventFrame.js';
import { clientAbortLog, clientIp, httpStatusOf, isClientAbort, readBody, sendJson, sendJsonEncoded, sendText } from './responses.js';
import { serveUi } from './uiFiles.js';

export { httpStatusOf } from './responses.js';
export { acceptsEncoding } from './responses.js';

export interface ServerOptions {
  core: Core;
  host: string;
  port: number;
  /** The API token (Bearer, or ?token= on the event socket), read at each request: it can be rotated. */
  token: () => string;
  /** The typed API's handlers (app/commandHandlers.ts), run through the contract's dispatch. */
  handlers: CommandHandlers;
  /** The built renderer, served at /; a placeholder page when absent. */
  uiDir?: string | null;
  /** How often pushed events are flushed to sockets (ms). */
  eventFlushMs?: number;
  /** Where ingestion requests are parsed (ingestion/ingest.ts). */
  ingest?: IngestOptions;
  /** Bytes of ingestion bodies held in memory at once, across requests (INGEST_BUFFER_BYTES); tests lower it. */
  ingestBufferBytes?: number;
  /** The connection cap and the time a request's headers and the whole request may take (CONNECTION_LIMITS); tests lower them. */
  connectionLimits?: Partial<{ max: number; headersTimeoutMs: number; requestTimeoutMs: number }>;
  /** How far an event subscriber may fall behind (EVENT_SOCKET_LIMITS); tests lower it. */
  eventSocketLimits?: { bufferedBytes: number; stalledMs: number };
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Requests whose client closed the connection before sending the whole body. */
  readonly clientAborts: number;
  /** Bytes of ingestion bodies being received right now. */
  readonly ingestBufferedBytes: number;
  /** Connections open now, and how many of them carry a request or an event socket. */
  connectionStats(): { open: number; busy: number };
  /** Closes the event sockets opened with a token that is no longer the API token (after rotateToken). */
  closeStaleEventSockets(): void;
  /** Each open event socket: whether it is behind (frames being dropped for it) and how many it missed so far. */
  eventSubscribers(): { behind: boolean; dropped: number; closing: boolean; bufferedBytes: number }[];
  /** Stops accepting, closes sockets, waits for the server to close. */
  close(): Promise<void>;
}

/**
 * An event subscriber that stops reading (a suspended `hookbench tail`, a frozen tab) must not make serve's
 * memory grow: past this many bytes waiting in its socket, frames for it are dropped and counted (its next
 * frame says `dropped`, so it reloads instead of trusting its state), and one that stays behind for
 * STALLED_SOCKET_MS is closed with a reason.
 */
export const EVENT_SOCKET_LIMITS = { bufferedBytes: 4 * 1024 * 1024, stalledMs: 30_000 } as const;

/** Close codes of the event socket, with their reasons (the 4000s are the application's). */
export const EVENT_SOCKET_CLOSE = {
  tokenRotated: { code: 4001, reason: 'the API token was rotated: connect again with the new one' },
  fellBehind: { code: 4008, reason: 'events fell behind: this subscriber read nothing for 30 s' },
} as const;

interface Subscriber {
  /** The token it connected with: a rotation ends it. */
  token: string;
  /** Events left out for it since its last frame. */
  dropped: number;
  /** Since when its socket has held more than EVENT_SOCKET_LIMITS.bufferedBytes, or null. */
  behindSince: number | null;
  /** Closed for falling behind, waiting for the close to go out. */
  closing: boolean;
}

const API_BODY_LIMIT = 4 * 1024 * 1024;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { core } = options;
  const ingest = new IngestService(core.ingestion, options.ingest);
  const sockets = new Map<WebSocket, Subscriber>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  /** The Host values this server answers to, known once it listens (port 0 picks the port). */
  let allowedHosts = new Set<string>();
  const hostAllowed = (req: IncomingMessage) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host)) return false;
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    try {
      return allowedHosts.has(new URL(origin).host.toLowerCase());
    } catch {
      return false;
    }
  };
  const tokenMatches = (given: string | null | undefined) => {
    if (!given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(options.token());
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const clientAborts = clientAbortLog();
  const limits = { ...CONNECTION_LIMITS, ...options.connectionLimits };
  // Timeouts are checked every second, not Node's default 30 s, so a stalled body is cut at its deadline.
  const server = createServer({ connectionsCheckingInterval: 1000, headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs }, (req, res) => {
    connections.busy(req, res);
    handle(req, res).catch((e: unknown) => {
      if (isClientAbort(e)) {
        clientAborts.add();
        res.destroy();
        return;
      }
      console.error('hookbench: request failed', e);
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'internal error; see the server log' } });
      else res.destroy();
    });
  });
  // What Node's parser refuses (bad framing, a header or URL past its limit, a request too slow) gets the JSON
  // error every other refusal gets, and a line in the ingest log, instead of Node's bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = parserRefusal(error);
    const route = requestTarget(error.rawPacket);
    core.ingestion.logRefusal({
      receivedAt: core.clock.now(),
      sourceId: null,
      route: route ?? '(unreadable request)',
      clientIp: (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? null,
      httpStatus: refusal.status,
      code: 'invalid_request',
      message: refusal.message,
      field: null,
      index: null,
      limit: refusal.limit ?? null,
      bodyBytes: null,
    });
    endWithJson(socket, refusal.status, { error: { code: 'invalid_request', message: refusal.message, ...(refusal.limit ? { limit: refusal.limit } : {}) } }, { 'access-control-allow-origin': '*' });
  });
  server.keepAliveTimeout = 5000;
  // Half-sent requests hold memory and a socket: headers have 10 s to arrive and a whole request 30 s (SDK bodies
  // are at most 500 KiB). At the cap, a new connection takes the place of the oldest one that is not carrying a
  // request (slow headers, or idle): slow clients cannot hold every slot, so the UI and the API stay reachable.
  const connections = connectionTable(limits.max, limits.requestTimeoutMs);
  server.on('connection', (socket) => connections.opened(socket));
  const ingestBuffer = { bytes: 0, limit: options.ingestBufferBytes ?? INGEST_BUFFER_BYTES };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;

    if (isIngestPath(path)) {
      const ip = clientIp(req);
      const chunks: Buffer[] = [];
      const body = await readBody(req, LIMITS.requestBytes, chunks, ingestBuffer);
      if (body === 'busy') {
        const error = { code: 'unavailable' as const, message: `Hookbench is receiving more than ${ingestBuffer.limit.toLocaleString('en-US')} bytes of request bodies at once; retry in a second` };
        return sendJson(res, 503, { error }, { connection: 'close', 'retry-after': '1', 'access-control-allow-origin': '*' });
      }
      if (body === 'too_large') {
        const error = { code: 'request_too_large' as const, limit: LIMITS.requestBytes, message: `request: more than ${LIMITS.requestBytes} bytes` };
        core.ingestion.logRefusal({ receivedAt: core.clock.now(), sourceId: null, route: path, clientIp: ip, httpStatus: 400, code: error.code, message: error.message, field: null, index: null, limit: error.limit, bodyBytes: null });
        return sendJson(res, 400, { error }, { connection: 'close', 'access-control-allow-origin': '*' });
      }
      const answer = await ingest.handle({ method: req.method ?? 'GET', path, headers: req.headers, body, bodyAgain: () => Buffer.concat(chunks), clientIp: ip });
      return sendJson(res, answer.status, answer.body, answer.headers);
    }

    if (path.startsWith('/api/')) {
      if (!hostAllowed(req)) return sendJson(res, 403, { ok: false, error: { code: 'unauthorized', message: 'the API answers only requests to this machine (Host/Origin check)' } });
      const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
      if (!tokenMatches(bearer)) {
        return sendJson(res, 401, { ok: false, error: { code: 'unauthorized', message: 'missing or wrong API token: send "Authorization: Bearer <token>" (see server.json)' } });
      }
      const name = path.slice('/api/'.length);
      if (!isCommandName(name)) return sendJson(res, 404, { ok: false, error: { code: 'not_found', message: `unknown command "${name.slice(0, 100)}"` } });
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: `POST /api/${name} with a JSON object` } }, { allow: 'POST' });
      // An import carries a whole export's text: its limit is what one export writes (IMPORT_LIMITS).
      const limit = name === 'importMessages' ? IMPORT_LIMITS.requestBytes : API_BODY_LIMIT;
      const body = await readBody(req, limit);
      if (typeof body === 'string') return sendJson(res, 400, { ok: false, error: { code: 'request_too_large', limit, message: `request: more than ${limit} bytes` } });
      let input: unknown = {};
      if (body.length > 0) {
        const badByte = firstInvalidUtf8(body);
        if (badByte >= 0) return sendJson(res, 400, { ok: false, error: { code: 'invalid_json', ...invalidUtf8Error(body, badByte) } });
        const text = body.toString('utf8');
        try {
          input = JSON.parse(text);
        } catch (e) {
          return sendJson(res, 400, { ok: false, error: { code: 'invalid_json', message: `body: invalid JSON (${(e as Error).message})` } });
        }
        const overflow = overflowingNumber(text, input);
        if (overflow) return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', ...overflow } });
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'body: must be one JSON object' } });
      }
      const result = await dispatch(options.handlers, name, input);
      return sendJsonEncoded(req, res, result.ok ? 200 : httpStatusOf(result.error), result);
    }

    if (path === '/healthz') return sendJson(res, 200, { ok: true });
    // Only GETs serve the UI: an SDK posting to a path without /v1 must hear that, not get a 200 page.
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuseNotARoute(req, res, path);
    if (!hostAllowed(req)) return sendText(res, 403, 'Forbidden: Hookbench answers only requests to this machine.');
    return serveUi(req, res, path, options.uiDir ?? null);
  }

  /** A 404 in JSON naming the route meant; a POST that looks like an SDK's is kept in the ingest log. */
  function refuseNotARoute(req: IncomingMessage, res: ServerResponse, path: string): void {
    req.resume();
    const method = req.method ?? 'POST';
    const meant = likelyIngestRoute(path);
    const where = `${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`;
    const message = meant
      ? `${where}: not a route of Hookbench; did you mean ${meant}? Ingestion is under /v1/, the typed API under /api/<command>.`
      : `${where}: not a route of Hookbench. Ingestion is under /v1/ (e.g. /v1/batch), the typed API under /api/<command>; only GET serves the UI.`;
    if (meant && method === 'POST') {
      core.ingestion.logRefusal({ receivedAt: core.clock.now(), sourceId: null, route: path.slice(0, 200), clientIp: clientIp(req), httpStatus: 404, code: 'not_found', message, field: null, index: null, bodyBytes: null });
    }
    sendJson(res, 404, { error: { code: 'not_found', message } }, { 'access-control-allow-origin': '*' });
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // As over HTTP (docs/behaviour.md §10): 403 for a request not addressed to this machine, then 401 for the token.
    const refusal =
      url.pathname !== '/api/events' ? '404 Not Found' : !hostAllowed(req) ? '403 Forbidden' : !tokenMatches(url.searchParams.get('token')) ? '401 Unauthorized' : null;
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const token = url.searchParams.get('token') ?? '';
    connections.upgraded(socket);
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.set(ws, { token, dropped: 0, behindSince: null, closing: false });
      if (sockets.size === 1) subscription.on();
      const gone = () => {
        if (sockets.delete(ws) && sockets.size === 0) subscription.off();
      };
      ws.on('close', gone);
      ws.on('error', gone);
    });
  });

  // Pushed events are batched (server/eventBatcher): a burst of deliveries becomes a few frames, never a flood.
  // An event that cannot be encoded whole never stops the stream (server/eventFrame).
  const encodeFrame = createFrameEncoder();
  const socketLimits = options.eventSocketLimits ?? EVENT_SOCKET_LIMITS;
  const batcher = createEventBatcher({
    flushMs: options.eventFlushMs ?? EVENT_BATCHING.flushMs,
    maxPerFlush: EVENT_BATCHING.maxPerFlush,
    send(frame) {
      const text = encodeFrame(frame);
      for (const [ws, sub] of sockets) {
        if (ws.readyState !== ws.OPEN) continue;
        if (behind(ws, sub)) {
          sub.dropped += frame.events.length + (frame.dropped ?? 0);
          catchUp.start();
          continue;
        }
        if (sub.dropped === 0) {
          ws.send(text);
          continue;
        }
        ws.send(encodeFrame({ ...frame, dropped: (frame.dropped ?? 0) + sub.dropped }));
        sub.dropped = 0;
      }
    },
  });
  /** Whether the socket holds more than the limit; one behind for stalledMs is closed with the reason (and let go soon after). */
  const behind = (ws: WebSocket, sub: Subscriber): boolean => {
    if (ws.bufferedAmount <= socketLimits.bufferedBytes) {
      sub.behindSince = null;
      return false;
    }
    const now = Date.now();
    sub.behindSince ??= now;
    if (!sub.closing && now - sub.behindSince >= socketLimits.stalledMs) {
      sub.closing = true;
      ws.close(EVENT_SOCKET_CLOSE.fellBehind.code, EVENT_SOCKET_CLOSE.fellBehind.reason);
      // The close frame waits behind what the peer has not read: a peer that never reads is let go.
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    }
    return true;
  };
  /**
   * While a socket has missed events, a frame that says so goes to it as soon as it has caught up, even when no
   * new event comes to carry the count.
   */
  const catchUp = {
    timer: null as NodeJS.Timeout | null,
    start() {
      this.timer ??= setInterval(() => this.tick(), CATCH_UP_MS);
      this.timer.unref();
    },
    tick() {
      let waiting = false;
      for (const [ws, sub] of sockets) {
        if (sub.dropped === 0 || ws.readyState !== ws.OPEN) continue;
        if (behind(ws, sub)) {
          waiting = true;
          continue;
        }
        ws.send(encodeFrame({ events: [], dropped: sub.dropped }));
        sub.dropped = 0;
      }
      if (!waiting && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    },
    stop() {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
    },
  };
  // Subscribed only while a socket listens: with no listener, the core builds no events at all.
  const subscription = {
    unsubscribe: null as (() => void) | null,
    on() {
      this.unsubscribe ??= core.onEvent((event) => batcher.push(maskEvent(event)));
    },
    off() {
      this.unsubscribe?.();
      this.unsubscribe = null;
      batcher.flush();
    },
  };

  server.listen(options.port, options.host);
  // once(server, 'listening') itself rejects with the raw error when 'error' comes first: translate that one.
  await once(server, 'listening').catch((e: unknown) => {
    throw portError(e as NodeJS.ErrnoException, options.host, options.port);
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${options.host}:${port}`].map((h) => h.toLowerCase()));
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    server,
    get clientAborts() {
      return clientAborts.count;
    },
    get ingestBufferedBytes() {
      return ingestBuffer.bytes;
    },
    connectionStats: () => connections.stats(),
    eventSubscribers() {
      return [...sockets].map(([ws, sub]) => ({ behind: sub.behindSince !== null, dropped: sub.dropped, closing: sub.closing, bufferedBytes: ws.bufferedAmount }));
    },
    closeStaleEventSockets() {
      const current = options.token();
      for (const [ws, sub] of sockets) if (sub.token !== current) ws.close(EVENT_SOCKET_CLOSE.tokenRotated.code, EVENT_SOCKET_CLOSE.tokenRotated.reason);
    },
    async close() {
      subscription.off();
      batcher.close();
      catchUp.stop();
      for (const ws of sockets.keys()) ws.close(1001, 'server stopping');
      wss.close();
      const closed = once(server, 'close');
      server.close();
      server.closeIdleConnections();
      // A browser keeps pre-opened connections that never carried a request: Node does not count them as
      // idle, and server.close() would wait for the browser to drop them (minutes). Requests in flight get
      // a moment to finish; then every connection is closed.
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await closed;
      clearTimeout(force);
      await ingest.close();
    },
  };
}

/** Ingestion bodies held in memory at once, across all requests; past it a request gets 503 with Retry-After. */
const INGEST_BUFFER_BYTES = 64 * 1024 * 1024;
/** How long requests in flight may take to finish when the server stops (and a close frame to get out). */
const CLOSE_GRACE_MS = 2000;
/** How often a socket that missed events is looked at, to tell it once it has caught up. */
const CATCH_UP_MS = 100;

function portError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') return new Error(`--port: ${host}:${port} is already in use (another Hookbench? see its server.json); choose another port, or --port 0 for a free one`);
  if (e.code === 'EACCES') return new Error(`not allowed to listen on ${host}:${port}; use a port above 1024 or --port 0`);
  return e;
}
