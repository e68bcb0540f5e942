/**
 * The one core that the desktop app, `hookbench serve`, the CLI and the tests all build, with
 * createCore({dataDir, clock, dispatcher}) (docs/architecture.md, "The core"). This file is the wiring
 * point: it opens the store, builds the services over narrow views of it, and binds the commands to them.
 * It never imports electron.
 */
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { CoreCommands, UseOneSecretOutput } from '../contract/api.js';
import type { EngineEvent } from '../contract/events.js';
import type { Diagnostics } from '../contract/diagnostics.js';
import type { Destination, IngestRefusal, MessageDetail, SecretKind, Source } from '../contract/models.js';
import type { ReceiverCheck } from '../contract/receiver.js';
import { receiverChecks } from '../domain/receiverVerdict.js';
import { secretFingerprint } from '../domain/secrets.js';
import { err, ok, type Result } from '../contract/result.js';
import { atomically } from '../store/atomically.js';
import { corruptionError, isCorruptionError, type DbHealth } from '../store/integrity.js';
import type { SecretCodec } from '../store/secretCodec.js';
import { ReceiverStore } from '../store/receiverStore.js';
import { Store } from '../store/store.js';
import { AudienceService } from '../audiences/audienceService.js';
import { createClock, type Clock, type MonotonicTime } from '../platform/clock.js';
import { Control, retrySeed, SETTINGS } from '../control/control.js';
import { CheckService } from '../check/checkService.js';
import type { CheckTiming } from '../check/sender.js';
import { ensureDataDir, lockDataDir, type DataDirLock } from './dataDir.js';
import { DeletionRequests } from '../audiences/deletions.js';
import { DeliveryCommands } from '../delivery/deliveryCommands.js';
import { DiagnosticsService } from '../diagnostics/diagnostics.js';
import { Engine } from '../delivery/scheduler.js';
import { EventBus } from '../platform/eventBus.js';
import { chooseForwarder, type Forwarder } from '../delivery/forwarders.js';
import { History } from '../history/history.js';
import { startHistoryIndexThread } from '../history/historyIndexThread.js';
import { ingestionPort, type IngestionPort } from '../ingestion/ingestionPort.js';
import { importMessages } from '../history/importer.js';
import { Intake } from '../ingestion/intake.js';
import { notFound } from '../platform/paging.js';
import { ReceiverService, type ReceiverServiceOptions } from '../receiver/receiverService.js';
import { Registry } from '../registry/registry.js';
import { Retention } from '../history/retention.js';
import { startCheckpointer } from './checkpointer.js';

export interface CoreOptions {
  dataDir: string;
  /** How often the whole database is checked while the engine is quiet (RUNNING_INTEGRITY_CHECK_MS); tests shorten it. */
  integrityCheckIntervalMs?: number;
  /** Defaults to real time plus the offset persisted in the data dir. */
  clock?: Clock;
  /** Replaces the engine's own connection pools (tests, proxies); implies forwarding on this thread. */
  dispatcher?: Dispatcher;
  /** Send HTTP from a worker thread (default; uses the second core), inline on the engine's thread, or through a given Forwarder (tests). */
  forwarder?: 'worker' | 'inline' | Forwarder;
  /** Seed for retry jitter; random by default. */
  seed?: number;
  /**
   * Rounds in flight at once: the window starts at `minInFlight` (256) and adapts up to `maxInFlight`
   * (2,048) to what the webhooks take (delivery/scheduler.ts, Engine.adapt). `maxInFlight` alone below 256 fixes it.
   */
  minInFlight?: number;
  maxInFlight?: number;
  /** The engine's pacing time (engine/clock.ts MonotonicTime): real by default; tests make the window's decisions deterministic. */
  monotonicTime?: MonotonicTime;
  /** Start the scheduler at once (default true). */
  autoStart?: boolean;
  /** How secrets are kept at rest (store/secretCodec): as given by default; the desktop app encrypts them. */
  secretCodec?: SecretCodec;
  /** The mock receiver's options beyond the core's own (the standalone `hookbench receive` answers every path). */
  receiver?: Pick<ReceiverServiceOptions, 'fallbackReceiver'> & {
    /** The newest captures kept (default 10,000). */
    maxCaptures?: number;
  };
  /** The endpoint check's timeout and "slow" threshold (default: the destination's 5 s, and 1 s); tests shorten them. */
  checkTiming?: Partial<CheckTiming>;
}

export type Core = CoreCommands & {
  /** Audiences and computed traits of the sources (docs/behaviour.md §8). */
  readonly audiences: AudienceService;
  /** The mock receiver: endpoints, scripts, captures (its listeners start with `receivers.start`). */
  readonly receivers: ReceiverService;
  /** Checking the user's own receiver: runCheck, getCheckRun, listCheckRuns (main/check/). */
  readonly checks: CheckService;
  /** Ingestion's view of the core. */
  readonly ingestion: IngestionPort;
  /** Whether the database can still keep writes: deleted, replaced or damaged files are found here. */
  readonly health: DbHealth;
  readonly dataDir: string;
  readonly clock: Clock;
  /** Subscribe to pushed events; returns the unsubscribe function. */
  onEvent(listener: (event: EngineEvent) => void): () => void;
  /** Subscribe to refused ingestion requests only (the body preview left out); returns the unsubscribe function. */
  onIngestRefused(listener: (refusal: IngestRefusal) => void): () => void;
  /** Starts forwarding (createCore does, unless `autoStart: false` or a pauseForwarding is in force), or starts it again after pause(). */
  start(): void;
  /**
   * Holds forwarding: accepted messages wait, queued, until start(); rounds already in flight finish and
   * are recorded. Unlike pauseForwarding, not kept across a restart.
   */
  pause(): void;
  /** Resolves when nothing is in flight and all results are committed. */
  idle(): Promise<void>;
  findSource(ref: string): Source | null;
  /** A destination by id or name (as stored: secrets in clear). */
  findDestination(ref: string): Destination | null;
  /** Stored destinations that today's rules would refuse (saved by an older version): which field, and why. */
  destinationProblems(): { destination: string; field: string; message: string }[];
  sourceByWriteKey(writeKey: string): Source | null;
  /** The typed API's token for this data dir: made once, kept across restarts (a bookmarked UI URL keeps working). */
  apiToken(): string;
  /** Replaces the API token; the old one stops working at once. */
  rotateApiToken(): string;
  /** Runs `fn` in one transaction: an error result rolls back everything it did (and the in-memory copies). */
  atomically<T>(fn: () => Result<T>): Result<T>;
  /** The troubleshooting checklist; `ingestUrl` is where SDKs send, when the face knows it (getDiagnostics). */
  diagnose(options: { ingestUrl: string | null }): Result<Diagnostics>;
  /** Scheduler counters (ticks = transactions), for benchmarks. */
  engineStats(): Engine['stats'];
  close(): Promise<void>;
};

/** What is behind a core, for tests and benchmarks only (lint keeps main/ from importing this). */
interface CoreInternals {
  store: Store;
  /** Announces an event as the core's services do (tests of what transports do with odd events). */
  emit(event: EngineEvent): void;
}
/** A running core checks its whole database this often, when no round is out (store/integrity.ts). */
const RUNNING_INTEGRITY_CHECK_MS = 60_000;

const internals = new WeakMap<object, CoreInternals>();
export function internalsOf(core: Core): CoreInternals {
  const found = internals.get(core);
  if (!found) throw new Error('not a core made by createCore');
  return found;
}

export function createCore(options: CoreOptions): Core {
  ensureDataDir(options.dataDir);
  const lock: DataDirLock = lockDataDir(options.dataDir);
  let store: Store;
  try {
    store = new Store(join(options.dataDir, 'hookbench.db'), { secretCodec: options.secretCodec });
  } catch (e) {
    lock.release();
    throw e;
  }
  try {
    const core = new CoreImpl(options, store, lock);
    internals.set(core, { store, emit: (event) => core.announce(event) });
    return core;
  } catch (e) {
    // e.g. secrets the codec cannot read (store/secretCodec): they are read before any thread starts
    store.close();
    lock.release();
    throw e;
  }
}

class CoreImpl implements Core {
  readonly dataDir: string;
  readonly clock: Clock;
  readonly audiences: AudienceService;
  readonly receivers: ReceiverService;
  readonly checks: CheckService;
  readonly ingestion: IngestionPort;
  readonly health: DbHealth;
  private readonly bus: EventBus;
  /** Listeners of refused ingestion requests alone (serve's log): they do not make the core build every event. */
  private readonly refusalListeners = new Set<(refusal: IngestRefusal) => void>();
  private readonly registry: Registry;
  private readonly intake: Intake;
  private readonly history: History;
  private readonly deliveries: DeliveryCommands;
  private readonly deletions: DeletionRequests;
  private readonly control: Control;
  private readonly engine: Engine;
  private readonly forwarder: Forwarder;
  private readonly checkpointer: { stop(): Promise<void> };
  private readonly historyIndexer: { stop(): Promise<void> };
  private readonly retention: Retention;
  private readonly diagnostics: DiagnosticsService;
  private closed = false;

  constructor(
    options: CoreOptions,
    private readonly store: Store,
    private readonly lock: DataDirLock,
  ) {
    this.dataDir = options.dataDir;
    this.health = store.health;
    const queries = store.queries;
    const bus = (this.bus = new EventBus((id) => queries.summary(id)));
    const persistedOffset = Number(store.config.getSetting(SETTINGS.clockOffset) ?? '0');
    const clock = (this.clock = options.clock ?? createClock({ offsetMs: persistedOffset }));
    const seed = options.seed ?? retrySeed(store.config);
    // Read first: what cannot be read (secrets the codec cannot decrypt) fails before any thread starts.
    this.receivers = new ReceiverService({
      store: new ReceiverStore(store.db, options.receiver?.maxCaptures, options.secretCodec),
      clock,
      dataDir: options.dataDir,
      emit: (event) => bus.emit(event),
      fallbackReceiver: options.receiver?.fallbackReceiver,
    });
    const registry = (this.registry = new Registry({
      store,
      clock,
      receiverExists: (name) => this.receivers.getReceiver({ name }).ok,
      destinationSaved: () => this.engine.reschedule(),
      caFileDropped: (caFile) => this.forwarder.invalidate(caFile),
    }));
    this.checkpointer = startCheckpointer(store, {
      integrityCheckIntervalMs: options.integrityCheckIntervalMs ?? RUNNING_INTEGRITY_CHECK_MS,
      quiet: () => this.engine.roundsInFlight === 0,
    });
    this.forwarder = chooseForwarder(options.forwarder, options.dispatcher);
    this.engine = new Engine({
      store,
      clock,
      forwarder: this.forwarder,
      seed,
      destination: (id) => registry.destination(id),
      resolveUrl: (url) => this.receivers.resolveWebhookUrl(url),
      expectRequest: (url, body, attempt) => this.receivers.expectRequest(url, body, attempt),
      emit: (event) => bus.emit(event),
      listening: () => bus.listening,
      onJump: (jump) => bus.emit({ type: 'clockJumpUpdated', jump }),
      ...(options.minInFlight !== undefined ? { minInFlight: options.minInFlight } : {}),
      ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
      ...(options.monotonicTime !== undefined ? { time: options.monotonicTime } : {}),
    });
    // Indexes messages for listMessages' filters while the core is quiet (main/store/historyIndex.ts), on a
    // thread of its own (history/historyIndexThread.ts).
    this.historyIndexer = startHistoryIndexThread({
      file: store.file,
      writing: store.writing,
      roundsInFlight: () => this.engine.roundsInFlight,
      roundsRecorded: () => this.engine.stats.roundsRecorded,
      writable: () => store.health.problem === null,
      onError: backgroundFailure(store, 'the history index could not be updated; listMessages reads the newest messages in id order meanwhile'),
    });
    // Removes settled messages past the retention policy while the core is quiet (history/retention.ts).
    this.retention = new Retention({
      store,
      clock,
      roundsInFlight: () => this.engine.roundsInFlight,
      writable: () => store.health.problem === null,
      onError: backgroundFailure(store, 'retention could not remove old messages; it tries again later'),
    });
    const intake = (this.intake = new Intake({
      store,
      clock,
      registry,
      bus,
      recordIdentify: (sourceId, userId, traits) => this.audiences.recordIdentify(sourceId, userId, traits),
      wake: () => this.engine.wake(),
    }));
    this.audiences = new AudienceService({
      store: store.audiences,
      transaction: (fn) => store.transaction(fn),
      clock,
      // What an audience sends is not traits a source reported: it never feeds back into user_traits.
      send: (messages) => intake.acceptMessages(messages, 'messages', { recordsTraits: false }),
      findSource: (ref) => registry.findSource(ref),
    });
    this.control = new Control({ store, clock, engine: this.engine, bus, queries, rate: intake.rate, dataDir: options.dataDir });
    this.history = new History({
      store,
      queries,
      registry,
      usage: { minutes: intake.usage, now: () => clock.now() },
      otherSecrets: () => [this.control.apiToken(), ...this.receivers.allSecrets()],
      receiverChecks: (detail) => this.receiverChecksOf(detail),
    });
    this.deliveries = new DeliveryCommands({ store, clock, registry, intake, bus, reschedule: () => this.engine.reschedule() });
    this.diagnostics = new DiagnosticsService({
      store,
      clock,
      sources: () => registry.allSources(),
      destinations: () => registry.allDestinations(),
      captures: (limit) => {
        const page = this.receivers.listCaptures({ limit });
        return page.ok ? page.value.items : [];
      },
      receiverSecret: (name) => {
        const r = this.receivers.receiverSecret(name);
        return r.ok ? r.value : undefined;
      },
      message: (id) => this.history.getMessage({ id }),
      overview: () => {
        const overview = this.control.getOverview();
        if (!overview.ok) throw new Error(overview.error.message);
        return overview.value;
      },
    });
    this.checks = new CheckService({
      runs: store.checkRuns,
      emit: (event) => bus.emit(event),
      timing: options.checkTiming,
      dispatcher: options.dispatcher,
      engine: {
        forwarding: () => {
          const overview = this.control.getOverview();
          return overview.ok && !overview.value.paused;
        },
        findDestination: (ref) => registry.findDestination(ref),
        createDestination: (input) => registry.createDestination(input),
        updateDestination: (input) => registry.updateDestination(input),
        sendMessage: (input) => intake.sendMessage(input),
        getMessage: (input) => this.history.getMessage(input),
        onEvent: (listener) => bus.on(listener),
      },
    });
    this.deletions = new DeletionRequests({ store, clock, registry, intake, rolledBack: () => this.rolledBack() });
    this.ingestion = ingestionPort({ store, clock, bus, registry, intake, refusalListeners: this.refusalListeners });
    // A pause said with pauseForwarding outlasts a restart; Core.pause() (tests, benchmarks) does not.
    this.retention.start();
    if (options.autoStart !== false && !this.control.pausedByUser) this.start();
  }

  // ---------------------------------------------------------------- lifecycle and events

  start(): void {
    this.control.start();
  }

  pause(): void {
    this.control.pause();
  }

  onEvent(listener: (event: EngineEvent) => void): () => void {
    return this.bus.on(listener);
  }

  onIngestRefused(listener: (refusal: IngestRefusal) => void): () => void {
    this.refusalListeners.add(listener);
    return () => this.refusalListeners.delete(listener);
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
    // Asked first so that it starts no new chunk while the rest closes; it has closed its connection once awaited.
    const indexerStopped = this.historyIndexer.stop();
    this.retention.stop();
    await this.checks.close();
    this.bus.close();
    await this.receivers.stop(); // no more captures; then in-flight rounds are recorded
    await this.engine.close();
    await this.forwarder.close();
    await indexerStopped;
    await this.checkpointer.stop();
    this.store.close();
    this.lock.release();
  }

  /** For internalsOf only. */
  announce(event: EngineEvent): void {
    this.bus.emit(event);
  }

  atomically<T>(fn: () => Result<T>): Result<T> {
    return atomically((f) => this.store.transaction(f), fn, () => this.rolledBack());
  }

  /** A transaction rolled back: the in-memory copies are read again, and the scheduler looks again. */
  private rolledBack(): void {
    this.registry.reload();
    this.receivers.reload();
    this.engine.reschedule();
  }

  // ---------------------------------------------------------------- the commands, bound to their services

  readonly sendMessage: Core['sendMessage'] = (input) => this.intake.sendMessage(input);
  readonly sendMessages: Core['sendMessages'] = (input) => this.intake.sendMessages(input);
  readonly listMessages: Core['listMessages'] = (input = {}) => this.history.listMessages(input);
  readonly getMessage: Core['getMessage'] = (input) => this.history.getMessage(input);
  readonly exportMessages: Core['exportMessages'] = (input) => this.history.exportMessages(input);
  readonly importMessages: Core['importMessages'] = (input) => importMessages(input, { intake: this.intake, registry: this.registry });
  readonly getRetention: Core['getRetention'] = () => this.retention.getRetention();
  readonly setRetention: Core['setRetention'] = (input) => this.retention.setRetention(input);
  readonly getDiagnostics: Core['getDiagnostics'] = () => this.diagnostics.diagnose({ ingestUrl: null });
  readonly diagnose: Core['diagnose'] = (options) => this.diagnostics.diagnose(options);
  readonly explainMessage: Core['explainMessage'] = (input) => this.diagnostics.explainMessage(input);
  readonly retryNow: Core['retryNow'] = (input) => this.deliveries.retryNow(input);
  readonly cancelMessage: Core['cancelMessage'] = (input) => this.deliveries.cancelMessage(input);
  readonly replayMessage: Core['replayMessage'] = (input) => this.deliveries.replayMessage(input);
  readonly advanceClock: Core['advanceClock'] = (input) => this.control.advanceClock(input);
  readonly advanceToNextRetry: Core['advanceToNextRetry'] = () => this.control.advanceToNextRetry();
  readonly cancelClockAdvance: Core['cancelClockAdvance'] = () => this.control.cancelClockAdvance();
  readonly resetClock: Core['resetClock'] = () => this.control.resetClock();
  readonly getClock: Core['getClock'] = () => this.control.getClock();
  readonly setFastForward: Core['setFastForward'] = (input) => this.control.setFastForward(input);
  readonly getOverview: Core['getOverview'] = () => this.control.getOverview();
  readonly pauseForwarding: Core['pauseForwarding'] = () => this.control.pauseForwarding();
  readonly resumeForwarding: Core['resumeForwarding'] = () => this.control.resumeForwarding();
  readonly getSettings: Core['getSettings'] = () => this.control.getSettings();
  readonly rotateToken: Core['rotateToken'] = () => ok({ token: this.control.rotateApiToken(), uiUrl: null });
  readonly listDestinations: Core['listDestinations'] = () => ok({ items: this.registry.allDestinations(), nextCursor: null });
  readonly createDestination: Core['createDestination'] = (input) => this.registry.createDestination(input);
  readonly updateDestination: Core['updateDestination'] = (input) => this.registry.updateDestination(input);
  readonly listDestinationStats: Core['listDestinationStats'] = () => this.history.listDestinationStats();
  readonly listSources: Core['listSources'] = () => ok({ items: this.registry.allSources(), nextCursor: null });
  readonly createSource: Core['createSource'] = (input) => this.registry.createSource(input);
  readonly updateSource: Core['updateSource'] = (input) => this.registry.updateSource(input);
  readonly deleteSource: Core['deleteSource'] = (input) => this.registry.deleteSource(input);
  readonly listSourceUsage: Core['listSourceUsage'] = () => this.history.listSourceUsage();
  readonly listIngestLog: Core['listIngestLog'] = (input) => this.history.listIngestLog(input);
  readonly createDeletionRequest: Core['createDeletionRequest'] = (input) => this.deletions.createDeletionRequest(input);
  readonly listDeletionRequests: Core['listDeletionRequests'] = () => this.history.listDeletionRequests();

  deleteDestination(input: { id: string }): Result<{ cancelledDeliveries: number }> {
    const d = this.registry.findDestination(input.id);
    if (!d) return notFound('destination', input.id);
    const cancelledDeliveries = this.deliveries.cancelAllOf(d.id);
    this.registry.removeDestination(d.id);
    return ok({ cancelledDeliveries });
  }

  revealSecret(input: { kind: SecretKind; id: string }): Result<{ secret: string | null }> {
    switch (input.kind) {
      case 'destination': {
        const d = this.registry.findDestination(input.id);
        return d ? ok({ secret: d.sharedSecret }) : notFound('destination', input.id);
      }
      case 'source': {
        const src = this.registry.findSource(input.id);
        return src ? ok({ secret: src.writeKey }) : notFound('source', input.id);
      }
      case 'receiver': {
        const r = this.receivers.receiverSecret(input.id);
        return r.ok ? ok({ secret: r.value }) : r;
      }
    }
  }

  findSource(ref: string): Source | null {
    return this.registry.findSource(ref);
  }

  useOneSecret(input: { destinationId: string; receiver: string }): Result<UseOneSecretOutput> {
    const d = this.registry.findDestination(input.destinationId);
    if (!d) return notFound('destination', input.destinationId);
    const endpoint = this.receivers.receiverSecret(input.receiver);
    if (!endpoint.ok) return { ok: false, error: { ...endpoint.error, field: 'receiver' } };
    const base = { destinationId: d.id, receiver: input.receiver };
    if (d.sharedSecret !== null) {
      const updated = this.receivers.updateReceiver({ name: input.receiver, patch: { secret: d.sharedSecret } });
      return updated.ok ? ok({ ...base, changed: 'receiver', fingerprint: secretFingerprint(d.sharedSecret) }) : updated;
    }
    if (endpoint.value === null) {
      return err({ code: 'conflict', field: 'destinationId', message: `neither destination "${d.name}" nor receiver endpoint "${input.receiver}" has a secret: give one of them a secret first` });
    }
    const updated = this.registry.updateDestination({ id: d.id, patch: { sharedSecret: endpoint.value } });
    return updated.ok ? ok({ ...base, changed: 'destination', fingerprint: secretFingerprint(endpoint.value) }) : updated;
  }

  /** Both sides of the message's attempts to the mock receiver (domain/receiverVerdict.ts). */
  private receiverChecksOf(detail: MessageDetail): ReceiverCheck[] {
    const captures = this.receivers.capturesOfMessage(detail.message.id);
    if (captures.length === 0) return [];
    return receiverChecks(captures, {
      attempts: detail.attempts,
      deliveryOf: (id) => detail.deliveries.find((d) => d.id === id),
      destination: (id) => this.registry.destination(id),
      receiverSecret: (name) => {
        const r = this.receivers.receiverSecret(name);
        return r.ok ? r.value : undefined;
      },
    });
  }

  destinationProblems(): { destination: string; field: string; message: string }[] {
    return this.registry.destinationProblems();
  }

  findDestination(ref: string): Destination | null {
    return this.registry.findDestination(ref);
  }

  sourceByWriteKey(writeKey: string): Source | null {
    return this.registry.sourceByWriteKey(writeKey);
  }

  apiToken(): string {
    return this.control.apiToken();
  }

  rotateApiToken(): string {
    return this.control.rotateApiToken();
  }
}

/**
 * What background work (the history indexer, retention) does with its errors: a damaged database stops writes
 * (store/integrity.ts); anything else is logged, and the work tries again on a later turn.
 */
function backgroundFailure(store: Store, what: string): (e: unknown) => void {
  return (e) => {
    if (isCorruptionError(e)) store.health.fail(corruptionError(store.file, (e as Error).message));
    else console.error(`hookbench: ${what}`, e);
  };
}
