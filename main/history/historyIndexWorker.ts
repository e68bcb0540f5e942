/**
 * The history indexer's thread (historyIndexThread.ts starts it): the same HistoryIndexer, on a connection of
 * its own, so that indexing (FTS5 trigrams, mostly) never holds the engine's event loop. WAL lets this
 * connection write while the engine's reads go on; each chunk is its own short transaction, so an engine
 * write waits at most one chunk for the write lock. What the engine knows of its own load (rounds in flight
 * and finished, whether the file may be written) comes through a shared array the engine keeps current.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { HistoryIndex } from '../store/historyIndex.js';
import { WORKER_CLOSED, WORKER_READY } from '../platform/workers.js';
import { HistoryIndexer } from './historyIndexer.js';
import { SIGNAL, type HistoryIndexWorkerData, type IndexerError, type IndexerProgress } from './historyIndexThread.js';

const { file, signals, writing, options } = workerData as HistoryIndexWorkerData;
const load = new Float64Array(signals);
/** The page cache of this thread's connection, in KiB. */
const INDEX_CACHE_KIB = 1024;

/**
 * The engine's connection made the file and its schema before this thread started; opening must not make it
 * again (a file deleted meanwhile would come back empty under the same name). Without it there is nothing to
 * index: the thread idles until closed, and the engine's own checks say what happened.
 */
let db: Database.Database | null = null;
let indexer: HistoryIndexer | null = null;
try {
  db = new Database(file, { fileMustExist: true });
  db.pragma('synchronous = NORMAL');
  // The engine's writes may hold the lock for a transaction of theirs; the checkpoint thread owns checkpoints.
  db.pragma('busy_timeout = 5000');
  db.pragma('wal_autocheckpoint = 20000');
  // better-sqlite3 gives a connection a 16 MB page cache; indexing appends to the newest pages and merges
  // segments in order, so 1 MB keeps its speed and the thread's memory far lower.
  db.pragma(`cache_size = -${INDEX_CACHE_KIB}`);
} catch (e) {
  if (existsSync(file)) console.warn(`hookbench: the history index thread could not open ${file} (${e instanceof Error ? e.message : String(e)}); listMessages reads the newest messages in id order meanwhile`);
}
if (db) {
  const index = new HistoryIndex(db);
  indexer = new HistoryIndexer({
    ...options,
    ownThread: true,
    index: {
      lag: () => index.lag(),
      merge: (pages) => index.merge(pages),
      indexNext: (max) => {
        const n = index.indexNext(max);
        if (n > 0) parentPort!.postMessage({ type: 'progress', covered: index.covered() } satisfies IndexerProgress);
        return n;
      },
    },
    roundsInFlight: () => load[SIGNAL.roundsInFlight]!,
    roundsRecorded: () => load[SIGNAL.roundsRecorded]!,
    writable: () => load[SIGNAL.writable] === 1,
    engineWriting: () => Atomics.load(writing, 0) > 0,
    onError: (e) => {
      const { message, code } = e as { message?: unknown; code?: unknown };
      parentPort!.postMessage({ type: 'error', message: String(message ?? e), code: typeof code === 'string' ? code : null } satisfies IndexerError);
    },
  });
  indexer.start();
}
parentPort!.postMessage(WORKER_READY);
parentPort!.on('message', (msg: unknown) => {
  if (msg !== 'close') return;
  indexer?.stop();
  db?.close();
  parentPort!.postMessage(WORKER_CLOSED);
  parentPort!.close();
});
