/**
 * `npm run bench`: every figure is a ratio to a baseline measured in the same run, on the same machine,
 * never a timed test. Contenders, each against a receiver in a child process (bench/receiver.ts):
 *
 *   raw, engine           logged deliveries/s through the Hookbench engine (signed, every attempt in
 *                         SQLite) ÷ a raw undici POST loop; alternating rounds, the median round judged
 *   naive                 a naive fetch + INSERT forwarder (engine ÷ naive)
 *   engine-drain          diagnostic: the delivery pipeline alone, on a backlog
 *   latency               raw-latency, engine-latency, engine-latency-fixed: the same against slow webhooks
 *                         (32 origins, 50 ms each): the engine's adaptive window ÷ raw, and the fixed
 *                         256-round window it replaced ÷ raw
 *   ingest-baseline,      /v1/batch (100 events a request, from a load generator child) accepted and
 *   ingest-paused         persisted ÷ a plain node:http + better-sqlite3 server (bench/ingestBaseline.ts);
 *                         alternating rounds
 *   ingest-draining       the same while the engine delivers: end to end (first request → last delivery
 *                         logged) ÷ raw
 *   live                  the Live view in Chromium while the engine delivers 1,000 messages/s (bench/live.ts)
 *   first-screen          a fresh browser context opening Live, History, a message's detail and Check's report
 *                         with 1,000 messages stored ÷ a hand-written page of 50 rows from the same server;
 *                         alternating rounds (bench/firstScreen.ts)
 *   history               listMessages and getOverview at 1,000,000 stored messages (bench/history.ts)
 *   history-fill          listMessages over HTTP right after 1,000,000 calls through /v1/batch, while the
 *                         history index catches up and after; serve's RSS (bench/historyFill.ts)
 *   time-travel           a +4 h clock jump over 1 and over N messages to an endpoint that never answers,
 *                         wall seconds, honest and with Fast-forward unanswered attempts (bench/timeTravel.ts)
 *
 * Prints tables, the ratios against the targets and the command to rerun, writes
 * bench/results/latest.json (a full run) and updates docs/performance.md (every run: bench/performanceDoc.ts).
 *
 *   npm run bench                      everything (history adds 6-8 minutes)
 *   npm run bench -- --messages 50000  deliveries per forwarding contender (default 20,000)
 *   npm run bench -- --events 200000   events per ingestion contender (a multiple of 100)
 *   npm run bench -- --ingest-warm-up 10000
 *                                      warm-up events of ingest-baseline and ingest-paused (default
 *                                      twice --events, at most 200,000; bench/ingest.ts)
 *   npm run bench -- --ingest-in-flight 4
 *                                      /v1/batch requests in flight from the load generator (default
 *                                      INGEST_IN_FLIGHT in bench/workload.ts)
 *   npm run bench -- --quick           ~2,000 messages, 5,000 / 2,000 events, one round (smoke run)
 *   npm run bench -- --rounds 5        paired contenders measured in 5 alternating rounds (default 3)
 *   npm run bench -- --only engine     one contender (e.g. under node --cpu-prof); also --only latency,
 *                                      --only ingest (all three ingestion contenders)
 *   npm run bench -- --fixed-window    engine and engine-drain with the fixed 256-round window, to compare
 *   npm run bench -- --only live       --live-seconds N (default 10), --live-rate N (deliveries/s, 1,000)
 *   npm run bench -- --only first-screen --first-screen-messages N (default 1,000), --first-screen-loads N
 *                                      (loads of each page a round, default 5)
 *   npm run bench -- --only history    --history-messages N, --history-runs N (default 30),
 *                                      --history-db DIR keeps the database there for later runs
 *   npm run bench -- --only history-fill --history-fill-messages N (default 1,000,000),
 *                                      --history-fill-runs N (rounds right after and caught up, default 10)
 *   npm run bench -- --only time-travel --time-travel-messages N (default 100)
 */
import { startReceiver, type Receiver } from './child.js';
import { measureTimeoutPrecision, TIMEOUT_MS, TOLERANCE_MS } from './timeout.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContenderOutput, ContenderRun, EngineFacts } from './contender.js';
import { runEngine, type WindowMode } from './engine.js';
import { printHistory, runHistory, type HistoryResult } from './history.js';
import { FILL_TARGETS, printHistoryFill, runHistoryFill, type FillResult } from './historyFill.js';
import { FIRST_SCREEN_TARGET, printFirstScreen, runFirstScreen, type FirstScreenResult } from './firstScreen.js';
import { ingestWarmUpEvents, runIngest, type DrainFacts, type IngestMode, type IngestOutput } from './ingest.js';
import { runIngestBaseline } from './ingestBaseline.js';
import { LIVE_TARGETS, printLive, runLive, type LiveResult } from './live.js';
import { runNaive } from './naive.js';
import { writePerformanceDoc, type DocRow } from './performanceDoc.js';
import type { ReceiverStats } from './protocol.js';
import { runRaw } from './raw.js';
import { FAST_FORWARD_TARGET_S, HONEST_RATIO_TARGET, printTimeTravel, runTimeTravel, type TimeTravelResult } from './timeTravel.js';
import { collectGarbage, MiB, RssSampler, summarize, type LatencySummary } from './stats.js';
import type { CpuByThread } from './threads.js';
import {
  CONNECTIONS,
  ENGINE_IN_FLIGHT,
  forwardingWarmUpMessages,
  INGEST_BATCH,
  INGEST_IN_FLIGHT,
  LATENCY_MS,
  LATENCY_ORIGINS,
  NAIVE_CONCURRENCY,
  trackBody,
} from './workload.js';

const RERUN = 'npm run bench';
const HARD_CAP_MS = 300_000;
/** Added to the cap when the history benchmark runs: building 1,000,000 messages takes a minute or two. */
const HISTORY_CAP_MS = 1_200_000;
const DEFAULT_HISTORY_MESSAGES = 1_000_000;
/** Added to the cap when history-fill runs: a slow fill of 1,000,000 calls, and the index catching up. */
const HISTORY_FILL_CAP_MS = 2_700_000;
const DEFAULT_FILL_MESSAGES = 1_000_000;
const QUICK_FILL_MESSAGES = 20_000;
const DEFAULT_FILL_RUNS = 10;
const QUICK_FILL_RUNS = 5;
/** Added to the cap when time travel runs: four jumps, two of them ~7 real 5 s waits each. */
const TIME_TRAVEL_CAP_MS = 180_000;
const DEFAULT_TIME_TRAVEL_MESSAGES = 100;
const QUICK_TIME_TRAVEL_MESSAGES = 20;
const QUICK_HISTORY_MESSAGES = 20_000;
const DEFAULT_HISTORY_RUNS = 30;
const QUICK_HISTORY_RUNS = 10;
const DEFAULT_MESSAGES = 20_000;
/** Rounds of each paired group in a full run (see main). */
const DEFAULT_ROUNDS = 3;
const QUICK_MESSAGES = 2_000;
/** Events per ingestion contender: paused is cheap per event; draining also delivers each one. */
const DEFAULT_EVENTS: Record<IngestName, number> = { 'ingest-baseline': 100_000, 'ingest-paused': 100_000, 'ingest-draining': 50_000 };
const QUICK_EVENTS: Record<IngestName, number> = { 'ingest-baseline': 5_000, 'ingest-paused': 5_000, 'ingest-draining': 2_000 };
const DEFAULT_LIVE_SECONDS = 10;
/** Added to the cap when first-screen runs: about 80 page loads of a second or two, and the messages' setup. */
const FIRST_SCREEN_CAP_MS = 300_000;
const DEFAULT_FIRST_SCREEN_MESSAGES = 1_000;
const DEFAULT_FIRST_SCREEN_LOADS = 5;
const QUICK_FIRST_SCREEN_LOADS = 2;
const DEFAULT_LIVE_RATE = 1_000;

/** `engine-drain` is a diagnostic (delivery pipeline alone); it takes no part in the targets. */
const FORWARDING = ['raw', 'engine', 'naive', 'engine-drain', 'raw-latency', 'engine-latency', 'engine-latency-fixed'] as const;
const INGESTION = ['ingest-baseline', 'ingest-paused', 'ingest-draining'] as const;
const CONTENDERS = [...FORWARDING, ...INGESTION, 'live', 'first-screen', 'history', 'history-fill', 'time-travel'] as const;
/** Names for several contenders at once in --only. */
const ALIASES: Record<string, readonly ContenderName[]> = {
  latency: ['raw-latency', 'engine-latency', 'engine-latency-fixed'],
  ingest: INGESTION,
};
type ForwardingName = (typeof FORWARDING)[number];
type IngestName = (typeof INGESTION)[number];
type ContenderName = (typeof CONTENDERS)[number];

/**
 * Contenders measured in alternating rounds when more than one of a group runs: this machine's speed drifts
 * by more than the margins the ratios are judged by, so one lucky or unlucky run must not decide. The
 * round with the median of the group's ratio (`ratio`: the first name ÷ the second) stands for the group.
 */
const PAIRED: readonly { names: readonly (ForwardingName | IngestName)[]; ratio: readonly [ForwardingName | IngestName, ForwardingName | IngestName] }[] = [
  { names: ['raw', 'engine'], ratio: ['engine', 'raw'] },
  { names: ['raw-latency', 'engine-latency', 'engine-latency-fixed'], ratio: ['engine-latency', 'raw-latency'] },
  { names: ['ingest-baseline', 'ingest-paused'], ratio: ['ingest-paused', 'ingest-baseline'] },
];

const isIngestName = (name: string): name is IngestName => (INGESTION as readonly string[]).includes(name);
const isForwardingName = (name: string): name is ForwardingName => (FORWARDING as readonly string[]).includes(name);
const MODE_OF: Record<Exclude<IngestName, 'ingest-baseline'>, Exclude<IngestMode, 'baseline'>> = { 'ingest-paused': 'paused', 'ingest-draining': 'draining' };
/** Contenders that run against the slow receiver. */
const SLOW = new Set<ForwardingName>(['raw-latency', 'engine-latency', 'engine-latency-fixed']);

const LATENCY_IN_FLIGHT = CONNECTIONS * LATENCY_ORIGINS;
const label = (name: ContenderName, fixedWindow: boolean): string => {
  const window = (mode: WindowMode) => (mode === 'fixed' ? `${ENGINE_IN_FLIGHT} in flight` : `window ${ENGINE_IN_FLIGHT}+`);
  const labels: Record<ContenderName, string> = {
    raw: `raw undici (${ENGINE_IN_FLIGHT} in flight, ${CONNECTIONS} conns)`,
    engine: `engine (${window(fixedWindow ? 'fixed' : 'adaptive')}, signed, logged)`,
    naive: `naive fetch+INSERT (${NAIVE_CONCURRENCY} at once)`,
    'engine-drain': 'diagnostic: engine, backlog drain only',
    'raw-latency': `raw undici, ${LATENCY_ORIGINS} origins × ${LATENCY_MS} ms (${LATENCY_IN_FLIGHT} in flight)`,
    'engine-latency': `engine, ${LATENCY_ORIGINS} origins × ${LATENCY_MS} ms (${window('adaptive')})`,
    'engine-latency-fixed': `engine, ${LATENCY_ORIGINS} origins × ${LATENCY_MS} ms (${window('fixed')})`,
    'ingest-baseline': `node:http + better-sqlite3, one row a call`,
    'ingest-paused': `/v1/batch ×${INGEST_BATCH}, forwarding paused`,
    'ingest-draining': `/v1/batch ×${INGEST_BATCH}, engine draining`,
    live: 'the Live view in Chromium while the engine delivers',
    'first-screen': 'the first screen of a cold browser context ÷ a hand-written page',
    history: 'listMessages and getOverview over a stored history',
    'history-fill': 'listMessages right after a big /v1/batch fill, while indexing, caught up',
    'time-travel': 'a +4 h jump over messages to an endpoint that never answers',
  };
  return labels[name];
};

interface Options {
  messages: number;
  /** Events per ingestion contender. */
  events: Record<IngestName, number>;
  /** Warm-up events of ingest-baseline and ingest-paused (`--ingest-warm-up`); null: ingestWarmUpEvents' rule (bench/ingest.ts). */
  ingestWarmUp: number | null;
  /** /v1/batch requests in flight from the load generator (`--ingest-in-flight`), every ingestion contender. */
  ingestInFlight: number;
  quick: boolean;
  only: ContenderName[];
  /** How many times each paired group is measured, alternately; its ratio is the median of the rounds. */
  rounds: number;
  /** engine and engine-drain with the fixed 256-round window. */
  fixedWindow: boolean;
  live: { seconds: number; rate: number };
  firstScreen: { messages: number; loads: number };
  history: { messages: number; runs: number; keepDir: string | null };
  historyFill: { messages: number; runs: number };
  timeTravelMessages: number;
}

interface Measured {
  name: ForwardingName;
  label: string;
  deliveries: number;
  seconds: number;
  deliveriesPerSecond: number;
  latencyMeaning: string;
  latencyMs: LatencySummary;
  requestMs: LatencySummary | null;
  peakRssMiB: number;
  cpuMs: number;
  receiver: ReceiverStats;
  details: Record<string, number | string>;
  engine: EngineFacts | null;
}

interface IngestMeasured extends Pick<IngestOutput, 'events' | 'requests' | 'batchSize' | 'inFlight' | 'eventBytes' | 'requestBytes'> {
  name: IngestName;
  label: string;
  /** Client side: first request → last response. */
  seconds: number;
  eventsPerSecond: number;
  /** Per /v1/batch request, client side. */
  batchMs: LatencySummary;
  /** This (server) process, over the whole run (setup, load, drain, verification). */
  peakRssMiB: number;
  /** This (server) process's CPU over the load window ÷ events. */
  cpuUsPerEvent: number;
  /** The load generator's CPU ÷ its wall time. */
  loadgenCpuShare: number;
  receiver: ReceiverStats;
  drain: (DrainFacts & { cpuUsPerEvent: number }) | null;
  cpuByThread: CpuByThread | null;
  verified: string;
}

interface Check {
  name: string;
  value: number;
  target: number;
  /** `min`: value ≥ target passes; `max`: value < target passes. */
  kind?: 'min' | 'max';
  pass: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  let messages: number | null = null;
  let events: number | null = null;
  let ingestWarmUp: number | null = null;
  let ingestInFlight: number | null = null;
  let quick = false;
  let rounds: number | null = null;
  let fixedWindow = false;
  let liveSeconds: number | null = null;
  let liveRate: number | null = null;
  let firstScreenMessages: number | null = null;
  let firstScreenLoads: number | null = null;
  let historyMessages: number | null = null;
  let historyRuns: number | null = null;
  let historyDb: string | null = null;
  let fillMessages: number | null = null;
  let fillRuns: number | null = null;
  let timeTravelMessages: number | null = null;
  let only: ContenderName[] = [...CONTENDERS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const whole = (name: string, min: number, max: number): number => {
      const raw = value();
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name}: a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')} (got ${raw})`);
      return n;
    };
    if (flag === '--messages') {
      messages = whole('--messages', 100, 1_000_000);
    } else if (flag === '--events') {
      events = whole('--events', 1_000, 2_000_000);
      if (events % INGEST_BATCH !== 0) throw new Error(`--events: a multiple of ${INGEST_BATCH} from 1,000 to 2,000,000 (got ${events})`);
    } else if (flag === '--ingest-warm-up') {
      ingestWarmUp = whole('--ingest-warm-up', 0, 2_000_000);
      if (ingestWarmUp % INGEST_BATCH !== 0) throw new Error(`--ingest-warm-up: a multiple of ${INGEST_BATCH} from 0 to 2,000,000 (got ${ingestWarmUp})`);
    } else if (flag === '--ingest-in-flight') {
      ingestInFlight = whole('--ingest-in-flight', 1, 256);
    } else if (flag === '--quick') {
      quick = true;
    } else if (flag === '--rounds') {
      rounds = whole('--rounds', 1, 9);
    } else if (flag === '--fixed-window') {
      fixedWindow = true;
    } else if (flag === '--live-seconds') {
      liveSeconds = whole('--live-seconds', 2, 120);
    } else if (flag === '--live-rate') {
      liveRate = whole('--live-rate', 100, 5_000);
      if (liveRate % 100 !== 0) throw new Error(`--live-rate: a multiple of 100 (one /v1/batch of 100 events at a time; got ${liveRate})`);
    } else if (flag === '--first-screen-messages') {
      firstScreenMessages = whole('--first-screen-messages', 100, 100_000);
    } else if (flag === '--first-screen-loads') {
      firstScreenLoads = whole('--first-screen-loads', 1, 50);
    } else if (flag === '--history-messages') {
      historyMessages = whole('--history-messages', 2_000, 5_000_000);
    } else if (flag === '--history-runs') {
      historyRuns = whole('--history-runs', 5, 1_000);
    } else if (flag === '--history-db') {
      historyDb = value();
    } else if (flag === '--history-fill-messages') {
      fillMessages = whole('--history-fill-messages', 10_000, 5_000_000);
    } else if (flag === '--history-fill-runs') {
      fillRuns = whole('--history-fill-runs', 3, 100);
    } else if (flag === '--time-travel-messages') {
      timeTravelMessages = whole('--time-travel-messages', 2, 2_000);
    } else if (flag === '--only') {
      const names = value().split(',');
      const known = [...CONTENDERS, ...Object.keys(ALIASES)];
      for (const n of names) if (!known.includes(n)) throw new Error(`--only: one or more of ${known.join(', ')} (got ${n})`);
      const wanted = new Set<string>(names.flatMap((n): readonly string[] => ALIASES[n] ?? [n]));
      only = CONTENDERS.filter((c) => wanted.has(c));
    } else if (flag === '--help' || flag === '-h') {
      console.log(
        `usage: ${RERUN} [-- --messages N] [--events N] [--ingest-warm-up N] [--ingest-in-flight N] [--rounds N] [--quick] [--fixed-window] [--only ${[...CONTENDERS, ...Object.keys(ALIASES)].join(',')}] ` +
          '[--live-seconds N] [--live-rate N] [--first-screen-messages N] [--first-screen-loads N] [--history-messages N] [--history-runs N] [--history-db DIR] [--history-fill-messages N] [--history-fill-runs N] [--time-travel-messages N]',
      );
      process.exit(0);
    } else {
      throw new Error(`unknown option ${arg} (try --help)`);
    }
  }
  const defaultEvents = quick ? QUICK_EVENTS : DEFAULT_EVENTS;
  return {
    messages: messages ?? (quick ? QUICK_MESSAGES : DEFAULT_MESSAGES),
    events: events === null ? defaultEvents : { 'ingest-baseline': events, 'ingest-paused': events, 'ingest-draining': events },
    ingestWarmUp,
    ingestInFlight: ingestInFlight ?? INGEST_IN_FLIGHT,
    quick,
    only,
    rounds: rounds ?? (quick ? 1 : DEFAULT_ROUNDS),
    fixedWindow,
    live: { seconds: liveSeconds ?? (quick ? 4 : DEFAULT_LIVE_SECONDS), rate: liveRate ?? DEFAULT_LIVE_RATE },
    firstScreen: { messages: firstScreenMessages ?? DEFAULT_FIRST_SCREEN_MESSAGES, loads: firstScreenLoads ?? (quick ? QUICK_FIRST_SCREEN_LOADS : DEFAULT_FIRST_SCREEN_LOADS) },
    history: {
      messages: historyMessages ?? (quick ? QUICK_HISTORY_MESSAGES : DEFAULT_HISTORY_MESSAGES),
      runs: historyRuns ?? (quick ? QUICK_HISTORY_RUNS : DEFAULT_HISTORY_RUNS),
      keepDir: historyDb,
    },
    historyFill: { messages: fillMessages ?? (quick ? QUICK_FILL_MESSAGES : DEFAULT_FILL_MESSAGES), runs: fillRuns ?? (quick ? QUICK_FILL_RUNS : DEFAULT_FILL_RUNS) },
    timeTravelMessages: timeTravelMessages ?? (quick ? QUICK_TIME_TRAVEL_MESSAGES : DEFAULT_TIME_TRAVEL_MESSAGES),
  };
}

// ------------------------------------------------------------------ running contenders

/** Temp dirs in use, removed even when the hard cap ends the process mid-run. */
const tempDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs `fn` with a fresh temp dir, removed afterwards. */
async function withTempDir<T>(name: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `hookbench-bench-${name}-`));
  tempDirs.add(dir);
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  }
}

function runContender(name: ForwardingName, urls: string[], n: number, run: ContenderRun, fixedWindow: boolean): Promise<ContenderOutput> {
  return withTempDir(name, async (dir) => {
    const engineWindow: WindowMode = fixedWindow ? 'fixed' : 'adaptive';
    switch (name) {
      case 'raw':
        await run.ready();
        return runRaw(urls, n, trackBody(0), ENGINE_IN_FLIGHT);
      case 'raw-latency':
        await run.ready();
        return runRaw(urls, n, trackBody(0), LATENCY_IN_FLIGHT);
      case 'engine':
        return runEngine({ urls, window: engineWindow }, n, dir, 'live', run);
      case 'engine-drain':
        return runEngine({ urls, window: engineWindow }, n, dir, 'drain', run);
      case 'engine-latency':
        return runEngine({ urls, window: 'adaptive' }, n, dir, 'live', run);
      case 'engine-latency-fixed':
        return runEngine({ urls, window: 'fixed' }, n, dir, 'live', run);
      case 'naive':
        await run.ready();
        return runNaive(urls[0]!, n, dir);
    }
  });
}

/** Contenders that warm up inside each measured run (the engine warms its own core): see bench/engine.ts. */
const WARMS_UP_IN_PLACE: readonly ForwardingName[] = ['engine', 'engine-drain', 'engine-latency', 'engine-latency-fixed'];

/**
 * Runs a contender and measures it: CPU, peak RSS and the receiver's counters start at its `ready()`, after
 * any warm-up it does in place (`warmUp` messages), and end when it returns; CPU ends at its `measured()`
 * when it calls that (the engine, once its last result is logged: not its own checks, not closing its core).
 */
async function measure(name: ForwardingName, receiver: Receiver, n: number, warmUp: number, fixedWindow: boolean): Promise<Measured> {
  collectGarbage();
  const rss = new RssSampler(50);
  let cpu: NodeJS.CpuUsage | null = null;
  let cpuMeasured: NodeJS.CpuUsage | null = null;
  const ready = async (): Promise<void> => {
    if (cpu) throw new Error(`${name}: ready() called twice`);
    collectGarbage();
    await receiver.stats(); // reset its counters
    rss.start();
    cpu = process.cpuUsage();
  };
  const measured = (): void => {
    if (cpu && !cpuMeasured) cpuMeasured = process.cpuUsage(cpu);
  };
  let out: ContenderOutput;
  let peak: number;
  try {
    out = await runContender(name, receiver.urls, n, { warmUp: WARMS_UP_IN_PLACE.includes(name) ? warmUp : 0, ready, measured }, fixedWindow);
  } finally {
    peak = rss.stop();
  }
  if (!cpu) throw new Error(`${name}: returned without calling ready()`);
  const cpuUsed = cpuMeasured ?? process.cpuUsage(cpu);
  if (process.env['BENCH_DEBUG'] && cpuMeasured) {
    const all = process.cpuUsage(cpu);
    console.error(`${name}: ${((all.user + all.system - cpuUsed.user - cpuUsed.system) / 1000).toFixed(0)} ms of CPU after its measured part (its checks, closing its core), not counted`);
  }
  const received = await receiver.stats();
  if (received.requests !== n) throw new Error(`${name}: the receiver got ${received.requests} requests, expected ${n}`);
  return {
    name,
    label: label(name, fixedWindow),
    deliveries: out.deliveries,
    seconds: out.elapsedMs / 1000,
    deliveriesPerSecond: out.deliveries / (out.elapsedMs / 1000),
    latencyMeaning: out.latencyMeaning,
    latencyMs: summarize(out.latencyMs),
    requestMs: out.requestMs ? summarize(out.requestMs) : null,
    peakRssMiB: peak / MiB,
    cpuMs: (cpuUsed.user + cpuUsed.system) / 1000,
    receiver: received,
    details: out.details,
    engine: out.engine ?? null,
  };
}

/** An ingestion contender: events/s, latency and client CPU come from the load generator (bench/ingest.ts). */
async function measureIngest(name: IngestName, receiver: Receiver, events: number, warmEvents: number, inFlight: number): Promise<IngestMeasured> {
  collectGarbage();
  await receiver.stats(); // reset its counters
  const rss = new RssSampler(50);
  rss.start();
  let out: IngestOutput;
  let peak: number;
  try {
    out = await withTempDir(name, (dir) =>
      name === 'ingest-baseline'
        ? runIngestBaseline(events, dir, warmEvents, inFlight)
        : runIngest(MODE_OF[name], receiver.urls[0]!, events, dir, warmEvents, inFlight),
    );
  } finally {
    peak = rss.stop();
  }
  const received = await receiver.stats();
  const expected = out.mode === 'draining' ? events + warmEvents : 0;
  if (received.requests !== expected) throw new Error(`${name}: the receiver got ${received.requests} requests, expected ${expected}`);
  return {
    name,
    label: label(name, false),
    events: out.events,
    requests: out.requests,
    batchSize: out.batchSize,
    inFlight: out.inFlight,
    eventBytes: out.eventBytes,
    requestBytes: out.requestBytes,
    seconds: out.ingestMs / 1000,
    eventsPerSecond: out.eventsPerSecond,
    batchMs: summarize(out.batchMs),
    peakRssMiB: peak / MiB,
    cpuUsPerEvent: (out.serverCpuMs * 1000) / out.events,
    loadgenCpuShare: out.loadgenCpuMs / out.ingestMs,
    receiver: received,
    drain: out.drain ? { ...out.drain, cpuUsPerEvent: (out.drain.serverCpuMs * 1000) / out.events } : null,
    cpuByThread: out.cpuByThread,
    verified: out.verified,
  };
}

// ------------------------------------------------------------------ report

const int = (v: number): string => Math.round(v).toLocaleString('en-US');
const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));

const pct = (share: number): string => `${int(100 * share)}%`;

/** Aligns a table: the first column left, the others right. */
function formatTable(head: string[], body: string[][]): string {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => row[c]!.length)));
  const line = (cells: string[]): string => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function table(rows: Measured[]): string {
  const head = ['contender', 'deliv/s', 'seconds', 'p50 ms', 'p99 ms', 'req p50', 'req p99', 'peak RSS MiB', 'CPU µs/deliv', 'receiver CPU'];
  const body = rows.map((r) => [
    r.label,
    int(r.deliveriesPerSecond),
    r.seconds.toFixed(2),
    ms(r.latencyMs.p50),
    ms(r.latencyMs.p99),
    r.requestMs ? ms(r.requestMs.p50) : '=',
    r.requestMs ? ms(r.requestMs.p99) : '=',
    r.peakRssMiB.toFixed(0),
    int((r.cpuMs * 1000) / r.deliveries),
    pct((r.receiver.cpuUserMs + r.receiver.cpuSystemMs) / (r.seconds * 1000)),
  ]);
  return formatTable(head, body);
}

function ingestTable(rows: IngestMeasured[]): string {
  const head = ['contender', 'events/s', 'seconds', 'batch p50 ms', 'batch p99 ms', 'peak RSS MiB', 'CPU µs/event', 'loadgen CPU', 'receiver CPU'];
  const body = rows.map((r) => [
    `${r.name} (${r.label})`,
    int(r.eventsPerSecond),
    r.seconds.toFixed(2),
    ms(r.batchMs.p50),
    ms(r.batchMs.p99),
    r.peakRssMiB.toFixed(0),
    int(r.cpuUsPerEvent),
    pct(r.loadgenCpuShare),
    pct((r.receiver.cpuUserMs + r.receiver.cpuSystemMs) / (r.seconds * 1000)),
  ]);
  return formatTable(head, body);
}

function checks(byName: Map<ContenderName, Measured>, ingest: readonly IngestMeasured[], live: LiveResult | null, rawE2e: number | null): Check[] {
  const out: Check[] = [];
  const engine = byName.get('engine');
  const raw = byName.get('raw');
  if (engine) {
    const naive = byName.get('naive');
    if (raw) {
      out.push(check('engine ÷ raw', engine.deliveriesPerSecond / raw.deliveriesPerSecond, 0.8));
      // Every thread of the process (scheduler, forwarder, background, V8's own) against raw's one loop.
      out.push(check('engine CPU per delivery ÷ raw', engine.cpuMs / engine.deliveries / (raw.cpuMs / raw.deliveries), 1.5, 'max'));
    }
    if (naive) out.push(check('engine ÷ naive', engine.deliveriesPerSecond / naive.deliveriesPerSecond, 3));
    out.push(check('engine deliveries/s', engine.deliveriesPerSecond, 5000));
  }
  const rawSlow = byName.get('raw-latency');
  const slow = byName.get('engine-latency');
  const slowFixed = byName.get('engine-latency-fixed');
  if (rawSlow && slow) out.push(check('slow webhooks: engine ÷ raw', slow.deliveriesPerSecond / rawSlow.deliveriesPerSecond, 0.6));
  if (slow && slowFixed) out.push(check('slow: adaptive ÷ fixed window', slow.deliveriesPerSecond / slowFixed.deliveriesPerSecond, 1.2));
  const baseline = ingest.find((r) => r.name === 'ingest-baseline');
  const paused = ingest.find((r) => r.name === 'ingest-paused');
  if (baseline && paused) out.push(check('/v1/batch ÷ plain server', paused.eventsPerSecond / baseline.eventsPerSecond, 1.0));
  const draining = ingest.find((r) => r.name === 'ingest-draining');
  if (draining?.drain && rawE2e) out.push(check('end to end ÷ raw', draining.drain.deliveriesPerSecond / rawE2e, 0.8));
  if (live && !live.skipped) {
    out.push(check('live: long tasks share', live.longTaskShare, LIVE_TARGETS.longTaskShare, 'max'));
    out.push(check('live: JS heap MB', live.heapUsedMB.max, LIVE_TARGETS.heapMB, 'max'));
  }
  return out;
}

function check(name: string, value: number, target: number, kind: 'min' | 'max' = 'min'): Check {
  return { name, value, target, kind, pass: kind === 'min' ? value >= target : value < target };
}

/** A jump is not slower for more messages (honest), and fast-forward finishes in seconds; every message fails. */
/** history-fill in docs/performance.md: every case's p95 per phase (max: < 50 ms passes), RSS, catch-up time. */
function fillChecks(fill: FillResult | null): Check[] {
  if (!fill) return [];
  const n = int(fill.messages);
  const rows: Check[] = [];
  for (const c of fill.cases) {
    const phases = [['right after', c.after], ['while indexing', c.during], ['caught up', c.caughtUp]] as const;
    for (const [phase, t] of phases) {
      if (t === null) continue;
      rows.push({ name: `history-fill ${n}: ${c.filter} (${c.variant}) first page p95 ms ${phase}`, value: Number(t.p95.toFixed(1)), target: FILL_TARGETS.p95Ms, kind: 'max', pass: t.p95 < FILL_TARGETS.p95Ms && c.mismatches === 0 });
    }
  }
  rows.push({ name: `history-fill ${n}: serve peak RSS MiB`, value: Math.round(fill.rssPeakMiB), target: FILL_TARGETS.rssMiB, kind: 'max', pass: fill.rssPass });
  return rows;
}

function fillFigures(fill: FillResult | null): DocRow[] {
  if (!fill) return [];
  const n = int(fill.messages);
  return [
    { name: `history-fill ${n}: fill calls/s`, value: Math.round(fill.eventsPerSecond) },
    // A text search right after the fill answers in short pages; this is how long 50 rows (or the end) took.
    ...fill.cases.filter((c) => c.whole).map((c) => ({ name: `history-fill ${n}: ${c.filter} (${c.variant}) right after, 50 rows or the end p95 ms (pages followed)`, value: Number(c.whole!.p95.toFixed(0)) })),
    ...(fill.catchUpSeconds === null ? [] : [{ name: `history-fill ${n}: index caught up, s after the fill`, value: Math.round(fill.catchUpSeconds) }]),
    { name: `history-fill ${n}: serve RSS MiB after the fill`, value: Math.round(fill.rssAfterFillMiB) },
    ...(fill.rssCaughtUpMiB === null ? [] : [{ name: `history-fill ${n}: serve RSS MiB once caught up`, value: Math.round(fill.rssCaughtUpMiB) }]),
    { name: `history-fill ${n}: serve peak RssAnon MiB (without the Node binary's pages)`, value: Math.round(fill.anonPeakMiB) },
  ];
}

/** The first screen: Live's first row and its counters, each ÷ the hand-written page (max: < 2 passes). */
function firstScreenChecks(r: FirstScreenResult | null): Check[] {
  if (!r || r.skipped) return [];
  const n = int(r.messages);
  return [
    check(`first screen, ${n} messages: Live's first row ÷ hand-written page`, r.ratios.liveRow, FIRST_SCREEN_TARGET, 'max'),
    check(`first screen, ${n} messages: Live's counters ÷ hand-written page`, r.ratios.liveCounters, FIRST_SCREEN_TARGET, 'max'),
  ];
}

function firstScreenFigures(r: FirstScreenResult | null): DocRow[] {
  if (!r || r.skipped) return [];
  const n = int(r.messages);
  return [
    { name: `first screen, ${n} messages: hand-written page (50 rows) ms`, value: Math.round(r.medianMs.baseline) },
    { name: `first screen, ${n} messages: Live's first row ms`, value: Math.round(r.medianMs.live) },
    { name: `first screen, ${n} messages: History cold ÷ hand-written page`, value: Number(r.ratios.history.toFixed(2)) },
    { name: `first screen, ${n} messages: a message's detail cold ÷ hand-written page`, value: Number(r.ratios.detail.toFixed(2)) },
    { name: `first screen, ${n} messages: Check's report cold ÷ hand-written page`, value: Number(r.ratios.check.toFixed(2)) },
  ];
}

function timeTravelChecks(result: TimeTravelResult | null): Check[] {
  if (!result) return [];
  const failed = result.runs.filter((r) => r.failed === r.messages).length;
  return [
    check(`time travel: ${result.messages} ÷ 1 messages, honest (wall)`, result.honestRatio, HONEST_RATIO_TARGET, 'max'),
    check(`time travel: ${result.messages} messages, fast-forward (s)`, result.fastForwardSeconds, FAST_FORWARD_TARGET_S, 'max'),
    { name: 'time travel: jumps that failed every message', value: failed, target: result.runs.length, pass: failed === result.runs.length },
  ];
}

function printReport(results: Measured[], n: number): void {
  console.log(`\n${table(results)}\n`);
  console.log('latency (p50/p99):');
  for (const r of results) console.log(`  ${r.name.padEnd(20)} ${r.latencyMeaning}${r.requestMs ? '; "req" = the HTTP request alone' : ''}`);
  console.log('  CPU µs/deliv = this process\'s CPU time (user+system) ÷ deliveries; receiver CPU = its CPU time ÷ wall time');
  console.log('');
  for (const r of results) {
    if (!r.engine) continue;
    const e = r.engine;
    console.log(
      `${r.name} persisted: ${int(e.messagesDelivered)}/${int(n)} messages delivered, ${int(e.attemptRows)} attempt rows ` +
        `(${int(e.successfulAttempts)} successful).`,
    );
    console.log(
      e.mode === 'live'
        ? `  sendMessage accepted ${int(e.acceptedPerSecond)} msgs/s while delivering (accept phase ${int(e.acceptPhaseMs)} ms of ${int(r.seconds * 1000)} ms)`
        : `  sendMessage alone (core paused, untimed): ${int(e.acceptedPerSecond)} msgs/s; the delivery pipeline alone: ${int(r.deliveriesPerSecond)} deliveries/s`,
    );
    if (r.details['window'] === 'adaptive') console.log(`  window: ${r.details['windowAtEnd']} rounds in flight at the end, ${r.details['largestWindow']} at most`);
    const t = e.cpuByThread;
    if (t) {
      console.log(
        `  CPU µs a delivery by thread: the engine's thread ${t.main} (intake, scheduler, every write), the forwarder ${t.forwarder} (signs and sends), ` +
          `the background thread ${t.background} (checkpoints), V8's threads ${t.v8} (GC, compiler), other ${t.other}`,
      );
    }
  }
}

/** What a delivery costs, per contender and, for the engine, per thread: the figures behind the CPU ratio. */
function cpuFigures(results: readonly Measured[]): DocRow[] {
  const rows: DocRow[] = [];
  for (const r of results) {
    if (r.deliveries > 0 && r.cpuMs > 0) rows.push({ name: `${r.name}: CPU µs a delivery`, value: Math.round((r.cpuMs * 1000) / r.deliveries) });
    const t = r.engine?.cpuByThread;
    if (!t) continue;
    rows.push(
      { name: `${r.name}: CPU µs a delivery on the engine's thread (intake, scheduler, every write)`, value: t.main },
      { name: `${r.name}: CPU µs a delivery on the forwarder's thread (signs and sends)`, value: t.forwarder },
      { name: `${r.name}: CPU µs a delivery on the background thread (checkpoints)`, value: t.background },
      { name: `${r.name}: CPU µs a delivery on V8's threads (GC, compiler)`, value: t.v8 },
    );
  }
  return rows;
}

/** What an event costs ingestion with forwarding paused, per thread. */
function ingestCpuFigures(results: readonly IngestMeasured[]): DocRow[] {
  const paused = results.find((r) => r.name === 'ingest-paused');
  const t = paused?.cpuByThread;
  if (!paused || !t) return [];
  return [
    { name: 'ingest-paused: CPU µs an event', value: Math.round(paused.cpuUsPerEvent * 10) / 10 },
    { name: "ingest-paused: CPU µs an event on the engine's thread (HTTP, dedupe, routing, every write)", value: t.main },
    { name: 'ingest-paused: CPU µs an event on the ingestion thread (parses and checks)', value: t.ingest },
    { name: 'ingest-paused: CPU µs an event on the background thread (checkpoints)', value: t.background },
  ];
}

function printIngestReport(results: IngestMeasured[]): void {
  const first = results[0];
  if (!first) return;
  console.log(
    `\ningestion: POST /v1/batch, ${first.batchSize} SDK track events a request (~${int(first.eventBytes)} bytes each, ~${int(first.requestBytes / 1024)} KiB a request), ` +
      `${first.inFlight} in flight from a load-generator child process, Basic auth, keep-alive\n`,
  );
  console.log(ingestTable(results));
  console.log('');
  console.log('  events/s = events accepted (200) ÷ the load generator\'s wall time (first request → last response); batch p50/p99 = one request, client side');
  console.log('  CPU µs/event = the server process\'s CPU time (user+system) over that window ÷ events; loadgen/receiver CPU = their CPU time ÷ that window');
  console.log('  peak RSS = the server process (createCore + startServer, in this process) over the whole run');
  for (const r of results) {
    console.log(`${r.name}: verified ${r.verified}.`);
    const t = r.cpuByThread;
    if (t && r.name !== 'ingest-baseline') {
      console.log(
        `  CPU µs an event by thread${r.drain ? ' (until drained)' : ''}: the engine's thread ${t.main} (HTTP, dedupe, routing, every write), ` +
          `ingestion ${t.ingest} (parses and checks), the forwarder ${t.forwarder}, the background thread ${t.background} (checkpoints), V8's threads ${t.v8}, other ${t.other}`,
      );
    }
    const d = r.drain;
    if (d) {
      console.log(
        `  drain: ${int(d.deliveredDuringIngest)} of ${int(r.events)} delivered while the load ran, the rest ${(d.tailMs / 1000).toFixed(2)} s after the last response; ` +
          `${int(d.deliveriesPerSecond)} deliveries/s end to end (first request → last delivery logged, ${(d.totalMs / 1000).toFixed(2)} s); ` +
          `${int(d.cpuUsPerEvent)} CPU µs/event including delivery`,
      );
    }
  }
}

function printChecks(verdicts: readonly Check[]): void {
  if (!verdicts.length) return;
  console.log('');
  const width = Math.max(...verdicts.map((v) => v.name.length));
  for (const v of verdicts) {
    const format = (x: number): string => (x >= 100 ? int(x) : x.toFixed(2));
    const target = `${v.kind === 'max' ? '<' : '≥'} ${format(v.target)}`;
    console.log(`${v.name.padEnd(width)} ${format(v.value).padStart(7)}   target ${target.padEnd(8)} ${v.pass ? 'PASS' : 'MISS'}`);
  }
}

interface RunFacts {
  messages: number;
  warmUpMessages: number;
  events: Record<IngestName, number>;
  warmUpEvents: Record<IngestName, number>;
  fixedWindow: boolean;
  /** Each paired group's ratio in each alternating round, in the order measured (e.g. "engine ÷ raw"). */
  roundRatios: Record<string, number[]>;
}

function resultsFile(): string {
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return join(dir, 'latest.json');
}

function writeResults(
  facts: RunFacts,
  results: Measured[],
  ingest: IngestMeasured[],
  live: LiveResult | null,
  firstScreen: FirstScreenResult | null,
  history: HistoryResult | null,
  timeTravel: TimeTravelResult | null,
  verdicts: Check[],
  started: number,
): string {
  const file = resultsFile();
  const json = {
    generatedAt: new Date().toISOString(),
    command: rerunCommand(),
    environment: { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? null },
    ...facts,
    contenders: Object.fromEntries(results.map((r) => [r.name, r])),
    ingestion: Object.fromEntries(ingest.map((r) => [r.name, r])),
    live,
    firstScreen,
    history: history ? { generatedAt: new Date().toISOString(), ...history } : null,
    timeTravel,
    checks: verdicts,
    totalSeconds: (Date.now() - started) / 1000,
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return file;
}

/** `--only history`: the history figures replace those in latest.json, the other contenders' stay. */
function writeHistoryResults(history: HistoryResult): string {
  const file = resultsFile();
  let json: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      json = {};
    }
  }
  json['history'] = { generatedAt: new Date().toISOString(), command: rerunCommand(), ...history };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return file;
}

function rerunCommand(): string {
  return RERUN + (process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : '');
}

type AnyMeasured = Measured | IngestMeasured;
const rate = (m: AnyMeasured): number => ('deliveriesPerSecond' in m ? m.deliveriesPerSecond : m.eventsPerSecond);
const perSecond = (m: AnyMeasured): string => ('deliveriesPerSecond' in m ? `${int(m.deliveriesPerSecond)} deliveries/s` : `${int(m.eventsPerSecond)} events/s`);

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const n = options.messages;
  const warmN = forwardingWarmUpMessages(n);
  const warmEvents = Object.fromEntries(INGESTION.map((name) => [name, ingestWarmUpEvents(name, options.events[name], options.ingestWarmUp)])) as Record<IngestName, number>;
  const forwarding = options.only.filter(isForwardingName);
  const ingestion = options.only.filter(isIngestName);
  const withLive = options.only.includes('live');
  const withFirstScreen = options.only.includes('first-screen');
  const withHistory = options.only.includes('history');
  const withTimeTravel = options.only.includes('time-travel');
  const withFill = options.only.includes('history-fill');
  const started = Date.now();
  const loadStart = loadavg();

  const fast = forwarding.some((f) => !SLOW.has(f)) || ingestion.length ? await startReceiver() : null;
  const slow = forwarding.some((f) => SLOW.has(f)) ? await startReceiver({ origins: LATENCY_ORIGINS, delayMs: LATENCY_MS }) : null;
  const receiverOf = (name: ContenderName): Receiver => (SLOW.has(name as ForwardingName) ? slow! : fast!);
  const capMs = HARD_CAP_MS + (withFirstScreen ? FIRST_SCREEN_CAP_MS : 0) + (withHistory ? HISTORY_CAP_MS : 0) + (withTimeTravel ? TIME_TRAVEL_CAP_MS : 0) + (withFill ? HISTORY_FILL_CAP_MS : 0);
  const cap = setTimeout(() => {
    console.error(`bench: hard cap of ${capMs / 1000} s reached; aborting`);
    fast?.kill();
    slow?.kill();
    process.exit(2);
  }, capMs);
  cap.unref();

  try {
    console.log('Hookbench benchmark');
    if (fast) console.log(`  receiver: pid ${fast.pid} at ${fast.urls[0]}`);
    if (slow) console.log(`  slow receiver: pid ${slow.pid}, ${LATENCY_ORIGINS} origins (ports ${slow.urls[0]!.split(':')[2]!.split('/')[0]}…), each answering after ${LATENCY_MS} ms`);
    if (forwarding.length) {
      console.log(
        `  forwarding: ${int(n)} deliveries per contender (warm-up ${int(warmN)}; the engine's through the same core, before each of its runs); ` +
          `engine window ${options.fixedWindow ? `fixed at ${ENGINE_IN_FLIGHT} (--fixed-window)` : `adaptive from ${ENGINE_IN_FLIGHT}`}`,
      );
    }
    for (const name of ingestion) {
      console.log(
        `  ${name}: ${int(options.events[name])} events in /v1/batch requests of ${INGEST_BATCH}, ${options.ingestInFlight} in flight ` +
          `(warm-up ${int(warmEvents[name])}, through the same server before each run)`,
      );
    }
    if (withLive) console.log(`  live: ${int(options.live.rate)} deliveries/s for ${options.live.seconds} s into the Live view`);
    if (withFirstScreen) console.log(`  first-screen: ${int(options.firstScreen.messages)} messages stored; ${options.rounds} rounds of ${options.firstScreen.loads} cold loads of each page`);
    if (withHistory) console.log(`  history: listMessages and getOverview at ${int(options.history.messages)} stored messages, ${options.history.runs} runs a case`);
    if (withFill) console.log(`  history-fill: ${int(options.historyFill.messages)} calls through /v1/batch, then first pages right after, while indexing and caught up (${options.historyFill.runs} rounds)`);
    if (withTimeTravel) console.log(`  time travel: +4 h over 1 and ${int(options.timeTravelMessages)} messages to an endpoint that never answers, honest and fast-forward`);
    console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${process.platform} ${process.arch}\n`);

    const runOne = (name: ForwardingName | IngestName, warmUp = false): Promise<AnyMeasured> =>
      isIngestName(name)
        ? measureIngest(name, fast!, options.events[name], warmEvents[name], options.ingestInFlight)
        : measure(name, receiverOf(name), warmUp ? warmN : n, warmN, options.fixedWindow);

    for (const name of [...forwarding, ...ingestion]) {
      // Each of these runs warms its own core (and an ingestion contender its own server) first.
      if (isIngestName(name) || WARMS_UP_IN_PLACE.includes(name)) continue;
      process.stdout.write(`warm-up ${name}... `);
      await runOne(name, true);
      process.stdout.write('done\n');
    }

    // In the order of CONTENDERS; a paired group's members alternate for `rounds` rounds where it starts.
    const chosen = new Map<ContenderName, AnyMeasured>();
    const groupRounds: { title: string; ratios: number[]; extra: { title: string; ratios: number[] } | null; median: number }[] = [];
    const done = new Set<ContenderName>();
    /** raw, measured right before and after ingest-draining (end to end ÷ raw). */
    const rawAround: Measured[] = [];
    for (const name of [...forwarding, ...ingestion]) {
      if (done.has(name)) continue;
      const group = PAIRED.find((g) => g.names.includes(name));
      const members = group ? group.names.filter((m) => options.only.includes(m)) : [name];
      members.forEach((m) => done.add(m));
      const rounds = members.length > 1 ? options.rounds : 1;
      const measuredRounds: Map<ContenderName, AnyMeasured>[] = [];
      for (let round = 1; round <= rounds; round++) {
        const results = new Map<ContenderName, AnyMeasured>();
        for (const m of members) {
          // End to end is judged against raw measured right before and after it, not minutes earlier.
          const neighbour = m === 'ingest-draining' && options.only.includes('raw');
          if (neighbour) rawAround.push((await runOne('raw')) as Measured);
          process.stdout.write(`measuring ${m}${rounds > 1 ? ` (round ${round} of ${rounds})` : ''}... `);
          const r = await runOne(m);
          results.set(m, r);
          process.stdout.write(`${perSecond(r)}\n`);
          if (neighbour) rawAround.push((await runOne('raw')) as Measured);
        }
        measuredRounds.push(results);
      }
      if (group && members.length > 1 && members.includes(group.ratio[0]) && members.includes(group.ratio[1])) {
        // The round with the median ratio stands for the whole group in the tables and the checks.
        const ratioOf = (r: Map<ContenderName, AnyMeasured>): number => rate(r.get(group.ratio[0])!) / rate(r.get(group.ratio[1])!);
        const ratios = measuredRounds.map(ratioOf);
        const median = [...measuredRounds].sort((a, b) => ratioOf(a) - ratioOf(b))[(measuredRounds.length - 1) >> 1]!;
        for (const [m, r] of median) chosen.set(m, r);
        const fixed = members.includes('engine-latency-fixed') ? measuredRounds.map((r) => rate(r.get('engine-latency-fixed')!) / rate(r.get(group.ratio[1])!)) : null;
        groupRounds.push({
          title: `${group.ratio[0]} ÷ ${group.ratio[1]}`,
          ratios,
          extra: fixed ? { title: `engine-latency-fixed ÷ ${group.ratio[1]}`, ratios: fixed } : null,
          median: ratioOf(median),
        });
      } else {
        for (const [m, r] of measuredRounds[0]!) chosen.set(m, r);
      }
    }
    const results = FORWARDING.flatMap((f) => (chosen.has(f) ? [chosen.get(f) as Measured] : []));
    const ingest = INGESTION.flatMap((f) => (chosen.has(f) ? [chosen.get(f) as IngestMeasured] : []));

    let live: LiveResult | null = null;
    if (withLive) {
      collectGarbage();
      live = await withTempDir('live', (dir) => runLive({ ...options.live, dir }, (line) => console.log(`  live: ${line}`)));
    }
    let firstScreen: FirstScreenResult | null = null;
    if (withFirstScreen) {
      collectGarbage();
      firstScreen = await withTempDir('first-screen', (dir) => runFirstScreen({ ...options.firstScreen, rounds: options.rounds, dir }, (line) => console.log(`  first-screen: ${line}`)));
    }
    let history: HistoryResult | null = null;
    if (withHistory) {
      collectGarbage();
      history = await runHistory({ ...options.history, caseBudgetMs: 20_000 }, (line) => console.log(`  history: ${line}`));
    }
    let fill: FillResult | null = null;
    if (withFill) {
      collectGarbage();
      fill = await withTempDir('history-fill', (dir) => runHistoryFill({ ...options.historyFill, dir }, (line) => console.log(`  history-fill: ${line}`)));
    }
    let timeTravel: TimeTravelResult | null = null;
    if (withTimeTravel) {
      collectGarbage();
      timeTravel = await runTimeTravel(options.timeTravelMessages, withTempDir, (line) => console.log(`  time travel: ${line}`));
    }
    const byName = new Map<ContenderName, Measured>(results.map((r) => [r.name, r]));
    const rawE2e = rawAround.length ? rawAround.reduce((sum, r) => sum + r.deliveriesPerSecond, 0) / rawAround.length : null;
    const verdicts = [...checks(byName, ingest, live, rawE2e), ...firstScreenChecks(firstScreen), ...timeTravelChecks(timeTravel)];

    if (results.length) printReport(results, n);
    for (const g of groupRounds) {
      if (g.ratios.length < 2) continue;
      console.log(
        `${g.title} in ${g.ratios.length} alternating rounds: ${g.ratios.map((r) => r.toFixed(2)).join(', ')}; ` +
          `the median round (${g.median.toFixed(2)}) is the one in the tables and the checks` +
          (g.extra ? ` (${g.extra.title}: ${g.extra.ratios.map((r) => r.toFixed(2)).join(', ')})` : ''),
      );
    }
    if (ingest.length) printIngestReport(ingest);
    const draining = ingest.find((r) => r.name === 'ingest-draining');
    if (draining?.drain && rawE2e) {
      console.log(
        `end to end: ${int(draining.drain.deliveriesPerSecond)} deliveries/s (POST /v1/batch → routed, signed, delivered, attempt logged) ÷ ` +
          `raw ${int(rawE2e)} POSTs/s to the same receiver (measured right before and after: ${rawAround.map((r) => int(r.deliveriesPerSecond)).join(', ')}) = ` +
          `${(draining.drain.deliveriesPerSecond / rawE2e).toFixed(2)}`,
      );
    }
    if (live) printLive(live);
    if (firstScreen) printFirstScreen(firstScreen, formatTable);
    if (history) printHistory(history, formatTable);
    if (fill) printHistoryFill(fill, formatTable);
    if (timeTravel) printTimeTravel(timeTravel, formatTable);
    printChecks(verdicts);
    const historyCheck = history ? [{ name: 'history cases within 50 ms p95', value: history.passed, target: history.total, pass: history.passed === history.total }] : [];
    const docChecks: Check[] = [...verdicts, ...historyCheck, ...fillChecks(fill)];
    if (options.only.length === CONTENDERS.length) {
      process.stdout.write(`\ntimeout precision: 16 attempts against a server that never answers (~5 s)... `);
      const timeout = await withTempDir('timeout', (dir) => measureTimeoutPrecision(dir, 16));
      const f = timeout.firedMs;
      const pass = timeout.withinTarget === timeout.attempts;
      console.log(
        `fired after min ${f.min.toFixed(1)} / p50 ${f.p50.toFixed(1)} / max ${f.max.toFixed(1)} ms; ` +
          `${timeout.withinTarget}/${timeout.attempts} within ${TIMEOUT_MS}–${TIMEOUT_MS + TOLERANCE_MS} ms  ${pass ? 'PASS' : 'MISS'}`,
      );
      const facts: RunFacts = {
        messages: n,
        warmUpMessages: warmN,
        events: options.events,
        warmUpEvents: warmEvents,
        fixedWindow: options.fixedWindow,
        roundRatios: Object.fromEntries(groupRounds.map((g) => [g.title, g.ratios])),
      };
      const timeoutCheck: Check = { name: 'timeout fired within 5.0–5.1 s', value: timeout.withinTarget, target: timeout.attempts, pass };
      docChecks.push(timeoutCheck);
      const file = writeResults(
        facts,
        results,
        ingest,
        live,
        firstScreen,
        history,
        timeTravel,
        [...verdicts, timeoutCheck, ...historyCheck],
        started,
      );
      console.log(`\nresults: ${file}`);
    } else if (history && options.only.length === 1) {
      console.log(`\nresults: the history figures in ${writeHistoryResults(history)} (the other contenders' are those of the last full run)`);
    } else {
      console.log('\nresults: not written (--only runs a subset; bench/results/latest.json keeps the last full run)');
    }
    const figures: DocRow[] = [
      ...results.map((r) => ({ name: `${r.name}: deliveries/s`, value: r.deliveriesPerSecond })),
      ...cpuFigures(results),
      ...ingest.map((r) => ({ name: `${r.name}: events/s`, value: r.eventsPerSecond })),
      ...ingestCpuFigures(ingest),
      ...(rawE2e && draining?.drain ? [{ name: 'ingest-draining: deliveries/s end to end', value: draining.drain.deliveriesPerSecond }] : []),
      ...fillFigures(fill),
      ...firstScreenFigures(firstScreen),
    ];
    const doc = fileURLToPath(new URL('../../docs/performance.md', import.meta.url));
    const { kept } = writePerformanceDoc(
      doc,
      {
        at: new Date(started).toISOString(),
        command: rerunCommand(),
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        cores: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? null,
        loadStart,
        loadEnd: loadavg(),
      },
      [...docChecks.map((c) => ({ name: c.name, value: c.value, target: c.target, kind: c.kind ?? 'min', pass: c.pass })), ...figures],
    );
    console.log(`docs:    ${doc} (this run's rows${kept ? `; ${kept} rows kept from earlier runs` : ''})`);
    console.log(
      `rerun:   ${rerunCommand()}   (options: -- --messages N | --events N | --ingest-warm-up N | --ingest-in-flight N | --rounds N | --quick | --fixed-window | ` +
        `--only ${[...CONTENDERS, ...Object.keys(ALIASES)].join(',')} | --live-seconds N | --live-rate N | --first-screen-messages N | --first-screen-loads N | ` +
        '--history-messages N | --history-runs N | --history-db DIR | --history-fill-messages N | --history-fill-runs N | --time-travel-messages N)',
    );
    return 0;
  } finally {
    clearTimeout(cap);
    fast?.kill();
    slow?.kill();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error('\nbench failed:', e instanceof Error ? e.message : e);
    if (e instanceof Error && e.stack) console.error(e.stack);
    process.exitCode = 1;
  },
);
