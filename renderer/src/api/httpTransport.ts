/**
 * The browser transport: commands are `POST /api/<name>` with the Bearer token, events come on the
 * WebSocket `/api/events?token=…`, which reconnects by itself with backoff.
 */
import type { ApiError, Result } from '../../../main/contract/result';
import { reconnectDelay } from './backoff';
import { Listeners, type ConnectionState, type EventFrame, type Transport } from './transport';

export interface HttpTransportOptions {
  /** Where the server is, e.g. `http://127.0.0.1:4400` (the page's own origin by default). */
  baseUrl: string;
  token: string;
  /** Injected in tests. */
  WebSocketImpl?: typeof WebSocket;
  fetchImpl?: typeof fetch;
}

export function createHttpTransport(options: HttpTransportOptions): Transport {
  const fetchImpl = options.fetchImpl ?? fetch.bind(globalThis);
  const WebSocketImpl = options.WebSocketImpl ?? WebSocket;
  const batches = new Listeners<EventFrame>();
  const states = new Listeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | null = null;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    states.emit(next);
  };

  const eventsUrl = () => {
    const url = new URL('api/events', ensureSlash(options.baseUrl));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', options.token);
    return url.toString();
  };

  const connect = () => {
    if (closed) return;
    setState('connecting');
    const ws = new WebSocketImpl(eventsUrl());
    socket = ws;
    ws.onopen = () => {
      failures = 0;
      setState('open');
    };
    ws.onmessage = (message: MessageEvent) => {
      if (typeof message.data !== 'string') return;
      const batch = parseBatch(message.data);
      if (batch) batches.emit(batch);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      if (closed) return setState('closed');
      setState('closed');
      retryTimer = setTimeout(connect, reconnectDelay(failures++));
    };
  };
  connect();

  return {
    kind: 'http',
    async call(name, input) {
      let response: Response;
      try {
        response = await fetchImpl(new URL(`api/${encodeURIComponent(name)}`, ensureSlash(options.baseUrl)), {
          method: 'POST',
          headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        });
      } catch (e) {
        return unreachable(`cannot reach Hookbench at ${options.baseUrl} (${e instanceof Error ? e.message : String(e)}); is hookbench serve still running?`);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        return unreachable(`${name}: the server answered ${response.status} without a JSON body`);
      }
      if (isResult(body)) return body;
      return unreachable(`${name}: the server answered ${response.status} with an unexpected body`);
    },
    subscribe: (listener) => batches.add(listener),
    connectionState: () => state,
    onConnectionChange: (listener) => states.add(listener),
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      socket?.close();
      socket = null;
      setState('closed');
    },
  };
}

function ensureSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function unreachable(message: string): Result<unknown> {
  const error: ApiError = { code: 'internal', message };
  return { ok: false, error };
}

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  return value.ok === false && 'error' in value && typeof value.error === 'object' && value.error !== null;
}

export function parseBatch(text: string): EventFrame | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || !('events' in parsed) || !Array.isArray(parsed.events)) return null;
    const dropped = 'dropped' in parsed && typeof parsed.dropped === 'number' ? parsed.dropped : undefined;
    return dropped ? { events: parsed.events as EventFrame['events'], dropped } : { events: parsed.events as EventFrame['events'] };
  } catch {
    return null;
  }
}
