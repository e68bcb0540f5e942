/**
 * The engine thread's side of the background thread's checkpoints (checkpoints.ts): a caught-up WAL is finished
 * on this thread (Store.finishCheckpoint), an integrity report lands on the store's health, and the whole file
 * is checked again now and then while the engine is quiet.
 */
import { applyIntegrityReport, checksInBackground } from '../store/integrity.js';
import type { Store } from '../store/store.js';
import { CAUGHT_UP } from '../store/walCheckpoint.js';
import { isType } from '../platform/workers.js';
import type { ThreadPart } from './backgroundThread.js';
import { CHECK, type CheckpointsData } from './checkpoints.js';

export function checkpointPart(store: Store, options: { integrityCheckIntervalMs: number; quiet: () => boolean }): ThreadPart<CheckpointsData> {
  let post: ((message: unknown) => void) | null = null;
  const integrityTimer = setInterval(() => {
    if (post && options.quiet() && store.health.problem === null) post(CHECK);
  }, options.integrityCheckIntervalMs);
  integrityTimer.unref();
  return {
    data: { intervalMs: 200, integrityCheck: checksInBackground(store.file) },
    onMessage: (m) => {
      if (isType(m, CAUGHT_UP.type)) store.finishCheckpoint();
      else applyIntegrityReport(store.health, m);
    },
    attach: (p) => (post = p),
    stop: () => clearInterval(integrityTimer),
  };
}
