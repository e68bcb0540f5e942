/**
 * What a CLI command touches of the outside world, injectable so tests can run commands in-process:
 * two text writers, an optional stdin, and an abort signal (Ctrl-C).
 */
import { readFileSync } from 'node:fs';

export interface CliIO {
  /** Normal output (results, attempt lines). Text is written as given: callers add the newlines. */
  stdout(text: string): void;
  /** Errors and hints. */
  stderr(text: string): void;
  /** Where `verify` (and `--data @-`) read a body from when none is given. */
  stdin?: (AsyncIterable<Buffer | string> & { isTTY?: boolean; destroy?: () => void }) | undefined;
  /** Aborted on Ctrl-C: a command that waits stops, cleans up and returns. */
  signal?: AbortSignal | undefined;
}

/** Exit codes (docs/behaviour.md §10). */
export const EXIT = {
  ok: 0,
  /** Not delivered / signature mismatch. */
  failed: 1,
  /** Bad input or usage. */
  usage: 2,
} as const;

export function processIO(signal?: AbortSignal): CliIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdin: process.stdin,
    signal,
  };
}

/** A CLI input problem: reported on stderr, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Runs one command's body. A UsageError it throws is said as `hookbench <name>: <message>` on stderr (or by
 * `say`, for a command that reports in JSON lines) and exits EXIT.usage; anything else goes on to runCli,
 * which reports it as an internal error.
 */
export function runCommand(io: CliIO, name: string, body: () => number, say?: (message: string) => number): number;
export function runCommand(io: CliIO, name: string, body: () => Promise<number>, say?: (message: string) => number): Promise<number>;
export function runCommand(io: CliIO, name: string, body: () => number | Promise<number>, say?: (message: string) => number): number | Promise<number> {
  const usage = (e: unknown): number => {
    if (!(e instanceof UsageError)) throw e;
    if (say) return say(e.message);
    io.stderr(`hookbench ${name}: ${e.message}\n`);
    return EXIT.usage;
  };
  try {
    const result = body();
    return typeof result === 'number' ? result : result.catch(usage);
  } catch (e) {
    return usage(e);
  }
}

/** All of stdin as bytes; rejects with a UsageError when aborted (Ctrl-C) or when there is no stdin. */
export async function readStdin(io: CliIO, what: string): Promise<Buffer> {
  const stdin = io.stdin;
  if (!stdin) throw new UsageError(`${what}: no stdin to read from`);
  if (stdin.isTTY) io.stderr(`(reading ${what} from stdin; end it with Ctrl-D)\n`);
  const chunks: Buffer[] = [];
  const signal = io.signal;
  const read = (async () => {
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    return Buffer.concat(chunks);
  })();
  if (!signal) return read;
  if (signal.aborted) throw new UsageError(`${what}: interrupted`);
  return new Promise<Buffer>((resolve, reject) => {
    const onAbort = () => {
      stdin.destroy?.();
      reject(new UsageError(`${what}: interrupted while reading stdin`));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    read.then(
      (b) => {
        signal.removeEventListener('abort', onAbort);
        resolve(b);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * An argument that is either literal text or `@path` (a file's exact bytes) or `@-` (stdin).
 * `what` names the option in errors (`--data`).
 */
export async function readTextOrFile(value: string, io: CliIO, what: string): Promise<Buffer> {
  if (value === '@-') return readStdin(io, what);
  if (value.startsWith('@')) {
    const path = value.slice(1);
    if (path === '') throw new UsageError(`${what}: "@" must be followed by a file path (or "-" for stdin)`);
    try {
      return readFileSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? String(e));
      throw new UsageError(`${what}: cannot read ${path} (${why})`);
    }
  }
  return Buffer.from(value, 'utf8');
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/** `--timeout 5000`, `--retry-window 4h`: whole milliseconds, or a whole number with ms/s/m/min/h. */
export function parseDurationMs(value: string): number | null {
  const m = /^\s*(\d+)\s*(ms|s|m|min|h)?\s*$/.exec(value);
  if (!m) return null;
  const n = Number(m[1]) * (UNITS[m[2] ?? 'ms'] ?? 1);
  return Number.isSafeInteger(n) ? n : null;
}

export function parsePositiveInt(value: string): number | null {
  if (!/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** A human duration: `850 ms`, `4.8 s`, `2 min 5 s`, `1 h 5 min`. */
export function formatDuration(ms: number): string {
  const abs = Math.max(0, Math.round(ms));
  if (abs < 1000) return `${abs} ms`;
  if (abs < 60_000) return `${(abs / 1000).toFixed(1).replace(/\.0$/, '')} s`;
  const totalS = Math.round(abs / 1000);
  if (totalS < 3600) {
    const s = totalS % 60;
    return s ? `${Math.floor(totalS / 60)} min ${s} s` : `${Math.floor(totalS / 60)} min`;
  }
  const totalMin = Math.round(abs / 60_000);
  const min = totalMin % 60;
  return min ? `${Math.floor(totalMin / 60)} h ${min} min` : `${Math.floor(totalMin / 60)} h`;
}
