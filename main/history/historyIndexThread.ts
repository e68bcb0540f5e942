/**
 * Starts the history indexer (historyIndexer.ts) on a thread of its own (historyIndexWorker.ts) and keeps it
 * told of the engine's load: the indexer waits while the core is busy, and only this thread knows how busy.
 * The thread's errors land where the in-thread indexer's did (`onError`); a damaged file is the store's to say.
 */
import type { Worker } from 'node:worker_threads';
import { isType, startEngineWorker, stoppableOnceReady } from '../platform/workers.js';
import type { HistoryIndexerOptions } from './historyIndexer.js';

/** Where each figure sits in the shared array. */
export const SIGNAL = { roundsInFlight: 0, roundsRecorded: 1, writable: 2 } as const;

/** Posted by the thread after each chunk it indexed: the new watermark. */
export interface IndexerProgress {
  type: 'progress';
  covered: number;
}

/** Posted by the thread when indexing failed; it tries again later. `code`: SQLite's, when there is one. */
export interface IndexerError {
  type: 'error';
  message: string;
  code: string | null;
}

export interface HistoryIndexThreadOptions extends Omit<HistoryIndexerOptions, 'index' | 'onError' | 'engineWriting'> {
  file: string;
  /** Above 0 while the engine's thread is in a write transaction or waiting for the lock (Store.writing). */
  writing: Int32Array;
  onError: (error: unknown) => void;
  /** After each chunk the thread indexed, with the new watermark. */
  onProgress?: (covered: number) => void;
  /** How often the engine's load is copied to the thread. */
  signalEveryMs?: number;
  /** A thread that ended on its own is started again after this long. */
  restartAfterMs?: number;
  /** Starts the thread (historyIndexWorker.ts by default; tests give one that ends on its own). */
  startWorker?: (workerData: HistoryIndexWorkerData) => Worker;
}

/** What the thread is started with. */
export interface HistoryIndexWorkerData {
  file: string;
  signals: SharedArrayBuffer;
  writing: Int32Array;
  /** Store.writing of the engine's store is `writing`; the load figures come through `signals`. */
  options: Omit<HistoryIndexerOptions, 'index' | 'roundsInFlight' | 'roundsRecorded' | 'writable' | 'engineWriting' | 'onError'>;
}

export function startHistoryIndexThread(options: HistoryIndexThreadOptions): { stop(): Promise<void> } {
  const {
    file,
    writing,
    roundsInFlight,
    roundsRecorded = () => 0,
    writable = () => true,
    onError,
    onProgress,
    signalEveryMs = 50,
    restartAfterMs = 30_000,
    startWorker = (workerData) => startEngineWorker('history/historyIndexWorker', { workerData }),
    ...indexerOptions
  } = options;
  const signals = new SharedArrayBuffer(3 * Float64Array.BYTES_PER_ELEMENT);
  const load = new Float64Array(signals);
  const signal = (): void => {
    load[SIGNAL.roundsInFlight] = roundsInFlight();
    load[SIGNAL.roundsRecorded] = roundsRecorded();
    load[SIGNAL.writable] = writable() ? 1 : 0;
  };
  signal();
  const timer = setInterval(signal, signalEveryMs);
  timer.unref();
  let stopping = false;
  let restart: NodeJS.Timeout | null = null;
  const start = (): { stop(): Promise<void> } => {
    const worker = startWorker({ file, signals, writing, options: indexerOptions });
    worker.on('message', (m: unknown) => {
      if (isType(m, 'progress')) onProgress?.((m as IndexerProgress).covered);
      else if (isType(m, 'error')) {
        const { message, code } = m as IndexerError;
        onError(Object.assign(new Error(message), code ? { code } : {}));
      }
    });
    worker.on('error', (e) => onError(e));
    // Like the engine's other threads, one that ends on its own is replaced; the watermark says where it was.
    worker.once('exit', (code) => {
      if (stopping) return;
      onError(new Error(`the history index thread ended (exit code ${code}); it starts again in ${restartAfterMs / 1000} s`));
      restart = setTimeout(() => {
        restart = null;
        if (!stopping) thread = start();
      }, restartAfterMs);
      restart.unref();
    });
    worker.unref();
    return stoppableOnceReady(worker, 'close');
  };
  let thread = start();
  return {
    stop: () => {
      stopping = true;
      clearInterval(timer);
      if (restart) clearTimeout(restart);
      return thread.stop();
    },
  };
}
