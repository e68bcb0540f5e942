/**
 * The store: one SQLite connection (WAL), its health, the one transaction helper, and the shared
 * repositories, each preparing its own statements once (docs/architecture.md, "Store"):
 * - messages (messageStore.ts) and message lists (messageQueries.ts)
 * - deliveries and attempts (deliveryStore.ts)
 * - config: settings, sources, destinations (configStore.ts)
 * - ingestLog: refused requests and usage counters (ingestLogStore.ts)
 * - destinationStats: pending deliveries and recent outcomes per destination (destinationStats.ts)
 * - retention: removing old messages (retentionStore.ts); deletions (deletionStore.ts)
 * A repository that one feature alone uses lives in that feature's folder (the mock receiver's, the
 * audiences', the check runs', the checklist's reads): the store may not import the features, so
 * app/services.ts builds those over this connection.
 */
import { ConfigStore } from './configStore.js';
import { DeletionStore } from './deletionStore.js';
import { DeliveryStore } from './deliveryStore.js';
import { DestinationStatsQueries } from './destinationStats.js';
import { IngestLogStore } from './ingestLogStore.js';
import { HistoryTail } from './historyTail.js';
import { DbHealth, openFailure } from './integrity.js';
import { MessageQueries } from './messageQueries.js';
import { MessageStore } from './messageStore.js';
import { openDb, type Db } from './openDb.js';
import { RetentionStore } from './retentionStore.js';
import { plainSecrets, type SecretCodec } from './secretCodec.js';
import type { Statement } from 'better-sqlite3';

export type { NewDelivery, NewMessage } from './messageStore.js';
export type { ClaimedDelivery, NewAttempt, RoundResult, StoredRound } from './deliveryStore.js';
export type { NewIngestRefusal } from './ingestLogStore.js';

/** Messages loadTail() reads at a time: about 10 ms. */
const TAIL_SLICE = 4096;

export class Store {
  readonly db: Db;
  /** Whether the file can still keep writes (deleted, replaced or damaged: see integrity.ts). */
  readonly health: DbHealth;
  readonly messages: MessageStore;
  readonly queries: MessageQueries;
  readonly deliveries: DeliveryStore;
  readonly config: ConfigStore;
  readonly ingestLog: IngestLogStore;
  readonly deletions: DeletionStore;
  /** The Destinations list's numbers: pending deliveries, the newest ones' outcomes (destinationStats.ts). */
  readonly destinationStats: DestinationStatsQueries;
  readonly retention: RetentionStore;

  /**
   * Above 0 while `transaction()` runs, waiting for the write lock included: the background thread's history index, which
   * writes the same file, reads it and leaves the lock to this thread (SQLite's busy wait is sleep and retry,
   * and a writer that takes the lock back at once could keep the other waiting past its timeout).
   */
  readonly writing = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));

  /** Whether the transaction in progress is one `transaction()` opened; callbacks waiting for its commit. */
  private owning = false;
  private committed: (() => void)[] = [];

  constructor(file: string, options: { secretCodec?: SecretCodec | undefined } = {}) {
    this.db = openDb(file);
    announceWrites(this.db, (fn) => this.transaction(fn));
    this.health = new DbHealth(file);
    const transaction = <T>(fn: () => T): T => this.transaction(fn);
    const tail = new HistoryTail();
    try {
      // Only once committed: a rolled-back insert leaves ids the tail must not vouch for.
      this.messages = new MessageStore(this.db, transaction, (first, batch) => this.afterCommit(() => tail.add(first, batch)));
      this.queries = new MessageQueries(this.db, tail);
      // Messages stored before this start that the index does not cover yet (a quit or crash mid-burst) have
      // room kept below the newest in the tail; loadTail() tells it of them while the core runs.
      tail.reserve(this.queries.index.covered(), this.queries.newestId());
      this.deliveries = new DeliveryStore(this.db, transaction);
      this.config = new ConfigStore(this.db, transaction, options.secretCodec ?? plainSecrets);
      this.ingestLog = new IngestLogStore(this.db);
      this.deletions = new DeletionStore(this.db);
      this.destinationStats = new DestinationStatsQueries(this.db, this.queries.index);
      this.retention = new RetentionStore(this.db, transaction);
    } catch (e) {
      // A large file's damage can first show here, past the checks at open: the error names the file, and the connection closes.
      this.db.close();
      throw openFailure(file, e);
    }
  }

  /** The database file's path. */
  get file(): string {
    return this.db.name;
  }

  sqliteVersion(): string {
    return (this.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  }

  /**
   * Tells the history tail of up to `max` more of the messages stored before this start that the index does
   * not cover yet, from the newest down (each slice about 2.5 µs a message). Returns whether some are left.
   * Stops at a gap in the ids: the tail vouches for one run of them. A file that cannot be read here is left
   * to the reads that follow, which report it where they always do.
   */
  loadTail(max = TAIL_SLICE): boolean {
    const tail = this.queries.tail;
    const missing = tail.missing;
    if (!missing || !this.db.open) return false;
    if (this.db.inTransaction) return true; // between transactions only: the next slice comes later
    // Below the index's watermark nothing is missing any more.
    const floor = Math.max(missing.after, this.queries.index.covered());
    const lo = Math.max(floor, missing.before - max);
    try {
      const runs = lo < missing.before ? this.messages.storedBetween(lo, missing.before) : [];
      const top = runs.at(-1);
      // Only a run that ends just below the tail's range joins it (that message may have been deleted since).
      const joins = top !== undefined && top.first + top.batch.length - 1 === missing.before;
      if (joins) tail.prepend(top.first, top.batch);
      // Done when the slice reached the floor, or a gap stopped the run (its top run does not start at lo + 1).
      if (!joins || top.first !== lo + 1 || lo === floor) tail.settle();
    } catch {
      tail.settle();
    }
    return tail.missing !== null;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * The background thread has copied the WAL: copies what was committed since (a few frames), so that the next
   * write starts the WAL over instead of growing it (store/walCheckpoint.ts). Between transactions only; not
   * once writes are refused. A failure here is no one's problem: the next round tries again, and SQLite's own
   * checkpoint is the backstop.
   */
  finishCheckpoint(): void {
    if (!this.db.open || this.db.inTransaction || this.health.problem) return;
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // see above
    }
  }

  /**
   * Runs `fn` in a transaction; inside an open one it simply runs (no savepoint per nested call). IMMEDIATE:
   * the background thread's history index writes the same file, and a transaction that read before it wrote would fail
   * (SQLITE_BUSY) if that thread committed in between, where taking the write lock first waits its turn.
   */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    let result: T;
    this.owning = true;
    Atomics.add(this.writing, 0, 1);
    try {
      result = this.db.transaction(fn).immediate();
    } catch (e) {
      this.committed = [];
      throw e;
    } finally {
      this.owning = false;
      Atomics.sub(this.writing, 0, 1);
    }
    const callbacks = this.committed;
    this.committed = [];
    for (const callback of callbacks) callback();
    return result;
  }

  /**
   * Runs `fn` once the transaction this store opened has committed, never if it rolls back; outside one
   * (or inside one opened directly on the connection) at once.
   */
  afterCommit(fn: () => void): void {
    if (this.owning) this.committed.push(fn);
    else fn();
  }
}

/**
 * A statement prepared on this connection that writes, run outside a transaction, runs in one of
 * `transaction` (Store.transaction), which `writing` counts: the history index's thread starts no chunk while
 * this thread waits for the write lock. Alone, such a write waited in SQLite's busy handler, which sleeps
 * between tries, while the index took the lock chunk after chunk, for seconds. Transactions opened on the
 * connection directly are not seen here: repositories are handed the store's instead.
 */
function announceWrites(db: Db, transaction: <T>(fn: () => T) => T): void {
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Statement;
  db.prepare = ((...args: unknown[]) => {
    const statement = prepare(...args);
    if (statement.reader) return statement;
    const run = statement.run;
    // `arguments` and apply, not rest and spread: the hot paths run statements of 450 values inside
    // transactions, and rest and spread copied them twice, three times what this costs.
    /* eslint-disable prefer-rest-params */
    statement.run = function (this: Statement) {
      if (db.inTransaction) return run.apply(statement, arguments as unknown as unknown[]);
      const params = Array.from(arguments);
      return transaction(() => run.apply(statement, params));
    } as Statement['run'];
    /* eslint-enable prefer-rest-params */
    return statement;
  }) as Db['prepare'];
}
