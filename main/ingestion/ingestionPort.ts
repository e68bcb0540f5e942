import type { Source } from '../contract/models.js';
import type { DbHealth } from '../store/integrity.js';
import type { NewIngestRefusal } from '../store/store.js';
import type { PreparedCalls } from './ingestPrepare.js';

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
