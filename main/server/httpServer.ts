/**
 * One HTTP server for the browser and CI faces (docs/behaviour.md §10): the ingestion API under /v1/, the typed
 * API under /api/ (POST /api/<command>, Bearer token), pushed events on the WebSocket /api/events, and the
 * UI at /. The API only answers requests addressed to this machine's loopback names (DNS-rebinding guard).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_BATCHING } from '../contract/events.js';
import { LIMITS } from '../contract/message/messageShapes.js';
import { isCommandName } from '../contract/commands.js';
import { dispatch, type CommandHandlers } from '../contract/dispatch.js';
import { overflowingNumber } from '../domain/jsonNumbers.js';
import { maskEvent } from '../domain/secrets.js';
import { firstInvalidUtf8, invalidUtf8Error } from '../domain/utf8.js';
import type { Core } from '../app/createCore.js';
import { IngestService, isIngestPath, type IngestOptions } from '../ingestion/ingest.js';
import { likelyIngestRoute } from '../ingestion/ingestPrepare.js';
import { createEventBatcher } from './eventBatcher.js';
import { createFrameEncoder } from './eventFrame.js';
import { clientAbortLog, clientIp, httpStatusOf, isClientAbort, readBody, sendJson, sendText } from './responses.js';
import { serveUi } from './uiFiles.js';

export { httpStatusOf } from './responses.js';
export { acceptsEncoding } from './uiFiles.js';

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
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  /** Requests whose client closed the connection before sending the whole body. */
  readonly clientAborts: number;
  /** Bytes of ingestion bodies being received right now. */
  readonly ingestBufferedBytes: number;
  /** Stops accepting, closes sockets, waits for the server to close. */
  close(): Promise<void>;
}

const API_BODY_LIMIT = 4 * 1024 * 1024;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { core } = options;
  const ingest = new IngestService(core.ingestion, options.ingest);
  const sockets = new Set<WebSocket>();
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
  const server = createServer((req, res) => {
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
  server.keepAliveTimeout = 5000;
  // Half-sent requests hold memory and a socket: a body has 30 s to arrive (SDK bodies are at most 500 KiB), and
  // past MAX_CONNECTIONS new connections are refused by the kernel's backlog, not accepted and held.
  server.requestTimeout = 30_000;
  server.maxConnections = MAX_CONNECTIONS;
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
      const body = await readBody(req, API_BODY_LIMIT);
      if (typeof body === 'string') return sendJson(res, 400, { ok: false, error: { code: 'request_too_large', limit: API_BODY_LIMIT, message: `request: more than ${API_BODY_LIMIT} bytes` } });
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
      return sendJson(res, result.ok ? 200 : httpStatusOf(result.error), result);
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
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
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
  const batcher = createEventBatcher({
    flushMs: options.eventFlushMs ?? EVENT_BATCHING.flushMs,
    maxPerFlush: EVENT_BATCHING.maxPerFlush,
    send(frame) {
      const text = encodeFrame(frame);
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
    },
  });
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
    async close() {
      subscription.off();
      batcher.close();
      for (const ws of sockets) ws.close(1001, 'server stopping');
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
/** Connections held open at once. */
const MAX_CONNECTIONS = 1024;

/** How long requests in flight may take to finish when the server stops. */
const CLOSE_GRACE_MS = 2000;

function portError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') return new Error(`--port: ${host}:${port} is already in use (another Hookbench? see its server.json); choose another port, or --port 0 for a free one`);
  if (e.code === 'EACCES') return new Error(`not allowed to listen on ${host}:${port}; use a port above 1024 or --port 0`);
  return e;
}
