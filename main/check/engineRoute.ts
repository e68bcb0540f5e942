/**
 * Sending a check's request through the engine itself, so that it becomes a message with an attempt record
 * the UI can open (the attempt detail, the Signature panel). Only requests the Webhooks destination can
 * make go this way: a message signed with the secret, with another secret, or unsigned. Forgeries of the
 * bytes (tampered, pretty-printed), other Content-Types, repeats and bursts go through the forwarder's code
 * directly (runner.ts).
 *
 * As `hookbench send` does, it uses destinations of its own, connected to no source, enabled only while a
 * run uses them: `hookbench check`, `hookbench check (another secret)`, `hookbench check (unsigned)`.
 */
import type { CheckExchange } from '../contract/check/check.js';
import type { EngineEvent } from '../contract/events.js';
import { CHECK_DESTINATIONS, type Destination } from '../contract/destinations.js';
import type { MessageDetail } from '../contract/messages.js';
import type { Result } from '../contract/result.js';
import type { DestinationInput, DestinationPatch, SendMessageInput } from '../contract/schemas.js';
import { maskHeaders, maskUrl } from '../domain/secrets.js';
import { endedAfter, maskResponseHeaders } from './runner.js';
import type { SendMessageOutput } from '../contract/api.js';

/** What the route needs of a core, and no more. */
export interface EnginePort {
  /** Whether forwarding runs (not paused, started): otherwise nothing would be sent. */
  forwarding(): boolean;
  findDestination(ref: string): Destination | null;
  createDestination(input: DestinationInput): Result<Destination>;
  updateDestination(input: { id: string; patch: DestinationPatch }): Result<Destination>;
  sendMessage(input: SendMessageInput): Result<SendMessageOutput>;
  getMessage(input: { id: number }): Result<MessageDetail>;
  onEvent(listener: (event: EngineEvent) => void): () => void;
}

export type EngineSigning = 'valid' | 'wrong-secret' | 'none';

const NAMES: Record<EngineSigning, string> = CHECK_DESTINATIONS;

export interface EngineRunSettings {
  url: string;
  headers: Record<string, string>;
  secret: string | null;
  otherSecret: string | null;
  caFile: string | null;
  timeoutMs: number;
}

/** One run's use of the engine: its destinations are set up on first use and disabled by `end()`. */
export class EngineRoute {
  private readonly ready = new Map<EngineSigning, string>();

  constructor(
    private readonly port: EnginePort,
    private readonly settings: EngineRunSettings,
  ) {}

  private destination(signing: EngineSigning): Result<string> {
    const known = this.ready.get(signing);
    if (known) return { ok: true, value: known };
    const s = this.settings;
    const fields = {
      enabled: true,
      sources: [],
      webhooks: [{ url: s.url, headers: s.headers }],
      sharedSecret: signing === 'none' ? null : signing === 'wrong-secret' ? s.otherSecret : s.secret,
      timeoutMs: s.timeoutMs,
      // One attempt: the check judges the answer the destination gets, it does not wait out the retries.
      retry: { maxAttempts: 1 },
      caFile: s.caFile,
      filters: { allowEvents: [], blockEvents: [] },
    };
    const found = this.port.findDestination(NAMES[signing]);
    const saved = found ? this.port.updateDestination({ id: found.id, patch: fields }) : this.port.createDestination({ name: NAMES[signing], ...fields });
    if (!saved.ok) return saved;
    this.ready.set(signing, saved.value.id);
    return { ok: true, value: saved.value.id };
  }

  /** Sends the message through the engine; null when it could not be (the caller sends it directly). */
  async deliver(label: string, message: { type: SendMessageInput['type']; call: Record<string, unknown> }, signing: EngineSigning): Promise<CheckExchange | null> {
    if (!this.port.forwarding()) return null;
    const destination = this.destination(signing);
    if (!destination.ok) return null;
    let deliveryId = -1;
    let settle: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const finished = new Set(['delivered', 'failed', 'cancelled']);
    const off = this.port.onEvent((e) => {
      if (e.type === 'deliveryUpdated' && e.delivery.id === deliveryId && finished.has(e.delivery.status)) settle();
      if (e.type === 'forwardingChanged' && e.paused) settle();
    });
    try {
      const sent = this.port.sendMessage({ type: message.type, call: message.call, destinations: [destination.value] });
      if (!sent.ok || sent.value.deliveries.length !== 1) return null;
      deliveryId = sent.value.deliveries[0]!.id;
      if (finished.has(sent.value.deliveries[0]!.status)) settle();
      await done;
      const detail = this.port.getMessage({ id: sent.value.message.id });
      if (!detail.ok) return null;
      const attempt = detail.value.attempts.filter((a) => a.deliveryId === deliveryId).at(-1);
      if (!attempt) return null;
      const body = detail.value.message.body;
      return endedAfter({
        label,
        request: { method: 'POST', url: maskUrl(attempt.url), headers: maskHeaders(attempt.requestHeaders), body, bodyBytes: Buffer.byteLength(body, 'utf8'), bodyTruncated: false },
        outcome: attempt.outcome,
        statusCode: attempt.statusCode,
        error: attempt.error,
        durationMs: attempt.durationMs,
        response: attempt.responseHeaders === null ? null : { headers: maskResponseHeaders(attempt.responseHeaders), body: attempt.responseBody ?? '', bodyTruncated: attempt.responseTruncated },
        attempt: { messageId: detail.value.message.id, attemptId: attempt.id },
        signature: null,
      }, attempt.finishedAt - attempt.startedAt);
    } finally {
      off();
    }
  }

  /** Disables the destinations this run used: nothing else reaches them until the next run. */
  end(): void {
    for (const id of this.ready.values()) this.port.updateDestination({ id, patch: { enabled: false } });
    this.ready.clear();
  }
}
