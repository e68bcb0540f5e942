/**
 * `npm run bench`: logged deliveries/s through the Hookbench engine to a local receiver, side by side with
 * (a) a raw undici POST loop and (b) a naive fetch + INSERT forwarder, all against the same receiver in a
 * child process. Prints a table, the ratios against the targets and the command to rerun, and writes
 * bench/results/latest.json.
 *
 *   npm run bench                      20,000 messages per contender
 *   npm run bench -- --messages 50000
 *   npm run bench -- --quick           ~2,000 messages (smoke run)
 *   npm run bench -- --only engine     one contender (e.g. under node --cpu-prof)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContenderOutput, EngineFacts } from './contender.js';
import { runEngine } from './engine.js';
import { runNaive } from './naive.js';
import { isReceiverReport, type ReceiverCommand, type ReceiverStats } from './protocol.js';
import { runRaw } from './raw.js';
import { collectGarbage, MiB, RssSampler, summarize, type LatencySummary } from './stats.js';
import { CONNECTIONS, ENGINE_IN_FLIGHT, NAIVE_CONCURRENCY, trackBody } from './workload.js';

const RERUN = 'npm run bench';
const HARD_CAP_MS = 180_000;
const DEFAULT_MESSAGES = 20_000;
const QUICK_MESSAGES = 2_000;

/** `engine-drain` is a diagnostic (delivery pipeline alone); it takes no part in the targets. */
const CONTENDERS = ['raw', 'engine', 'naive', 'engine-drain'] as const;
type ContenderName = (typeof CONTENDERS)[number];

const LABELS: Record<ContenderName, string> = {
  raw: `raw undici (${ENGINE_IN_FLIGHT} in flight, ${CONNECTIONS} conns)`,
  engine: `engine (${ENGINE_IN_FLIGHT} in flight, signed, logged)`,
  naive: `naive fetch+INSERT (${NAIVE_CONCURRENCY} at once)`,
  'engine-drain': 'diagnostic: engine, backlog drain only',
};

interface Options {
  messages: number;
  quick: boolean;
  only: ContenderName[];
}

interface Measured {
  name: ContenderName;
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

interface Check {
  name: string;
  value: number;
  target: number;
  pass: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  let messages: number | null = null;
  let quick = false;
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
    } else if (flag === '--quick') {
      quick = true;
    } else if (flag === '--only') {
      const names = value().split(',');
      for (const n of names) if (!(CONTENDERS as readonly string[]).includes(n)) throw new Error(`--only: one or more of ${CONTENDERS.join(', ')}`);
      only = CONTENDERS.filter((c) => names.includes(c));
    } else if (flag === '--help' || flag === '-h') {
      console.log(`usage: ${RERUN} [-- --messages N | --quick] [--only ${CONTENDERS.join(',')}]`);
      process.exit(0);
    } else {
      throw new Error(`unknown option ${arg} (try --help)`);
    }
  }
  return { messages: messages ?? (quick ? QUICK_MESSAGES : DEFAULT_MESSAGES), quick, only };
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
  const child: ChildProcess = fork(fileURLToPath(new URL('./receiver.js', import.meta.url)), [], {
    execArgv: [], // not --cpu-prof / --expose-gc from this process
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', kill);

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('receiver did not start within 10 s')), 10_000);
    const onMessage = (m: unknown): void => {
      if (isReceiverReport(m) && m.type === 'listening') done(() => resolve(m.port));
    };
    const onExit = (code: number | null): void => fail(new Error(`receiver exited during start (code ${code})`));
    const done = (then: () => void): void => {
      clearTimeout(timer);
      child.off('message', onMessage).off('exit', onExit).off('error', fail);
      then();
    };
    const fail = (e: Error): void => done(() => reject(e));
    child.on('message', onMessage).once('exit', onExit).once('error', fail);
  });

  return {
    url: `http://127.0.0.1:${port}/hook`,
    pid: child.pid ?? -1,
    stats: () =>
      new Promise<ReceiverStats>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('receiver did not report its counters within 5 s')), 5_000);
        const onMessage = (m: unknown): void => {
          if (!isReceiverReport(m) || m.type !== 'stats') return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve({ requests: m.requests, bodyBytes: m.bodyBytes, cpuUserMs: m.cpuUserMs, cpuSystemMs: m.cpuSystemMs });
        };
        child.on('message', onMessage);
        const command: ReceiverCommand = { type: 'stats' };
        child.send(command);
      }),
    kill,
  };
}

// ------------------------------------------------------------------ running contenders

/** Temp dirs in use, removed even when the hard cap ends the process mid-run. */
const tempDirs = new Set<string>();
process.once('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

async function runContender(name: ContenderName, url: string, n: number): Promise<ContenderOutput> {
  const dir = mkdtempSync(join(tmpdir(), `hookbench-bench-${name}-`));
  tempDirs.add(dir);
  try {
    switch (name) {
      case 'raw':
        return await runRaw(url, n, trackBody(0));
      case 'engine':
        return await runEngine(url, n, dir, 'live');
      case 'engine-drain':
        return await runEngine(url, n, dir, 'drain');
      case 'naive':
        return await runNaive(url, n, dir);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  }
}

async function measure(name: ContenderName, receiver: Receiver, n: number): Promise<Measured> {
  collectGarbage();
  await receiver.stats(); // reset its counters
  const rss = new RssSampler(50);
  rss.start();
  const cpu = process.cpuUsage();
  let out: ContenderOutput;
  let peak: number;
  try {
    out = await runContender(name, receiver.url, n);
  } finally {
    peak = rss.stop();
  }
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

// ------------------------------------------------------------------ report

const int = (v: number): string => Math.round(v).toLocaleString('en-US');
const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));

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
    `${int((100 * (r.receiver.cpuUserMs + r.receiver.cpuSystemMs)) / (r.seconds * 1000))}%`,
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((row) => row[c]!.length)));
  const line = (cells: string[]): string => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function checks(byName: Map<ContenderName, Measured>): Check[] {
  const engine = byName.get('engine');
  if (!engine) return [];
  const out: Check[] = [];
  const raw = byName.get('raw');
  const naive = byName.get('naive');
  if (raw) out.push(check('engine ÷ raw', engine.deliveriesPerSecond / raw.deliveriesPerSecond, 0.6));
  if (naive) out.push(check('engine ÷ naive', engine.deliveriesPerSecond / naive.deliveriesPerSecond, 3));
  out.push(check('engine deliveries/s', engine.deliveriesPerSecond, 5000));
  return out;
}

function check(name: string, value: number, target: number): Check {
  return { name, value, target, pass: value >= target };
}

function printReport(results: Measured[], verdicts: Check[], n: number): void {
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
        : `  sendMessage alone (scheduler stopped, untimed): ${int(e.acceptedPerSecond)} msgs/s; the delivery pipeline alone: ${int(r.deliveriesPerSecond)} deliveries/s`,
    );
  }
  if (verdicts.length) {
    console.log('');
    for (const v of verdicts) {
      const value = v.value >= 100 ? int(v.value) : v.value.toFixed(2);
      const target = v.target >= 100 ? int(v.target) : v.target.toFixed(2);
      console.log(`${v.name.padEnd(20)} ${value.padStart(7)}   target ≥ ${target.padEnd(6)} ${v.pass ? 'PASS' : 'MISS'}`);
    }
  }
}

function writeResults(n: number, warmN: number, results: Measured[], verdicts: Check[], started: number): string {
  const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'latest.json');
  const json = {
    generatedAt: new Date().toISOString(),
    command: RERUN + (process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''),
    environment: { node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? null },
    messages: n,
    warmUpMessages: warmN,
    contenders: Object.fromEntries(results.map((r) => [r.name, r])),
    checks: verdicts,
    totalSeconds: (Date.now() - started) / 1000,
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return file;
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const n = options.messages;
  const warmN = Math.max(1_000, Math.min(2_000, Math.round(n / 10)));
  const started = Date.now();

  const receiver = await startReceiver();
  const cap = setTimeout(() => {
    console.error(`bench: hard cap of ${HARD_CAP_MS / 1000} s reached; aborting`);
    receiver.kill();
    process.exit(2);
  }, HARD_CAP_MS);
  cap.unref();

  try {
    console.log(
      `Hookbench forwarding benchmark: ${int(n)} deliveries per contender (warm-up ${int(warmN)}), ` +
        `receiver pid ${receiver.pid} at ${receiver.url}`,
    );
    console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${process.platform} ${process.arch}\n`);

    for (const name of options.only) {
      process.stdout.write(`warm-up ${name}... `);
      await measure(name, receiver, warmN);
      process.stdout.write('done\n');
    }
    const results: Measured[] = [];
    for (const name of options.only) {
      process.stdout.write(`measuring ${name}... `);
      const r = await measure(name, receiver, n);
      results.push(r);
      process.stdout.write(`${int(r.deliveriesPerSecond)} deliveries/s\n`);
    }
    const byName = new Map(results.map((r) => [r.name, r]));
    const verdicts = checks(byName);

    printReport(results, verdicts, n);
    if (options.only.length === CONTENDERS.length) {
      const file = writeResults(n, warmN, results, verdicts, started);
      console.log(`\nresults: ${file}`);
    } else {
      console.log('\nresults: not written (--only runs a subset; bench/results/latest.json keeps the last full run)');
    }
    console.log(`rerun:   ${RERUN}   (options: -- --messages N | --quick | --only ${CONTENDERS.join(',')})`);
    return 0;
  } finally {
    clearTimeout(cap);
    receiver.kill();
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
