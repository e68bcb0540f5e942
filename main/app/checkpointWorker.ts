/**
 * Copies the WAL into the database file from a second connection on its own thread, so that this I/O
 * (and its fsync) never blocks the engine's thread in the middle of a commit; tells the engine's thread
 * when it has caught up, so that the WAL starts over (store/walCheckpoint.ts). Asked to, it first runs the
 * integrity check of a database too large to check at open.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { checkProblems, ONE_PASS_CACHE_KIB, openForCheck, quickCheck, type IntegrityReport } from '../store/integrity.js';
import { CAUGHT_UP, catchUp, type CheckpointResult } from '../store/walCheckpoint.js';
import { WORKER_CLOSED, WORKER_READY } from '../platform/workers.js';

const { file, intervalMs, integrityCheck } = workerData as { file: string; intervalMs: number; integrityCheck?: boolean };
/**
 * The engine's connection made the file before this thread started; opening it must not make it again. This
 * thread may start late (a busy machine, or the TypeScript loader in tests): a file deleted meanwhile would
 * otherwise come back empty under the same name, and the engine would take the deletion for a replacement
 * (store/integrity.ts). Without a file there is nothing to checkpoint: the thread idles until closed, and the
 * engine's own check says what happened.
 */
let db: Database.Database | null = null;
try {
  db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 1000');
  // A checkpoint copies WAL frames without the page cache, and the background integrity check reads each page
  // once: better-sqlite3's 16 MB cache would only hold pages this thread never reads again.
  db.pragma(`cache_size = -${ONE_PASS_CACHE_KIB}`);
} catch (e) {
  if (existsSync(file)) console.warn(`hookbench: the checkpoint thread could not open ${file} (${e instanceof Error ? e.message : String(e)}); SQLite's own checkpoints still run`);
}
parentPort!.postMessage(WORKER_READY);
if (db && integrityCheck) {
  // A large database's full quick_check runs here, off the engine's thread, so that start stays fast
  // (store/integrity.ts, FULL_CHECK_AT_OPEN_BYTES). Checkpoints wait meanwhile: the WAL just grows.
  let problems: string[];
  try {
    problems = checkProblems(() => quickCheck(db!));
  } catch (e) {
    problems = []; // not damage (I/O, a busy database): the engine's own errors will tell
    console.warn(`hookbench: the background integrity check could not run (${e instanceof Error ? e.message : String(e)})`);
  }
  parentPort!.postMessage({ type: 'integrity', problems } satisfies IntegrityReport);
}
/** The frames in the WAL when the main thread was last told that everything was copied (no news, no message). */
let reported = -1;
const timer = setInterval(() => {
  if (!db) return;
  const connection = db;
  try {
    // PASSIVE: copies what it can without waiting for, or blocking, the writer; repeated until it has caught
    // up, then the main thread finishes the round so that the WAL starts over (store/walCheckpoint.ts).
    const frames = catchUp(() => (connection.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0]!);
    if (frames !== null && frames !== reported) {
      reported = frames;
      parentPort!.postMessage(CAUGHT_UP);
    }
  } catch {
    // A busy database is fine: the next interval tries again; SQLite's own checkpoint is the backstop.
  }
}, intervalMs);
parentPort!.on('message', (msg: 'close' | 'check') => {
  if (msg === 'check') {
    // Asked while the engine is quiet: damage to pages nothing has read since (a disk fault, another program
    // writing the file) is found while running, not at the next start.
    if (!db) return;
    let problems: string[] = [];
    let fresh: Database.Database | null = null;
    try {
      // On a connection of its own, opened for this check: FTS5's check on a long-lived second connection
      // reads a search index structure cached from before the engine changed it, and reports sound pages
      // as corrupt ("fts5: corruption found reading blob …"), while a connection opened now reads it whole.
      fresh = openForCheck(file);
      problems = checkProblems(() => quickCheck(fresh!));
    } catch {
      // not damage (a busy database, or the file gone: the engine's own checks say so): the next check tries again
    } finally {
      fresh?.close();
    }
    parentPort!.postMessage({ type: 'integrity', problems } satisfies IntegrityReport);
    return;
  }
  if (msg !== 'close') return;
  clearInterval(timer);
  db?.close();
  parentPort!.postMessage(WORKER_CLOSED);
  parentPort!.close();
});
