/**
 * A worker thread that answers jobs, one answer per job, for work that would otherwise take the engine's
 * thread (HTTP for the forwarder, JSON parsing and message building for ingestion). The main side:
 * - starts the worker with the first job, so a core that never needs it has none;
 * - sends the jobs queued in one turn as one message, and the worker answers finished jobs in batches;
 * - keeps the process alive only while jobs are pending;
 * - when the worker dies, fails its pending jobs and starts a new worker with the next job.
 */
import { parentPort, type Transferable, type Worker } from 'node:worker_threads';
import { closeEngineWorker, startEngineWorker, WORKER_CLOSED } from './workers.js';

type Answer<Res> = { id: number; result: Res } | { id: number; error: string };

/** Messages to the worker: a batch of jobs, a message of the worker's own kind, or the request to close. */
export type ToJobWorker<Req, Other = never> = { type: 'jobs'; jobs: { id: number; request: Req }[] } | { type: 'other'; message: Other } | { type: 'close' };
/** Messages from the worker. */
export interface FromJobWorker<Res> {
  type: 'answers';
  answers: Answer<Res>[];
}

export interface JobWorkerOptions<Res = unknown> {
  /** The worker's module, its path from main/ without extension (see startEngineWorker). */
  name: string;
  /** An answer as it crossed (serveJobs' `encode`) made the job's result again, before the job settles. */
  decode?: (answer: never) => Res;
}

/** A job waiting for its answer: its promise's resolvers (or send()'s callbacks), dropped once used (see JobWorker.pending). */
interface Pending<Res> {
  resolve: ((r: Res) => void) | null;
  reject: ((e: unknown) => void) | null;
}

/** Settles a waiting job once, and drops the resolvers, so that the entry no longer reaches the result. */
export function settle<Res>(p: Pending<Res>, outcome: { result: Res } | { error: unknown }): void {
  const { resolve, reject } = p;
  p.resolve = null;
  p.reject = null;
  if ('error' in outcome) reject?.(outcome.error);
  else resolve?.(outcome.result);
}

export class JobWorker<Req, Res, Other = never> {
  private started: Worker | null = null;
  /**
   * The jobs sent and not answered yet. An entry lets go of its job's promise as soon as it is settled
   * (settle()): V8 copies a Map with this churn into a new table every few jobs, and an old copy that a
   * full GC promoted still points at the entries it held. The scavenger keeps whatever an old object
   * points at, dead or not, so each such entry kept its promise's result (a request's calls) alive until
   * the next full GC, which promoted the next table: a cycle that, once any full GC had started it, kept
   * the collector busy for as long as ingestion ran (docs/architecture.md, Threads).
   */
  private readonly pending = new Map<number, Pending<Res>>();
  private outbox: { id: number; request: Req }[] = [];
  private outboxTransfer: Transferable[] = [];
  private flushQueued = false;
  private nextId = 1;
  private closing = false;

  constructor(private readonly options: JobWorkerOptions<Res>) {}

  private get worker(): Worker {
    if (this.started) return this.started;
    const worker = startEngineWorker(this.options.name);
    worker.on('message', (msg: FromJobWorker<Res>) => {
      if (msg.type !== 'answers') return;
      for (const a of msg.answers) {
        const p = this.pending.get(a.id);
        this.pending.delete(a.id);
        const decode = this.options.decode;
        try {
          if (p) settle(p, 'error' in a ? { error: new Error(a.error) } : { result: decode ? decode(a.result as never) : a.result });
        } catch (e) {
          // A send() callback that threw: the other answers of the message are still settled.
          console.error(`hookbench: the ${this.options.name} thread's answer to job ${a.id} failed in its callback`, e);
        }
      }
      if (this.pending.size === 0) worker.unref();
    });
    worker.on('error', (e) => this.fail(worker, e));
    worker.on('exit', (code) => {
      if (code !== 0) this.fail(worker, new Error(`the ${this.options.name} thread exited with code ${code}`));
    });
    // Idle, the worker must not keep the process alive; with jobs pending, it does.
    worker.unref();
    this.started = worker;
    return worker;
  }

  /** The worker died: its jobs fail and the next job starts a new worker. */
  private fail(worker: Worker, e: Error): void {
    if (this.started !== worker) return; // an earlier worker's last words
    this.started = null;
    for (const p of this.pending.values()) settle(p, { error: e });
    this.pending.clear();
    this.outbox = [];
    this.outboxTransfer = [];
  }

  /**
   * Runs a job on the worker. Requests are copied, except the buffers in `transfer`, which are moved: the
   * caller can no longer read them, even when the worker dies (ingestion keeps a way to read its body again).
   */
  run(request: Req, transfer: readonly Transferable[] = []): Promise<Res> {
    return new Promise<Res>((resolve, reject) => this.send(request, resolve, reject, transfer));
  }

  /**
   * run() with callbacks instead of a promise, for a caller that starts thousands of jobs a second (the
   * engine's rounds): `done` with the result or `failed`, once; `failed` at once when the job cannot be sent.
   */
  send(request: Req, done: (result: Res) => void, failed: (e: unknown) => void, transfer: readonly Transferable[] = []): void {
    if (this.closing) return failed(new Error(`the ${this.options.name} thread is closed`));
    let worker: Worker;
    try {
      worker = this.worker;
    } catch (e) {
      return failed(e);
    }
    const id = this.nextId++;
    if (this.pending.size === 0) worker.ref();
    this.pending.set(id, { resolve: done, reject: failed });
    this.outbox.push({ id, request });
    for (const moved of transfer) this.outboxTransfer.push(moved);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      const jobs = this.outbox;
      const moved = this.outboxTransfer;
      this.outbox = [];
      this.outboxTransfer = [];
      if (jobs.length === 0) return; // the worker died in between: those jobs have failed already
      this.worker.postMessage({ type: 'jobs', jobs } satisfies ToJobWorker<Req, Other>, moved);
    });
  }

  /** A message of the worker's own kind to a running worker (none is started for it). */
  tell(message: Other): void {
    this.started?.postMessage({ type: 'other', message } satisfies ToJobWorker<Req, Other>);
  }

  async close(): Promise<void> {
    this.closing = true;
    const worker = this.started;
    if (!worker) return;
    await closeEngineWorker(worker, { type: 'close' } satisfies ToJobWorker<Req, Other>);
  }
}

/**
 * The worker side: answers each job with `handle`, finished jobs in one message per turn. `close` runs
 * before the thread ends.
 */
export function serveJobs<Req, Res, Other = never>(handlers: {
  /** One job: `done` with its result (at once or later) or `failed`; a throw fails it too. */
  handle: (request: Req, done: (result: Res) => void, failed: (e: unknown) => void) => void;
  /** A result as it crosses to the main side (JobWorkerOptions' `decode` makes it the result again). */
  encode?: (result: Res) => unknown;
  transfer?: (result: Res) => Transferable[];
  other?: (message: Other) => void;
  close?: () => Promise<void>;
}): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs only in a worker thread');
  let done: Answer<Res>[] = [];
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    if (done.length === 0) return;
    const answers = done;
    done = [];
    const transfer = handlers.transfer ? answers.flatMap((a) => ('result' in a ? handlers.transfer!(a.result) : [])) : [];
    port.postMessage({ type: 'answers', answers } satisfies FromJobWorker<Res>, transfer);
  };
  // Answers that finish asynchronously (a forwarder's rounds) travel together, once per turn.
  const finish = (answer: Answer<Res>) => {
    done.push(answer);
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(flush);
  };
  const describe = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));
  const encode = (handlers.encode ?? ((r: Res) => r)) as (r: Res) => Res;
  port.on('message', (msg: ToJobWorker<Req, Other>) => {
    if (msg.type === 'jobs') {
      // Answers computed synchronously (ingestion) leave as soon as their message is done, not after every
      // message queued behind it has been handled too.
      for (const job of msg.jobs) {
        const id = job.id;
        try {
          handlers.handle(
            job.request,
            (r) => finish({ id, result: encode(r) }),
            (e: unknown) => finish({ id, error: describe(e) }),
          );
        } catch (e) {
          finish({ id, error: describe(e) });
        }
      }
      flush();
    } else if (msg.type === 'other') {
      handlers.other?.(msg.message);
    } else {
      void (handlers.close?.() ?? Promise.resolve()).then(() => {
        port.postMessage(WORKER_CLOSED);
        port.close();
      });
    }
  });
}
