/**
 * Contender (main): the Hookbench engine. A fresh data dir, one enabled destination with a shared secret
 * (so every attempt is signed) pointing at the receiver, then `n` track messages through core.sendMessages
 * (batches of 100, as SDKs send them) as fast as possible, in chunks that yield to the event loop so the engine delivers while messages arrive.
 * The run counts only if every message ends `delivered` with exactly one persisted attempt.
 *
 * The core is warmed up before it is measured, as the raw loop's code is: `warmUp` messages go through the
 * same core first, so its forwarder thread is running, its code compiled and its connections open, as in the
 * app, whose engine lives as long as the app. Without it, a run also timed the forwarder thread's start
 * (a new V8 isolate loading undici) and its first, unoptimised requests.
 */
import { createCore, type Core, internalsOf } from '../main/app/createCore.js';
import type { ContenderOutput, ContenderRun } from './contender.js';
import { cpuByThread, threadShares, threadTimes } from './threads.js';
import { ENGINE_IN_FLIGHT, SHARED_SECRET, trackCall } from './workload.js';

/**
 * `adaptive`: the engine's own window (256 rounds in flight, growing to 2,048 as the webhooks allow: see
 * delivery/inFlightWindow.ts). `fixed`: 256 always, as before the window adapted (`--fixed-window`, to compare).
 */
export type WindowMode = 'adaptive' | 'fixed';

export interface EngineTarget {
  /** One destination per URL; message i goes to destination i mod urls.length (one delivery each). */
  urls: readonly string[];
  window: WindowMode;
}

/** Messages per sendMessages call (one transaction), as an SDK batches them; the loop yields between batches. */
export const SEND_CHUNK = 100;
/** How long to wait for the engine to drain after the last send before calling the run failed. */
const DRAIN_LIMIT_MS = 60_000;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `live` is the benchmark proper: messages accepted while the engine delivers, timed from the first send to
 * the last result committed. `drain` is a diagnostic: all `n` messages are accepted with the core paused
 * (not timed), then forwarding starts again and is timed until the backlog is delivered and logged, which
 * separates the delivery pipeline's cost from sendMessage's. Both warm the core up first (see above).
 */
export async function runEngine(target: EngineTarget, n: number, dataDir: string, mode: 'live' | 'drain', run: ContenderRun): Promise<ContenderOutput> {
  const core = createCore({ dataDir, seed: 1, ...(target.window === 'fixed' ? { maxInFlight: ENGINE_IN_FLIGHT } : {}) });
  try {
    const destinations = target.urls.map((url, i) => {
      const d = core.createDestination({ name: `bench receiver ${i + 1}`, enabled: true, sharedSecret: SHARED_SECRET, url });
      if (!d.ok) throw new Error(`engine: createDestination failed: ${d.error.message}`);
      return d.value.id;
    });
    // With one destination every message routes to it; with several, each names its own.
    const route = (i: number): { destinations?: string[] } => (destinations.length > 1 ? { destinations: [destinations[i % destinations.length]!] } : {});

    const sendRange = (from: number, to: number): void => {
      const messages = [];
      for (let i = from; i < to; i++) messages.push({ type: 'track' as const, call: trackCall(i), ...route(i) });
      const sent = core.sendMessages({ messages });
      if (!sent.ok) throw new Error(`engine: sendMessages ${from}..${to} failed: ${sent.error.message}`);
      const misrouted = sent.value.findIndex((o) => o.deliveries.length !== 1);
      if (misrouted >= 0) throw new Error(`engine: message ${from + misrouted} was routed to ${sent.value[misrouted]!.deliveries.length} deliveries`);
    };

    /** Sends messages `from` .. `to - 1` in chunks, yielding between chunks so the engine delivers meanwhile. */
    const sendLive = async (from: number, to: number): Promise<void> => {
      for (let i = from; i < to; i += SEND_CHUNK) {
        sendRange(i, Math.min(to, i + SEND_CHUNK));
        await yieldToLoop();
      }
    };

    const warmUpStarted = performance.now();
    await sendLive(0, run.warmUp);
    await drain(core);
    const warmUpMs = performance.now() - warmUpStarted;
    // Only the messages after the warm-up's are measured and verified.
    const after = internalsOf(core).store.db.prepare<[], number>('SELECT coalesce(max(id), 0) FROM messages').pluck().get() ?? 0;
    const first = run.warmUp;

    let t0: number;
    let acceptedMs: number;
    let threads0 = new Map<string, number>();
    let startedAtMs = 0;
    if (mode === 'live') {
      await run.ready();
      threads0 = threadTimes();
      t0 = performance.now();
      await sendLive(first, first + n);
      acceptedMs = performance.now() - t0;
    } else {
      // Paused, the core holds its deliveries: the backlog is accepted first, then released at once.
      core.pause();
      const a0 = performance.now();
      for (let i = first; i < first + n; i += SEND_CHUNK) sendRange(i, Math.min(first + n, i + SEND_CHUNK));
      acceptedMs = performance.now() - a0;
      await run.ready();
      threads0 = threadTimes();
      t0 = performance.now();
      startedAtMs = core.clock.now();
      core.start();
    }
    const extraIdleWaits = await drain(core);
    const elapsedMs = performance.now() - t0;
    run.measured();
    const threads1 = threadTimes();

    const verified = verify(core, n, after, mode === 'live' ? null : startedAtMs);
    const stats = core.engineStats();
    if (process.env['BENCH_DEBUG']) console.error(mode, stats, threadShares(threads0, threads1, elapsedMs));
    return {
      deliveries: n,
      elapsedMs,
      latencyMs: verified.latencyMs,
      latencyMeaning:
        mode === 'live'
          ? 'message accepted (received_at) → attempt finished (finished_at), from SQLite, 1 ms resolution'
          : 'engine started (whole backlog already queued) → attempt finished, from SQLite',
      requestMs: verified.requestMs,
      details: {
        window: target.window,
        windowAtEnd: stats.window,
        largestWindow: stats.maxWindow,
        destinations: target.urls.length,
        warmUpMessages: run.warmUp,
        warmUpMs: Math.round(warmUpMs),
        ...(mode === 'live' ? { sendChunk: SEND_CHUNK } : {}),
      },
      engine: {
        mode,
        acceptPhaseMs: Math.round(acceptedMs),
        acceptedPerSecond: Math.round(n / (acceptedMs / 1000)),
        messagesDelivered: verified.delivered,
        attemptRows: verified.attempts,
        successfulAttempts: verified.successes,
        extraIdleWaits,
        cpuByThread: cpuByThread(threads0, threads1, n),
      },
    };
  } finally {
    await core.close();
  }
}

/**
 * `core.idle()` resolves when nothing is in flight and every result is committed. Rows can still be
 * waiting at that instant (a pump queued with setImmediate has not claimed them yet), so confirm with SQL
 * and wait again. Returns how many extra waits that took. A delivery left `retrying` is a failed run.
 */
export async function drain(core: Core): Promise<number> {
  const open = internalsOf(core).store.db
    .prepare<[], { waiting: number; retrying: number }>(
      `SELECT coalesce(sum(status IN ('queued', 'delivering')), 0) AS waiting, coalesce(sum(status = 'retrying'), 0) AS retrying
       FROM deliveries`,
    );
  const deadline = performance.now() + DRAIN_LIMIT_MS;
  for (let extra = 0; ; extra++) {
    await core.idle();
    const { waiting, retrying } = open.get()!;
    if (retrying > 0) throw new Error(`engine: ${retrying} deliveries failed and are waiting to retry; the receiver did not answer 200`);
    if (waiting === 0) return extra;
    if (performance.now() > deadline) throw new Error(`engine: ${waiting} deliveries still waiting ${DRAIN_LIMIT_MS} ms after the last send`);
    await yieldToLoop();
  }
}

/**
 * Checks that the `n` messages stored after message `after` were delivered and logged; latency is measured
 * from `received_at`, or from `since` when given.
 */
function verify(
  core: Core,
  n: number,
  after: number,
  since: number | null,
): { delivered: number; attempts: number; successes: number; latencyMs: Float64Array; requestMs: Float64Array } {
  const db = internalsOf(core).store.db;
  const count = (sql: string): number => db.prepare<[number], number>(sql).pluck().get(after) ?? 0;
  const messages = count('SELECT count(*) FROM messages WHERE id > ?');
  const delivered = count(`SELECT count(*) FROM messages WHERE id > ? AND status = 'delivered'`);
  const deliveriesDelivered = count(`SELECT count(*) FROM deliveries WHERE message_id > ? AND status = 'delivered' AND attempts = 1`);
  const attempts = count('SELECT count(*) FROM attempts WHERE message_id > ?');
  const successes = count(`SELECT count(*) FROM attempts WHERE message_id > ? AND outcome = 'success' AND status_code = 200`);
  const problems: string[] = [];
  if (messages !== n) problems.push(`${messages} messages stored`);
  if (delivered !== n) problems.push(`${delivered} messages delivered`);
  if (deliveriesDelivered !== n) problems.push(`${deliveriesDelivered} deliveries delivered on their first attempt`);
  if (attempts !== n) problems.push(`${attempts} attempt rows`);
  if (successes !== n) problems.push(`${successes} successful attempts`);
  if (problems.length) throw new Error(`engine: expected ${n} of each, found ${problems.join(', ')}; a run that did not persist does not count`);

  const latencyMs = new Float64Array(n);
  const requestMs = new Float64Array(n);
  const rows = db
    .prepare<[number | null, number], [number, number]>(
      'SELECT a.finished_at - coalesce(?, m.received_at), a.duration_ms FROM attempts a JOIN messages m ON m.id = a.message_id WHERE m.id > ?',
    )
    .raw();
  let i = 0;
  for (const [latency, duration] of rows.iterate(since, after)) {
    latencyMs[i] = latency;
    requestMs[i] = duration;
    i++;
  }
  return { delivered, attempts, successes, latencyMs, requestMs };
}
