/**
 * Where rounds are sent from. `InlineForwarder` sends on the engine's own thread; `WorkerForwarder` sends
 * from a worker thread, so that HTTP (undici, TLS, signing) runs on the second core while the engine's
 * thread accepts messages and records results in SQLite. Both behave the same, byte for byte.
 */
import type { Dispatcher } from 'undici';
import type { Webhook } from '../contract/models.js';
import { Dispatchers, sendToWebhook, type SendResult } from './forwarder.js';
import { JobWorker } from './jobWorker.js';

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

/** What the forwarder's thread is told besides rounds: a destination's trust configuration changed. */
export interface InvalidateMessage {
  caFile: string | null;
}

export class WorkerForwarder implements Forwarder {
  private readonly jobs = new JobWorker<RoundRequest, SendResult[], InvalidateMessage>({ name: 'forwarderWorker' });

  sendRound(request: RoundRequest): Promise<SendResult[]> {
    return this.jobs.run(request);
  }

  invalidate(caFile: string | null): void {
    this.jobs.tell({ caFile });
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}
