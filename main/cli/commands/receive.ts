/**
 * `hookbench receive [--port N] [--secret S] [--respond 500,500,200] [--delay MS] [--tls] [--json] [--data-dir DIR]`:
 * the mock receiver on its own. Every path is answered by one script; every request is printed as it
 * arrives (and captured to SQLite: a throw-away database unless --data-dir). Ctrl-C stops it, exit 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RECEIVER_PORT, listItemWords, receiverInputSchema, type CaptureRecord, type ScriptStep } from '../../contract/receiver/receiver.js';
import { HookbenchError, type ApiError } from '../../contract/result.js';
import { parseWith } from '../../contract/schemas.js';
import { describeScript } from '../../domain/receiverScript.js';
import { isoFromMs } from '../../contract/message/timestamp.js';
import { maskCapture } from '../../domain/secrets.js';
import { createCore, type Core } from '../../app/createCore.js';
import { EXIT, jsonErrorLine, type CliIO } from '../io.js';
import { findLiveServe } from '../remote.js';

export interface ReceiveOptions {
  port: number;
  host: string;
  secret?: string | undefined;
  /** `500,500,200`: one step per request, the last repeating; also `never`, `reset`, `close`. */
  respond: string;
  delay?: number | undefined;
  retryAfter?: number | undefined;
  tls?: boolean | undefined;
  json?: boolean | undefined;
  dataDir?: string | undefined;
}

export interface ReceiveDeps {
  /** Where the throw-away data dir is made (default: the OS temp dir). */
  tmpRoot?: string;
}

/**
 * `receive`'s default port: next to, never on, the port of the receiver inside `hookbench serve`
 * (DEFAULT_RECEIVER_PORT, 4410), so both run side by side with their defaults.
 */
export const DEFAULT_RECEIVE_PORT = 4411;

/** The endpoint the standalone receiver answers every path with. */
export const CLI_RECEIVER = 'receive';

const QUIET_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'accept-encoding', 'accept']);
const PREVIEW_CHARS = 300;

/** The script from the flags, or a message saying which flag is wrong. */
export function scriptFromFlags(options: Pick<ReceiveOptions, 'respond' | 'delay' | 'retryAfter' | 'secret'>):
  | { ok: true; steps: ScriptStep[]; secret: string | null }
  | { ok: false; message: string; error: ApiError } {
  const tokens = options.respond.split(',').map((t) => t.trim());
  const parsed = parseWith(receiverInputSchema, { name: CLI_RECEIVER, script: tokens, ...(options.secret !== undefined ? { secret: options.secret } : {}) });
  if (!parsed.ok) {
    // The tokens go as a list: a step's problem is at script[i] (schemas.ts names a shorthand's problems where they were given).
    const m = /^script\[(\d+)\]/.exec(parsed.error.field ?? '');
    if (m) {
      const i = Number(m[1]);
      const why = parsed.error.message.replace(/^[^:]*: /, '');
      return { ok: false, message: `--respond: ${listItemWords(i, tokens[i] ?? '', why)}`, error: parsed.error };
    }
    if (parsed.error.field === 'script') return { ok: false, message: `--respond: ${parsed.error.message.replace(/^[^:]*: /, '')}`, error: parsed.error };
    if (parsed.error.field === 'secret') return { ok: false, message: `--secret: ${parsed.error.message.replace(/^[^:]*: /, '')}`, error: parsed.error };
    return { ok: false, message: parsed.error.message, error: parsed.error };
  }
  const script = parsed.value.script;
  if (script.mode !== 'sequence') throw new Error('unreachable: --respond is a sequence');
  const steps = script.steps.map((s) => ({
    ...s,
    delayMs: s.action === 'never' ? 0 : (options.delay ?? 0),
    retryAfter: options.retryAfter !== undefined && s.action === 'respond' && (s.status === 429 || s.status >= 500) ? options.retryAfter : s.retryAfter,
  }));
  const checked = parseWith(receiverInputSchema, { name: CLI_RECEIVER, script: { steps } });
  if (!checked.ok) {
    const flag = /delayMs$/.test(checked.error.field ?? '') ? '--delay' : /retryAfter$/.test(checked.error.field ?? '') ? '--retry-after' : '--respond';
    return { ok: false, message: `${flag}: ${checked.error.message.replace(/^[^:]*: /, '')}`, error: checked.error };
  }
  return { ok: true, steps, secret: parsed.value.secret };
}

/** Prints captures as human lines or JSON lines. */
class Printer {
  count = 0;

  constructor(
    private readonly io: CliIO,
    private readonly json: boolean,
  ) {}

  private line(obj: Record<string, unknown>): void {
    this.io.stdout(`${JSON.stringify(obj)}\n`);
  }

  listening(args: { url: string; tls: boolean; script: string; signatureCheck: boolean; dataDir: string | null; certFile: string | null; fingerprint: string | null }): void {
    if (this.json) {
      this.line({ type: 'listening', ...args });
      return;
    }
    const out = [`Hookbench receiver listening on ${args.url} (every path)`];
    out.push(`answers: ${args.script}; ${args.signatureCheck ? 'X-Signature checked (--secret)' : 'no signature check (no --secret)'}`);
    if (args.tls) {
      const where = args.certFile ? ` (${args.certFile})` : '';
      out.push(`certificate: self-signed, SHA-256 ${args.fingerprint}${where}; Hookbench refuses it unless a destination names it as caFile`);
    }
    out.push(`${args.dataDir ? `captures recorded in ${args.dataDir}` : 'captures kept until exit'}; Ctrl-C to stop`);
    this.io.stdout(`${out.join('\n')}\n`);
  }

  /** The client closed the connection before the answer its line announced: said under its number. */
  closed(c: CaptureRecord): void {
    const afterMs = c.step.clientClosedAfterMs;
    if (afterMs == null) return;
    const number = this.numbers.get(c.id);
    if (this.json) return this.line({ type: 'closed', number: number ?? null, id: c.id, afterMs });
    this.io.stdout(`#${number ?? '?'}  the client closed the connection after ${afterMs} ms: no answer was sent\n`);
  }

  /** Each capture's number in this run's output (#1, #2, …). */
  private readonly numbers = new Map<number, number>();

  capture(received: CaptureRecord): void {
    this.count++;
    this.numbers.set(received.id, this.count);
    // Credential-like headers masked, as the API shows captures (docs/behaviour.md §9 Logs): this is a log.
    const c = maskCapture(received);
    if (this.json) {
      this.line({
        type: 'request',
        number: this.count,
        id: c.id,
        arrivedAt: isoFromMs(c.arrivedAt),
        method: c.method,
        path: c.path,
        headers: c.headers,
        step: c.step,
        signature: c.signature,
        messageId: c.messageId,
        bodySize: c.bodySize,
        bodyTruncated: c.bodyTruncated,
        body: c.body.text,
        bodyBase64: c.body.base64,
      });
      return;
    }
    const verdict = c.signature ? `  signature ${c.signature.verdict === 'valid' ? 'valid' : c.signature.verdict.toUpperCase()}` : '';
    const out = [`#${this.count}  ${isoFromMs(c.arrivedAt)}  ${c.method} ${c.path}  -> ${c.step.label}${verdict}`];
    const shown = c.rawHeaders.filter(([name]) => !QUIET_HEADERS.has(name.toLowerCase())).map(([name, value]) => `${name}: ${value}`);
    if (shown.length) out.push(`    ${shown.join('  ')}`);
    if (c.signature && c.signature.verdict !== 'valid') {
      out.push(`    expected x-signature: ${c.signature.expected}`);
      if (c.signature.diagnosis) out.push(`    diagnosis: ${c.signature.diagnosis.explanation}`);
    }
    out.push(`    ${bodyPreview(c)}`);
    this.io.stdout(`${out.join('\n')}\n`);
  }

  stopped(): void {
    if (this.json) this.line({ type: 'stopped', requests: this.count });
    else this.io.stdout(`stopped after ${this.count} request${this.count === 1 ? '' : 's'}\n`);
  }

  fail(message: string, error?: ApiError): void {
    // With --json a script reads one stream, as send's, import's and delete-user's refusals are read.
    if (this.json) this.io.stdout(jsonErrorLine(message, { code: error?.code, field: error?.field }));
    else this.io.stderr(`hookbench receive: ${message}\n`);
  }
}

function bodyPreview(c: CaptureRecord): string {
  if (c.bodySize === 0) return 'body: (empty)';
  const text = c.body.text;
  if (text === null) return `body (${c.bodySize} bytes, not UTF-8)`;
  const clipped = text.length > PREVIEW_CHARS || c.bodyTruncated;
  const shown = text.slice(0, PREVIEW_CHARS).replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return `body (${c.bodySize} bytes): ${shown}${clipped ? '…' : ''}`;
}

/** Why listening failed, in the words of the flags: a port in use names the port and how to pick another. */
export function listenFailure(error: ApiError, options: Pick<ReceiveOptions, 'port' | 'host'>): string {
  if (error.code !== 'conflict' || !/already in use/.test(error.message)) return error.message.replace(/^(port|tlsPort): /, '--port: ');
  const whose = options.port === DEFAULT_RECEIVER_PORT ? "hookbench serve's mock receiver listens there by default, or another program" : 'another hookbench receive or program listens there';
  return `--port: ${options.host}:${options.port} is already in use (${whose}); choose another with --port N, or --port 0 for a free one`;
}

function waitForAbort(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise<void>(() => undefined); // no Ctrl-C to wait for: runs until killed
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

export async function runReceive(options: ReceiveOptions, io: CliIO, deps: ReceiveDeps = {}): Promise<number> {
  const print = new Printer(io, options.json === true);
  const script = scriptFromFlags(options);
  if (!script.ok) {
    print.fail(script.message, script.error);
    return EXIT.usage;
  }

  const throwaway = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(deps.tmpRoot ?? tmpdir(), 'hookbench-receive-'));
  let core: Core;
  try {
    // The core for its receiver, database and engine clock only: nothing is forwarded from here. Every path
    // is answered by the CLI's own endpoint.
    core = createCore({ dataDir, autoStart: false, receiver: { fallbackReceiver: CLI_RECEIVER } });
  } catch (e) {
    if (throwaway) rmSync(dataDir, { recursive: true, force: true });
    if (e instanceof HookbenchError) {
      const serve = e.error.code === 'data_dir_locked' ? findLiveServe(dataDir) : null;
      const hint = serve ? `; it is hookbench serve's, whose own mock receiver answers at ${serve.info.receiverUrl ?? '(not listening)'}/r/<name> (add receivers to it in its config or with createReceiver)` : '';
      print.fail(`${e.message}${hint}`, e.error);
    }
    else print.fail(`--data-dir ${dataDir}: cannot open (${e instanceof Error ? e.message : String(e)})`);
    return EXIT.usage;
  }

  const service = core.receivers;
  core.onEvent((event) => {
    if (event.type === 'requestCaptured') print.capture(event.capture);
    else if (event.type === 'captureUpdated') print.closed(event.capture);
  });
  try {
    const saved = service.applyConfig([{ name: CLI_RECEIVER, secret: script.secret, script: { steps: script.steps } }]);
    if (!saved.ok) throw new HookbenchError(saved.error);
    // Each run starts the script at its first step, also in a kept data dir.
    const rewound = service.updateReceiver({ name: CLI_RECEIVER, patch: { rewind: true } });
    if (!rewound.ok) throw new HookbenchError(rewound.error);

    let urls;
    try {
      urls = await service.start({ host: options.host, port: options.tls ? null : options.port, tlsPort: options.tls ? options.port : null });
    } catch (e) {
      if (!(e instanceof HookbenchError)) throw e;
      print.fail(listenFailure(e.error, options), e.error);
      return e.error.field === 'host' ? EXIT.usage : EXIT.failed;
    }
    const cert = service.tlsCertificate();
    print.listening({
      url: (options.tls ? urls.tlsUrl : urls.url)!,
      tls: options.tls === true,
      script: describeScript({ mode: 'sequence', steps: script.steps, after: 'repeat-last' }),
      signatureCheck: script.secret !== null,
      dataDir: throwaway ? null : dataDir,
      certFile: throwaway ? null : (cert?.certFile ?? null),
      fingerprint: cert?.fingerprint256 ?? null,
    });

    await waitForAbort(io.signal);
    await service.stop();
    print.stopped();
    return EXIT.ok;
  } finally {
    await service.stop();
    await core.close();
    if (throwaway) rmSync(dataDir, { recursive: true, force: true });
  }
}
