/**
 * Starts the history indexer (historyIndexer.ts) on a thread of its own (historyIndexWorker.ts) and keeps it
 * told of the engine's load: the indexer waits while the core is busy, and only this thread knows how busy.
 * The thread's errors land where the in-thread indexer's did (`onError`); a damaged file is the store's to say.
 */
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

export interface HistoryIndexThreadOptions extends Omit<HistoryIndexerOptions, 'index' | 'onError'> {
  file: string;
  onError: (error: unknown) => void;
  /** After each chunk the thread indexed, with the new watermark. */
  onProgress?: (covered: number) => void;
  /** How often the engine's load is copied to the thread. */
  signalEveryMs?: number;
}

export function startHistoryIndexThread(options: HistoryIndexThreadOptions): { stop(): Promise<void> } {
  const { file, roundsInFlight, roundsRecorded = () => 0, writable = () => true, onError, onProgress, signalEveryMs = 50, ...indexerOptions } = options;
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
  const worker = startEngineWorker('history/historyIndexWorker', { workerData: { file, signals, options: indexerOptions } });
  worker.on('message', (m: unknown) => {
    if (isType(m, 'progress')) onProgress?.((m as IndexerProgress).covered);
    else if (isType(m, 'error')) {
      const { message, code } = m as IndexerError;
      onError(Object.assign(new Error(message), code ? { code } : {}));
    }
  });
  worker.on('error', (e) => onError(e));
  worker.unref();
  const thread = stoppableOnceReady(worker, 'close');
  return {
    stop: () => {
      clearInterval(timer);
      return thread.stop();
    },
  };
}
