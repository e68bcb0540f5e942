/**
 * CPU by thread of this process, from /proc (Linux; empty elsewhere): what the engine's and ingestion's figures
 * per delivery or event are made of. The engine's worker threads carry their names (platform/workers.ts,
 * threadName: `hb:forwarder`, `hb:ingest`, `hb:background`); V8's own threads are `V8Worker`.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Per thread: CPU ticks (user+system, 1/100 s) by thread name and id. */
export type ThreadTimes = Map<string, number>;

/** CPU µs per unit (a delivery, an event) by thread; the worker threads' sum is `workers`. */
export interface CpuByThread {
  /** The engine's thread: intake, the scheduler, every write, ingestion's commits, the HTTP server. */
  main: number;
  /** The forwarder: signs and sends. */
  forwarder: number;
  /** Ingestion: parses and checks /v1 bodies. */
  ingest: number;
  /** Checkpoints (and the history index, when it catches up). */
  background: number;
  /** forwarder + ingest + background. */
  workers: number;
  /** V8's threads: garbage collection, compilation. */
  v8: number;
  other: number;
}

export function threadTimes(): ThreadTimes {
  const out: ThreadTimes = new Map();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${name}#${tid}`, Number(fields[11]) + Number(fields[12]));
    }
  } catch {
    // not Linux
  }
  return out;
}

const KIND_OF: Record<string, keyof CpuByThread> = { MainThread: 'main', 'hb:forwarder': 'forwarder', 'hb:ingest': 'ingest', 'hb:background': 'background' };

/** CPU per unit (µs) between two threadTimes(); null without /proc. */
export function cpuByThread(a: ThreadTimes, b: ThreadTimes, units: number): CpuByThread | null {
  if (b.size === 0) return null;
  const out: CpuByThread = { main: 0, forwarder: 0, ingest: 0, background: 0, workers: 0, v8: 0, other: 0 };
  const TICK_US = 10_000;
  for (const [key, ticks] of b) {
    const name = key.slice(0, key.lastIndexOf('#'));
    const kind = KIND_OF[name] ?? (name.startsWith('V8') ? 'v8' : 'other');
    out[kind] += ((ticks - (a.get(key) ?? 0)) * TICK_US) / units;
  }
  out.workers = out.forwarder + out.ingest + out.background;
  for (const k of Object.keys(out) as (keyof CpuByThread)[]) out[k] = Math.round(out[k] * 10) / 10;
  return out;
}

/** Each thread's share of `ms` of wall time (BENCH_DEBUG). */
export function threadShares(a: ThreadTimes, b: ThreadTimes, ms: number): Record<string, string> {
  return Object.fromEntries([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)] as const).filter(([, v]) => v > 0).map(([k, v]) => [k, `${Math.round((v * 10 * 100) / ms)}%`]));
}
