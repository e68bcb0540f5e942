/** The benchmark's helper processes (receiver, load generator): forked, killed with the run, asked over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface BenchChild {
  child: ChildProcess;
  /** Resolves with the next message that `accept` takes, sending `command` first when given. */
  next<T>(accept: (m: unknown) => T | undefined, what: string, limitMs: number, command?: unknown): Promise<T>;
  kill(): void;
}

/** `module` is a file beside this one, e.g. `receiver.js`. */
export function forkBenchChild(module: string, name: string): BenchChild {
  const child = fork(fileURLToPath(new URL(`./${module}`, import.meta.url)), [], {
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
