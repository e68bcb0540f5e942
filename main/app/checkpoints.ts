/**
 * The background thread's checkpoints (app/backgroundWorker.ts runs them): copies the WAL into the database
 * file from a second connection, so that this I/O (and its fsync) never blocks the engine's thread in the
 * middle of a commit, and tells the engine's thread when it has caught up, so that the WAL starts over
 * (store/walCheckpoint.ts). Asked to, it first runs the integrity check of a database too large to check at
 * open, and checks the whole file again when told to ('check').
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { checkProblems, ONE_PASS_CACHE_KIB, openForCheck, quickCheck, type IntegrityReport } from '../store/integrity.js';
import { CAUGHT_UP, catchUp, type CheckpointResult } from '../store/walCheckpoint.js';

/** What the thread is started with for its checkpoints. */
export interface CheckpointsData {
  /** How often a checkpoint pass runs. */
  intervalMs: number;
  /** Runs the full integrity check first (a file too large to check at open). */
  integrityCheck?: boolean;
  /** The share of the time checks of the whole file may take; CHECK_SHARE by default (1: every ask). */
  checkShare?: number;
}

/** The message that asks for a check of the whole file. */
export const CHECK = 'check';

/**
 * How often a pass runs at most while `relaxed()`: the history index catching up on the same thread (a check of
 * the whole file waits till then too). Each pass
 * syncs the WAL and the file and copies every page written since the one before, and indexing rewrites the
 * same pages many times a second; with the core quiet meanwhile, the WAL grows by one second of indexing.
 */
export const RELAXED_INTERVAL_MS = 1000;

/**
 * The share of the time that checks of the whole file may take: one that took 4 s waits 76 s more before the
 * next runs, so that a large file's checks every minute do not keep a core busy while serve is idle.
 */
export const CHECK_SHARE = 1 / 20;

export interface CheckpointsOptions {
  /** True while the history index catches up on the same thread (RELAXED_INTERVAL_MS). */
  relaxed?: () => boolean;
  /** Milliseconds, monotonic (tests give their own). */
  now?: () => number;
}

export function startCheckpoints(file: string, data: CheckpointsData, post: (message: unknown) => void, options: CheckpointsOptions = {}): { onMessage(message: unknown): void; close(): void } {
  const { relaxed = () => false, now = () => performance.now() } = options;
  /**
   * The engine's connection made the file before this thread started; opening it must not make it again. This
   * thread may start late (a busy machine, or the TypeScript loader in tests): a file deleted meanwhile would
   * otherwise come back empty under the same name, and the engine would take the deletion for a replacement
   * (store/integrity.ts). Without a file there is nothing to checkpoint: the part idles until closed, and the
   * engine's own check says what happened.
   */
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('busy_timeout = 1000');
    // A checkpoint copies WAL frames without the page cache: better-sqlite3's 16 MB would only hold pages this
    // connection never reads again.
    db.pragma(`cache_size = -${ONE_PASS_CACHE_KIB}`);
  } catch (e) {
    if (existsSync(file)) console.warn(`hookbench: the background thread could not open ${file} for checkpoints (${e instanceof Error ? e.message : String(e)}); SQLite's own checkpoints still run`);
  }
  /** Before this, an ask for a check of the whole file is put off (CHECK_SHARE). */
  let nextCheckAt = -Infinity;
  /** `say`: whether a check that could not run is worth a line (the one at start; a running one tries again). */
  const check = (read: () => string[], say: boolean): void => {
    const startedAt = now();
    let problems: string[];
    try {
      problems = checkProblems(read);
    } catch (e) {
      problems = []; // not damage (I/O, a busy database, the file gone): the engine's own errors will tell
      if (say) console.warn(`hookbench: the background integrity check could not run (${e instanceof Error ? e.message : String(e)})`);
    }
    post({ type: 'integrity', problems } satisfies IntegrityReport);
    const endedAt = now();
    nextCheckAt = endedAt + (endedAt - startedAt) * (1 / (data.checkShare ?? CHECK_SHARE) - 1);
  };
  // A large database's full quick_check runs here, off the engine's thread, so that start stays fast
  // (store/integrity.ts, FULL_CHECK_AT_OPEN_BYTES); after this turn, so that the thread says it is ready first.
  // Checkpoints and the history index wait meanwhile: the WAL just grows.
  const first = db && data.integrityCheck ? setImmediate(() => check(() => quickCheck(db!), true)) : null;
  /** The frames in the WAL when the main thread was last told that everything was copied (no news, no message). */
  let reported = -1;
  let lastPass = -Infinity;
  const timer = setInterval(() => {
    if (!db) return;
    const at = now();
    if (relaxed() && at - lastPass < RELAXED_INTERVAL_MS) return;
    lastPass = at;
    const connection = db;
    try {
      // PASSIVE: copies what it can without waiting for, or blocking, the writer; repeated until it has caught
      // up, then the main thread finishes the round so that the WAL starts over (store/walCheckpoint.ts).
      const frames = catchUp(() => (connection.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0]!);
      if (frames !== null && frames !== reported) {
        reported = frames;
        post(CAUGHT_UP);
      }
    } catch {
      // A busy database is fine: the next interval tries again; SQLite's own checkpoint is the backstop.
    }
  }, data.intervalMs);
  return {
    onMessage: (message) => {
      // While the index catches up on this thread, the check (seconds on a large file) waits for a later ask;
      // so does one asked before the last check's share of the time (CHECK_SHARE) has passed.
      if (message !== CHECK || !db || relaxed()) return;
      if (now() < nextCheckAt) return;
      // Asked while the engine is quiet: damage to pages nothing has read since (a disk fault, another program
      // writing the file) is found while running, not at the next start. On a connection of its own, opened
      // for this check: FTS5's check on a long-lived second connection reads a search index structure cached
      // from before the engine changed it, and reports sound pages as corrupt ("fts5: corruption found reading
      // blob …"), while a connection opened now reads it whole.
      check(() => {
        const fresh = openForCheck(file);
        try {
          return quickCheck(fresh);
        } finally {
          fresh.close();
        }
      }, false);
    },
    close: () => {
      if (first) clearImmediate(first);
      clearInterval(timer);
      db?.close();
    },
  };
}
