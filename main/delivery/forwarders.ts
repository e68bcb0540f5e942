/**
 * Where rounds are signed and sent from. `InlineForwarder` works on the engine's own thread; `WorkerForwarder`
 * on a worker thread, so that signing and HTTP (undici, TLS) run on the second core while the engine's thread
 * accepts messages and records results in SQLite. Both behave the same, byte for byte.
 */
import type { Dispatcher } from 'undici';
import type { Webhook } from '../contract/destinations.js';
import { Dispatchers, prepareRequest, sendToWebhook, type PreparedRequest, type SendResult } from './webhookRequests.js';
import { JobWorker } from '../platform/jobWorker.js';

export interface RoundRequest {
  webhooks: Webhook[];
  /** The body's exact bytes, or (a claimed delivery's) those bytes as UTF-8 text, made bytes where it is signed. */
  body: Uint8Array | string;
  secret: string | null;
  timeoutMs: number;
  caFile: string | null;
  /** Made due by a clock jump: sent through the jump's pools, not queued behind the live per-origin cap. */
  jump?: boolean;
  /** Fast-forward unanswered attempts: no response headers after this long ends the attempt (a jump's only). */
  fastForwardMs?: number | null;
}

export interface Forwarder {
  /** One POST per webhook, concurrently; results in the same order. */
  sendRound(request: RoundRequest): Promise<SendResult[]>;
  /** A destination's trust configuration changed: drop the pool built for it. */
  invalidate(caFile: string | null): void;
  close(): Promise<void>;
}

/** A round ready to send: each webhook's request prepared (headers, signature) over the exact body. */
export interface PreparedRound {
  requests: PreparedRequest[];
  body: Uint8Array;
  timeoutMs: number;
  caFile: string | null;
  jump: boolean;
  fastForwardMs: number | null;
}

/** Sends prepared rounds (on whichever thread it lives). */
export class RoundSender {
  private readonly dispatchers: Dispatchers;

  constructor(dispatcher?: Dispatcher) {
    this.dispatchers = new Dispatchers(dispatcher);
  }

  send(r: PreparedRound): Promise<SendResult[]> {
    const dispatcher = this.dispatchers.for({ caFile: r.caFile }, r.jump);
    const gate = r.jump ? this.dispatchers.jumpGate : this.dispatchers.gate;
    return Promise.all(
      r.requests.map((request) =>
        sendToWebhook({ request, body: r.body, timeoutMs: r.timeoutMs, fastForwardMs: r.fastForwardMs, dispatcher, gate, realNow: Date.now }),
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

export const prepareRound = (r: RoundRequest): PreparedRound => {
  const body = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
  return {
    requests: r.webhooks.map((webhook) => prepareRequest(webhook, r.secret, body)),
    body,
    timeoutMs: r.timeoutMs,
    caFile: r.caFile,
    jump: r.jump ?? false,
    fastForwardMs: r.fastForwardMs ?? null,
  };
};

export class InlineForwarder implements Forwarder {
  private readonly sender: RoundSender;

  constructor(dispatcher?: Dispatcher) {
    this.sender = new RoundSender(dispatcher);
  }

  sendRound(r: RoundRequest): Promise<SendResult[]> {
    return this.sender.send(prepareRound(r));
  }

  invalidate(caFile: string | null): void {
    this.sender.invalidate(caFile);
  }

  close(): Promise<void> {
    return this.sender.close();
  }
}

/** What the forwarder's thread is told besides rounds: a destination's trust configuration changed. */
export interface InvalidateMessage {
  caFile: string | null;
}

/**
 * Rounds are signed and sent on the forwarder's thread: the engine's thread also accepts messages and
 * writes every row, and is the one that runs out of time first under load.
 */
export class WorkerForwarder implements Forwarder {
  private readonly jobs = new JobWorker<RoundRequest, SendResult[], InvalidateMessage>({ name: 'delivery/forwarderWorker' });

  /** The round crosses as the engine asks for it (not yet signed); each result comes back with its signature and headers. */
  sendRound(r: RoundRequest): Promise<SendResult[]> {
    return this.jobs.run(r);
  }

  invalidate(caFile: string | null): void {
    this.jobs.tell({ caFile });
  }

  close(): Promise<void> {
    return this.jobs.close();
  }
}

/**
 * The forwarder a core sends through: one given (tests), inline when asked or when a dispatcher replaces the
 * engine's own pools (a dispatcher cannot cross to a thread), and the forwarder thread otherwise.
 */
export function chooseForwarder(choice: 'worker' | 'inline' | Forwarder | undefined, dispatcher: Dispatcher | undefined): Forwarder {
  if (typeof choice === 'object') return choice;
  return dispatcher || choice === 'inline' ? new InlineForwarder(dispatcher) : new WorkerForwarder();
}
