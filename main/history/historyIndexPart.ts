/**
 * The engine thread's side of the history indexer on the background thread (historyIndexing.ts): it keeps the
 * indexer told of the engine's load (the indexer waits while the core is busy, and only this thread knows how
 * busy), and hands on what the indexer reports. Its errors land where the in-thread indexer's did (`onError`);
 * a damaged file is the store's to say.
 */
import { isType } from '../platform/workers.js';
import type { HistoryIndexerOptions } from './historyIndexer.js';
import { SIGNAL, type HistoryIndexData, type IndexerError, type IndexerProgress } from './historyIndexing.js';

export interface HistoryIndexPartOptions extends Omit<HistoryIndexerOptions, 'index' | 'onError' | 'engineWriting'> {
  /** Above 0 while the engine's thread is in a write transaction or waiting for the lock (Store.writing). */
  writing: Int32Array;
  onError: (error: unknown) => void;
  /** After each chunk the thread indexed, with the new watermark. */
  onProgress?: (covered: number) => void;
  /** How often the engine's load is copied to the thread. */
  signalEveryMs?: number;
}

/** The part, in the shape app/backgroundThread.ts takes (ThreadPart), without importing what sits above. */
export function historyIndexPart(options: HistoryIndexPartOptions): { data: HistoryIndexData; onMessage(message: unknown): void; stop(): void } {
  const { writing, roundsInFlight, roundsRecorded = () => 0, writable = () => true, onError, onProgress, signalEveryMs = 50, ...indexerOptions } = options;
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
  return {
    data: { signals, writing, options: indexerOptions },
    onMessage: (m) => {
      if (isType(m, 'progress')) onProgress?.((m as IndexerProgress).covered);
      else if (isType(m, 'error')) {
        const { message, code } = m as IndexerError;
        onError(Object.assign(new Error(message), code ? { code } : {}));
      }
    },
    stop: () => clearInterval(timer),
  };
}
