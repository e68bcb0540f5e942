import type { EventOf } from '../contract/events.js';
import type { IngestRefusal, Source } from '../contract/sources.js';
import type { Clock } from '../platform/clock.js';
import type { EventBus } from '../platform/eventBus.js';
import type { Registry } from '../registry/registry.js';
import type { DbHealth } from '../store/integrity.js';
import type { NewIngestRefusal, Store } from '../store/store.js';
import type { PreparedCalls } from './ingestPrepare.js';
import type { Intake } from './intake.js';

/** What ingestion (ingestion/ingest.ts, the HTTP server's /v1 routes) needs of the core, and no more. */
export interface IngestionPort {
  readonly clock: { now(): number };
  /** Whether the database can still keep writes (store/integrity.ts). */
  readonly health: DbHealth;
  sourceByWriteKey(writeKey: string): Source | null;
  /**
   * Stores calls that ingestion checked and built (ingestion/ingestPrepare.ts), in one transaction (or the one
   * in progress), and counts them in the source's usage.
   */
  ingest(input: { source: Source; receivedAt: number; calls: PreparedCalls; bodies: Uint8Array }): void;
  /** A refused request, with its reason (never a message). */
  logRefusal(refusal: NewIngestRefusal): void;
  /** Calls of a refused request count in their source's usage as received and refused. */
  countRefused(sourceId: string, calls: number): void;
  /** Requests ready at the same moment share one commit. */
  transaction<T>(fn: () => T): T;
}

/** A core's IngestionPort: intake stores, the ingest log keeps refusals, and refusals are announced to whoever listens. */
export function ingestionPort(deps: {
  store: Store;
  clock: Clock;
  bus: EventBus;
  registry: Registry;
  intake: Intake;
  /** Listeners of refused requests alone (serve's log): they do not make the core build every event. */
  refusalListeners: ReadonlySet<(refusal: IngestRefusal) => void>;
}): IngestionPort {
  const { store, clock, bus, registry, intake, refusalListeners } = deps;
  return {
    clock,
    health: store.health,
    sourceByWriteKey: (writeKey) => registry.sourceByWriteKey(writeKey),
    ingest: (input) => intake.ingest(input),
    logRefusal: (refusal) => {
      const id = store.ingestLog.logRefusal(refusal);
      // Refusals are never on the hot path of accepted calls; the preview stays in the log (listIngestLog).
      if (!bus.listening && refusalListeners.size === 0) return;
      const event: EventOf<'ingestRefused'> = { type: 'ingestRefused', refusal: { ...refusal, id, limit: refusal.limit ?? null, bodyPreview: null } };
      for (const l of refusalListeners) l(event.refusal);
      bus.emit(event);
    },
    countRefused: (sourceId, calls) => {
      store.ingestLog.countUsage(sourceId, { received: calls, refused: calls });
      intake.usage.add(sourceId, clock.now(), { received: calls, refused: calls });
    },
    transaction: (fn) => store.transaction(fn),
  };
}
