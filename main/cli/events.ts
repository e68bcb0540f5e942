/**
 * A running serve's pushed events, followed from the CLI (`tail`, `send` through a serve): the WebSocket
 * `/api/events?token=…`, batches of `{events, dropped?}`. When the socket drops (the serve stopped or
 * restarted), the serve is looked up again through `<data>/server.json` (its port and token may have changed)
 * and the stream reconnects, until stopped.
 */
import type { EventFrame } from '../contract/events.js';

export type { EventFrame };
import { findLiveServe } from './remote.js';
import type { ServerInfo } from './commands/serve.js';

export type StreamStatus =
  /** `again`: a reconnection (events sent while disconnected were missed). */
  | { kind: 'connected'; info: ServerInfo; again: boolean }
  | { kind: 'lost'; info: ServerInfo; reason: string }
  /** Cannot connect yet (no serve runs, or it does not answer); tries again. Said once per outage. */
  | { kind: 'waiting'; reason: string };

export interface EventStreamOptions {
  /** The data dir whose server.json names the serve after a drop. */
  dataDir: string;
  /** The serve to connect to first. */
  info: ServerInfo;
  /** Frames are handed over one at a time: the next waits until the promise of the last has settled. */
  onFrame(frame: EventFrame): void | Promise<void>;
  onStatus?(status: StreamStatus): void;
  /** Waits between reconnection tries: from min, doubling up to max (ms). */
  retryMs?: { min: number; max: number };
}

export class EventStream {
  /** Resolves true once connected for the first time, false if stopped before. */
  readonly connected: Promise<boolean>;
  /** Settles once stopped and every frame received has been handled (rejects if a handler threw). */
  readonly done: Promise<void>;
  private stopped = false;
  private readonly stopController = new AbortController();
  private resolveConnected: (connected: boolean) => void = () => undefined;
  private frames: Promise<void> = Promise.resolve();

  constructor(private readonly options: EventStreamOptions) {
    this.connected = new Promise((resolve) => (this.resolveConnected = resolve));
    this.done = this.run().then(() => this.frames);
  }

  /** Closes the socket and stops reconnecting. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopController.abort();
    this.resolveConnected(false);
  }

  private async run(): Promise<void> {
    const { default: WebSocket } = await import('ws'); // loaded only by the commands that follow a serve
    const { min, max } = this.options.retryMs ?? { min: 200, max: 2000 };
    let info: ServerInfo | null = this.options.info;
    let delay = min;
    let everConnected = false;
    let waitingSaid = false;
    while (!this.stopped) {
      info ??= findLiveServe(this.options.dataDir)?.info ?? null;
      if (info) {
        const current = info;
        const outcome = await new Promise<{ opened: boolean; reason: string }>((resolve) => {
          const url = `${current.url.replace(/^http/, 'ws')}/api/events?token=${encodeURIComponent(current.token)}`;
          const ws = new WebSocket(url, { handshakeTimeout: 5000, perMessageDeflate: false });
          let opened = false;
          let reason = 'closed';
          const onStop = () => ws.terminate();
          this.stopController.signal.addEventListener('abort', onStop, { once: true });
          ws.on('open', () => {
            opened = true;
            this.options.onStatus?.({ kind: 'connected', info: current, again: everConnected });
            everConnected = true;
            this.resolveConnected(true);
          });
          ws.on('message', (data: Buffer) => {
            let frame: EventFrame;
            try {
              frame = JSON.parse(data.toString('utf8')) as EventFrame;
            } catch {
              return; // not a frame of ours
            }
            this.frames = this.frames.then(() => this.options.onFrame(frame));
          });
          ws.on('error', (e: Error) => (reason = e.message));
          ws.on('close', (code: number, why: Buffer) => {
            this.stopController.signal.removeEventListener('abort', onStop);
            if (why.length) reason = why.toString('utf8');
            else if (code !== 1006 && reason === 'closed') reason = `closed (${code})`;
            resolve({ opened, reason });
          });
        });
        if (this.stopped) break;
        if (outcome.opened) {
          this.options.onStatus?.({ kind: 'lost', info: current, reason: outcome.reason });
          delay = min;
          waitingSaid = false;
        } else if (!waitingSaid) {
          this.options.onStatus?.({ kind: 'waiting', reason: `cannot connect to ${current.url} (${outcome.reason})` });
          waitingSaid = true;
        }
        info = null; // found again through server.json: a restarted serve has a new port and token
      } else if (!waitingSaid) {
        this.options.onStatus?.({ kind: 'waiting', reason: `no hookbench serve runs on ${this.options.dataDir}` });
        waitingSaid = true;
      }
      await this.pause(delay);
      delay = Math.min(max, delay * 2);
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      const signal = this.stopController.signal;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** Resolves when the signal aborts (Ctrl-C); never without a signal. */
export function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise<void>(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
