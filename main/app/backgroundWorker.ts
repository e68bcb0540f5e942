/**
 * The background thread (app/backgroundThread.ts starts it): the database's work that must not hold the engine's
 * event loop, on connections of its own. Its parts are WAL checkpoints and the integrity checks
 * (app/checkpoints.ts), and the history index (history/historyIndexing.ts). They share one thread because
 * each is idle most of the time, and every thread is a V8 heap of its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { WORKER_CLOSED, WORKER_READY } from '../platform/workers.js';
import { startIndexing } from '../history/historyIndexing.js';
import { CLOSE, type BackgroundWorkerData } from './backgroundThread.js';
import { startCheckpoints } from './checkpoints.js';

const { file, checkpoints, index } = workerData as BackgroundWorkerData;
const post = (message: unknown): void => parentPort!.postMessage(message);
const indexing = index ? startIndexing(file, index, post) : null;
// While the index catches up, checkpoints make way for it (checkpoints.ts, RELAXED_INTERVAL_MS).
const checkpointing = checkpoints ? startCheckpoints(file, checkpoints, post, { relaxed: () => indexing?.working ?? false }) : null;
post(WORKER_READY);
parentPort!.on('message', (message: unknown) => {
  if (message !== CLOSE) return checkpointing?.onMessage(message);
  indexing?.close();
  checkpointing?.close();
  post(WORKER_CLOSED);
  parentPort!.close();
});
