/** The benchmark's helper processes (receiver, load generator): forked, killed with the run, asked over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isReceiverReport, type ReceiverCommand, type ReceiverStats } from './protocol.js';

export interface BenchChild {
  child: ChildProcess;
  /** Resolves with the next message that `accept` takes, sending `command` first when given. */
  next<T>(accept: (m: unknown) => T | undefined, what: string, limitMs: number, command?: unknown): Promise<T>;
  kill(): void;
}

/** `module` is a file beside this one, e.g. `receiver.js`; `args` its command-line arguments. */
export function forkBenchChild(module: string, name: string, args: readonly string[] = []): BenchChild {
  const child = fork(fileURLToPath(new URL(`./${module}`, import.meta.url)), args, {
    execArgv: [], // not --cpu-prof / --expose-gc from this process
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const killNow = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killNow);
  return {
    child,
    next: (accept, what, limitMs, command) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => fail(new Error(`${name}: no ${what} within ${limitMs / 1000} s`)), limitMs);
        const onMessage = (m: unknown): void => {
          const value = accept(m);
          if (value !== undefined) done(() => resolve(value));
        };
        const onExit = (code: number | null): void => fail(new Error(`${name} exited (code ${code}) before ${what}`));
        const done = (then: () => void): void => {
          clearTimeout(timer);
          child.off('message', onMessage).off('exit', onExit).off('error', fail);
          then();
        };
        const fail = (e: Error): void => done(() => reject(e));
        child.on('message', onMessage).once('exit', onExit).once('error', fail);
        if (command !== undefined) child.send(command as object);
      }),
    kill: () => {
      process.off('exit', killNow);
      killNow();
    },
  };
}

// ------------------------------------------------------------------ the receiver (bench/receiver.ts)

export interface Receiver {
  /** One URL per origin (port). */
  urls: string[];
  pid: number;
  /** Counters since the previous call. */
  stats(): Promise<ReceiverStats>;
  kill(): void;
}

/** Starts the receiver child: `origins` ports, each answering `delayMs` after a request's body is read. */
export async function startReceiver(options: { origins?: number; delayMs?: number } = {}): Promise<Receiver> {
  const r = forkBenchChild('receiver.js', 'receiver', ['--origins', String(options.origins ?? 1), '--delay-ms', String(options.delayMs ?? 0)]);
  const ports = await r.next((m) => (isReceiverReport(m) && m.type === 'listening' ? m.ports : undefined), 'listening report', 10_000);
  return {
    urls: ports.map((port) => `http://127.0.0.1:${port}/hook`),
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
