/**
 * One HTTP server for the browser and CI faces (docs/behaviour.md §10): the ingestion API under /v1/, the typed
 * API under /api/ (POST /api/<command>, Bearer token: apiRoute.ts), pushed events on the WebSocket /api/events
 * (eventSockets.ts), and the UI at /. The API only answers requests addressed to this machine's loopback names
 * (DNS-rebinding guard).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { EVENT_BATCHING } from '../contract/events.js';
import { LIMITS } from '../contract/message/messageShapes.js';
import type { CommandHandlers } from '../contract/dispatch.js';
import type { Core } from '../app/createCore.js';
import { IngestService, isIngestPath, type IngestOptions } from '../ingestion/ingest.js';
import { likelyIngestRoute } from '../ingestion/ingestPrepare.js';
import { writeKeyOf } from '../ingestion/ingestBody.js';
import { apiAccess, handleApi, type ApiAccess } from './apiRoute.js';
import { clientLeft, connectionTable, CONNECTION_LIMITS, endWithJson, parserRefusal, requestTarget } from '../platform/connections.js';
import { CLOSE_GRACE_MS, EVENT_SOCKET_LIMITS, EventSockets } from './eventSockets.js';
import { clientAbortLog, clientIp, isClientAbort, readBody, sendJson, sendText, tooLargeError } from './responses.js';
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

/** Ingestion bodies held in memory at once, across all requests; past it a request gets 503 with Retry-After. */
const INGEST_BUFFER_BYTES = 64 * 1024 * 1024;

/** What a request's routes need of the server, built once by startServer. */
interface Routes {
  core: Core;
  ingest: IngestService;
  ingestBuffer: { bytes: number; limit: number };
  access: ApiAccess;
  handlers: CommandHandlers;
  uiDir: string | null;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { core } = options;
  const access = apiAccess(options.token);
  const routes: Routes = {
    core,
    ingest: new IngestService(core.ingestion, options.ingest),
    ingestBuffer: { bytes: 0, limit: options.ingestBufferBytes ?? INGEST_BUFFER_BYTES },
    access,
    handlers: options.handlers,
    uiDir: options.uiDir ?? null,
  };
  const events = new EventSockets(core, options.eventFlushMs ?? EVENT_BATCHING.flushMs, options.eventSocketLimits ?? EVENT_SOCKET_LIMITS);

  const clientAborts = clientAbortLog();
  const limits = { ...CONNECTION_LIMITS, ...options.connectionLimits };
  // Timeouts are checked every second, not Node's default 30 s, so a stalled body is cut at its deadline.
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    connections.busy(req, res);
    handle(req, res, routes).catch((e: unknown) => {
      if (isClientAbort(e)) {
        clientAborts.add();
        res.destroy();
        return;
      }
      console.error('hookbench: request failed', e);
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: 'internal error; see the server log' } });
      else res.destroy();
    });
  };
  const server = createServer({ connectionsCheckingInterval: 1000, headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs }, onRequest);
  // Expect: 100-continue. An ingestion request whose Content-Length is already past the request limit gets its
  // refusal instead of a 100 Continue (its route sees the length and answers without reading): the client is
  // spared the upload. Every other request is told to go on.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (!(isIngestPath(routePath(req.url ?? '/')) && declared > LIMITS.requestBytes)) res.writeContinue();
    onRequest(req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => refuseExpectation(req, res, core));
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) =>
    refuseUnparsed(core, error, socket, { headersTimeoutMs: limits.headersTimeoutMs, requestTimeoutMs: limits.requestTimeoutMs, carrying: connections.carrying(socket), previousContentLength: connections.previousContentLength(socket) }, (fn) =>
      // A timeout has no answer in progress to wait for; bytes refused after a complete request do.
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? fn() : connections.afterAnswer(socket, fn),
    ),
  );
  server.keepAliveTimeout = 5000;
  // Half-sent requests hold memory and a socket: headers have 10 s to arrive and a whole request 30 s (SDK bodies
  // are at most 500 KiB). At the cap, a new connection takes the place of the oldest one that is not carrying a
  // request (slow headers, or idle): slow clients cannot hold every slot, so the UI and the API stay reachable.
  const connections = connectionTable(limits.max, limits.requestTimeoutMs);
  server.on('connection', (socket) => connections.opened(socket));

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // As over HTTP (docs/behaviour.md §10): 403 for a request not addressed to this machine, then 401 for the token.
    const refusal =
      url.pathname !== '/api/events' ? '404 Not Found' : !access.hostAllowed(req) ? '403 Forbidden' : !access.tokenMatches(url.searchParams.get('token')) ? '401 Unauthorized' : null;
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    connections.upgraded(socket);
    events.accept(req, socket, head, url.searchParams.get('token') ?? '');
  });

  server.listen(options.port, options.host);
  // once(server, 'listening') itself rejects with the raw error when 'error' comes first: translate that one.
  await once(server, 'listening').catch((e: unknown) => {
    throw portError(e as NodeJS.ErrnoException, options.host, options.port);
  });
  const port = (server.address() as AddressInfo).port;
  access.listening(options.host, port);
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    server,
    get clientAborts() {
      return clientAborts.count;
    },
    get ingestBufferedBytes() {
      return routes.ingestBuffer.bytes;
    },
    connectionStats: () => connections.stats(),
    eventSubscribers: () => events.subscribers(),
    closeStaleEventSockets: () => events.closeStale(options.token()),
    async close() {
      events.close();
      await closeServer(server);
      await routes.ingest.close();
    },
  };
}

/**
 * The path a request names, for routing: a run of leading slashes counts as one (an SDK whose host is configured
 * with a trailing slash sends `//v1/batch`, which analytics servers take; `new URL` alone would read `//v1` as a
 * host and route `/batch`).
 */
export function routePath(target: string): string {
  return new URL(target.replace(/^\/{2,}/, '/'), 'http://localhost').pathname;
}

async function handle(req: IncomingMessage, res: ServerResponse, routes: Routes): Promise<void> {
  const path = routePath(req.url ?? '/');
  if (isIngestPath(path)) return receiveIngest(req, res, path, routes);
  if (path.startsWith('/api/')) return handleApi(req, res, path, routes.access, routes.handlers);
  if (path === '/healthz') return sendJson(res, 200, { ok: true });
  // Only GETs serve the UI: an SDK posting to a path without /v1 must hear that, not get a 200 page.
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuseNotARoute(req, res, path, routes.core);
  if (!routes.access.hostAllowed(req)) return sendText(res, 403, 'Forbidden: Hookbench answers only requests to this machine.');
  return serveUi(req, res, path, routes.uiDir);
}

/** A /v1 request: its body read within the shared buffer's bound, then handed to ingestion. */
async function receiveIngest(req: IncomingMessage, res: ServerResponse, path: string, { core, ingest, ingestBuffer }: Routes): Promise<void> {
  const ip = clientIp(req);
  const chunks: Buffer[] = [];
  const body = await readBody(req, LIMITS.requestBytes, chunks, ingestBuffer, res);
  if (body === 'busy') {
    const error = { code: 'unavailable' as const, message: `Hookbench is receiving more than ${ingestBuffer.limit.toLocaleString('en-US')} bytes of request bodies at once; retry in a second` };
    return sendJson(res, 503, { error }, { connection: 'close', 'retry-after': '1', 'access-control-allow-origin': '*' });
  }
  if (body === 'too_large') {
    const error = tooLargeError(req, LIMITS.requestBytes);
    core.ingestion.logRefusal({ receivedAt: core.clock.now(), sourceId: headerSource(req, core), route: path, clientIp: ip, httpStatus: 400, code: error.code, message: error.message, field: null, index: null, limit: error.limit, bodyBytes: error.value ?? null });
    return sendJson(res, 400, { error }, { connection: 'close', 'access-control-allow-origin': '*' });
  }
  const answer = await ingest.handle({ method: req.method ?? 'GET', path, headers: req.headers, body, bodyAgain: () => Buffer.concat(chunks), clientIp: ip });
  return sendJson(res, answer.status, answer.body, answer.headers);
}

/** The source whose write key a request's Basic auth names, when it names one: the refusal is that source's. */
function headerSource(req: IncomingMessage, core: Core): string | null {
  const authorization = req.headers.authorization;
  const key = authorization ? writeKeyOf(authorization, null) : null;
  return key ? (core.ingestion.sourceByWriteKey(key)?.id ?? null) : null;
}

/** A 404 in JSON naming the route meant; a POST that looks like an SDK's is kept in the ingest log. */
function refuseNotARoute(req: IncomingMessage, res: ServerResponse, path: string, core: Core): void {
  req.resume();
  const method = req.method ?? 'POST';
  const meant = likelyIngestRoute(path);
  // Named as sent (without its query), not as routed: the mistake is in what the client sent.
  const sent = (req.url ?? path).split('?')[0]!;
  const where = `${method} ${sent.length > 200 ? `${sent.slice(0, 200)}…` : sent}`;
  const message = meant
    ? `${where}: not a route of Hookbench; did you mean ${meant}? Ingestion is under /v1/, the typed API under /api/<command>.`
    : `${where}: not a route of Hookbench. Ingestion is under /v1/ (e.g. /v1/batch), the typed API under /api/<command>; only GET serves the UI.`;
  if (meant && method === 'POST') {
    core.ingestion.logRefusal({ receivedAt: core.clock.now(), sourceId: headerSource(req, core), route: sent.slice(0, 200), clientIp: clientIp(req), httpStatus: 404, code: 'not_found', message, field: null, index: null, bodyBytes: null });
  }
  sendJson(res, 404, { error: { code: 'not_found', message } }, { 'access-control-allow-origin': '*' });
}

/**
 * An Expect other than 100-continue: 417 with the JSON error of every other refusal and a line in the ingest log
 * (Node's own answer is a bare 417 that no log sees).
 */
function refuseExpectation(req: IncomingMessage, res: ServerResponse, core: Core): void {
  req.resume();
  const expect = String(req.headers.expect ?? '');
  const message = `Expect: ${JSON.stringify(expect.length > 100 ? `${expect.slice(0, 100)}…` : expect)} is not an expectation Hookbench meets (only 100-continue); send the request without it`;
  const sent = (req.url ?? '/').split('?')[0]!;
  const route = `${req.method ?? 'POST'} ${sent}`;
  core.ingestion.logRefusal({ receivedAt: core.clock.now(), sourceId: headerSource(req, core), route: route.length > 200 ? `${route.slice(0, 200)}…` : route, clientIp: clientIp(req), httpStatus: 417, code: 'invalid_request', message, field: null, index: null, bodyBytes: null });
  sendJson(res, 417, { error: { code: 'invalid_request', message } }, { connection: 'close', 'access-control-allow-origin': '*' });
}

/**
 * What Node's parser refuses (bad framing, a header or URL past its limit, a request too slow) gets the JSON
 * error every other refusal gets, and a line in the ingest log, instead of Node's bare status line.
 */
function refuseUnparsed(core: Core, error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex, timeouts: Parameters<typeof parserRefusal>[1], afterAnswer: (fn: () => void) => void): void {
  // A connection that sent nothing asked nothing (a browser opens one ahead of the requests it may make): closed
  // at the headers' deadline, it is no refusal to log.
  const silent = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket as Duplex & { bytesRead?: number }).bytesRead === 0;
  if (clientLeft(error, socket) || silent) {
    socket.destroy();
    return;
  }
  const refusal = parserRefusal(error, timeouts);
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
  afterAnswer(() => endWithJson(socket, refusal.status, { error: { code: 'invalid_request', message: refusal.message, ...(refusal.limit ? { limit: refusal.limit } : {}) } }, { 'access-control-allow-origin': '*' }));
}

/** Stops accepting and waits for the server to close. */
async function closeServer(server: Server): Promise<void> {
  const closed = once(server, 'close');
  server.close();
  server.closeIdleConnections();
  // A browser keeps pre-opened connections that never carried a request: Node does not count them as
  // idle, and server.close() would wait for the browser to drop them (minutes). Requests in flight get
  // a moment to finish; then every connection is closed.
  const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
  await closed;
  clearTimeout(force);
}

function portError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  if (e.code === 'EADDRINUSE') return new Error(`--port: ${host}:${port} is already in use (another Hookbench? see its server.json); choose another port, or --port 0 for a free one`);
  if (e.code === 'EACCES') return new Error(`not allowed to listen on ${host}:${port}; use a port above 1024 or --port 0`);
  return e;
}
