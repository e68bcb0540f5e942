/**
 * `hookbench send <type> --to URL...` (docs/behaviour.md §10): one message through a destination made of the flags,
 * every attempt printed as it happens, on the real clock (real retry waits) or, with --fast, on the virtual
 * clock. In a throw-away data dir by default; with --data-dir, in that data dir (destination `hookbench send`,
 * see sendDestination.ts), or through the serve that runs on it.
 */
import { newMessageId } from '../ingestion/messageIds.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pastWindowWords } from '../contract/deliveryWords.js';
import type { EngineEvent } from '../contract/events.js';
import { isMessageType, MESSAGE_TYPES, type MessageType } from '../contract/messageShapes.js';
import type { SendMessageOutput } from '../contract/api.js';
import type { AttemptRecord, ClockState, DeliveryRecord, DeliveryStatus, Destination, MessageDetail, MessageRecord } from '../contract/models.js';
import { HookbenchError, type ApiError, type Result } from '../contract/result.js';
import { destinationInputSchema, parseWith } from '../contract/schemas.js';
import { buildMessage } from '../domain/messages.js';
import { maskUrl } from '../domain/secrets.js';
import { isoFromMs } from '../contract/timestamp.js';
import { createCore, type Core } from '../app/createCore.js';
import { EXIT, formatDuration, readTextOrFile, UsageError, type CliIO } from './io.js';
import { EventStream, untilAborted } from './events.js';
import { caretSnippet, parseJsonText } from '../domain/jsonText.js';
import { callApi, findLiveServe, listAll } from './remote.js';
import { SEND_DESTINATION, takeSendDestination, type DestinationApi, type SendDestinationSettings } from './sendDestination.js';
import type { ServerInfo } from './serve.js';

export interface SendOptions {
  type: string;
  to: string[];
  secret?: string | undefined;
  /** Raw `--header "Name: value"` arguments. */
  header?: string[] | undefined;
  /** `--data`: the call as JSON text, `@file` or `@-`. */
  data?: string | undefined;
  timeout?: number | undefined;
  maxAttempts?: number | undefined;
  retryWindow?: number | undefined;
  fast?: boolean | undefined;
  json?: boolean | undefined;
  dataDir?: string | undefined;
}

export interface SendDeps {
  /** Where the throw-away data dir is made (default: the OS temp dir). */
  tmpRoot?: string;
  /** Retry jitter seed (tests). */
  seed?: number;
}

const WAITING: readonly DeliveryStatus[] = ['queued', 'delivering', 'retrying'];
const isFinal = (s: DeliveryStatus) => !WAITING.includes(s);

/** The CLI flag behind a destination field, to add to schema errors (`timeoutMs: ...` came from --timeout). */
const FLAG_OF: Record<string, string> = {
  timeoutMs: '--timeout',
  'retry.maxAttempts': '--max-attempts',
  'retry.windowMs': '--retry-window',
  sharedSecret: '--secret',
};

function flagHint(field: string | undefined): string {
  if (!field) return '';
  field = field.replace(/^patch\./, '');
  if (FLAG_OF[field]) return ` (${FLAG_OF[field]})`;
  if (/^webhooks\[\d+\]\.headers/.test(field)) return ' (--header)';
  if (/^webhooks\[\d+\]/.test(field)) return ' (--to)';
  return '';
}

/** `"X-Env: dev"` → ['X-Env', 'dev']. */
export function parseHeaderArg(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  if (colon <= 0) {
    throw new UsageError(`--header ${JSON.stringify(raw)}: expected "Name: value" (a header name, a colon, then the value)`);
  }
  const name = raw.slice(0, colon).trim();
  const value = raw.slice(colon + 1).trim();
  if (name === '') throw new UsageError(`--header ${JSON.stringify(raw)}: the header name before ":" is empty`);
  return [name, value];
}

function parseHeaders(raws: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const raw of raws) {
    const [name, value] = parseHeaderArg(raw);
    const first = seen.get(name.toLowerCase());
    if (first !== undefined) throw new UsageError(`--header: "${name}" is given twice (first as "${first}"; names are case-insensitive)`);
    seen.set(name.toLowerCase(), name);
    headers[name] = value;
  }
  return headers;
}

async function parseCall(data: string | undefined, io: CliIO): Promise<Record<string, unknown>> {
  if (data === undefined) return {};
  const bytes = await readTextOrFile(data, io, '--data');
  const text = bytes.toString('utf8');
  const source = data.startsWith('@') ? ` (${data === '@-' ? 'stdin' : data.slice(1)})` : '';
  if (text.trim() === '') throw new UsageError(`--data${source}: is empty; give the call as a JSON object, e.g. '{"userId":"u1","event":"Signed Up"}'`);
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const p = parsed.error;
    throw new UsageError(
      `--data${source}: invalid JSON at line ${p.line}, column ${p.column} (position ${p.position}): ${p.problem}\n${caretSnippet(text, p)}`,
    );
  }
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    const got = v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`;
    throw new UsageError(`--data${source}: must be a JSON object (the whole call: userId, event, properties, ...), got ${got}`);
  }
  return v as Record<string, unknown>;
}

/** Prints progress as human lines or as JSON lines (--json). */
class Reporter {
  private webhookCount = 1;

  constructor(
    private readonly io: CliIO,
    private readonly json: boolean,
    private readonly fast: boolean,
  ) {}

  private line(obj: Record<string, unknown>): void {
    this.io.stdout(`${JSON.stringify(obj)}\n`);
  }

  usage(message: string, error?: ApiError): number {
    if (this.json) this.line({ type: 'error', code: error?.code ?? 'usage', message, ...(error?.field ? { field: error.field } : {}), ...(error?.limit !== undefined ? { limit: error.limit } : {}) });
    else this.io.stderr(`hookbench send: ${message}\n`);
    return EXIT.usage;
  }

  start(args: {
    message: MessageRecord;
    /** Recorded in a data dir that stays: the message's number is worth printing (`hookbench show`). */
    kept: boolean;
    /** Sent through the serve running on this data dir. */
    via?: { info: ServerInfo; dataDir: string } | undefined;
    destination: string;
    webhooks: string[];
    signed: boolean;
    timeoutMs: number;
    windowMs: number;
    maxAttempts?: number | undefined;
  }): void {
    this.webhookCount = args.webhooks.length;
    const { message } = args;
    if (this.json) {
      this.line({
        type: 'message',
        id: message.id,
        messageId: message.messageId,
        messageType: message.type,
        destination: args.destination,
        ...(args.via ? { via: { url: args.via.info.url, pid: args.via.info.pid } } : {}),
        webhooks: args.webhooks.map(maskUrl),
        signed: args.signed,
        clock: this.fast ? 'virtual' : 'real',
        body: message.body,
      });
      return;
    }
    const bytes = Buffer.byteLength(message.body, 'utf8');
    const n = args.webhooks.length;
    const retries = `retries for up to ${formatDuration(args.windowMs)}${args.maxAttempts !== undefined ? `, at most ${args.maxAttempts} attempt${args.maxAttempts === 1 ? '' : 's'}` : ''}`;
    this.io.stdout(
      `sending ${message.type}${args.kept ? ` #${message.id}` : ''} ${message.messageId} (${bytes} bytes) to ${n} webhook${n === 1 ? '' : 's'}; ` +
        `${args.signed ? 'signed (X-Signature)' : 'unsigned (no --secret)'}; timeout ${formatDuration(args.timeoutMs)}; ${retries}; ` +
        `${this.fast ? 'virtual clock (--fast)' : 'real clock'}\n`,
    );
    const shown = message.body.length > 300 ? `${message.body.slice(0, 300)}… (${bytes} bytes)` : message.body;
    this.io.stdout(`body: ${shown}\n`);
    if (args.via) {
      const { info, dataDir } = args.via;
      this.io.stdout(`through hookbench serve at ${info.url} (pid ${info.pid}), destination "${args.destination}"; later: hookbench show ${message.id} --data-dir ${dataDir}\n`);
    }
  }

  attempt(a: AttemptRecord): void {
    if (this.json) {
      this.line({
        type: 'attempt',
        attemptNumber: a.attemptNumber,
        webhookIndex: a.webhookIndex,
        url: maskUrl(a.url),
        outcome: a.outcome,
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        signature: a.signature,
        error: a.error,
        retryable: a.retryable,
        startedAt: isoFromMs(a.startedAt),
        finishedAt: isoFromMs(a.finishedAt),
      });
      return;
    }
    const which = this.webhookCount > 1 ? ` [webhook ${a.webhookIndex + 1}/${this.webhookCount}]` : '';
    const status = a.statusCode === null ? 'no response' : `HTTP ${a.statusCode}`;
    const sig = a.signature ? `signature ${a.signature}` : 'unsigned';
    const why = a.outcome !== 'success' && a.error && a.error !== status ? `  (${a.error})` : '';
    // URL credentials are secrets (docs/behaviour.md §9): printed masked, like every answer shows them.
    this.io.stdout(`attempt ${a.attemptNumber}${which}  ${maskUrl(a.url)}  ${a.outcome}  ${status}  ${Math.round(a.durationMs)} ms  ${sig}${why}\n`);
  }

  retry(d: DeliveryRecord, now: number): void {
    if (d.nextAttemptAt === null) return;
    const inMs = Math.max(0, d.nextAttemptAt - now);
    if (this.json) {
      this.line({ type: 'retry', attemptNumber: d.attempts + 1, nextAttemptAt: isoFromMs(d.nextAttemptAt), inMs, pendingUrls: d.pendingUrls.map(maskUrl) });
      return;
    }
    this.io.stdout(`  next retry at ${isoFromMs(d.nextAttemptAt)} (in ${formatDuration(inMs)}${this.fast ? ' of virtual time' : ''})\n`);
  }

  result(args: { message: MessageRecord; status: DeliveryStatus | 'filtered' | 'interrupted'; reason: string | null; attempts: number; spanMs: number | null; exitCode: number; delivery?: DeliveryRecord }): void {
    const { status, reason, attempts } = args;
    // Why no further attempt came, when the retry window ran out (docs/behaviour.md §3).
    const why = status === 'failed' && args.delivery ? pastWindowWords(args.delivery) : null;
    if (this.json) {
      this.line({
        type: 'result',
        delivered: status === 'delivered',
        status,
        reason,
        ...(why ? { why } : {}),
        attempts,
        id: args.message.id,
        messageId: args.message.messageId,
        exitCode: args.exitCode,
      });
      return;
    }
    const tries = `${attempts} attempt${attempts === 1 ? '' : 's'}${args.spanMs !== null && attempts > 1 ? ` over ${formatDuration(args.spanMs)}` : ''}`;
    if (status === 'delivered') this.io.stdout(`delivered after ${tries}\n`);
    else if (status === 'filtered') this.io.stdout(`not sent: filtered (${reason ?? 'no reason given'})\n`);
    else if (status === 'interrupted') this.io.stdout(`interrupted after ${tries}: not delivered${reason ? ` (${reason})` : ''}\n`);
    else this.io.stdout(`${status}: ${reason ?? 'no reason given'} after ${tries}${why ? `; ${why}` : ''}\n`);
  }
}

export async function runSend(options: SendOptions, io: CliIO, deps: SendDeps = {}): Promise<number> {
  const fast = options.fast === true;
  const report = new Reporter(io, options.json === true, fast);

  // 1. Everything that can be checked without a core: a bad input never creates (or locks) a data dir.
  if (!isMessageType(options.type)) {
    return report.usage(`unknown message type "${options.type}": must be one of ${MESSAGE_TYPES.join(', ')}`);
  }
  const type: MessageType = options.type;
  let call: Record<string, unknown>;
  let headers: Record<string, string>;
  try {
    headers = parseHeaders(options.header ?? []);
    call = await parseCall(options.data, io);
  } catch (e) {
    if (e instanceof UsageError) return report.usage(e.message);
    throw e;
  }
  const destination: SendDestinationSettings = {
    webhooks: options.to.map((url) => ({ url, headers: { ...headers } })),
    ...(options.secret !== undefined ? { sharedSecret: options.secret } : {}),
    ...(options.timeout !== undefined ? { timeoutMs: options.timeout } : {}),
    retry: {
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
      ...(options.retryWindow !== undefined ? { windowMs: options.retryWindow } : {}),
    },
  };
  if (options.to.length === 0) return report.usage('--to: give at least one webhook URL');
  const checked = parseWith(destinationInputSchema, { ...destination, name: SEND_DESTINATION, enabled: true });
  if (!checked.ok) return report.usage(`${checked.error.message}${flagHint(checked.error.field)}`, checked.error);
  const built = buildMessage(type, call, { receivedAt: Date.now(), newMessageId, strict: true });
  if (!built.ok) return report.usage(`--data: ${built.error.message}`, built.error);

  // 2. Through the serve that holds the data dir, when one runs there.
  if (options.dataDir !== undefined) {
    const live = findLiveServe(options.dataDir);
    if (live) return sendThroughServe({ info: live.info, dataDir: live.dataDir, type, call, destination, report, fast, io });
  }

  // 3. Else a core of our own: in a throw-away data dir unless --data-dir.
  const throwaway = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(deps.tmpRoot ?? tmpdir(), 'hookbench-send-'));
  let core: Core;
  try {
    core = createCore({ dataDir, ...(deps.seed !== undefined ? { seed: deps.seed } : {}) });
  } catch (e) {
    if (throwaway) rmSync(dataDir, { recursive: true, force: true });
    if (e instanceof HookbenchError) return report.usage(e.message, e.error);
    return report.usage(`--data-dir ${dataDir}: cannot open (${e instanceof Error ? e.message : String(e)})`);
  }

  let destinationId: string | null = null;
  let unsubscribe: () => void = () => undefined;
  try {
    const dest = throwaway ? core.createDestination({ ...destination, name: SEND_DESTINATION, enabled: true }) : await takeSendDestination(localDestinations(core), destination);
    if (!dest.ok) return report.usage(`${dest.error.message.replace(/^patch\./, '')}${flagHint(dest.error.field)}`, dest.error);
    destinationId = dest.value.id;

    // Subscribe before sending: the first attempt starts on the next turn of the event loop.
    let messageRowId = -1;
    let deliveryId = -1;
    let settle: (d: DeliveryRecord) => void = () => undefined;
    const settled = new Promise<DeliveryRecord>((resolve) => (settle = resolve));
    unsubscribe = core.onEvent((event: EngineEvent) => {
      if (event.type === 'attemptFinished' && event.attempt.messageId === messageRowId) report.attempt(event.attempt);
      if (event.type === 'deliveryUpdated' && event.delivery.id === deliveryId) {
        if (event.delivery.status === 'retrying') report.retry(event.delivery, core.clock.now());
        if (isFinal(event.delivery.status)) settle(event.delivery);
      }
    });

    const sent = core.sendMessage({ type, call, destinations: [dest.value.id], strict: true });
    if (!sent.ok) return report.usage(`--data: ${sent.error.message}`, sent.error);
    const message = sent.value.message;
    messageRowId = message.id;
    report.start({
      message,
      kept: !throwaway,
      destination: dest.value.name,
      webhooks: dest.value.webhooks.map((w) => w.url),
      signed: dest.value.sharedSecret !== null,
      timeoutMs: dest.value.timeoutMs,
      windowMs: dest.value.retry.windowMs,
      maxAttempts: dest.value.retry.maxAttempts,
    });
    const delivery = sent.value.deliveries[0];
    if (!delivery) {
      report.result({ message, status: 'filtered', reason: message.statusReason, attempts: 0, spanMs: null, exitCode: EXIT.failed });
      return EXIT.failed;
    }
    deliveryId = delivery.id;

    const interrupted = fast ? await playFast(core, message.id, delivery.id, io.signal) : await waitReal(settled, io.signal);
    await core.idle();
    let final = current(core, message.id, delivery.id) ?? delivery;
    if (interrupted && !isFinal(final.status)) {
      // Ctrl-C: stop the retries for good, so a later `serve` on a --data-dir does not resume them.
      core.cancelMessage({ id: message.id });
      await core.idle();
      final = current(core, message.id, delivery.id) ?? final;
      report.result({ message, status: 'interrupted', reason: null, attempts: final.attempts, spanMs: span(final), exitCode: EXIT.failed });
      return EXIT.failed;
    }
    const exitCode = final.status === 'delivered' ? EXIT.ok : EXIT.failed;
    report.result({ message, status: final.status, reason: final.reason, attempts: final.attempts, spanMs: span(final), exitCode, delivery: final });
    return exitCode;
  } finally {
    unsubscribe();
    if (!throwaway && destinationId !== null) {
      // Kept for the record in a real data dir, but disabled: it must not receive later traffic.
      core.updateDestination({ id: destinationId, patch: { enabled: false } });
    }
    await core.close();
    if (throwaway) rmSync(dataDir, { recursive: true, force: true });
  }
}

function current(core: Core, messageId: number, deliveryId: number): DeliveryRecord | undefined {
  const detail = core.getMessage({ id: messageId });
  return detail.ok ? detail.value.deliveries.find((d) => d.id === deliveryId) : undefined;
}

function span(d: DeliveryRecord): number | null {
  return d.firstAttemptAt === null ? null : d.updatedAt - d.firstAttemptAt;
}

/** Real clock: the engine's own timers run the schedule; wait for the final deliveryUpdated or Ctrl-C. Returns whether interrupted. */
async function waitReal(settled: Promise<DeliveryRecord>, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) {
    await settled;
    return false;
  }
  if (signal.aborted) return true;
  return new Promise<boolean>((resolve) => {
    const onAbort = () => resolve(true);
    signal.addEventListener('abort', onAbort, { once: true });
    void settled.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    });
  });
}

/**
 * --fast: play the schedule on the virtual clock. While the delivery waits, move engine time to its next
 * attempt; advanceClock returns once that attempt is recorded. Returns whether interrupted.
 */
async function playFast(core: Core, messageId: number, deliveryId: number, signal: AbortSignal | undefined): Promise<boolean> {
  for (let guard = 0; guard < 100_000; guard++) {
    if (signal?.aborted) return true;
    await core.idle();
    const d = current(core, messageId, deliveryId);
    if (!d || isFinal(d.status)) return false;
    if (d.status === 'delivering' || d.nextAttemptAt === null) continue; // a round in flight: idle() waits for it
    const ms = Math.max(0, d.nextAttemptAt - core.clock.now());
    const advanced = await core.advanceClock({ ms });
    if (!advanced.ok) throw new HookbenchError(advanced.error);
  }
  throw new Error('--fast: the delivery did not finish (internal error)');
}

/** The destination commands of a local core. */
function localDestinations(core: Core): DestinationApi {
  return {
    // Lists take a cursor and answer pages once they page: the cast compiles before and after.
    list: async () => listResult(await listAll<Destination>(() => core.listDestinations())),
    create: (input) => Promise.resolve(core.createDestination(input)),
    update: (id, patch) => Promise.resolve(core.updateDestination({ id, patch })),
    remove: (id) => Promise.resolve(core.deleteDestination({ id })),
  };
}

/** The destination commands of a running serve. */
function remoteDestinations(info: () => ServerInfo): DestinationApi {
  return {
    list: async () => listResult(await listAll<Destination>((input) => callApi(info(), 'listDestinations', input))),
    create: (input) => callApi<Destination>(info(), 'createDestination', input),
    update: (id, patch) => callApi<Destination>(info(), 'updateDestination', { id, patch }),
    remove: (id) => callApi(info(), 'deleteDestination', { id }),
  };
}

function listResult<T>(result: Result<T[]>): T[] {
  if (!result.ok) throw new HookbenchError(result.error);
  return result.value;
}

interface ThroughServe {
  info: ServerInfo;
  dataDir: string;
  type: MessageType;
  call: Record<string, unknown>;
  destination: SendDestinationSettings;
  report: Reporter;
  fast: boolean;
  io: CliIO;
}

/**
 * `send --data-dir DIR` while a serve holds DIR: the message goes through that serve's typed API, to its
 * `hookbench send` destination, and its attempts are followed on the serve's event socket (reconnecting if
 * it drops). --fast moves that serve's engine clock forward, as the UI's fast-forward does. Ctrl-C cancels
 * the message there, as it does locally.
 */
async function sendThroughServe(o: ThroughServe): Promise<number> {
  const { report, io } = o;
  let info = o.info;
  const api = remoteDestinations(() => info);
  let taken: Result<Destination>;
  try {
    taken = await takeSendDestination(api, o.destination);
  } catch (e) {
    if (e instanceof UsageError) return report.usage(e.message);
    if (e instanceof HookbenchError) return report.usage(e.message, e.error);
    throw e;
  }
  if (!taken.ok) return report.usage(`${taken.error.message.replace(/^patch\./, '')}${flagHint(taken.error.field)}`, taken.error);
  const dest = taken.value;

  // Follow state: what was printed, and a counter of changes to our delivery (to wait on without a race).
  let messageRowId = -1;
  let deliveryId = -1;
  const printed = new Set<number>();
  let lastRound = 0;
  let retryShownFor = 0;
  let changes = 0;
  let wake: () => void = () => undefined;
  let settle: (d: DeliveryRecord) => void = () => undefined;
  const settled = new Promise<DeliveryRecord>((resolve) => (settle = resolve));
  const backlog: EngineEvent[] = [];

  const showAttempt = (a: AttemptRecord) => {
    if (printed.has(a.id)) return;
    printed.add(a.id);
    lastRound = Math.max(lastRound, a.attemptNumber);
    report.attempt(a);
  };
  const showDelivery = (d: DeliveryRecord) => {
    if (d.status === 'retrying' && d.nextAttemptAt !== null && d.attempts === lastRound && retryShownFor < d.attempts) {
      retryShownFor = d.attempts;
      report.retry(d, d.updatedAt);
    }
    if (isFinal(d.status)) settle(d);
  };
  const onEvent = (event: EngineEvent) => {
    if (messageRowId < 0) return void backlog.push(event);
    if (event.type === 'attemptFinished' && event.attempt.messageId === messageRowId) {
      if (!o.fast) showAttempt(event.attempt);
    } else if (event.type === 'deliveryUpdated' && event.delivery.id === deliveryId) {
      if (!o.fast) showDelivery(event.delivery);
      changes++;
      wake();
    }
  };
  /** Reads the message from the serve and prints what the events did not (missed while disconnected, or --fast). */
  const catchUp = async (): Promise<DeliveryRecord | null> => {
    const detail = await callApi<MessageDetail>(info, 'getMessage', { id: messageRowId });
    if (!detail.ok) throw new HookbenchError(detail.error);
    const own = detail.value.attempts.filter((a) => a.deliveryId === deliveryId).sort((a, b) => a.attemptNumber - b.attemptNumber || a.webhookIndex - b.webhookIndex);
    own.forEach(showAttempt);
    const d = detail.value.deliveries.find((x) => x.id === deliveryId) ?? null;
    if (d) showDelivery(d);
    return d;
  };

  const stream = new EventStream({
    dataDir: o.dataDir,
    info,
    onFrame: (frame) => frame.events.forEach(onEvent),
    onStatus: (s) => {
      if (s.kind === 'connected') {
        info = s.info;
        if (s.again && messageRowId >= 0) {
          io.stderr(`(reconnected to hookbench serve at ${s.info.url})\n`);
          catchUp().catch(() => undefined);
        }
      } else if (s.kind === 'lost') io.stderr(`(lost the connection to hookbench serve at ${s.info.url}: ${s.reason}; reconnecting, Ctrl-C to stop)\n`);
    },
  });
  const interrupted = () => io.signal?.aborted === true;
  try {
    // Subscribe before sending: the first attempt starts at once.
    const connected = await Promise.race([stream.connected, untilAborted(io.signal).then(() => false)]);
    if (!connected) return report.usage(`interrupted before hookbench serve at ${info.url} answered`);

    const sent = await callApi<SendMessageOutput>(info, 'sendMessage', { type: o.type, call: o.call, destinations: [dest.id], strict: true });
    if (!sent.ok) return report.usage(`--data: ${sent.error.message}`, sent.error);
    const message = sent.value.message;
    report.start({
      message,
      kept: true,
      via: { info, dataDir: o.dataDir },
      destination: dest.name,
      webhooks: dest.webhooks.map((w) => w.url),
      signed: dest.sharedSecret !== null,
      timeoutMs: dest.timeoutMs,
      windowMs: dest.retry.windowMs,
      maxAttempts: dest.retry.maxAttempts,
    });
    const delivery = sent.value.deliveries[0];
    if (!delivery) {
      report.result({ message, status: 'filtered', reason: message.statusReason, attempts: 0, spanMs: null, exitCode: EXIT.failed });
      return EXIT.failed;
    }
    deliveryId = delivery.id;
    messageRowId = message.id;
    backlog.splice(0).forEach(onEvent);

    const aborted = untilAborted(io.signal).then(() => null);
    let final: DeliveryRecord | null = null;
    if (!o.fast) {
      final = await Promise.race([settled, aborted]);
    } else {
      // Play the schedule on the serve's clock: while the delivery waits, move engine time to its next attempt
      // (advanceClock answers once that attempt is recorded); while a round is in flight, wait for its event.
      for (;;) {
        const seen = changes;
        const d = await catchUp();
        if (!d || isFinal(d.status)) {
          final = d;
          break;
        }
        if (interrupted()) break;
        if (d.status === 'retrying' && d.nextAttemptAt !== null) {
          const clock = await callApi<ClockState>(info, 'getClock', {});
          if (!clock.ok) throw new HookbenchError(clock.error);
          const advanced = await callApi<ClockState>(info, 'advanceClock', { ms: Math.max(0, d.nextAttemptAt - clock.value.now) });
          if (!advanced.ok) throw new HookbenchError(advanced.error);
        } else if (changes === seen) {
          await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
        }
      }
    }
    if (final === null || !isFinal(final.status)) {
      // Ctrl-C: stop the retries for good, as a local send does.
      const cancelled = await callApi(info, 'cancelMessage', { id: message.id }).catch(() => null);
      if (!cancelled?.ok) io.stderr(`hookbench send: could not cancel message #${message.id} on the serve; its retries go on there\n`);
      const d = (await catchUp().catch(() => null)) ?? final ?? delivery;
      report.result({ message, status: 'interrupted', reason: null, attempts: d.attempts, spanMs: span(d), exitCode: EXIT.failed });
      return EXIT.failed;
    }
    await catchUp(); // every attempt printed, also those of a round whose events came late
    const exitCode = final.status === 'delivered' ? EXIT.ok : EXIT.failed;
    report.result({ message, status: final.status, reason: final.reason, attempts: final.attempts, spanMs: span(final), exitCode, delivery: final });
    return exitCode;
  } catch (e) {
    if (e instanceof UsageError) return report.usage(e.message);
    if (e instanceof HookbenchError) return report.usage(e.message, e.error);
    throw e;
  } finally {
    stream.stop();
    await stream.done.catch(() => undefined);
    // Kept for the record, but disabled: it must not receive later traffic, and the next send may take it.
    await api.update(dest.id, { enabled: false }).catch(() => undefined);
  }
}
