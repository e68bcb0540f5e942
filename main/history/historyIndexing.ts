/**
 * The history indexer on the background thread (app/backgroundWorker.ts runs it; historyIndexPart.ts is its
 * side on the engine's thread): the same HistoryIndexer, on a connection of its own, so that indexing (FTS5
 * trigrams, mostly) never holds the engine's event loop. WAL lets this connection write while the engine's
 * reads go on; each chunk is its own short transaction, so an engine write waits at most one chunk for the
 * write lock. What the engine knows of its own load (rounds in flight and finished, whether the file may be
 * written) comes through a shared array the engine keeps current.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { HistoryIndex } from '../store/historyIndex.js';
import { HistoryIndexer, type HistoryIndexerOptions } from './historyIndexer.js';

/** Where each figure sits in the shared array. */
export const SIGNAL = { roundsInFlight: 0, roundsRecorded: 1, writable: 2 } as const;

/** Posted after each chunk indexed: the new watermark. */
export interface IndexerProgress {
  type: 'progress';
  covered: number;
}

/** Posted when indexing failed; it tries again later. `code`: SQLite's, when there is one. */
export interface IndexerError {
  type: 'error';
  message: string;
  code: string | null;
}

/** What the thread is started with for the history index. */
export interface HistoryIndexData {
  /** The engine's load, SIGNAL's figures. */
  signals: SharedArrayBuffer;
  /** Store.writing of the engine's store: above 0 while it is in a write transaction or waits for the lock. */
  writing: Int32Array;
  options: Omit<HistoryIndexerOptions, 'index' | 'roundsInFlight' | 'roundsRecorded' | 'writable' | 'engineWriting' | 'onError'>;
}

/** The page cache of this connection, in KiB. */
const INDEX_CACHE_KIB = 1024;

export function startIndexing(file: string, data: HistoryIndexData, post: (message: unknown) => void): { readonly working: boolean; close(): void } {
  const load = new Float64Array(data.signals);
  /**
   * The engine's connection made the file and its schema before this thread started; opening must not make it
   * again (a file deleted meanwhile would come back empty under the same name). Without it there is nothing to
   * index: the part idles until closed, and the engine's own checks say what happened.
   */
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('synchronous = NORMAL');
    // The engine's writes may hold the lock for a transaction of theirs; checkpoints are the thread's other part.
    db.pragma('busy_timeout = 5000');
    db.pragma('wal_autocheckpoint = 20000');
    // better-sqlite3 gives a connection a 16 MB page cache; indexing appends to the newest pages and merges
    // segments in order, so 1 MB keeps its speed and the thread's memory far lower.
    db.pragma(`cache_size = -${INDEX_CACHE_KIB}`);
  } catch (e) {
    db?.close();
    if (existsSync(file)) console.warn(`hookbench: the background thread could not open ${file} for the history index (${e instanceof Error ? e.message : String(e)}); listMessages reads the newest messages in id order meanwhile`);
    return { working: false, close: () => {} };
  }
  const index = new HistoryIndex(db);
  const indexer = new HistoryIndexer({
    ...data.options,
    ownThread: true,
    index: {
      lag: () => index.lag(),
      merge: (pages) => index.merge(pages),
      indexNext: (max) => {
        const n = index.indexNext(max);
        if (n > 0) post({ type: 'progress', covered: index.covered() } satisfies IndexerProgress);
        return n;
      },
    },
    roundsInFlight: () => load[SIGNAL.roundsInFlight]!,
    roundsRecorded: () => load[SIGNAL.roundsRecorded]!,
    writable: () => load[SIGNAL.writable] === 1,
    engineWriting: () => Atomics.load(data.writing, 0) > 0,
    onError: (e) => {
      const { message, code } = e as { message?: unknown; code?: unknown };
      post({ type: 'error', message: String(message ?? e), code: typeof code === 'string' ? code : null } satisfies IndexerError);
    },
  });
  indexer.start();
  return {
    get working() {
      return indexer.working;
    },
    close: () => {
      indexer.stop();
      db.close();
    },
  };
}
