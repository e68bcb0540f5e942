/**
 * The browser transport: commands are `POST /api/<name>` with the Bearer token, events come on the
 * WebSocket `/api/events?token=…`, which reconnects by itself with backoff. Its first socket is the one the
 * page opened before the app loaded (firstRequests.ts), with the frames that socket has received since.
 */
import { reconnectDelay } from './backoff';
import { takeFirstSocket } from './firstRequests';
import { eventsUrl, postCommand } from './httpCall';

/** The close code the server's event socket uses when the API token was rotated (main/server/httpServer.ts). */
export const TOKEN_ROTATED_CLOSE = 4001;
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

  const receive = (data: unknown) => {
    if (typeof data !== 'string') return;
    const batch = parseBatch(data);
    if (batch) batches.emit(batch);
  };

  const connect = () => {
    if (closed) return;
    const url = eventsUrl(options.baseUrl, options.token);
    const early = takeFirstSocket(url);
    if (!early) setState('connecting');
    const ws = early?.socket ?? new WebSocketImpl(url);
    socket = ws;
    const opened = () => {
      failures = 0;
      setState('open');
    };
    ws.onopen = opened;
    // The early socket's frames go out once the session listens (it subscribes right after this returns), in order.
    let held: unknown[] | null = early ? early.frames : null;
    if (early) {
      setTimeout(() => {
        const frames = held ?? [];
        held = null;
        for (const data of frames) receive(data);
      }, 0);
      if (ws.readyState === ws.OPEN) opened();
    }
    ws.onmessage = (message: MessageEvent) => {
      if (held) held.push(message.data);
      else receive(message.data);
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      if (closed) return setState('closed');
      if (state === 'revoked') return;
      // The server ended the stream because the token was rotated: reconnecting with it would only be refused.
      if (event.code === TOKEN_ROTATED_CLOSE) return setState('revoked');
      setState('closed');
      retryTimer = setTimeout(connect, reconnectDelay(failures++));
    };
  };
  connect();

  return {
    kind: 'http',
    call: async (name, input) => {
      const result = await postCommand(fetchImpl, options.baseUrl, options.token, name, input);
      // The server no longer takes this window's token (rotated, or an old link): nothing will work with it, so
      // the window says so once (revoked) instead of "Offline" and an error per screen.
      if (!result.ok && result.error.code === 'unauthorized') {
        if (retryTimer) clearTimeout(retryTimer);
        setState('revoked');
      }
      return result;
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
