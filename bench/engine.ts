/**
 * Contender (main): the Hookbench engine. A fresh data dir, one enabled destination with a shared secret
 * (so every attempt is signed) pointing at the receiver, then `n` track messages through core.sendMessages
 * (batches of 100, as SDKs send them) as fast as possible, in chunks that yield to the event loop so the engine delivers while messages arrive.
 * The run counts only if every message ends `delivered` with exactly one persisted attempt.
 */
import { createCore, type Core } from '../main/engine/createCore.js';
import type { ContenderOutput } from './contender.js';
import { ENGINE_IN_FLIGHT, SHARED_SECRET, trackCall } from './workload.js';

/** Messages per sendMessages call (one transaction), as an SDK batches them; the loop yields between batches. */
export const SEND_CHUNK = 100;
/** How long to wait for the engine to drain after the last send before calling the run failed. */
const DRAIN_LIMIT_MS = 60_000;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `live` is the benchmark proper: messages accepted while the engine delivers, timed from the first send to
 * the last result committed. `drain` is a diagnostic: all `n` messages are accepted with the scheduler
 * stopped (not timed), then the engine is started and timed until the backlog is delivered and logged,
 * which separates the delivery pipeline's cost from sendMessage's.
 */
export async function runEngine(url: string, n: number, dataDir: string, mode: 'live' | 'drain'): Promise<ContenderOutput> {
  const core = createCore({ dataDir, seed: 1, maxInFlight: ENGINE_IN_FLIGHT, autoStart: mode === 'live' });
  try {
    const destination = core.createDestination({ name: 'bench receiver', enabled: true, sharedSecret: SHARED_SECRET, url });
    if (!destination.ok) throw new Error(`engine: createDestination failed: ${destination.error.message}`);

    const sendRange = (from: number, to: number): void => {
      const messages = [];
      for (let i = from; i < to; i++) messages.push({ type: 'track' as const, call: trackCall(i) });
      const sent = core.sendMessages({ messages });
      if (!sent.ok) throw new Error(`engine: sendMessages ${from}..${to} failed: ${sent.error.message}`);
      const misrouted = sent.value.findIndex((o) => o.deliveries.length !== 1);
      if (misrouted >= 0) throw new Error(`engine: message ${from + misrouted} was routed to ${sent.value[misrouted]!.deliveries.length} deliveries`);
    };

    let t0: number;
    let acceptedMs: number;
    let startedAtMs = 0;
    if (mode === 'live') {
      t0 = performance.now();
      for (let i = 0; i < n; i += SEND_CHUNK) {
        sendRange(i, Math.min(n, i + SEND_CHUNK));
        await yieldToLoop();
      }
      acceptedMs = performance.now() - t0;
    } else {
      const a0 = performance.now();
      for (let i = 0; i < n; i += SEND_CHUNK) sendRange(i, Math.min(n, i + SEND_CHUNK));
      acceptedMs = performance.now() - a0;
      t0 = performance.now();
      startedAtMs = core.clock.now();
      core.start();
    }
    const extraIdleWaits = await drain(core);
    const elapsedMs = performance.now() - t0;

    const verified = verify(core, n, mode === 'live' ? null : startedAtMs);
    if (process.env['BENCH_DEBUG']) console.error(mode, core.engineStats());
    return {
      deliveries: n,
      elapsedMs,
      latencyMs: verified.latencyMs,
      latencyMeaning:
        mode === 'live'
          ? 'message accepted (received_at) → attempt finished (finished_at), from SQLite, 1 ms resolution'
          : 'engine started (whole backlog already queued) → attempt finished, from SQLite',
      requestMs: verified.requestMs,
      details: { inFlight: ENGINE_IN_FLIGHT, ...(mode === 'live' ? { sendChunk: SEND_CHUNK } : {}) },
      engine: {
        mode,
        acceptPhaseMs: Math.round(acceptedMs),
        acceptedPerSecond: Math.round(n / (acceptedMs / 1000)),
        messagesDelivered: verified.delivered,
        attemptRows: verified.attempts,
        successfulAttempts: verified.successes,
        extraIdleWaits,
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
  const open = core.store.db
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

/** Checks that all `n` messages were delivered and logged; latency is measured from `received_at`, or from `since` when given. */
function verify(core: Core, n: number, since: number | null): { delivered: number; attempts: number; successes: number; latencyMs: Float64Array; requestMs: Float64Array } {
  const db = core.store.db;
  const count = (sql: string): number => db.prepare<[], number>(sql).pluck().get() ?? 0;
  const messages = count('SELECT count(*) FROM messages');
  const delivered = count(`SELECT count(*) FROM messages WHERE status = 'delivered'`);
  const deliveriesDelivered = count(`SELECT count(*) FROM deliveries WHERE status = 'delivered' AND attempts = 1`);
  const attempts = count('SELECT count(*) FROM attempts');
  const successes = count(`SELECT count(*) FROM attempts WHERE outcome = 'success' AND status_code = 200`);
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
    .prepare<[number | null], [number, number]>(
      'SELECT a.finished_at - coalesce(?, m.received_at), a.duration_ms FROM attempts a JOIN messages m ON m.id = a.message_id',
    )
    .raw();
  let i = 0;
  for (const [latency, duration] of rows.iterate(since)) {
    latencyMs[i] = latency;
    requestMs[i] = duration;
    i++;
  }
  return { delivered, attempts, successes, latencyMs, requestMs };
}
