/** The forwarder's worker thread: sends the rounds it is given and answers their results in batches. */
import { parentPort } from 'node:worker_threads';
import { InlineForwarder, type FromWorker, type ToWorker } from './forwarderPool.js';
import type { SendResult } from './forwarder.js';

const port = parentPort;
if (!port) throw new Error('forwarderWorker runs only as a worker thread');
const forwarder = new InlineForwarder();
let done: ({ id: number; results: SendResult[] } | { id: number; error: string })[] = [];
let flushQueued = false;

function finish(entry: { id: number; results: SendResult[] } | { id: number; error: string }): void {
  done.push(entry);
  if (flushQueued) return;
  flushQueued = true;
  setImmediate(() => {
    flushQueued = false;
    const batch = done;
    done = [];
    port!.postMessage({ type: 'results', results: batch } satisfies FromWorker);
  });
}

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'send') {
    for (const job of msg.jobs) {
      forwarder.sendRound(job.request).then(
        (results) => finish({ id: job.id, results }),
        // sendRound reports every failure as a result; reaching here is a bug, passed on to the engine.
        (e: unknown) => finish({ id: job.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
      );
    }
  } else if (msg.type === 'invalidate') {
    forwarder.invalidate(msg.caFile);
  } else {
    void forwarder.close().then(() => port.close());
  }
});
