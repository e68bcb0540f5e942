/**
 * The one core that the desktop app, `hookbench serve`, the CLI and the tests all build
 * (ARCHITECTURE: createCore({dataDir, clock, dispatcher})). It never imports electron.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { CoreCommands, ListMessagesInput, NoInput, SendMessageOutput, UpdateSourceInput } from '../contract/api.js';
import type { EngineEvent } from '../contract/events.js';
import type { MessageType } from '../contract/messageShapes.js';
import { parseReceiverRef } from '../contract/receiver.js';
import {
  REASONS,
  type ClockState,
  type DeliveryRecord,
  type Destination,
  type DeletionRequest,
  type IngestRefusal,
  type SourceUsage,
  type MessageDetail,
  type MessageSummary,
  type Overview,
  type Page,
  type SecretKind,
  type Settings,
  type Source,
} from '../contract/models.js';
import { err, ok, type ApiError, type Result } from '../contract/result.js';
import {
  destinationInputSchema,
  destinationPatchSchema,
  parseWith,
  resolveRetryPolicy,
  sendMessageInputSchema,
  sourceInputSchema,
  type DestinationInput,
  type DestinationPatch,
  type SendMessageInput,
} from '../contract/schemas.js';
import { buildMessage, type BuiltMessage } from '../core/messages.js';
import { newMessageId } from './messageIds.js';
import type { PreparedCall } from './ingestPrepare.js';
import { routeMessage } from '../core/routing.js';
import { Store } from '../store/store.js';
import { MessageQueries } from '../store/messageQueries.js';
import { HistoryIndexer } from './historyIndexer.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';
import { AcceptedRate } from './acceptedRate.js';
import { pageArgs, toPage, wholePage } from './paging.js';
import { createClock, type Clock } from './clock.js';
import { ensureDataDir, lockDataDir, type DataDirLock } from './dataDir.js';
import { AudienceService } from './audienceService.js';
import { Engine } from './engine.js';
import { ReceiverService } from './receiver/receiverService.js';
import { InlineForwarder, WorkerForwarder, type Forwarder } from './forwarderPool.js';
import { startEngineWorker, stoppableOnceReady } from './workers.js';

export interface CoreOptions {
  dataDir: string;
  /** Defaults to real time plus the offset persisted in the data dir. */
  clock?: Clock;
  /** Replaces the engine's own connection pools (tests, proxies); implies forwarding on this thread. */
  dispatcher?: Dispatcher;
  /** Send HTTP from a worker thread (default; uses the second core), inline on the engine's thread, or through a given Forwarder (tests). */
  forwarder?: 'worker' | 'inline' | Forwarder;
  /** Seed for retry jitter; random by default. */
  seed?: number;
  /** Deliveries in flight at once. */
  maxInFlight?: number;
  /** Start the scheduler at once (default true). */
  autoStart?: boolean;
}

interface AcceptEntry {
  type: MessageType;
  call: Record<string, unknown>;
  source: Source | null;
  destinations: readonly string[] | undefined;
  strict: boolean;
  clientIp: string | null;
  fieldPrefix: string | undefined;
  at: (field: string) => string;
  /** An identify from a source merges its traits into the stored user traits (audience rules read them). */
  recordsTraits: boolean;
}

/** A call built and checked, from the API (AcceptEntry) or from ingestion (PreparedCall), ready to route. */
interface BuiltEntry {
  built: Pick<BuiltMessage, 'messageId' | 'type' | 'userId' | 'anonymousId' | 'event' | 'bytes'>;
  source: Source | null;
  destinations: readonly string[] | undefined;
  at: (field: string) => string;
  /** Only calls that carried their own messageId are deduplicated. */
  clientMessageId: string | null;
  integrations: unknown;
  /** The traits an identify stores, or undefined when it stores none. */
  traits: unknown;
  /** The call as received: the object, or (ingestion) its JSON. */
  call: Record<string, unknown> | undefined;
  callJson: string | undefined;
}

interface PendingMessage {
  built: Pick<BuiltMessage, 'messageId' | 'type' | 'userId' | 'anonymousId' | 'event' | 'bytes'>;
  /** The call as received: the object, or its JSON (at least one of the two). */
  call: Record<string, unknown> | undefined;
  callJson: string | undefined;
  sourceId: string | null;
  route: { targets: Destination[]; filteredReason: string | null };
  replayOf: number | null;
  /** Counts toward the source's usage (calls it sent; not deletion notices or replays). */
  countsUsage: boolean;
  /** The traits to store for the user (an identify from a source), or undefined. */
  traits: unknown;
}

const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;
const CLOCK_OFFSET_KEY = 'clock.offsetMs';
const PAUSED_KEY = 'forwarding.paused';
const API_TOKEN_KEY = 'api.token';
const SEED_KEY = 'retry.seed';

export type Core = CoreCommands & {
  /** Audiences and computed traits of the sources (SPEC-NOTES §8). */
  readonly audiences: AudienceService;
  /** The mock receiver: endpoints, scripts, captures (its listeners start with `receivers.start`). */
  readonly receivers: ReceiverService;
  readonly dataDir: string;
  readonly clock: Clock;
  readonly store: Store;
  /** Subscribe to pushed events; returns the unsubscribe function. */
  onEvent(listener: (event: EngineEvent) => void): () => void;
  /** Starts forwarding (createCore does, unless `autoStart: false`), or starts it again after pause(). */
  start(): void;
  /**
   * Holds forwarding: accepted messages wait, queued, until start(); rounds already in flight finish and
   * are recorded.
   */
  pause(): void;
  /** Resolves when nothing is in flight and all results are committed. */
  idle(): Promise<void>;
  /** Ingestion from a source's SDK traffic (see engine/ingest.ts). */
  /**
   * Stores calls that ingestion checked and built (engine/ingestPrepare.ts), in one transaction (or the one
   * in progress), and counts them in the source's usage.
   */
  ingest(input: { source: Source; receivedAt: number; calls: readonly PreparedCall[]; bodies: Uint8Array }): void;
  findSource(ref: string): Source | null;
  /** The typed API's token for this data dir: made once, kept across restarts (a bookmarked UI URL keeps working). */
  apiToken(): string;
  /** Replaces the API token; the old one stops working at once. */
  rotateApiToken(): string;
  /** A destination by id or name (as stored: secrets in clear). */
  findDestination(ref: string): Destination | null;
  /** Runs `fn` in one transaction: an error result rolls back everything it did (and the caches). */
  atomically<T>(fn: () => Result<T>): Result<T>;
  updateSource(input: { id: string; patch: { kind?: Source['kind']; writeKey?: string } }): Result<Source>;
  sourceByWriteKey(writeKey: string): Source | null;
  /** Scheduler counters (ticks = transactions), for benchmarks. */
  engineStats(): Engine['stats'];
  close(): Promise<void>;
};

export function createCore(options: CoreOptions): Core {
  ensureDataDir(options.dataDir);
  const lock: DataDirLock = lockDataDir(options.dataDir);
  let store: Store;
  try {
    store = new Store(join(options.dataDir, 'hookbench.db'));
  } catch (e) {
    lock.release();
    throw e;
  }
  return new CoreImpl(options, store, lock);
}

class CoreImpl implements Core {
  readonly dataDir: string;
  readonly clock: Clock;
  readonly store: Store;
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  private readonly engine: Engine;
  readonly audiences: AudienceService;
  readonly receivers: ReceiverService;
  private readonly forwarder: Forwarder;
  private readonly checkpointer: { stop(): Promise<void> };
  private destinations = new Map<string, Destination>();
  private sources = new Map<string, Source>();
  private readonly messageQueries: MessageQueries;
  private readonly historyIndexer: HistoryIndexer;
  private readonly acceptedRate = new AcceptedRate();
  /** Messages whose summary changed since the last messageUpdated flush (only while someone listens). */
  private changedMessages = new Set<number>();
  private started = false;
  private closed = false;

  constructor(
    options: CoreOptions,
    store: Store,
    private readonly lock: DataDirLock,
  ) {
    this.dataDir = options.dataDir;
    this.store = store;
    this.messageQueries = new MessageQueries(store.db);
    const persistedOffset = Number(store.getSetting(CLOCK_OFFSET_KEY) ?? '0');
    this.clock = options.clock ?? createClock({ offsetMs: persistedOffset });
    let seed = options.seed;
    if (seed === undefined) {
      const stored = store.getSetting(SEED_KEY);
      seed = stored === null ? randomInt(0, 2 ** 31) : Number(stored);
      if (stored === null) store.setSetting(SEED_KEY, String(seed));
    }
    const checkpointWorker = startEngineWorker('checkpointWorker', { workerData: { file: store.db.name, intervalMs: 200 } });
    checkpointWorker.unref();
    this.checkpointer = stoppableOnceReady(checkpointWorker, 'close');
    this.forwarder =
      typeof options.forwarder === 'object'
        ? options.forwarder
        : options.dispatcher || options.forwarder === 'inline'
          ? new InlineForwarder(options.dispatcher)
          : new WorkerForwarder();
    this.reloadDestinations();
    this.receivers = new ReceiverService({ db: store.db, clock: this.clock, dataDir: options.dataDir, emit: (event) => this.emit(event) });
    this.engine = new Engine({
      store,
      clock: this.clock,
      forwarder: this.forwarder,
      seed,
      destination: (id) => this.destinations.get(id),
      resolveUrl: (url) => this.receivers.resolveWebhookUrl(url),
      emit: (event) => this.emit(event),
      listening: () => this.listeners.size > 0,
      ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
    });
    this.historyIndexer = new HistoryIndexer({ index: this.messageQueries.index, roundsInFlight: () => this.engine.roundsInFlight });
    this.historyIndexer.start();
    this.audiences = new AudienceService({
      db: store.db,
      transaction: (fn) => store.transaction(fn),
      clock: this.clock,
      // What an audience sends is not traits a source reported: it never feeds back into user_traits.
      send: (messages) => this.acceptMessages(messages, 'messages', { recordsTraits: false }),
      findSource: (ref) => this.findSource(ref),
    });
    // A pause said with pauseForwarding outlasts a restart; Core.pause() (tests, benchmarks) does not.
    if (options.autoStart !== false && store.getSetting(PAUSED_KEY) !== 'true') this.start();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.engine.start();
  }

  pause(): void {
    if (!this.started) return;
    this.started = false;
    this.engine.pause();
  }

  onEvent(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: EngineEvent): void {
    if (event.type === 'deliveryUpdated') this.messageChanged(event.delivery.messageId);
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        console.error('hookbench: event listener failed', e);
      }
    }
  }

  /**
   * A delivery of this message changed: its row in a live list needs the new summary. Changes within one
   * turn are announced once per message (a round of five webhooks is one messageUpdated).
   */
  private messageChanged(messageId: number): void {
    if (this.listeners.size === 0) return;
    if (this.changedMessages.size === 0) setImmediate(() => this.flushChangedMessages());
    this.changedMessages.add(messageId);
  }

  private flushChangedMessages(): void {
    const ids = this.changedMessages;
    this.changedMessages = new Set();
    if (this.closed) return;
    for (const id of ids) {
      const message = this.messageQueries.summary(id);
      if (message) this.emit({ type: 'messageUpdated', message });
    }
  }

  idle(): Promise<void> {
    return this.engine.idle();
  }

  engineStats(): Engine['stats'] {
    return { ...this.engine.stats };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.historyIndexer.stop();
    await this.receivers.stop(); // no more captures; then in-flight rounds are recorded
    await this.engine.close();
    await this.forwarder.close();
    await this.checkpointer.stop();
    this.store.close();
    this.lock.release();
  }

  private reloadDestinations(): void {
    this.destinations = new Map(this.store.listDestinations().map((d) => [d.id, d]));
    this.sources = new Map(this.store.listSources().map((s) => [s.id, s]));
  }

  // ---------------------------------------------------------------- messages

  sendMessage(input: SendMessageInput): Result<SendMessageOutput> {
    const sent = this.acceptMessages([input], null);
    return sent.ok ? ok(sent.value[0]!) : sent;
  }

  sendMessages(input: { messages: SendMessageInput[] }): Result<SendMessageOutput[]> {
    return this.acceptMessages(input.messages, 'messages');
  }

  /**
   * Validates every message first (one invalid message refuses the whole batch, and nothing is stored),
   * then commits them all in one transaction: the cost of a commit is shared by the batch.
   */
  private acceptMessages(
    inputs: readonly SendMessageInput[],
    batchField: string | null,
    { recordsTraits }: { recordsTraits: boolean } = { recordsTraits: true },
  ): Result<SendMessageOutput[]> {
    const entries: AcceptEntry[] = [];
    for (const [index, input] of inputs.entries()) {
      const parsed = parseWith(sendMessageInputSchema, input, batchField === null ? [] : [batchField, index]);
      if (!parsed.ok) return parsed;
      const { type, call, source: sourceRef, destinations, strict } = parsed.value;
      const at = (field: string) => (batchField === null ? field : `${batchField}[${index}].${field}`);
      let source: Source | null = null;
      if (sourceRef !== undefined) {
        source = this.findSource(sourceRef);
        if (!source) return err({ code: 'not_found', field: at('source'), message: `${at('source')}: no source named or with id "${sourceRef}"` });
      }
      entries.push({ type, call, source, destinations, strict, clientIp: null, fieldPrefix: batchField === null ? undefined : at('call'), at, recordsTraits });
    }
    return this.acceptEntries(entries);
  }

  /**
   * Ingestion of SDK traffic from a source (SPEC-NOTES §6): calls already checked and built (lenient about
   * unknown keys, `context.ip` filled from the client's address) by engine/ingestPrepare.ts; usage counted.
   */
  ingest(input: { source: Source; receivedAt: number; calls: readonly PreparedCall[]; bodies: Uint8Array }): void {
    const bodies = Buffer.from(input.bodies.buffer, input.bodies.byteOffset, input.bodies.byteLength);
    const entries = input.calls.map(
      (c): BuiltEntry => ({
        built: { messageId: c.messageId, type: c.type, userId: c.userId, anonymousId: c.anonymousId, event: c.event, bytes: bodies.subarray(c.bodyStart, c.bodyEnd) },
        source: input.source,
        destinations: undefined,
        at: (field) => field,
        clientMessageId: c.clientMessageId ? c.messageId : null,
        integrations: c.integrations,
        traits: c.type === 'identify' ? (c.traits ?? {}) : undefined,
        call: undefined,
        callJson: c.callJson,
      }),
    );
    const accepted = this.acceptBuilt(entries, input.receivedAt, { outputs: false });
    if (!accepted.ok) throw new Error(`ingest: ${accepted.error.message}`); // a source's own destinations always resolve
  }

  private acceptEntries(entries: readonly AcceptEntry[]): Result<SendMessageOutput[]> {
    const now = this.clock.now();
    const built: BuiltEntry[] = [];
    for (const e of entries) {
      const callJson = JSON.stringify(e.call);
      const b = buildMessage(e.type, e.call, {
        receivedAt: now,
        newMessageId,
        callJson,
        strict: e.strict,
        ...(e.clientIp ? { clientIp: e.clientIp } : {}),
        ...(e.fieldPrefix ? { fieldPrefix: e.fieldPrefix } : {}),
      });
      if (!b.ok) return b;
      const messageId = e.call['messageId'];
      built.push({
        built: b.value,
        source: e.source,
        destinations: e.destinations,
        at: e.at,
        clientMessageId: messageId !== undefined ? b.value.messageId : null,
        integrations: e.call['integrations'],
        traits: e.recordsTraits && e.type === 'identify' ? (e.call['traits'] ?? {}) : undefined,
        call: e.call,
        callJson,
      });
    }
    const accepted = this.acceptBuilt(built, now, { outputs: true });
    return accepted.ok ? ok(accepted.value!) : accepted;
  }

  /** Dedupe, routing and storage of built calls; the records stored are returned when `outputs` is set. */
  private acceptBuilt(entries: readonly BuiltEntry[], now: number, { outputs }: { outputs: boolean }): Result<SendMessageOutput[] | null> {
    const pending: PendingMessage[] = [];
    const seenInBatch = new Set<string>();
    const seenBefore = this.previouslySeen(entries, now - DEDUPE_WINDOW_MS);
    // The calls of one batch mostly share a source: its destinations are looked up once.
    const bySource = new Map<string | null, ReturnType<CoreImpl['candidatesFor']>>();
    for (const e of entries) {
      const sourceId = e.source?.id ?? null;
      let candidates = e.destinations ? undefined : bySource.get(sourceId);
      if (!candidates) {
        candidates = this.candidatesFor(e.source, e.destinations, e.at);
        if (!e.destinations) bySource.set(sourceId, candidates);
      }
      if (!candidates.ok) return candidates;

      let duplicate = false;
      if (e.clientMessageId !== null) {
        const key = dedupeKey(sourceId, e.clientMessageId);
        duplicate = seenInBatch.has(key) || seenBefore.has(key);
        seenInBatch.add(key);
      }
      const route = duplicate
        ? { targets: [], filteredReason: REASONS.duplicateMessageId }
        : routeMessage({ type: e.built.type, event: e.built.event, integrations: e.integrations }, candidates.value.destinations, candidates.value.noneReason);
      pending.push({
        built: e.built,
        call: e.call,
        callJson: e.callJson,
        sourceId,
        route,
        replayOf: null,
        countsUsage: e.built.type !== 'delete',
        traits: duplicate ? undefined : e.traits,
      });
    }
    return ok(this.storeMessages(pending, now, { outputs }));
  }

  /** The (source, messageId) keys of these calls already received within the dedupe window: one query per source. */
  private previouslySeen(entries: readonly BuiltEntry[], since: number): Set<string> {
    const bySource = new Map<string | null, string[]>();
    for (const e of entries) {
      if (e.clientMessageId === null) continue;
      const sourceId = e.source?.id ?? null;
      let ids = bySource.get(sourceId);
      if (!ids) bySource.set(sourceId, (ids = []));
      ids.push(e.clientMessageId);
    }
    const seen = new Set<string>();
    for (const [sourceId, ids] of bySource) {
      for (const id of this.store.seenMessageIds(ids, sourceId, since)) seen.add(dedupeKey(sourceId, id));
    }
    return seen;
  }

  private candidatesFor(
    source: Source | null,
    destinationRefs: readonly string[] | undefined,
    at: (field: string) => string,
  ): Result<{ destinations: Destination[]; noneReason: string }> {
    if (destinationRefs) {
      const destinations: Destination[] = [];
      for (const [i, ref] of destinationRefs.entries()) {
        const d = this.findDestination(ref);
        const field = at(`destinations[${i}]`);
        if (!d) return err({ code: 'not_found', field, message: `${field}: no destination named or with id "${ref}"` });
        destinations.push(d);
      }
      return ok({ destinations, noneReason: 'no destination given' });
    }
    if (source) {
      return ok({
        destinations: [...this.destinations.values()].filter((d) => d.enabled && d.sourceIds.includes(source.id)),
        noneReason: `no enabled destination is connected to source "${source.name}"`,
      });
    }
    return ok({ destinations: [...this.destinations.values()].filter((d) => d.enabled), noneReason: 'no destination is enabled' });
  }

  /** One transaction for the batch; the returned records are built in memory, not read back. */
  private storeMessages(pending: readonly PendingMessage[], now: number, options: { outputs: true }): SendMessageOutput[];
  private storeMessages(pending: readonly PendingMessage[], now: number, options: { outputs: boolean }): SendMessageOutput[] | null;
  private storeMessages(pending: readonly PendingMessage[], now: number, { outputs }: { outputs: boolean }): SendMessageOutput[] | null {
    const rows = pending.map((p) => {
      const filtered = p.route.targets.length === 0;
      return {
        message: {
          messageId: p.built.messageId,
          sourceId: p.sourceId,
          type: p.built.type,
          userId: p.built.userId,
          anonymousId: p.built.anonymousId,
          event: p.built.event,
          receivedAt: now,
          body: p.built.bytes,
          callJson: p.callJson ?? JSON.stringify(p.call),
          status: filtered ? ('filtered' as const) : ('queued' as const),
          statusReason: filtered ? p.route.filteredReason : null,
          replayOf: p.replayOf,
        },
        deliveries: p.route.targets.map((d) => ({ destinationId: d.id, destinationName: d.name, nextAttemptAt: now })),
      };
    });
    const ids = this.store.transaction(() => {
      const inserted = this.store.insertMessages(rows);
      this.store.afterCommit(() => this.acceptedRate.add(now, rows.length));
      const usage = new Map<string, { received: number; accepted: number; filtered: number }>();
      for (const p of pending) {
        if (p.sourceId === null || !p.countsUsage) continue;
        const u = usage.get(p.sourceId) ?? { received: 0, accepted: 0, filtered: 0 };
        u.received++;
        u.accepted++;
        if (p.route.targets.length === 0) u.filtered++;
        usage.set(p.sourceId, u);
      }
      for (const [sourceId, u] of usage) this.store.countUsage(sourceId, u);
      for (const p of pending) {
        if (p.traits === undefined || p.sourceId === null || p.built.userId === null) continue;
        const recorded = this.audiences.recordIdentify(p.sourceId, p.built.userId, p.traits);
        if (!recorded.ok) console.warn(`hookbench: traits of ${p.built.messageId} not stored: ${recorded.error.message}`);
      }
      return inserted;
    });
    // Only what is committed is announced (this may run inside a larger transaction, e.g. grouped ingestion).
    if (pending.some((p) => p.route.targets.length > 0)) this.store.afterCommit(() => this.engine.wake());
    const listening = this.listeners.size > 0;
    if (!outputs && !listening) return null;
    const records = rows.map((row, i): SendMessageOutput => {
      const { id, deliveryIds } = ids[i]!;
      const m = row.message;
      return {
        message: {
          id,
          messageId: m.messageId,
          type: m.type,
          sourceId: m.sourceId,
          userId: m.userId,
          event: m.event,
          status: m.status,
          statusReason: m.statusReason,
          receivedAt: now,
          body: m.body.toString('utf8'),
          call: pending[i]!.call ?? (JSON.parse(m.callJson) as Record<string, unknown>),
          replayOf: m.replayOf,
        },
        deliveries: row.deliveries.map((d, j) => ({
          id: deliveryIds[j]!,
          messageId: id,
          destinationId: d.destinationId,
          destinationName: d.destinationName,
          status: 'queued',
          reason: null,
          attempts: 0,
          firstAttemptAt: null,
          nextAttemptAt: now,
          pendingUrls: [],
          updatedAt: now,
        })),
      };
    });
    if (listening) {
      const summaries = records.map(({ message: m, deliveries }, i): MessageSummary => ({
        id: m.id,
        messageId: m.messageId,
        type: m.type,
        sourceId: m.sourceId,
        userId: m.userId,
        anonymousId: rows[i]!.message.anonymousId,
        event: m.event,
        status: m.status,
        statusReason: m.statusReason,
        receivedAt: m.receivedAt,
        replayOf: m.replayOf,
        bytes: rows[i]!.message.body.length,
        attempts: 0,
        nextAttemptAt: deliveries.length ? now : null,
        destinationIds: deliveries.map((d) => d.destinationId),
      }));
      this.store.afterCommit(() => summaries.forEach((message) => this.emit({ type: 'messageAccepted', message })));
    }
    return records;
  }


  listMessages(input: ListMessagesInput = {}): Result<Page<MessageSummary>> {
    const page = pageArgs(input);
    if (!page.ok) return page;
    const { cursor: _cursor, limit: _limit, ...filter } = input;
    return ok(toPage(this.messageQueries.list(filter, page.value.beforeId, page.value.limit + 1), page.value.limit));
  }

  getMessage(input: { id: number }): Result<MessageDetail> {
    const message = this.store.getMessage(input.id);
    if (!message) return notFound('message', input.id);
    return ok({ message, deliveries: this.store.deliveriesOf(input.id), attempts: this.store.attemptsOfMessage(input.id) });
  }

  retryNow(input: { id?: number | undefined; deliveryId?: number | undefined }): Result<{ deliveries: DeliveryRecord[] }> {
    const now = this.clock.now();
    let targets: DeliveryRecord[];
    let messageId: number;
    if (input.deliveryId !== undefined) {
      const d = this.store.getDelivery(input.deliveryId);
      if (!d) return notFound('delivery', input.deliveryId);
      targets = [d];
      messageId = d.messageId;
    } else {
      const id = input.id ?? 0;
      if (!this.store.getMessage(id)) return notFound('message', id);
      targets = this.store.deliveriesOf(id);
      messageId = id;
    }
    const retryable = targets.filter((d) => d.status === 'queued' || d.status === 'retrying' || d.status === 'failed');
    if (retryable.length === 0) {
      const states = [...new Set(targets.map((d) => d.status))].join(', ') || 'no deliveries';
      return err({ code: 'conflict', message: `nothing to retry: only waiting or failed deliveries can be retried (this has ${states})` });
    }
    this.store.transaction(() => {
      for (const d of retryable) {
        const failed = d.status === 'failed';
        this.store.setDelivery({
          id: d.id,
          status: d.attempts === 0 ? 'queued' : 'retrying',
          reason: null,
          nextAttemptAt: now,
          // A failed delivery starts a fresh window at its next attempt, to every current webhook.
          firstAttemptAt: failed ? null : d.firstAttemptAt,
          pendingUrls: failed || d.pendingUrls.length === 0 ? null : d.pendingUrls,
          updatedAt: now,
        });
      }
      this.store.refreshMessageStatus(messageId);
    });
    this.engine.reschedule();
    const deliveries = retryable.map((d) => this.store.getDelivery(d.id)!);
    this.emitDeliveries(deliveries);
    return ok({ deliveries });
  }

  cancelMessage(input: { id: number }): Result<{ deliveries: DeliveryRecord[] }> {
    if (!this.store.getMessage(input.id)) return notFound('message', input.id);
    const cancellable = this.store.deliveriesOf(input.id).filter((d) => ['queued', 'retrying', 'delivering'].includes(d.status));
    if (cancellable.length === 0) return err({ code: 'conflict', message: `message ${input.id} has nothing left to cancel` });
    return ok({ deliveries: this.cancelDeliveries(cancellable, REASONS.cancelledByUser) });
  }

  private cancelDeliveries(deliveries: readonly DeliveryRecord[], reason: string): DeliveryRecord[] {
    const now = this.clock.now();
    this.store.transaction(() => {
      for (const d of deliveries) {
        this.store.setDelivery({ id: d.id, status: 'cancelled', reason, nextAttemptAt: null, firstAttemptAt: d.firstAttemptAt, pendingUrls: null, updatedAt: now });
      }
      for (const m of new Set(deliveries.map((d) => d.messageId))) this.store.refreshMessageStatus(m);
    });
    this.engine.reschedule();
    const updated = deliveries.map((d) => this.store.getDelivery(d.id)!);
    this.emitDeliveries(updated);
    return updated;
  }

  private emitDeliveries(deliveries: readonly DeliveryRecord[]): void {
    if (this.listeners.size === 0) return;
    for (const delivery of deliveries) {
      const messageStatus = this.store.getMessage(delivery.messageId)!.status;
      this.emit({ type: 'deliveryUpdated', delivery, messageStatus });
    }
  }

  replayMessage(input: { id: number; keepMessageId?: boolean }): Result<SendMessageOutput> {
    const original = this.store.getMessage(input.id);
    if (!original) return notFound('message', input.id);
    const now = this.clock.now();
    const body = JSON.parse(original.body) as Record<string, unknown>;
    const messageId = input.keepMessageId ? original.messageId : newMessageId();
    body['messageId'] = messageId;
    // Same routing as the original: the destinations it was delivered to, as they are configured now.
    const targets = this.store
      .deliveriesOf(original.id)
      .map((d) => this.destinations.get(d.destinationId))
      .filter((d): d is Destination => d !== undefined);
    const route = targets.length
      ? { targets, filteredReason: null }
      : { targets: [], filteredReason: original.statusReason ?? 'no destination of the original message exists any more' };
    const built = {
      messageId,
      type: original.type,
      userId: original.userId,
      anonymousId: typeof body['anonymousId'] === 'string' ? body['anonymousId'] : null,
      event: original.event,
      bytes: Buffer.from(JSON.stringify(body), 'utf8'),
    };
    const [output] = this.storeMessages(
      [{ built, call: { ...original.call, messageId }, callJson: undefined, sourceId: original.sourceId, route, replayOf: original.id, countsUsage: false, traits: undefined }],
      now,
      { outputs: true },
    );
    return ok(output!);
  }

  // ---------------------------------------------------------------- clock

  async advanceClock(input: { ms: number }): Promise<Result<ClockState>> {
    const { ms } = input;
    await this.engine.advance(ms, (offset) => this.store.setSetting(CLOCK_OFFSET_KEY, String(offset)));
    const clock = this.clockState();
    this.emit({ type: 'clockAdvanced', clock, byMs: ms });
    return ok(clock);
  }

  async advanceToNextRetry(_input: NoInput = {}): Promise<Result<ClockState>> {
    const due = this.store.nextDueAt();
    if (due === null) return err({ code: 'conflict', message: 'no delivery is waiting for a retry (of an enabled destination)' });
    return this.advanceClock({ ms: Math.max(0, due - this.clock.now()) });
  }

  async resetClock(_input: NoInput = {}): Promise<Result<ClockState>> {
    const by = await this.engine.resetOffset(() => this.store.setSetting(CLOCK_OFFSET_KEY, '0'));
    const clock = this.clockState();
    if (by !== 0) this.emit({ type: 'clockAdvanced', clock, byMs: -by });
    return ok(clock);
  }

  getClock(_input: NoInput = {}): Result<ClockState> {
    return ok(this.clockState());
  }

  // ---------------------------------------------------------------- overview, forwarding, settings

  getOverview(_input: NoInput = {}): Result<Overview> {
    const now = this.clock.now();
    const backlog = this.store.deliveryBacklog(now, now - 3_600_000);
    return ok({
      counts: this.messageQueries.countsPerStatus(),
      inFlight: this.engine.roundsInFlight,
      retrying: backlog.retrying,
      failedLastHour: backlog.failedSince,
      dueRetries: backlog.due,
      nextDueAt: this.store.nextDueAt(),
      clock: this.clockState(),
      paused: !this.started,
      acceptedLastMinute: this.acceptedRate.lastMinute(now),
    });
  }

  pauseForwarding(_input: NoInput = {}): Result<{ paused: boolean }> {
    this.store.setSetting(PAUSED_KEY, 'true');
    this.pause();
    this.emit({ type: 'forwardingChanged', paused: true });
    return ok({ paused: true });
  }

  resumeForwarding(_input: NoInput = {}): Result<{ paused: boolean }> {
    this.store.setSetting(PAUSED_KEY, 'false');
    this.start();
    this.emit({ type: 'forwardingChanged', paused: false });
    return ok({ paused: false });
  }

  private token: string | null = null;

  apiToken(): string {
    this.token ??= this.store.getSetting(API_TOKEN_KEY);
    if (this.token === null) this.token = this.rotateApiToken();
    return this.token;
  }

  rotateApiToken(): string {
    this.token = randomBytes(24).toString('hex');
    this.store.setSetting(API_TOKEN_KEY, this.token);
    return this.token;
  }

  rotateToken(_input: NoInput = {}): Result<{ token: string; uiUrl: string | null }> {
    return ok({ token: this.rotateApiToken(), uiUrl: null });
  }

  getSettings(_input: NoInput = {}): Result<Settings> {
    const databaseFile = this.store.db.name;
    const size = (file: string) => {
      try {
        return statSync(file).size;
      } catch {
        return 0;
      }
    };
    return ok({
      dataDir: this.dataDir,
      databaseFile,
      databaseBytes: size(databaseFile) + size(`${databaseFile}-wal`),
      version: HOOKBENCH_VERSION,
      versions: {
        node: process.versions.node,
        electron: process.versions['electron'] ?? null,
        sqlite: (this.store.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v,
      },
      url: null,
      uiUrl: null,
      ingestUrl: null,
      receiverUrl: null,
      receiverTlsUrl: null,
    });
  }

  revealSecret(input: { kind: SecretKind; id: string }): Result<{ secret: string | null }> {
    switch (input.kind) {
      case 'destination': {
        const d = this.findDestination(input.id);
        return d ? ok({ secret: d.sharedSecret }) : notFound('destination', input.id);
      }
      case 'source': {
        const src = this.findSource(input.id);
        return src ? ok({ secret: src.writeKey }) : notFound('source', input.id);
      }
      case 'receiver': {
        const r = this.receivers.receiverSecret(input.id);
        return r.ok ? ok({ secret: r.value }) : r;
      }
    }
  }

  private clockState(): ClockState {
    return { now: this.clock.now(), offsetMs: this.clock.offsetMs() };
  }

  // ---------------------------------------------------------------- destinations and sources

  listDestinations(_input: NoInput = {}): Result<Page<Destination>> {
    return ok(wholePage([...this.destinations.values()].sort((a, b) => a.name.localeCompare(b.name))));
  }

  createDestination(input: DestinationInput): Result<Destination> {
    const parsed = parseWith(destinationInputSchema, input);
    if (!parsed.ok) return parsed;
    const v = parsed.value;
    const now = this.clock.now();
    return this.saveDestination(
      {
        id: randomUUID(),
        name: v.name,
        enabled: v.enabled,
        sourceIds: [],
        sharedSecret: v.sharedSecret ?? null,
        webhooks: v.webhooks ?? (v.url ? [{ url: v.url, headers: {} }] : []),
        caFile: v.caFile ?? null,
        timeoutMs: v.timeoutMs,
        retry: resolveRetryPolicy(v.retry),
        filters: v.filters,
        createdAt: now,
        updatedAt: now,
      },
      v.sources,
      true,
    );
  }

  updateDestination(input: { id: string; patch: DestinationPatch }): Result<Destination> {
    const current = this.findDestination(input?.id ?? '');
    if (!current) return notFound('destination', input?.id);
    const parsed = parseWith(destinationPatchSchema, input.patch, ['patch']);
    if (!parsed.ok) return parsed;
    const p = parsed.value;
    const next: Destination = {
      ...current,
      ...(p.name !== undefined ? { name: p.name } : {}),
      ...(p.enabled !== undefined ? { enabled: p.enabled } : {}),
      ...(p.sharedSecret !== undefined ? { sharedSecret: p.sharedSecret } : {}),
      ...(p.webhooks !== undefined ? { webhooks: p.webhooks } : {}),
      ...(p.url !== undefined ? { webhooks: [{ url: p.url, headers: {} }] } : {}),
      ...(p.caFile !== undefined ? { caFile: p.caFile } : {}),
      ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
      ...(p.retry !== undefined ? { retry: resolveRetryPolicy({ ...current.retry, ...p.retry }) } : {}),
      ...(p.filters !== undefined ? { filters: p.filters } : {}),
      updatedAt: this.clock.now(),
    };
    const sources = p.sources ?? current.sourceIds;
    const saved = this.saveDestination(next, sources, false);
    if (saved.ok && current.caFile !== next.caFile) this.forwarder.invalidate(current.caFile);
    return saved;
  }

  private saveDestination(d: Destination, sourceRefs: readonly string[], isNew: boolean): Result<Destination> {
    const prefix = isNew ? '' : 'patch.';
    const clash = [...this.destinations.values()].find((o) => o.name === d.name && o.id !== d.id);
    if (clash) return err({ code: 'conflict', field: `${prefix}name`, message: `${prefix}name: a destination named "${d.name}" already exists` });
    if (d.enabled && d.webhooks.length === 0) {
      return err({ code: 'invalid_input', field: `${prefix}enabled`, message: `${prefix}enabled: a destination cannot be enabled without at least one webhook` });
    }
    const sourceIds: string[] = [];
    for (const [i, ref] of sourceRefs.entries()) {
      const s = this.findSource(ref);
      if (!s) return err({ code: 'not_found', field: `${prefix}sources[${i}]`, message: `${prefix}sources[${i}]: no source named or with id "${ref}"` });
      sourceIds.push(s.id);
    }
    for (const [i, w] of d.webhooks.entries()) {
      const ref = parseReceiverRef(w.url);
      if (ref && !this.receivers.getReceiver({ name: ref.name }).ok) {
        const field = `${prefix}webhooks[${i}].url`;
        return err({ code: 'not_found', field, message: `${field}: no receiver named "${ref.name}" (create it first, or declare it under "receivers")` });
      }
    }
    if (d.caFile) {
      const problem = checkCaFile(d.caFile);
      if (problem) return err({ code: 'invalid_config', field: `${prefix}caFile`, message: `${prefix}caFile: ${problem}` });
    }
    const saved: Destination = { ...d, sourceIds };
    this.store.saveDestination(saved, isNew);
    this.destinations.set(saved.id, saved);
    this.engine.reschedule(); // enabling releases held retries
    return ok(saved);
  }

  deleteDestination(input: { id: string }): Result<{ cancelledDeliveries: number }> {
    const d = this.findDestination(input?.id ?? '');
    if (!d) return notFound('destination', input?.id);
    const open = this.store.waitingDeliveriesOfDestination(d.id).map((w) => this.store.getDelivery(w.id)!);
    this.cancelDeliveries(open, REASONS.destinationDeleted);
    this.store.deleteDestination(d.id);
    this.destinations.delete(d.id);
    return ok({ cancelledDeliveries: open.length });
  }

  listSources(_input: NoInput = {}): Result<Page<Source>> {
    return ok(wholePage([...this.sources.values()].sort((a, b) => a.name.localeCompare(b.name))));
  }

  createSource(input: Parameters<CoreCommands['createSource']>[0]): Result<Source> {
    const parsed = parseWith(sourceInputSchema, input);
    if (!parsed.ok) return parsed;
    const existing = [...this.sources.values()];
    if (existing.some((s) => s.name === parsed.value.name)) {
      return err({ code: 'conflict', field: 'name', message: `name: a source named "${parsed.value.name}" already exists` });
    }
    const writeKey = parsed.value.writeKey ?? `wk_${randomBytes(12).toString('hex')}`;
    if (existing.some((s) => s.writeKey === writeKey)) {
      return err({ code: 'conflict', field: 'writeKey', message: 'writeKey: another source already uses this write key' });
    }
    const source: Source = { id: randomUUID(), name: parsed.value.name, kind: parsed.value.kind, writeKey, createdAt: this.clock.now() };
    this.store.insertSource(source);
    this.sources.set(source.id, source);
    return ok(source);
  }

  atomically<T>(fn: () => Result<T>): Result<T> {
    const rollback = Symbol('rollback');
    let failed: Result<T> | null = null;
    try {
      return this.store.transaction(() => {
        const result = fn();
        if (!result.ok) {
          failed = result;
          throw rollback;
        }
        return result;
      });
    } catch (e) {
      if (e !== rollback) throw e;
      this.reloadDestinations();
      this.engine.reschedule();
      return failed!;
    }
  }

  updateSource(input: UpdateSourceInput): Result<Source> {
    const current = this.findSource(input?.id ?? '');
    if (!current) return notFound('source', input?.id);
    const parsed = parseWith(sourceInputSchema.partial().omit({ name: true }), input.patch ?? {}, ['patch']);
    if (!parsed.ok) return parsed;
    const next: Source = { ...current, ...(parsed.value.kind ? { kind: parsed.value.kind } : {}), ...(parsed.value.writeKey ? { writeKey: parsed.value.writeKey } : {}) };
    if ([...this.sources.values()].some((s) => s.id !== next.id && s.writeKey === next.writeKey)) {
      return err({ code: 'conflict', field: 'patch.writeKey', message: 'patch.writeKey: another source already uses this write key' });
    }
    this.store.updateSource(next);
    this.sources.set(next.id, next);
    return ok(next);
  }

  deleteSource(input: { id: string }): Result<{ id: string; disconnectedDestinations: string[] }> {
    const source = this.findSource(input.id);
    if (!source) return notFound('source', input.id);
    const connected = [...this.destinations.values()].filter((d) => d.sourceIds.includes(source.id));
    this.store.transaction(() => {
      for (const d of connected) {
        const next = { ...d, sourceIds: d.sourceIds.filter((id) => id !== source.id), updatedAt: this.clock.now() };
        this.store.saveDestination(next, false);
        this.destinations.set(next.id, next);
      }
      this.store.deleteSource(source.id);
    });
    this.sources.delete(source.id);
    return ok({ id: source.id, disconnectedDestinations: connected.map((d) => d.name) });
  }

  /**
   * SPEC-NOTES §8: one `delete` message per affected source (the sources that have seen the user, or
   * those named), sent to every enabled destination connected to it.
   */
  createDeletionRequest(input: { userId: string; sources?: string[] | undefined }): Result<{ request: DeletionRequest; messages: SendMessageOutput[] }> {
    const { userId } = input;
    let sources: Source[];
    if (input.sources !== undefined) {
      sources = [];
      for (const [i, ref] of input.sources.entries()) {
        const src = this.findSource(String(ref));
        if (!src) return err({ code: 'not_found', field: `sources[${i}]`, message: `sources[${i}]: no source named or with id "${String(ref)}"` });
        sources.push(src);
      }
    } else {
      sources = this.store.sourcesThatSaw(userId).map((id) => this.sources.get(id)).filter((src): src is Source => src !== undefined);
      if (sources.length === 0) {
        return err({ code: 'not_found', field: 'userId', message: `userId: no source has seen "${userId}"; name the sources to notify with sources: [...]` });
      }
    }
    const entries = sources.map(
      (source): AcceptEntry => ({
        type: 'delete',
        call: { userId },
        source,
        destinations: undefined,
        strict: true,
        clientIp: null,
        fieldPrefix: undefined,
        at: (f) => f,
        recordsTraits: false,
      }),
    );
    return this.atomically(() => {
      const sent = this.acceptEntries(entries);
      if (!sent.ok) return sent;
      const request: DeletionRequest = {
        id: 0,
        userId,
        createdAt: this.clock.now(),
        sourceIds: sources.map((src) => src.id),
        messageIds: sent.value.map((m) => m.message.id),
      };
      request.id = this.store.insertDeletionRequest(request);
      return ok({ request, messages: sent.value });
    });
  }

  listDeletionRequests(_input: NoInput = {}): Result<Page<DeletionRequest>> {
    return ok(wholePage(this.store.listDeletionRequests()));
  }

  listSourceUsage(_input: NoInput = {}): Result<Page<SourceUsage>> {
    return ok(wholePage([...this.sources.values()].map((src) => ({ sourceId: src.id, name: src.name, ...this.store.usageOf(src.id) }))));
  }

  listIngestLog(input: { cursor?: string | null | undefined; limit?: number | undefined } = {}): Result<Page<IngestRefusal>> {
    const page = pageArgs(input);
    if (!page.ok) return page;
    const items = this.store.listRefusals({ beforeId: page.value.beforeId, limit: page.value.limit + 1 });
    return ok(toPage(items, page.value.limit));
  }

  findSource(ref: string): Source | null {
    return this.sources.get(ref) ?? [...this.sources.values()].find((s) => s.name === ref || s.writeKey === ref) ?? null;
  }

  /** The source a write key belongs to (ingestion authentication). */
  sourceByWriteKey(writeKey: string): Source | null {
    return [...this.sources.values()].find((s) => s.writeKey === writeKey) ?? null;
  }

  findDestination(ref: string): Destination | null {
    return this.destinations.get(ref) ?? [...this.destinations.values()].find((d) => d.name === ref) ?? null;
  }
}

/** One key per (source, messageId): the unit of de-duplication. */
function dedupeKey(sourceId: string | null, messageId: string): string {
  return `${sourceId ?? ''}\u0000${messageId}`;
}

function notFound(what: string, id: unknown): { ok: false; error: ApiError } {
  return err({ code: 'not_found', message: `no ${what} with id ${JSON.stringify(id)}`, field: 'id' });
}

function checkCaFile(path: string): string | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) return `${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`;
  return null;
}
