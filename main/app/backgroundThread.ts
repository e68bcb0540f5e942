/**
 * Starts the background thread (backgroundWorker.ts) with the data of its parts, hands each part the thread's
 * messages, and starts the thread again when it ends on its own. A part is the engine thread's side of one
 * piece of background work: checkpoints (checkpointPart.ts) or the history index (history/historyIndexPart.ts).
 */
import type { Worker } from 'node:worker_threads';
import type { HistoryIndexData } from '../history/historyIndexing.js';
import { startEngineWorker, stoppableOnceReady } from '../platform/workers.js';
import type { CheckpointsData } from './checkpoints.js';

/** What the thread is started with: a part runs there when its data is given. */
export interface BackgroundWorkerData {
  file: string;
  checkpoints: CheckpointsData | null;
  index: HistoryIndexData | null;
}

/** The message that closes every part, then the thread. */
export const CLOSE = 'close';

/** The engine thread's side of a part. */
export interface ThreadPart<Data> {
  /** What the thread is started with for this part. */
  readonly data: Data;
  /** A message from the thread: every part sees each one and takes the types it knows. */
  onMessage(message: unknown): void;
  /** A thread was started (again): what the part sends it goes through `post`. */
  attach?(post: (message: unknown) => void): void;
  /** The thread is being stopped: the part's own timers end. */
  stop(): void;
}

export interface BackgroundThreadOptions {
  file: string;
  checkpoints: ThreadPart<CheckpointsData> | null;
  index: ThreadPart<HistoryIndexData> | null;
  /** The thread failed, or ended on its own. */
  onError: (error: unknown) => void;
  /** A thread that ended on its own is started again after this long. */
  restartAfterMs?: number;
  /** Starts the thread (backgroundWorker.ts by default; tests give one that ends on its own). */
  startWorker?: (data: BackgroundWorkerData) => Worker;
}

export function startBackgroundThread(options: BackgroundThreadOptions): { stop(): Promise<void> } {
  const { file, checkpoints, index, onError, restartAfterMs = 30_000, startWorker = (workerData) => startEngineWorker('app/backgroundWorker', { workerData }) } = options;
  const parts: ThreadPart<unknown>[] = [checkpoints, index].filter((p) => p !== null);
  const data: BackgroundWorkerData = { file, checkpoints: checkpoints?.data ?? null, index: index?.data ?? null };
  let stopping = false;
  let restart: NodeJS.Timeout | null = null;
  const start = (): { stop(): Promise<void> } => {
    const worker = startWorker(data);
    let running = true;
    worker.on('message', (m: unknown) => {
      for (const part of parts) part.onMessage(m);
    });
    worker.on('error', (e) => onError(e));
    // Like the engine's other threads, one that ends on its own is replaced: the index's watermark says where
    // it was, and checkpoints have nothing to carry over.
    worker.once('exit', (code) => {
      running = false;
      if (stopping) return;
      onError(new Error(`the background thread (checkpoints, history index) ended (exit code ${code}); it starts again in ${restartAfterMs / 1000} s`));
      restart = setTimeout(() => {
        restart = null;
        if (!stopping) thread = start();
      }, restartAfterMs);
      restart.unref();
    });
    worker.unref();
    for (const part of parts) part.attach?.((m) => running && worker.postMessage(m));
    return stoppableOnceReady(worker, CLOSE);
  };
  let thread = start();
  return {
    stop: () => {
      stopping = true;
      for (const part of parts) part.stop();
      if (restart) clearTimeout(restart);
      return thread.stop();
    },
  };
}
