/**
 * Contenders `ingest-paused` and `ingest-draining`: accepted-and-persisted events/s through the ingestion
 * API, as `hookbench serve` runs it (createCore + startServer on 127.0.0.1:0), fed POST /v1/batch requests
 * of INGEST_BATCH SDK-shaped track events by a load generator in a child process (bench/loadgen.ts), so the
 * client does not take this process's CPU. Events/s and batch latency are measured on the client side:
 * accepted events ÷ the load generator's wall time (first request → last response).
 *
 * Each run first sends `warmEvents` events through the same server, untimed, as a long-running serve would
 * have: V8 tiers the ingestion path up (both threads; the ingestion thread is a fresh isolate each run) over
 * its first couple of hundred thousand events, and without the warm-up that JIT compilation fell inside
 * the measured window, while the baseline's few
 * functions compile within its first requests. No full collection runs between the warm-up and the window
 * (bench/run.ts runs one before each contender starts): one there threw away optimised code that holds
 * objects weakly, and the window compiled it again (--trace-opt). The baseline warms up the same way
 * (bench/ingestBaseline.ts); ingestWarmUpEvents sizes both.
 *
 *   paused    forwarding paused: every event must end stored once with its delivery `queued`, nothing sent.
 *   draining  the engine running and delivering to the bench receiver while events arrive; after the last
 *             response the drain is timed separately, and every delivery must end `delivered` and logged.
 */
import { forkBenchChild } from './child.js';
import { randomBytes } from 'node:crypto';
import { createCore, type Core, internalsOf } from '../main/app/createCore.js';
import { createCommandHandlers } from '../main/app/commandHandlers.js';
import { startServer, type RunningServer } from '../main/server/httpServer.js';
import { drain } from './engine.js';
import { cpuByThread, threadTimes, type CpuByThread } from './threads.js';
import { isLoadReport, type LoadCommand, type LoadPlan, type LoadReport, type LoadResult } from './protocol.js';
import { INGEST_BATCH, INGEST_IN_FLIGHT, INGEST_WRITE_KEY, SHARED_SECRET, sdkMessageId } from './workload.js';

export type IngestMode = 'paused' | 'draining' | 'baseline';

export interface IngestOutput {
  mode: IngestMode;
  events: number;
  requests: number;
  batchSize: number;
  inFlight: number;
  /** Mean JSON bytes per event and per request body. */
  eventBytes: number;
  requestBytes: number;
  /** The load generator's wall time: first request sent → last response read, ms. */
  ingestMs: number;
  /** Accepted (200) events ÷ ingestMs. */
  eventsPerSecond: number;
  /** Per /v1/batch request: request start → response read, ms (client side). */
  batchMs: Float64Array;
  /** This (server) process's CPU, user + system, over the load (`go` → last response), ms. */
  serverCpuMs: number;
  /** The load generator's CPU over the same window, ms. */
  loadgenCpuMs: number;
  /** This process's CPU per event (µs) by thread over the load window (paused) or until drained (draining); null without /proc. */
  cpuByThread: CpuByThread | null;
  /** `draining` only. */
  drain: DrainFacts | null;
  /** What was verified in SQLite afterwards (one line). */
  verified: string;
}

export interface DrainFacts {
  /** Deliveries recorded while the load ran (by the time the last response was read). */
  deliveredDuringIngest: number;
  /** Last response → every delivery delivered and logged, ms. */
  tailMs: number;
  /** `go` → every delivery delivered and logged, ms. */
  totalMs: number;
  /** events ÷ totalMs: end-to-end deliveries/s (accepted over HTTP, then delivered and logged). */
  deliveriesPerSecond: number;
  /** This process's CPU from `go` until drained, ms (ingest and delivery together). */
  serverCpuMs: number;
  /** See drain() in bench/engine.ts. */
  extraIdleWaits: number;
}

/** How long the load generator may take to build its bodies, and to send them. */
const PREPARE_LIMIT_MS = 60_000;
const LOAD_LIMIT_MS = 120_000;

export async function runIngest(
  mode: Exclude<IngestMode, 'baseline'>,
  receiverUrl: string,
  events: number,
  dataDir: string,
  warmEvents = 0,
  inFlight = INGEST_IN_FLIGHT,
): Promise<IngestOutput> {
  if (events % INGEST_BATCH !== 0 || warmEvents % INGEST_BATCH !== 0) throw new Error(`ingest: events (${events}, warm-up ${warmEvents}) must be multiples of ${INGEST_BATCH}`);
  // Paused: the scheduler is not started, so accepted deliveries wait in SQLite.
  const core = createCore({ dataDir, seed: 1, autoStart: mode === 'draining' });
  let server: RunningServer | null = null;
  let loadgen: Loadgen | null = null;
  try {
    const source = core.createSource({ name: 'bench sdk', kind: 'server', writeKey: INGEST_WRITE_KEY });
    if (!source.ok) throw new Error(`ingest: createSource failed: ${source.error.message}`);
    const destination = core.createDestination({ name: 'bench receiver', enabled: true, sharedSecret: SHARED_SECRET, url: receiverUrl, sources: [source.value.id] });
    if (!destination.ok) throw new Error(`ingest: createDestination failed: ${destination.error.message}`);
    server = await startServer({ core, host: '127.0.0.1', port: 0, token: () => core.apiToken(), handlers: createCommandHandlers(core) });

    const plan = loadPlan(`${server.url}/v1/batch`, events, inFlight);
    loadgen = startLoadgen();
    const warm = warmEvents > 0 ? loadPlan(plan.url, warmEvents, inFlight) : null;
    if (warm) {
      await warmUp(loadgen, warm, `ingest-${mode}`);
      if (mode === 'draining') await drain(core);
    }
    const ready = await loadgen.prepare(plan);

    const cpu0 = process.cpuUsage();
    const threads0 = threadTimes();
    const t0 = performance.now();
    const roundsBefore = core.engineStats().roundsRecorded;
    const load = await loadgen.go();
    const tLoaded = performance.now();
    const serverCpu = process.cpuUsage(cpu0);
    let threads1 = threadTimes();
    const deliveredDuringIngest = core.engineStats().roundsRecorded - roundsBefore;
    if (load.failed > 0) throw new Error(`ingest-${mode}: ${load.failed} of ${plan.requests} requests were not answered 200; the first: ${load.firstFailure}`);

    let drained: DrainFacts | null = null;
    if (mode === 'draining') {
      const extraIdleWaits = await drain(core);
      const tDrained = performance.now();
      const all = process.cpuUsage(cpu0);
      threads1 = threadTimes();
      drained = {
        deliveredDuringIngest,
        tailMs: tDrained - tLoaded,
        totalMs: tDrained - t0,
        deliveriesPerSecond: events / ((tDrained - t0) / 1000),
        serverCpuMs: (all.user + all.system) / 1000,
        extraIdleWaits,
      };
    }
    const verified = verify(core, mode, source.value.id, warm ? [warm, plan] : [plan]);
    return ingestOutput({ mode, events, plan, ready, load, serverCpu, threads: cpuByThread(threads0, threads1, events), drain: drained, verified });
  } finally {
    loadgen?.kill();
    await server?.close();
    await core.close();
  }
}

/**
 * Every event sent is stored exactly once (by messageId), from the bench source, counted in its usage, with
 * no refusal logged; then, per mode, every delivery `queued` and nothing sent (paused), or every delivery
 * delivered on its first attempt and logged as a 200 (draining). Throws, listing what is wrong, otherwise.
 */
function verify(core: Core, mode: Exclude<IngestMode, 'baseline'>, sourceId: string, plans: readonly LoadPlan[]): string {
  const db = internalsOf(core).store.db;
  const count = (sql: string, ...params: unknown[]): number => db.prepare<unknown[], number>(sql).pluck().get(...params) ?? 0;
  const n = plans.reduce((total, p) => total + p.requests * p.batchSize, 0);
  const problems: string[] = [];

  const expected = expectedIds(plans);
  let stored = 0;
  let unexpected = 0;
  for (const id of db.prepare<[], string>('SELECT message_id FROM messages').pluck().iterate()) {
    stored++;
    if (!expected.delete(id)) unexpected++; // not sent, or stored twice
  }
  if (stored !== n) problems.push(`${stored} messages stored`);
  if (unexpected > 0) problems.push(`${unexpected} stored messages are duplicates or were never sent`);
  if (expected.size > 0) problems.push(`${expected.size} events sent were not stored`);
  const fromSource = count('SELECT count(*) FROM messages WHERE source_id = ?', sourceId);
  if (fromSource !== n) problems.push(`${fromSource} messages from the bench source`);

  const usage = internalsOf(core).store.ingestLog.usageOf(sourceId);
  if (usage.received !== n || usage.accepted !== n || usage.refused !== 0 || usage.filtered !== 0) {
    problems.push(`source usage received ${usage.received}, accepted ${usage.accepted}, refused ${usage.refused}, filtered ${usage.filtered}`);
  }
  const refusals = count('SELECT count(*) FROM ingest_log');
  if (refusals !== 0) problems.push(`${refusals} refusals logged`);

  const deliveries = count('SELECT count(*) FROM deliveries');
  const attempts = count('SELECT count(*) FROM attempts');
  if (deliveries !== n) problems.push(`${deliveries} deliveries`);
  let outcome: string;
  if (mode === 'paused') {
    const queued = count(`SELECT count(*) FROM deliveries WHERE status = 'queued' AND attempts = 0`);
    const messagesQueued = count(`SELECT count(*) FROM messages WHERE status = 'queued'`);
    if (queued !== n) problems.push(`${queued} deliveries queued with no attempt (forwarding was not paused)`);
    if (messagesQueued !== n) problems.push(`${messagesQueued} messages queued`);
    if (attempts !== 0) problems.push(`${attempts} attempts made (forwarding was not paused)`);
    outcome = `every delivery queued, 0 attempts`;
  } else {
    const delivered = count(`SELECT count(*) FROM deliveries WHERE status = 'delivered' AND attempts = 1`);
    const messagesDelivered = count(`SELECT count(*) FROM messages WHERE status = 'delivered'`);
    const successes = count(`SELECT count(*) FROM attempts WHERE outcome = 'success' AND status_code = 200`);
    if (delivered !== n) problems.push(`${delivered} deliveries delivered on their first attempt`);
    if (messagesDelivered !== n) problems.push(`${messagesDelivered} messages delivered`);
    if (attempts !== n || successes !== n) problems.push(`${attempts} attempt rows, ${successes} of them successful`);
    outcome = `every delivery delivered on its first attempt and logged (${n.toLocaleString('en-US')} attempts, all 200)`;
  }
  if (problems.length) throw new Error(`ingest-${mode}: expected ${n} events, found ${problems.join('; ')}; a run that did not persist does not count`);
  return `${n.toLocaleString('en-US')} events (warm-up included) stored once each (by messageId), usage counted, no refusals; ${outcome}`;
}

/** `events` SDK track events for `url`, `inFlight` requests at a time, with a messageId prefix of their own. */
export function loadPlan(url: string, events: number, inFlight = INGEST_IN_FLIGHT): LoadPlan {
  return {
    url,
    writeKey: INGEST_WRITE_KEY,
    requests: events / INGEST_BATCH,
    batchSize: INGEST_BATCH,
    inFlight,
    idPrefix: `node-next-${Date.now()}-${randomBytes(4).toString('hex')}`,
  };
}

/**
 * Warm-up size of an ingestion contender, whole batches. The pair whose ratio is judged (ingest-baseline,
 * ingest-paused) takes twice the measured events, 1,000 to 200,000 (`--ingest-warm-up` sets it): V8 keeps
 * tiering the ingestion path up with TurboFan for about the first 200,000 events (`--trace-opt` shows the
 * compile jobs), and that one-off cost is not what a long-running serve pays per event. The baseline's code, a few functions, is compiled within its first requests. ingest-draining keeps a
 * tenth of its run, 1,000 to 10,000: its warm-up is delivered too, before it is measured.
 */
export function ingestWarmUpEvents(name: 'ingest-baseline' | 'ingest-paused' | 'ingest-draining', events: number, override: number | null = null): number {
  const batches = (n: number) => Math.round(n / INGEST_BATCH) * INGEST_BATCH;
  if (name === 'ingest-draining') return Math.max(1_000, Math.min(10_000, batches(events / 10)));
  return override ?? Math.max(1_000, Math.min(200_000, batches(events * 2)));
}

/** Sends a warm-up load, untimed; every request must be answered 200. */
export async function warmUp(loadgen: Loadgen, plan: LoadPlan, who: string): Promise<void> {
  await loadgen.prepare(plan);
  const load = await loadgen.go();
  if (load.failed > 0) throw new Error(`${who}: ${load.failed} of ${plan.requests} warm-up requests were not answered 200; the first: ${load.firstFailure}`);
}

/** Every messageId these plans send. */
export function expectedIds(plans: readonly LoadPlan[]): Set<string> {
  const ids = new Set<string>();
  for (const p of plans) for (let i = 0; i < p.requests * p.batchSize; i++) ids.add(sdkMessageId(p.idPrefix, i));
  return ids;
}

/** One run's figures: the plan, the load generator's reports and this process's CPU over the load. */
export function ingestOutput(r: {
  mode: IngestMode;
  events: number;
  plan: LoadPlan;
  ready: Extract<LoadReport, { type: 'ready' }>;
  load: LoadResult;
  serverCpu: NodeJS.CpuUsage;
  threads?: CpuByThread | null;
  drain: DrainFacts | null;
  verified: string;
}): IngestOutput {
  return {
    mode: r.mode,
    events: r.events,
    requests: r.plan.requests,
    batchSize: r.plan.batchSize,
    inFlight: r.plan.inFlight,
    eventBytes: r.ready.eventBytes,
    requestBytes: r.ready.requestBytes,
    ingestMs: r.load.wallMs,
    eventsPerSecond: (r.load.ok * r.plan.batchSize) / (r.load.wallMs / 1000),
    batchMs: Float64Array.from(r.load.latencyMs),
    serverCpuMs: (r.serverCpu.user + r.serverCpu.system) / 1000,
    loadgenCpuMs: r.load.cpuMs,
    cpuByThread: r.threads ?? null,
    drain: r.drain,
    verified: r.verified,
  };
}

// ------------------------------------------------------------------ the load generator child process

export interface Loadgen {
  prepare(plan: LoadPlan): Promise<Extract<LoadReport, { type: 'ready' }>>;
  go(): Promise<LoadResult>;
  kill(): void;
}

export function startLoadgen(): Loadgen {
  const g = forkBenchChild('loadgen.js', 'load generator');
  /** Sends `command` and resolves with the next report of type `type`. */
  const ask = <T extends LoadReport['type']>(command: LoadCommand, type: T, limitMs: number): Promise<Extract<LoadReport, { type: T }>> =>
    g.next((m) => (isLoadReport(m) && m.type === type ? (m as Extract<LoadReport, { type: T }>) : undefined), `'${type}'`, limitMs, command);
  return {
    prepare: (plan) => ask({ type: 'prepare', ...plan }, 'ready', PREPARE_LIMIT_MS),
    go: () => ask({ type: 'go' }, 'done', LOAD_LIMIT_MS),
    kill: g.kill,
  };
}
