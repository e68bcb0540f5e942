/**
 * `npm run bench`: logged deliveries/s through the Hookbench engine to a local receiver, side by side with
 * (a) a raw undici POST loop and (b) a naive fetch + INSERT forwarder, all against the same receiver in a
 * child process; and accepted-and-persisted events/s through the ingestion API (/v1/batch of 100 events,
 * from a load generator in another child process) with forwarding paused and with the engine draining to
 * the receiver (bench/ingest.ts). Prints tables, the ratios against the targets and the command to rerun,
 * and writes bench/results/latest.json.
 *
 *   npm run bench                      20,000 messages per forwarding contender; 100,000 / 50,000 ingested events
 *   npm run bench -- --messages 50000
 *   npm run bench -- --events 200000   events for both ingestion contenders (a multiple of 100)
 *   npm run bench -- --quick           ~2,000 messages, 5,000 / 2,000 events, one round (smoke run)
 *   npm run bench -- --rounds 5        raw and engine measured in 5 alternating rounds (default 3): the
 *                                      engine ÷ raw verdict is the median round's
 *   npm run bench -- --only engine     one contender (e.g. under node --cpu-prof)
 *   npm run bench -- --only ingest-paused,ingest-draining
 *   npm run bench -- --only history    listMessages and getOverview at 1,000,000 stored messages (bench/history.ts);
 *                                      --history-messages N, --history-runs N (default 30),
 *                                      --history-db DIR keeps the database there for later runs
 */
import { forkBenchChild } from './child.js';
import { measureTimeoutPrecision, TIMEOUT_MS, TOLERANCE_MS } from './timeout.js';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContenderOutput, ContenderRun, EngineFacts } from './contender.js';
import { runEngine } from './engine.js';
import { printHistory, runHistory, type HistoryResult } from './history.js';
import { runIngest, type DrainFacts, type IngestMode, type IngestOutput } from './ingest.js';
import { runNaive } from './naive.js';
import { isReceiverReport, type ReceiverCommand, type ReceiverStats } from './protocol.js';
import { runRaw } from './raw.js';
import { collectGarbage, MiB, RssSampler, summarize, type LatencySummary } from './stats.js';
import { CONNECTIONS, ENGINE_IN_FLIGHT, INGEST_BATCH, INGEST_IN_FLIGHT, NAIVE_CONCURRENCY, trackBody } from './workload.js';

const RERUN = 'npm run bench';
const HARD_CAP_MS = 180_000;
/** Added to the cap when the history benchmark runs: building 1,000,000 messages takes a minute or two. */
const HISTORY_CAP_MS = 1_200_000;
const DEFAULT_HISTORY_MESSAGES = 1_000_000;
const QUICK_HISTORY_MESSAGES = 20_000;
const DEFAULT_HISTORY_RUNS = 30;
const QUICK_HISTORY_RUNS = 10;
const DEFAULT_MESSAGES = 20_000;
/** raw and engine rounds in a full run (see main). */
const DEFAULT_ROUNDS = 3;
const QUICK_MESSAGES = 2_000;
/** Events per ingestion contender: paused is cheap per event; draining also delivers each one. */
const DEFAULT_EVENTS: Record<IngestName, number> = { 'ingest-paused': 100_000, 'ingest-draining': 50_000 };
const QUICK_EVENTS: Record<IngestName, number> = { 'ingest-paused': 5_000, 'ingest-draining': 2_000 };
const INGEST_TARGET_EVENTS_PER_SECOND = 50_000;

/** `engine-drain` is a diagnostic (delivery pipeline alone); it takes no part in the targets. */
const FORWARDING = ['raw', 'engine', 'naive', 'engine-drain'] as const;
const INGESTION = ['ingest-paused', 'ingest-draining'] as const;
const CONTENDERS = [...FORWARDING, ...INGESTION, 'history'] as const;
type ForwardingName = (typeof FORWARDING)[number];
type IngestName = (typeof INGESTION)[number];
type ContenderName = (typeof CONTENDERS)[number];

const isIngestName = (name: ContenderName): name is IngestName => (INGESTION as readonly string[]).includes(name);
const isForwardingName = (name: ContenderName): name is ForwardingName => (FORWARDING as readonly string[]).includes(name);
const MODE_OF: Record<IngestName, IngestMode> = { 'ingest-paused': 'paused', 'ingest-draining': 'draining' };

const LABELS: Record<ContenderName, string> = {
  raw: `raw undici (${ENGINE_IN_FLIGHT} in flight, ${CONNECTIONS} conns)`,
  engine: `engine (${ENGINE_IN_FLIGHT} in flight, signed, logged)`,
  naive: `naive fetch+INSERT (${NAIVE_CONCURRENCY} at once)`,
  'engine-drain': 'diagnostic: engine, backlog drain only',
  'ingest-paused': `/v1/batch ×${INGEST_BATCH}, forwarding paused`,
  'ingest-draining': `/v1/batch ×${INGEST_BATCH}, engine draining`,
  history: 'listMessages and getOverview over a stored history',
};

interface Options {
  messages: number;
  /** Events per ingestion contender. */
  events: Record<IngestName, number>;
  quick: boolean;
  only: ContenderName[];
  /** How many times raw and engine are measured, alternately; the ratio is the median of the rounds. */
  rounds: number;
  history: { messages: number; runs: number; keepDir: string | null };
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
  verified: string;
}

interface Check {
  name: string;
  value: number;
  target: number;
  pass: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  let messages: number | null = null;
  let events: number | null = null;
  let quick = false;
  let rounds: number | null = null;
  let historyMessages: number | null = null;
  let historyRuns: number | null = null;
  let historyDb: string | null = null;
  let only: ContenderName[] = [...CONTENDERS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--messages') {
      messages = Number(value());
      if (!Number.isInteger(messages) || messages < 100 || messages > 1_000_000) throw new Error('--messages: a whole number from 100 to 1,000,000');
    } else if (flag === '--events') {
      events = Number(value());
      if (!Number.isInteger(events) || events < 1_000 || events > 2_000_000 || events % INGEST_BATCH !== 0) {
        throw new Error(`--events: a multiple of ${INGEST_BATCH} from 1,000 to 2,000,000`);
      }
    } else if (flag === '--quick') {
      quick = true;
    } else if (flag === '--rounds') {
      rounds = Number(value());
      if (!Number.isInteger(rounds) || rounds < 1 || rounds > 9) throw new Error('--rounds: a whole number from 1 to 9');
    } else if (flag === '--history-messages') {
      historyMessages = Number(value());
      if (!Number.isInteger(historyMessages) || historyMessages < 2_000 || historyMessages > 5_000_000) throw new Error('--history-messages: a whole number from 2,000 to 5,000,000');
    } else if (flag === '--history-runs') {
      historyRuns = Number(value());
      if (!Number.isInteger(historyRuns) || historyRuns < 5 || historyRuns > 1000) throw new Error('--history-runs: a whole number from 5 to 1,000');
    } else if (flag === '--history-db') {
      historyDb = value();
    } else if (flag === '--only') {
      const names = value().split(',');
      for (const n of names) if (!(CONTENDERS as readonly string[]).includes(n)) throw new Error(`--only: one or more of ${CONTENDERS.join(', ')}`);
      only = CONTENDERS.filter((c) => names.includes(c));
    } else if (flag === '--help' || flag === '-h') {
      console.log(
        `usage: ${RERUN} [-- --messages N] [--events N] [--rounds N] [--quick] [--only ${CONTENDERS.join(',')}] ` +
          '[--history-messages N] [--history-runs N] [--history-db DIR]',
      );
      process.exit(0);
    } else {
      throw new Error(`unknown option ${arg} (try --help)`);
    }
  }
  const defaultEvents = quick ? QUICK_EVENTS : DEFAULT_EVENTS;
  return {
    messages: messages ?? (quick ? QUICK_MESSAGES : DEFAULT_MESSAGES),
    events: events === null ? defaultEvents : { 'ingest-paused': events, 'ingest-draining': events },
    quick,
    only,
    rounds: rounds ?? (quick ? 1 : DEFAULT_ROUNDS),
    history: {
      messages: historyMessages ?? (quick ? QUICK_HISTORY_MESSAGES : DEFAULT_HISTORY_MESSAGES),
      runs: historyRuns ?? (quick ? QUICK_HISTORY_RUNS : DEFAULT_HISTORY_RUNS),
      keepDir: historyDb,
    },
  };
}

// ------------------------------------------------------------------ receiver child process

interface Receiver {
  url: string;
  pid: number;
  /** Counters since the previous call. */
  stats(): Promise<ReceiverStats>;
  kill(): void;
}

async function startReceiver(): Promise<Receiver> {
  const r = forkBenchChild('receiver.js', 'receiver');
  const port = await r.next((m) => (isReceiverReport(m) && m.type === 'listening' ? m.port : undefined), 'listening report', 10_000);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    pid: r.child.pid ?? -1,
    stats: () =>
      r.next(
        (m) =>
          isReceiverReport(m) && m.type === 'stats'
            ? { requests: m.requests, bodyBytes: m.bodyBytes, cpuUserMs: m.cpuUserMs, cpuSystemMs: m.cpuSystemMs }
            : undefined,
        'counters',
        5_000,
        { type: 'stats' } satisfies ReceiverCommand,
      ),
    kill: r.kill,
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

function runContender(name: ForwardingName, url: string, n: number, run: ContenderRun): Promise<ContenderOutput> {
  return withTempDir(name, async (dir) => {
    switch (name) {
      case 'raw':
        await run.ready();
        return runRaw(url, n, trackBody(0));
      case 'engine':
        return runEngine(url, n, dir, 'live', run);
      case 'engine-drain':
        return runEngine(url, n, dir, 'drain', run);
      case 'naive':
        await run.ready();
        return runNaive(url, n, dir);
    }
  });
}

/** Contenders that warm up inside each measured run (the engine warms its own core): see bench/engine.ts. */
const WARMS_UP_IN_PLACE: readonly ForwardingName[] = ['engine', 'engine-drain'];

/**
 * Runs a contender and measures it: CPU, peak RSS and the receiver's counters start at its `ready()`, after
 * any warm-up it does in place (`warmUp` messages), and end when it returns.
 */
async function measure(name: ForwardingName, receiver: Receiver, n: number, warmUp: number): Promise<Measured> {
  collectGarbage();
  const rss = new RssSampler(50);
  let cpu: NodeJS.CpuUsage | null = null;
  const ready = async (): Promise<void> => {
    if (cpu) throw new Error(`${name}: ready() called twice`);
    collectGarbage();
    await receiver.stats(); // reset its counters
    rss.start();
    cpu = process.cpuUsage();
  };
  let out: ContenderOutput;
  let peak: number;
  try {
    out = await runContender(name, receiver.url, n, { warmUp: WARMS_UP_IN_PLACE.includes(name) ? warmUp : 0, ready });
  } finally {
    peak = rss.stop();
  }
  if (!cpu) throw new Error(`${name}: returned without calling ready()`);
  const cpuUsed = process.cpuUsage(cpu);
  const received = await receiver.stats();
  if (received.requests !== n) throw new Error(`${name}: the receiver got ${received.requests} requests, expected ${n}`);
  return {
    name,
    label: LABELS[name],
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
async function measureIngest(name: IngestName, receiver: Receiver, events: number): Promise<IngestMeasured> {
  collectGarbage();
  await receiver.stats(); // reset its counters
  const rss = new RssSampler(50);
  rss.start();
  let out: IngestOutput;
  let peak: number;
  try {
    out = await withTempDir(name, (dir) => runIngest(MODE_OF[name], receiver.url, events, dir));
  } finally {
    peak = rss.stop();
  }
  const received = await receiver.stats();
  const expected = out.mode === 'draining' ? events : 0;
  if (received.requests !== expected) throw new Error(`${name}: the receiver got ${received.requests} requests, expected ${expected}`);
  return {
    name,
    label: LABELS[name],
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

function checks(byName: Map<ContenderName, Measured>, ingest: readonly IngestMeasured[]): Check[] {
  const out: Check[] = [];
  const engine = byName.get('engine');
  if (engine) {
    const raw = byName.get('raw');
    const naive = byName.get('naive');
    if (raw) out.push(check('engine ÷ raw', engine.deliveriesPerSecond / raw.deliveriesPerSecond, 0.6));
    if (naive) out.push(check('engine ÷ naive', engine.deliveriesPerSecond / naive.deliveriesPerSecond, 3));
    out.push(check('engine deliveries/s', engine.deliveriesPerSecond, 5000));
  }
  const paused = ingest.find((r) => r.name === 'ingest-paused');
  if (paused) out.push(check('ingest-paused events/s', paused.eventsPerSecond, INGEST_TARGET_EVENTS_PER_SECOND));
  return out;
}

function check(name: string, value: number, target: number): Check {
  return { name, value, target, pass: value >= target };
}

function printReport(results: Measured[], n: number): void {
  console.log(`\n${table(results)}\n`);
  console.log('latency (p50/p99):');
  for (const r of results) console.log(`  ${r.name.padEnd(12)} ${r.latencyMeaning}${r.requestMs ? '; "req" = the HTTP request alone' : ''}`);
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
  }
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
  for (const v of verdicts) {
    const value = v.value >= 100 ? int(v.value) : v.value.toFixed(2);
    const target = v.target >= 100 ? int(v.target) : v.target.toFixed(2);
    console.log(`${v.name.padEnd(22)} ${value.padStart(7)}   target ≥ ${target.padEnd(6)} ${v.pass ? 'PASS' : 'MISS'}`);
  }
}

interface RunFacts {
  messages: number;
  warmUpMessages: number;
  events: Record<IngestName, number>;
  warmUpEvents: Record<IngestName, number>;
  /** engine ÷ raw of each alternating round, in the order measured. */
  engineRawRatios: number[];
}

function resultsFile(): string {
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return join(dir, 'latest.json');
}

function writeResults(facts: RunFacts, results: Measured[], ingest: IngestMeasured[], history: HistoryResult | null, verdicts: Check[], started: number): string {
  const file = resultsFile();
  const json = {
    generatedAt: new Date().toISOString(),
    command: rerunCommand(),
    environment: { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? null },
    ...facts,
    contenders: Object.fromEntries(results.map((r) => [r.name, r])),
    ingestion: Object.fromEntries(ingest.map((r) => [r.name, r])),
    history: history ? { generatedAt: new Date().toISOString(), ...history } : null,
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

/** Warm-up size for an ingestion contender: a tenth of the run, 1,000 to 10,000 events, whole batches. */
function warmUpEvents(events: number): number {
  return Math.max(1_000, Math.min(10_000, Math.round(events / 10 / INGEST_BATCH) * INGEST_BATCH));
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const n = options.messages;
  const warmN = Math.max(1_000, Math.min(2_000, Math.round(n / 10)));
  const warmEvents: Record<IngestName, number> = {
    'ingest-paused': warmUpEvents(options.events['ingest-paused']),
    'ingest-draining': warmUpEvents(options.events['ingest-draining']),
  };
  const forwarding = options.only.filter(isForwardingName);
  const ingestion = options.only.filter(isIngestName);
  const withHistory = options.only.includes('history');
  const started = Date.now();

  const receiver = forwarding.length || ingestion.length ? await startReceiver() : null;
  const capMs = HARD_CAP_MS + (withHistory ? HISTORY_CAP_MS : 0);
  const cap = setTimeout(() => {
    console.error(`bench: hard cap of ${capMs / 1000} s reached; aborting`);
    receiver?.kill();
    process.exit(2);
  }, capMs);
  cap.unref();

  try {
    console.log(`Hookbench benchmark${receiver ? `: receiver pid ${receiver.pid} at ${receiver.url}` : ''}`);
    if (forwarding.length) console.log(`  forwarding: ${int(n)} deliveries per contender (warm-up ${int(warmN)}; the engine's through the same core, before each of its runs)`);
    for (const name of ingestion) {
      console.log(`  ${name}: ${int(options.events[name])} events in /v1/batch requests of ${INGEST_BATCH}, ${INGEST_IN_FLIGHT} in flight (warm-up ${int(warmEvents[name])})`);
    }
    if (withHistory) console.log(`  history: listMessages and getOverview at ${int(options.history.messages)} stored messages, ${options.history.runs} runs a case`);
    console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${process.platform} ${process.arch}\n`);

    for (const name of [...forwarding, ...ingestion]) {
      if (!isIngestName(name) && WARMS_UP_IN_PLACE.includes(name)) continue; // each of its runs warms its own core
      process.stdout.write(`warm-up ${name}... `);
      if (isIngestName(name)) await measureIngest(name, receiver!, warmEvents[name]);
      else await measure(name, receiver!, warmN, 0);
      process.stdout.write('done\n');
    }
    const results: Measured[] = [];
    // raw and engine are measured in alternating rounds: this machine's speed drifts by more than the margin
    // the ratio is judged by, and one lucky or unlucky raw run must not decide it.
    const paired = forwarding.includes('raw') && forwarding.includes('engine') ? options.rounds : 1;
    const rounds: { raw: Measured; engine: Measured; ratio: number }[] = [];
    for (let round = 1; round <= paired; round++) {
      const pair: Partial<Record<ForwardingName, Measured>> = {};
      for (const name of forwarding.filter((f) => round === 1 || f === 'raw' || f === 'engine')) {
        process.stdout.write(`measuring ${name}${paired > 1 && (name === 'raw' || name === 'engine') ? ` (round ${round} of ${paired})` : ''}... `);
        const r = await measure(name, receiver!, n, warmN);
        pair[name] = r;
        if (round === 1 && name !== 'raw' && name !== 'engine') results.push(r);
        process.stdout.write(`${int(r.deliveriesPerSecond)} deliveries/s\n`);
      }
      if (pair.raw && pair.engine) rounds.push({ raw: pair.raw, engine: pair.engine, ratio: pair.engine.deliveriesPerSecond / pair.raw.deliveriesPerSecond });
      else for (const name of ['raw', 'engine'] as const) if (pair[name]) results.unshift(pair[name]);
    }
    // The round with the median ratio stands for raw and engine in the tables and the checks.
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[(rounds.length - 1) >> 1];
    if (median) results.unshift(median.raw, median.engine);
    results.sort((a, b) => FORWARDING.indexOf(a.name) - FORWARDING.indexOf(b.name));
    const ingest: IngestMeasured[] = [];
    for (const name of ingestion) {
      process.stdout.write(`measuring ${name}... `);
      const r = await measureIngest(name, receiver!, options.events[name]);
      ingest.push(r);
      process.stdout.write(`${int(r.eventsPerSecond)} events/s\n`);
    }
    let history: HistoryResult | null = null;
    if (withHistory) {
      collectGarbage();
      history = await runHistory({ ...options.history, caseBudgetMs: 20_000 }, (line) => console.log(`  history: ${line}`));
    }
    const byName = new Map<ContenderName, Measured>(results.map((r) => [r.name, r]));
    const verdicts = checks(byName, ingest);

    if (results.length) printReport(results, n);
    if (rounds.length > 1) {
      console.log(
        `engine ÷ raw in ${rounds.length} alternating rounds: ${rounds.map((r) => r.ratio.toFixed(2)).join(', ')}; ` +
          `the median round (${median!.ratio.toFixed(2)}) is the one in the table and the checks`,
      );
    }
    if (ingest.length) printIngestReport(ingest);
    if (history) printHistory(history, formatTable);
    printChecks(verdicts);
    if (options.only.length === CONTENDERS.length) {
      process.stdout.write(`\ntimeout precision: 16 attempts against a server that never answers (~5 s)... `);
      const timeout = await withTempDir('timeout', (dir) => measureTimeoutPrecision(dir, 16));
      const f = timeout.firedMs;
      const pass = timeout.withinTarget === timeout.attempts;
      console.log(
        `fired after min ${f.min.toFixed(1)} / p50 ${f.p50.toFixed(1)} / max ${f.max.toFixed(1)} ms; ` +
          `${timeout.withinTarget}/${timeout.attempts} within ${TIMEOUT_MS}–${TIMEOUT_MS + TOLERANCE_MS} ms  ${pass ? 'PASS' : 'MISS'}`,
      );
      const facts: RunFacts = { messages: n, warmUpMessages: warmN, events: options.events, warmUpEvents: warmEvents, engineRawRatios: rounds.map((r) => r.ratio) };
      const historyCheck = history ? [{ name: 'history cases within 50 ms p95', value: history.passed, target: history.total, pass: history.passed === history.total }] : [];
      const file = writeResults(
        facts,
        results,
        ingest,
        history,
        [...verdicts, { name: 'timeout fired within 5.0–5.1 s', value: timeout.withinTarget, target: timeout.attempts, pass }, ...historyCheck],
        started,
      );
      console.log(`\nresults: ${file}`);
    } else if (history && options.only.length === 1) {
      console.log(`\nresults: the history figures in ${writeHistoryResults(history)} (the other contenders' are those of the last full run)`);
    } else {
      console.log('\nresults: not written (--only runs a subset; bench/results/latest.json keeps the last full run)');
    }
    console.log(
      `rerun:   ${rerunCommand()}   (options: -- --messages N | --events N | --rounds N | --quick | --only ${CONTENDERS.join(',')} | ` +
        '--history-messages N | --history-runs N | --history-db DIR)',
    );
    return 0;
  } finally {
    clearTimeout(cap);
    receiver?.kill();
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
