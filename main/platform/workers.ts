/**
 * Worker threads of the engine (the forwarder, ingestion, the background thread). Each runs the compiled JavaScript
 * of its feature folder under main/, or, when Hookbench runs from its TypeScript sources (tests, tsx), the
 * source through tsx.
 */
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Where a compiled worker script is loaded from. In the packaged desktop app the code sits in `app.asar`, which
 * a worker thread's module loader cannot read with its imports; electron-builder.yml unpacks the workers and
 * what they import into `app.asar.unpacked`, and the thread starts from there.
 */
export function workerScriptUrl(name: string, base: string = import.meta.url): URL {
  return new URL(`../${name}.js`, base.replace(/\/app\.asar\//, '/app.asar.unpacked/'));
}

/**
 * The name a worker's OS thread carries (`hb:forwarder` for `delivery/forwarderWorker`): what `top -H`, `ps -L`
 * and a debugger show, and how the benchmark tells the threads' CPU apart. At most 15 characters (Linux's limit).
 */
export function threadName(name: string): string {
  return `hb:${name.slice(name.lastIndexOf('/') + 1).replace(/Worker$/, '')}`.slice(0, 15);
}

/** `name`: the script's path from main/, without extension, e.g. `delivery/forwarderWorker`. */
export function startEngineWorker(name: string, options: Pick<WorkerOptions, 'workerData'> = {}): Worker {
  const named: WorkerOptions = { ...options, name: threadName(name) };
  if (!fileURLToPath(import.meta.url).endsWith('.ts')) return new Worker(workerScriptUrl(name), named);
  const entry = new URL(`../${name}.ts`, import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  return new Worker(boot, { ...named, eval: true });
}

/** What an engine worker that holds resources (a database) posts once it has opened them. */
export const WORKER_READY = { type: 'ready' } as const;
/** What an engine worker posts once it has closed what it holds: it may then be terminated. */
export const WORKER_CLOSED = { type: 'closed' } as const;

/** Whether a message from an engine worker is of this type (WORKER_READY, WORKER_CLOSED, a worker's own). */
export const isType = (m: unknown, type: string): boolean => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;

/**
 * Asks a worker to close (`closeMessage`) and, once it has posted WORKER_CLOSED (or exited), terminates it
 * without waiting for its thread to end: with nothing left open there, that only tears the thread down
 * (a noticeable wait, as long as letting it end on its own), which closing a core need not wait for. A process that
 * exits still joins its threads.
 */
export async function closeEngineWorker(worker: Worker, closeMessage: unknown): Promise<void> {
  worker.ref(); // an unref'd worker would let the process end before it has closed what it holds
  const closed = new Promise<void>((resolve) => {
    const onMessage = (m: unknown): void => {
      if (isType(m, WORKER_CLOSED.type)) done();
    };
    const done = (): void => {
      worker.off('message', onMessage).off('exit', done);
      resolve();
    };
    worker.on('message', onMessage).once('exit', done);
  });
  worker.postMessage(closeMessage);
  await closed;
  worker.unref();
  void worker.terminate();
}

/**
 * A worker that posts WORKER_READY once it holds something. Stopped before that, it is asked to close and left
 * to end on its own (closing a core just created need not wait for its thread to start), never terminated: it
 * may have opened the database already, and a thread torn down with a connection open leaves its statements to
 * a garbage collector after the thread is gone. After WORKER_READY it is closed as closeEngineWorker does.
 */
export function stoppableOnceReady(worker: Worker, closeMessage: unknown): { stop(): Promise<void> } {
  let ready = false;
  const onMessage = (m: unknown): void => {
    if (!isType(m, WORKER_READY.type)) return;
    ready = true;
    worker.off('message', onMessage);
  };
  worker.on('message', onMessage);
  return {
    stop: async () => {
      worker.off('message', onMessage);
      if (ready) return closeEngineWorker(worker, closeMessage);
      worker.postMessage(closeMessage);
      worker.unref();
    },
  };
}
