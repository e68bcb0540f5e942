/**
 * The one core that the desktop app, `hookbench serve`, the CLI and the tests all build, with
 * createCore({dataDir, clock, dispatcher}) (docs/architecture.md, "The core"). Wiring only: it locks the data
 * dir, opens the store, has ./services.ts build the services, binds every command (./commandHandlers.ts) and
 * runs the lifecycle: start, pause, idle, close. It never imports electron.
 */
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { Commands } from '../contract/api.js';
import type { EngineEvent } from '../contract/events.js';
import type { Diagnostics } from '../contract/diagnostics.js';
import type { Destination } from '../contract/destinations.js';
import type { IngestRefusal, Source } from '../contract/sources.js';
import type { Result } from '../contract/result.js';
import { atomically } from '../store/atomically.js';
import { startFailure, type DbHealth } from '../store/integrity.js';
import type { SecretCodec } from '../store/secretCodec.js';
import { Store } from '../store/store.js';
import type { AudienceService } from '../audiences/audienceService.js';
import type { Clock, MonotonicTime } from '../platform/clock.js';
import type { CheckService } from '../check/checkService.js';
import type { CheckTiming } from '../check/sender.js';
import { ensureDataDir, lockDataDir, type DataDirLock } from './dataDir.js';
import type { Engine } from '../delivery/scheduler.js';
import type { Forwarder } from '../delivery/forwarders.js';
import type { IngestionPort } from '../ingestion/ingestionPort.js';
import type { ReceiverService, ReceiverServiceOptions } from '../receiver/receiverService.js';
import { bindCommands } from './commandHandlers.js';
import { buildServices, type Services } from './services.js';

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
   * (2,048) to what the webhooks take (delivery/inFlightWindow.ts, InFlightWindow.adapt). `maxInFlight` alone below 256 fixes it.
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
    /** The bytes of the captures' bodies kept at most (default 64 MiB). */
    maxCaptureBytes?: number;
  };
  /** The endpoint check's timeout and "slow" threshold (default: the destination's 5 s, and 1 s); tests shorten them. */
  checkTiming?: Partial<CheckTiming>;
}

export type Core = Commands & {
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
  // Two engines on one database would each keep their own state: a lost lock stops writes, as a lost file does.
  store.health.addCheck(() => {
    const held = lock.check();
    return held.ok ? null : { code: 'unavailable', message: held.message };
  });
  try {
    const services = buildServices(options, store);
    const lifecycle = new CoreLifecycle(options.dataDir, services, lock);
    const core: Core = Object.assign(lifecycle, bindCommands(lifecycle, services));
    internals.set(core, { store, emit: (event) => services.bus.emit(event) });
    services.background.start();
    services.retention.start();
    // A pause said with pauseForwarding outlasts a restart; Core.pause() (tests, benchmarks) does not.
    if (options.autoStart !== false && !services.control.pausedByUser) core.start();
    return core;
  } catch (e) {
    // e.g. secrets the codec cannot read (store/secretCodec): they are read before any thread starts
    store.close();
    lock.release();
    throw startFailure(options.dataDir, e);
  }
}

/** Everything of a Core but its commands (bound by createCore): its lifecycle, events and the lookups beside the API. */
class CoreLifecycle implements Omit<Core, keyof Commands> {
  readonly clock: Clock;
  readonly audiences: AudienceService;
  readonly receivers: ReceiverService;
  readonly checks: CheckService;
  readonly ingestion: IngestionPort;
  readonly health: DbHealth;
  private closed = false;

  constructor(
    readonly dataDir: string,
    private readonly s: Services,
    private readonly lock: DataDirLock,
  ) {
    this.clock = s.clock;
    this.audiences = s.audiences;
    this.receivers = s.receivers;
    this.checks = s.checks;
    this.ingestion = s.ingestion;
    this.health = s.store.health;
  }

  start(): void {
    this.s.control.start();
  }

  pause(): void {
    this.s.control.pause();
  }

  /** The user's events: a check run's own traffic is left out, as every list and counter leaves it out. */
  onEvent(listener: (event: EngineEvent) => void): () => void {
    const traffic = this.s.checkTraffic;
    return this.s.bus.on((event) => {
      if (!traffic.owns(event)) listener(event);
    });
  }

  onIngestRefused(listener: (refusal: IngestRefusal) => void): () => void {
    this.s.refusalListeners.add(listener);
    return () => this.s.refusalListeners.delete(listener);
  }

  idle(): Promise<void> {
    return this.s.engine.idle();
  }

  engineStats(): Engine['stats'] {
    return { ...this.s.engine.stats };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const s = this.s;
    // Asked first so that the index starts no new chunk while the rest closes; its connections are closed once awaited.
    const backgroundStopped = s.background.stop();
    s.retention.stop();
    await s.checks.close();
    s.bus.close();
    await s.receivers.stop(); // no more captures; then in-flight rounds are recorded
    await s.engine.close();
    await s.forwarder.close();
    await backgroundStopped;
    s.store.close();
    this.lock.release();
  }

  atomically<T>(fn: () => Result<T>): Result<T> {
    return atomically((f) => this.s.store.transaction(f), fn, () => this.s.rolledBack());
  }

  diagnose(options: { ingestUrl: string | null }): Result<Diagnostics> {
    return this.s.diagnostics.diagnose(options);
  }

  findSource(ref: string): Source | null {
    return this.s.registry.findSource(ref);
  }

  findDestination(ref: string): Destination | null {
    return this.s.registry.findDestination(ref);
  }

  destinationProblems(): { destination: string; field: string; message: string }[] {
    return this.s.registry.destinationProblems();
  }

  sourceByWriteKey(writeKey: string): Source | null {
    return this.s.registry.sourceByWriteKey(writeKey);
  }

  apiToken(): string {
    return this.s.control.apiToken();
  }

  rotateApiToken(): string {
    return this.s.control.rotateApiToken();
  }
}
