/**
 * Copies the WAL into the database file from a second connection on its own thread, so that this I/O
 * (and its fsync) never blocks the engine's thread in the middle of a commit.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteOptions } from '../store/nativeBinding.js';
import { WORKER_CLOSED, WORKER_READY } from './workers.js';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new Database(file, sqliteOptions());
db.pragma('busy_timeout = 1000');
parentPort!.postMessage(WORKER_READY);
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
