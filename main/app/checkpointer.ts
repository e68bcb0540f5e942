/**
 * The checkpoint thread of a core (checkpointWorker.ts): WAL checkpoints every 200 ms, and the whole file
 * checked again now and then while the engine is quiet. What it reports lands on the store: a caught-up WAL is
 * finished on this thread (Store.finishCheckpoint), an integrity report on the store's health.
 */
import { applyIntegrityReport, checksInBackground } from '../store/integrity.js';
import type { Store } from '../store/store.js';
import { CAUGHT_UP } from '../store/walCheckpoint.js';
import { isType, startEngineWorker, stoppableOnceReady } from '../platform/workers.js';

export function startCheckpointer(store: Store, options: { integrityCheckIntervalMs: number; quiet: () => boolean }): { stop(): Promise<void> } {
  const worker = startEngineWorker('app/checkpointWorker', { workerData: { file: store.file, intervalMs: 200, integrityCheck: checksInBackground(store.file) } });
  worker.on('message', (m) => {
    if (isType(m, CAUGHT_UP.type)) store.finishCheckpoint();
    else applyIntegrityReport(store.health, m);
  });
  worker.unref();
  const thread = stoppableOnceReady(worker, 'close');
  // The whole file is checked again now and then while no round is out, on the checkpoint thread.
  const integrityTimer = setInterval(() => {
    if (options.quiet() && store.health.problem === null) worker.postMessage('check');
  }, options.integrityCheckIntervalMs);
  integrityTimer.unref();
  return {
    stop: () => {
      clearInterval(integrityTimer);
      return thread.stop();
    },
  };
}
