/**
 * `hookbench send <type> --to URL...` (docs/behaviour.md §10): one message through a destination made of the flags,
 * every attempt printed as it happens, on the real clock (real retry waits) or, with --fast, on the virtual
 * clock. Through the serve running on the data dir when there is one, as the other commands; else in a
 * throw-away data dir, or with --data-dir in that data dir (destination `hookbench send`, see sendDestination.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEvent } from '../../../contract/events.js';
import { isMessageType, MESSAGE_TYPES, type MessageType } from '../../../contract/message/messageShapes.js';
import type { DeliveryRecord } from '../../../contract/deliveries.js';
import type { MessageRecord } from '../../../contract/messages.js';
import type { Destination } from '../../../contract/destinations.js';
import { HookbenchError } from '../../../contract/result.js';
import { destinationInputSchema, parseWith } from '../../../contract/schemas.js';
import { buildMessage } from '../../../domain/messages.js';
import { newMessageId } from '../../../ingestion/messageIds.js';
import { createCore, type Core } from '../../../app/createCore.js';
import { EXIT, refusalText, runCommand, type CliIO } from '../../io.js';
import { findLiveServe, listAll } from '../../remote.js';
import { parseCall, parseHeaders, withFlagHint } from './sendInput.js';
import { CANCELLED_WORDS, isFinal, Reporter, span } from './sendReport.js';
import { listResult, SEND_DESTINATION, takeSendDestination, type DestinationApi, type SendDestinationSettings } from './sendDestination.js';
import { sendThroughServe } from './sendThroughServe.js';

export { parseHeaderArg } from './sendInput.js';

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

export async function runSend(options: SendOptions, io: CliIO, deps: SendDeps = {}): Promise<number> {
  const fast = options.fast === true;
  const report = new Reporter(io, options.json === true, fast);

  // 1. Everything that can be checked without a core: a bad input never creates (or locks) a data dir.
  if (!isMessageType(options.type)) {
    return report.usage(`unknown message type "${options.type}": must be one of ${MESSAGE_TYPES.join(', ')}`);
  }
  const type: MessageType = options.type;
  return runCommand(io, 'send', () => send(type, options, io, deps, report), (message) => report.usage(message));
}

/** The destination the flags describe, as `hookbench send` destination settings. */
function destinationOfFlags(options: SendOptions, headers: Record<string, string>): SendDestinationSettings {
  return {
    webhooks: options.to.map((url) => ({ url, headers: { ...headers } })),
    ...(options.secret !== undefined ? { sharedSecret: options.secret } : {}),
    ...(options.timeout !== undefined ? { timeoutMs: options.timeout } : {}),
    retry: {
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
      ...(options.retryWindow !== undefined ? { windowMs: options.retryWindow } : {}),
    },
  };
}

/** runSend once the message type is known; a UsageError it throws is reported by runSend. */
async function send(type: MessageType, options: SendOptions, io: CliIO, deps: SendDeps, report: Reporter): Promise<number> {
  const fast = options.fast === true;
  const headers = parseHeaders(options.header ?? []);
  const call = await parseCall(options.data, io);
  const destination = destinationOfFlags(options, headers);
  if (options.to.length === 0) return report.usage('--to: give at least one webhook URL');
  const checked = parseWith(destinationInputSchema, { ...destination, name: SEND_DESTINATION, enabled: true });
  if (!checked.ok) return report.usage(refusalText(checked.error, withFlagHint), checked.error);
  const built = buildMessage(type, call, { receivedAt: Date.now(), newMessageId, strict: true });
  if (!built.ok) return report.usage(`--data: ${built.error.message}`, built.error);

  // 2. Through the serve running on the data dir (--data-dir, else $HOOKBENCH_DATA, else the per-user folder),
  // as check, export, import, tail and show go: the message shows in its Live view and in tail.
  const live = findLiveServe(options.dataDir);
  if (live) return sendThroughServe({ info: live.info, dataDir: live.dataDir, dataDirNamed: options.dataDir !== undefined, type, call, destination, report, fast, io });
  return sendWithOwnCore(type, call, destination, options, io, deps, report);
}

/** 3. No serve: a core of our own, in a throw-away data dir unless --data-dir, closed (and the throw-away removed) at the end. */
async function sendWithOwnCore(type: MessageType, call: Record<string, unknown>, destination: SendDestinationSettings, options: SendOptions, io: CliIO, deps: SendDeps, report: Reporter): Promise<number> {
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
    if (!dest.ok) return report.usage(refusalText(dest.error, withFlagHint), dest.error);
    destinationId = dest.value.id;

    // Subscribe before sending: the first attempt starts on the next turn of the event loop.
    const watch = watchDelivery(core, report);
    unsubscribe = watch.unsubscribe;
    const sent = core.sendMessage({ type, call, destinations: [dest.value.id], strict: true });
    if (!sent.ok) return report.usage(`--data: ${sent.error.message}`, sent.error);
    const message = sent.value.message;
    watch.ids.messageRowId = message.id;
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
    watch.ids.deliveryId = delivery.id;
    const offsetBefore = offsetOf(core);
    const interrupted = options.fast === true ? await playFast(core, message.id, delivery.id, io.signal) : await waitReal(watch.settled, io.signal);
    // --fast on a kept data dir leaves its clock moved (a serve started there later begins ahead): said, as through a serve.
    const offsetAfter = options.fast === true && !throwaway ? offsetOf(core) : null;
    const clockOffsetMs = offsetAfter !== null && offsetAfter !== offsetBefore ? offsetAfter : null;
    const exitCode = await reportOutcome(core, message, delivery, interrupted, report, clockOffsetMs);
    if (clockOffsetMs !== null) report.clockMoved(clockOffsetMs, 'dataDir');
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

/**
 * Reports the attempts and retries of the message and delivery named in `ids` (set once they exist) as the
 * engine announces them; `settled` resolves with the delivery once it is final.
 */
function watchDelivery(core: Core, report: Reporter): { ids: { messageRowId: number; deliveryId: number }; settled: Promise<DeliveryRecord>; unsubscribe: () => void } {
  const ids = { messageRowId: -1, deliveryId: -1 };
  let settle: (d: DeliveryRecord) => void = () => undefined;
  const settled = new Promise<DeliveryRecord>((resolve) => (settle = resolve));
  const unsubscribe = core.onEvent((event: EngineEvent) => {
    if (event.type === 'attemptFinished' && event.attempt.messageId === ids.messageRowId) report.attempt(event.attempt);
    if (event.type === 'deliveryUpdated' && event.delivery.id === ids.deliveryId) {
      if (event.delivery.status === 'retrying') report.retry(event.delivery, core.clock.now());
      if (isFinal(event.delivery.status)) settle(event.delivery);
    }
  });
  return { ids, settled, unsubscribe };
}

/** The delivery's outcome once the engine is idle, reported, and the exit code it gives. */
async function reportOutcome(core: Core, message: MessageRecord, delivery: DeliveryRecord, interrupted: boolean, report: Reporter, clockOffsetMs: number | null): Promise<number> {
  await core.idle();
  let final = current(core, message.id, delivery.id) ?? delivery;
  if (interrupted && !isFinal(final.status)) {
    // Ctrl-C: stop the retries for good, so a later `serve` on a --data-dir does not resume them.
    core.cancelMessage({ id: message.id });
    await core.idle();
    final = current(core, message.id, delivery.id) ?? final;
    report.result({ message, status: 'interrupted', reason: final.status === 'cancelled' ? CANCELLED_WORDS : null, attempts: final.attempts, spanMs: span(final), exitCode: EXIT.failed });
    return EXIT.failed;
  }
  const exitCode = final.status === 'delivered' ? EXIT.ok : EXIT.failed;
  report.result({ message, status: final.status, reason: final.reason, attempts: final.attempts, spanMs: span(final), exitCode, delivery: final, clockOffsetMs });
  return exitCode;
}

function offsetOf(core: Core): number | null {
  const clock = core.getClock();
  return clock.ok ? clock.value.offsetMs : null;
}

function current(core: Core, messageId: number, deliveryId: number): DeliveryRecord | undefined {
  const detail = core.getMessage({ id: messageId });
  return detail.ok ? detail.value.deliveries.find((d) => d.id === deliveryId) : undefined;
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
    list: async () => listResult(await listAll<Destination>(() => core.listDestinations({ owner: 'send' }))),
    create: (input) => Promise.resolve(core.createDestination(input)),
    update: (id, patch) => Promise.resolve(core.updateDestination({ id, patch })),
  };
}
