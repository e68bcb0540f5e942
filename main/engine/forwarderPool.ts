/**
 * Where rounds are sent from. `InlineForwarder` sends on the engine's own thread; `WorkerForwarder` sends
 * from a worker thread, so that HTTP (undici, TLS, signing) runs on the second core while the engine's
 * thread accepts messages and records results in SQLite. Both behave the same, byte for byte.
 */
import type { Worker } from 'node:worker_threads';
import type { Dispatcher } from 'undici';
import type { Webhook } from '../contract/models.js';
import { Dispatchers, sendToWebhook, type SendResult } from './forwarder.js';
import { startEngineWorker } from './workers.js';

export interface RoundRequest {
  webhooks: Webhook[];
  body: Uint8Array;
  secret: string | null;
  timeoutMs: number;
  caFile: string | null;
}

export interface Forwarder {
  /** One POST per webhook, concurrently; results in the same order. */
  sendRound(request: RoundRequest): Promise<SendResult[]>;
  /** A destination's trust configuration changed: drop the pool built for it. */
  invalidate(caFile: string | null): void;
  close(): Promise<void>;
}

export class InlineForwarder implements Forwarder {
  private readonly dispatchers: Dispatchers;

  constructor(dispatcher?: Dispatcher) {
    this.dispatchers = new Dispatchers(dispatcher);
  }

  sendRound(r: RoundRequest): Promise<SendResult[]> {
    const dispatcher = this.dispatchers.for({ caFile: r.caFile });
    const body = Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength);
    return Promise.all(
      r.webhooks.map((webhook) =>
        sendToWebhook({ webhook, body, secret: r.secret, timeoutMs: r.timeoutMs, dispatcher, gate: this.dispatchers.gate, realNow: Date.now }),
      ),
    );
  }

  invalidate(caFile: string | null): void {
    this.dispatchers.invalidate(caFile);
  }

  close(): Promise<void> {
    return this.dispatchers.close();
  }
}

/** Messages to the worker. */
export type ToWorker =
  | { type: 'send'; jobs: { id: number; request: RoundRequest }[] }
  | { type: 'invalidate'; caFile: string | null }
  | { type: 'close' };

/** Messages from the worker. */
export type FromWorker = { type: 'results'; results: ({ id: number; results: SendResult[] } | { id: number; error: string })[] };

export class WorkerForwarder implements Forwarder {
  private started: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (r: SendResult[]) => void; reject: (e: unknown) => void }>();
  private outbox: { id: number; request: RoundRequest }[] = [];
  private flushQueued = false;
  private nextId = 1;
  private closing = false;

  /** The worker starts with the first round: a core that never forwards (e.g. `hookbench receive`) has none. */
  private get worker(): Worker {
    if (this.started) return this.started;
    const worker = startEngineWorker('forwarderWorker');
    worker.on('message', (msg: FromWorker) => {
      if (msg.type !== 'results') return;
      for (const r of msg.results) {
        const p = this.pending.get(r.id);
        this.pending.delete(r.id);
        if ('error' in r) p?.reject(new Error(r.error));
        else p?.resolve(r.results);
      }
    });
    worker.on('error', (e) => this.fail(worker, e));
    worker.on('exit', (code) => {
      if (code !== 0) this.fail(worker, new Error(`the forwarder worker exited with code ${code}`));
    });
    // Idle, the worker must not keep the process alive; with rounds pending, it does.
    worker.unref();
    this.started = worker;
    return worker;
  }

  /** The worker died: its rounds fail (the engine re-queues them) and the next round starts a new worker. */
  private fail(worker: Worker, e: Error): void {
    if (this.started !== worker) return; // an earlier worker's last words
    this.started = null;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    this.outbox = [];
  }

  sendRound(request: RoundRequest): Promise<SendResult[]> {
    if (this.closing) return Promise.reject(new Error('the forwarder is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, {
        resolve: (r) => {
          if (this.pending.size === 0) this.worker.unref();
          resolve(r);
        },
        reject: (e) => {
          if (this.pending.size === 0) this.worker.unref();
          reject(e);
        },
      });
      // Rounds started in the same turn travel in one message.
      this.outbox.push({ id, request });
      if (!this.flushQueued) {
        this.flushQueued = true;
        queueMicrotask(() => {
          this.flushQueued = false;
          const jobs = this.outbox;
          this.outbox = [];
          this.worker.postMessage({ type: 'send', jobs } satisfies ToWorker);
        });
      }
    });
  }

  invalidate(caFile: string | null): void {
    this.started?.postMessage({ type: 'invalidate', caFile } satisfies ToWorker);
  }

  async close(): Promise<void> {
    this.closing = true;
    if (!this.started) return;
    this.worker.ref();
    const closed = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ type: 'close' } satisfies ToWorker);
    await closed;
  }
}
