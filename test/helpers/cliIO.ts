/** An in-memory CliIO for running CLI commands in-process: captured output, optional stdin, Ctrl-C. */
import type { CliIO } from '../../main/cli/io.js';

export interface CapturedIO {
  io: CliIO;
  out: () => string;
  err: () => string;
  /** Resolves when stdout has contained `text`. */
  waitForOut(text: string): Promise<void>;
  /** Resolves when stderr has contained `text`. */
  waitForErr(text: string): Promise<void>;
  /** Ctrl-C. */
  abort(): void;
}

export function captureIO(stdin?: string): CapturedIO {
  let out = '';
  let err = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const errWaiters: { text: string; resolve: () => void }[] = [];
  const controller = new AbortController();
  const io: CliIO = {
    stdout: (t) => {
      out += t;
      for (const w of waiters.filter((w) => out.includes(w.text))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    stderr: (t) => {
      err += t;
      for (const w of errWaiters.filter((w) => err.includes(w.text))) {
        errWaiters.splice(errWaiters.indexOf(w), 1);
        w.resolve();
      }
    },
    stdin:
      stdin === undefined
        ? undefined
        : (async function* () {
            yield Buffer.from(stdin, 'utf8');
          })(),
    signal: controller.signal,
  };
  return {
    io,
    out: () => out,
    err: () => err,
    waitForOut: (text) => (out.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve }))),
    waitForErr: (text) => (err.includes(text) ? Promise.resolve() : new Promise((resolve) => errWaiters.push({ text, resolve }))),
    abort: () => controller.abort(),
  };
}
