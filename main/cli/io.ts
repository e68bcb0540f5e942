/**
 * What a CLI command touches of the outside world, injectable so tests can run commands in-process:
 * two text writers, an optional stdin, and an abort signal (Ctrl-C).
 */
import type { ApiError } from '../contract/result.js';
import { decodeUtf8 } from '../domain/utf8.js';
import { FILE_LIMITS, FileReadError, readBoundedFile } from '../platform/boundedFile.js';

export interface CliIO {
  /** Normal output (results, attempt lines). Text is written as given: callers add the newlines. */
  stdout(text: string): void;
  /** Errors and hints. */
  stderr(text: string): void;
  /** Where `verify` (and `--data @-`) read a body from when none is given. */
  stdin?: (AsyncIterable<Buffer | string> & { isTTY?: boolean; destroy?: () => void }) | undefined;
  /** Aborted on Ctrl-C: a command that waits stops, cleans up and returns. */
  signal?: AbortSignal | undefined;
  /**
   * Resolves once everything given to `stdout` so far is written; rejects with the write's error (a full
   * disk, a closed pipe), so a command says it failed instead of reporting success over lost bytes.
   */
  flushStdout?: (() => Promise<void>) | undefined;
}

/** Exit codes (docs/behaviour.md §10). */
export const EXIT = {
  ok: 0,
  /** Not delivered / signature mismatch. */
  failed: 1,
  /** Bad input or usage. */
  usage: 2,
} as const;

/**
 * A refusal as the `--json` commands (send, receive, import, delete-user) print it, one JSON line on stdout, so that a
 * script reads one stream: `{"type": "error", "code", "message", "field"?, "limit"?, "problems"?}`, code `usage`
 * unless the error names one.
 */
export function jsonErrorLine(message: string, error?: { code?: string; field?: string | undefined; limit?: number | undefined; problems?: readonly unknown[] | undefined }): string {
  const record = {
    type: 'error',
    code: error?.code ?? 'usage',
    message,
    ...(error?.field ? { field: error.field } : {}),
    ...(error?.limit !== undefined ? { limit: error.limit } : {}),
    ...(error?.problems ? { problems: error.problems } : {}),
  };
  return `${JSON.stringify(record)}\n`;
}

export function processIO(signal?: AbortSignal, interrupt?: () => void): CliIO {
  // A write error (ENOSPC on `> /dev/full`, EPIPE on `| head`) is an 'error' event: unheard, it would end
  // the process with a stack trace. A command that flushes says it itself, in its words; for any other, the
  // output is lost, so it ends here in one line, exit 1.
  let failed: Error | null = null;
  let commandReports = false;
  process.stdout.on('error', (e: Error) => {
    if (failed) return;
    failed = e;
    setImmediate(() => {
      if (commandReports) return;
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') {
        // The reader took what it wanted (`| head`): nothing to say, as other command-line tools say nothing.
        // A command still at work is stopped as Ctrl-C stops it, so that it cleans up behind it (send cancels
        // its message, disables its destination on a serve, removes its throw-away data dir); its further
        // output goes nowhere. Exiting here left all of that behind.
        if (interrupt) return interrupt();
        process.exit(EXIT.ok);
      }
      process.stderr.write(`hookbench: cannot write to stdout (${writeErrorWords(e)})\n`);
      process.exit(EXIT.failed);
    });
  });
  return {
    stdout: (text) => {
      if (!failed) process.stdout.write(text);
    },
    stderr: (text) => void process.stderr.write(text),
    stdin: process.stdin,
    signal,
    flushStdout: () =>
      new Promise<void>((resolve, reject) => {
        commandReports = true;
        if (failed) return reject(failed);
        process.stdout.write('', (e) => {
          if (!e && !failed) return resolve();
          // The 'error' event, which carries the write's own error, comes a tick after the callback.
          setImmediate(() => reject(failed ?? e));
        });
      }),
  };
}

/** `ENOSPC: no space left on device` from a write error, for a one-line report. */
export function writeErrorWords(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  const words: Record<string, string> = { ENOSPC: 'no space left on device', EPIPE: 'the reader closed the pipe', EIO: 'input/output error', EDQUOT: 'disk quota exceeded', EFBIG: 'file too large' };
  return code ? `${code}: ${words[code] ?? (e instanceof Error ? e.message : String(e))}` : e instanceof Error ? e.message : String(e);
}

/**
 * A refused input in the CLI's words: the error's message, which names the first problem ("… (and 2 more
 * problems)"), then each other one on a line of its own; `flagOf` adds the flag behind a problem's field.
 */
export function refusalText(error: Pick<ApiError, 'message' | 'field' | 'problems'>, flagOf: (message: string, field: string | undefined) => string): string {
  return [flagOf(error.message, error.field), ...(error.problems ?? []).map((p) => `  - ${flagOf(p.message, p.field)}`)].join('\n');
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

/**
 * All of stdin as bytes, at most `maxBytes` (the same bound as a file for the same input: an endless stream
 * is refused once past it, not held); rejects with a UsageError past the bound, when aborted (Ctrl-C) or
 * when there is no stdin.
 */
export async function readStdin(io: CliIO, what: string, maxBytes: number): Promise<Buffer> {
  const stdin = io.stdin;
  if (!stdin) throw new UsageError(`${what}: no stdin to read from`);
  if (stdin.isTTY) io.stderr(`(reading ${what} from stdin; end it with Ctrl-D)\n`);
  const chunks: Buffer[] = [];
  const signal = io.signal;
  const read = (async () => {
    let length = 0;
    for await (const chunk of stdin) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      length += bytes.byteLength;
      if (length > maxBytes) {
        stdin.destroy?.();
        throw new UsageError(`${what}: stdin is over the limit of ${maxBytes.toLocaleString('en-US')} bytes (${length.toLocaleString('en-US')} read so far); nothing was used`);
      }
      chunks.push(bytes);
    }
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
 * A file a user names, through the one bounded read (main/platform/boundedFile.ts): a regular file within
 * `maxBytes`, never a FIFO, a device or a directory. `what` names the flag in errors (`--data`), when there is one.
 */
export function readNamedFile(path: string, maxBytes: number, what?: string): Buffer {
  try {
    return readBoundedFile(path, maxBytes);
  } catch (e) {
    if (e instanceof FileReadError) throw new UsageError(what ? `${what}: ${e.message}` : e.message);
    throw e;
  }
}

/**
 * An argument that is either literal text or `@path` (a file's exact bytes) or `@-` (stdin), a file or
 * stdin at most `maxBytes`. `what` names the option in errors (`--data`).
 */
export async function readTextOrFile(value: string, io: CliIO, what: string, maxBytes: number = FILE_LIMITS.data): Promise<Buffer> {
  if (value === '@-') return readStdin(io, what, maxBytes);
  if (value.startsWith('@')) {
    const path = value.slice(1);
    if (path === '') throw new UsageError(`${what}: "@" must be followed by a file path (or "-" for stdin)`);
    return readNamedFile(path, maxBytes, what);
  }
  return Buffer.from(value, 'utf8');
}

/** Bytes a user gave as text, decoded only when they are UTF-8 (main/domain/utf8.ts): `what` names where they came from. */
export function utf8Text(bytes: Uint8Array, what: string): string {
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) throw new UsageError(`${what}: ${decoded.message}`);
  return decoded.text;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--timeout 5000`, `--retry-window 4h`: whole milliseconds, or a whole number with ms/s/m/min/h/d. A number
 * too large to be exact comes back as Infinity, so that its caller can say it is over the limit.
 */
export function parseDurationMs(value: string): number | null {
  const m = /^\s*(\d+)\s*(ms|s|m|min|h|d)?\s*$/.exec(value);
  if (!m) return null;
  const n = Number(m[1]) * (UNITS[m[2] ?? 'ms'] ?? 1);
  return Number.isSafeInteger(n) ? n : Number.POSITIVE_INFINITY;
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
