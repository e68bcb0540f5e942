/**
 * The pushed events of the HTTP face (WebSocket /api/events): the subscribers, the batched frames they get, and
 * what happens to one that stops reading (frames dropped and counted, then closed with a reason). httpServer.ts
 * checks the upgrade (Host/Origin, token) and hands the socket here.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Core } from '../app/createCore.js';
import { EVENT_BATCHING, type EventFrame } from '../contract/events.js';
import { maskEvent } from '../domain/secrets.js';
import { createEventBatcher, type EventBatcher } from './eventBatcher.js';
import { createFrameEncoder } from './eventFrame.js';

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

/** How long requests in flight may take to finish when the server stops (and a close frame to get out). */
export const CLOSE_GRACE_MS = 2000;
/** How often a socket that missed events is looked at, to tell it once it has caught up. */
const CATCH_UP_MS = 100;

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

export class EventSockets {
  private readonly sockets = new Map<WebSocket, Subscriber>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  // Pushed events are batched (server/eventBatcher): a burst of deliveries becomes a few frames, never a flood.
  // An event that cannot be encoded whole never stops the stream (server/eventFrame).
  private readonly encodeFrame = createFrameEncoder();
  private readonly batcher: EventBatcher;
  /**
   * While a socket has missed events, a frame that says so goes to it as soon as it has caught up, even when no
   * new event comes to carry the count.
   */
  private catchUpTimer: NodeJS.Timeout | null = null;
  /** Subscribed to the core only while a socket listens: with no listener, the core builds no events at all. */
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly core: Core,
    flushMs: number,
    private readonly limits: { bufferedBytes: number; stalledMs: number },
  ) {
    this.batcher = createEventBatcher({ flushMs, maxPerFlush: EVENT_BATCHING.maxPerFlush, send: (frame) => this.send(frame) });
  }

  /** Takes an upgrade httpServer.ts has let through as a subscriber that connected with `token`. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, token: string): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.set(ws, { token, dropped: 0, behindSince: null, closing: false });
      if (this.sockets.size === 1) this.subscribe();
      const gone = () => {
        if (this.sockets.delete(ws) && this.sockets.size === 0) this.unsubscribeCore();
      };
      ws.on('close', gone);
      ws.on('error', gone);
    });
  }

  /** Each open event socket: whether it is behind (frames being dropped for it) and how many it missed so far. */
  subscribers(): { behind: boolean; dropped: number; closing: boolean; bufferedBytes: number }[] {
    return [...this.sockets].map(([ws, sub]) => ({ behind: sub.behindSince !== null, dropped: sub.dropped, closing: sub.closing, bufferedBytes: ws.bufferedAmount }));
  }

  /** Closes the sockets opened with a token other than `current` (after rotateToken). */
  closeStale(current: string): void {
    for (const [ws, sub] of this.sockets) if (sub.token !== current) ws.close(EVENT_SOCKET_CLOSE.tokenRotated.code, EVENT_SOCKET_CLOSE.tokenRotated.reason);
  }

  close(): void {
    this.unsubscribeCore();
    this.batcher.close();
    if (this.catchUpTimer) clearInterval(this.catchUpTimer);
    this.catchUpTimer = null;
    for (const ws of this.sockets.keys()) ws.close(1001, 'server stopping');
    this.wss.close();
  }

  private subscribe(): void {
    this.unsubscribe ??= this.core.onEvent((event) => this.batcher.push(maskEvent(event)));
  }

  private unsubscribeCore(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.batcher.flush();
  }

  private send(frame: EventFrame): void {
    const text = this.encodeFrame(frame);
    for (const [ws, sub] of this.sockets) {
      if (ws.readyState !== ws.OPEN) continue;
      if (this.behind(ws, sub)) {
        sub.dropped += frame.events.length + (frame.dropped ?? 0);
        this.catchUpTimer ??= setInterval(() => this.catchUp(), CATCH_UP_MS);
        this.catchUpTimer.unref();
        continue;
      }
      if (sub.dropped === 0) {
        ws.send(text);
        continue;
      }
      ws.send(this.encodeFrame({ ...frame, dropped: (frame.dropped ?? 0) + sub.dropped }));
      sub.dropped = 0;
    }
  }

  /** Whether the socket holds more than the limit; one behind for stalledMs is closed with the reason (and let go soon after). */
  private behind(ws: WebSocket, sub: Subscriber): boolean {
    if (ws.bufferedAmount <= this.limits.bufferedBytes) {
      sub.behindSince = null;
      return false;
    }
    const now = Date.now();
    sub.behindSince ??= now;
    if (!sub.closing && now - sub.behindSince >= this.limits.stalledMs) {
      sub.closing = true;
      ws.close(EVENT_SOCKET_CLOSE.fellBehind.code, EVENT_SOCKET_CLOSE.fellBehind.reason);
      // The close frame waits behind what the peer has not read: a peer that never reads is let go.
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    }
    return true;
  }

  /** Tells each socket that missed events and has caught up how many; stops once none is waiting. */
  private catchUp(): void {
    let waiting = false;
    for (const [ws, sub] of this.sockets) {
      if (sub.dropped === 0 || ws.readyState !== ws.OPEN) continue;
      if (this.behind(ws, sub)) {
        waiting = true;
        continue;
      }
      ws.send(this.encodeFrame({ events: [], dropped: sub.dropped }));
      sub.dropped = 0;
    }
    if (!waiting && this.catchUpTimer) {
      clearInterval(this.catchUpTimer);
      this.catchUpTimer = null;
    }
  }
}
