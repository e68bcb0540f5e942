/**
 * Copies the WAL into the database file from a second connection on its own thread, so that this I/O
 * (and its fsync) never blocks the engine's thread in the middle of a commit. Asked to, it first runs the
 * integrity check of a database too large to check at open.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteOptions } from '../store/nativeBinding.js';
import { checkProblems, quickCheck, type IntegrityReport } from '../store/integrity.js';
import { WORKER_CLOSED, WORKER_READY } from './workers.js';

const { file, intervalMs, integrityCheck } = workerData as { file: string; intervalMs: number; integrityCheck?: boolean };
const db = new Database(file, sqliteOptions());
db.pragma('busy_timeout = 1000');
parentPort!.postMessage(WORKER_READY);
if (integrityCheck) {
  // A large database's full quick_check runs here, off the engine's thread, so that start stays fast
  // (store/integrity.ts, FULL_CHECK_AT_OPEN_BYTES). Checkpoints wait meanwhile: the WAL just grows.
  let problems: string[];
  try {
    problems = checkProblems(() => quickCheck(db));
  } catch (e) {
    problems = []; // not damage (I/O, a busy database): the engine's own errors will tell
    console.warn(`hookbench: the background integrity check could not run (${e instanceof Error ? e.message : String(e)})`);
  }
  parentPort!.postMessage({ type: 'integrity', problems } satisfies IntegrityReport);
}
const timer = setInterval(() => {
  try {
    // PASSIVE: copies what it can without waiting for, or blocking, the writer.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database is fine: the next interval tries again; SQLite's own checkpoint is the backstop.
  }
}, intervalMs);
parentPort!.on('message', (msg: 'close') => {
  if (msg !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort!.postMessage(WORKER_CLOSED);
  parentPort!.close();
});
