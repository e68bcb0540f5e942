/**
 * What `hookbench send` prints as a message goes out: the message, each attempt, the next retry and the
 * result, as human lines or as JSON lines (--json).
 */
import { pastWindowWords, triesWords } from '../../../contract/message/deliveryWords.js';
import type { AttemptRecord, DeliveryRecord, DeliveryStatus } from '../../../contract/deliveries.js';
import type { MessageRecord } from '../../../contract/messages.js';
import type { ApiError } from '../../../contract/result.js';
import { isoFromMs } from '../../../contract/message/timestamp.js';
import { maskUrl } from '../../../domain/secrets.js';
import { EXIT, formatDuration, jsonErrorLine, type CliIO } from '../../io.js';
import type { ServerInfo } from '../serve.js';

const WAITING: readonly DeliveryStatus[] = ['queued', 'delivering', 'retrying'];
/** What Ctrl-C did to a message still waiting: it is cancelled, nothing of it goes out later. */
export const CANCELLED_WORDS = 'cancelled: no further retries';
/** Whether a delivery is settled: nothing more will be attempted. */
export const isFinal = (s: DeliveryStatus) => !WAITING.includes(s);

/** From a delivery's first attempt to its last change (null before its first attempt). */
export function span(d: DeliveryRecord): number | null {
  return d.firstAttemptAt === null ? null : d.updatedAt - d.firstAttemptAt;
}

/** Prints progress as human lines or as JSON lines (--json). */
export class Reporter {
  private webhookCount = 1;
  /** Attempt lines printed: with several webhooks a round holds several, and the result counts both. */
  private attemptsSeen = 0;

  constructor(
    private readonly io: CliIO,
    private readonly json: boolean,
    private readonly fast: boolean,
  ) {}

  private line(obj: Record<string, unknown>): void {
    this.io.stdout(`${JSON.stringify(obj)}\n`);
  }

  usage(message: string, error?: ApiError): number {
    if (this.json) {
      // One line: the first problem's message alone (the others are in `problems`, each with its field and limit).
      const first = message.split('\n')[0]!;
      this.io.stdout(jsonErrorLine(first, error));
    }
    else this.io.stderr(`hookbench send: ${message}\n`);
    return EXIT.usage;
  }

  start(args: {
    message: MessageRecord;
    /** Recorded in a data dir that stays: the message's number is worth printing (`hookbench show`). */
    kept: boolean;
    /** Sent through the serve running on this data dir (named: given with --data-dir). */
    via?: { info: ServerInfo; dataDir: string; named: boolean } | undefined;
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
        // What the human header says too: the bounds this send runs under, as the destination holds them.
        timeoutMs: args.timeoutMs,
        retry: { windowMs: args.windowMs, maxAttempts: args.maxAttempts ?? null },
        clock: this.fast ? 'virtual' : 'real',
        body: message.body,
      });
      return;
    }
    const bytes = Buffer.byteLength(message.body, 'utf8');
    const n = args.webhooks.length;
    // One attempt or no window means no retry at all: "retries for up to 4 h, at most 1 attempt" read as both.
    const retries =
      args.maxAttempts === 1
        ? 'no retries (--max-attempts 1)'
        : args.windowMs === 0
          ? 'no retries (--retry-window 0)'
          : `retries for up to ${formatDuration(args.windowMs)}${args.maxAttempts !== undefined ? `, at most ${args.maxAttempts} attempts` : ''}`;
    this.io.stdout(
      `sending ${message.type}${args.kept ? ` #${message.id}` : ''} ${message.messageId} (${bytes} bytes) to ${n} webhook${n === 1 ? '' : 's'}; ` +
        `${args.signed ? 'signed (X-Signature)' : 'unsigned (no --secret)'}; timeout ${formatDuration(args.timeoutMs)}; ${retries}; ` +
        `${this.fast ? 'virtual clock (--fast)' : 'real clock'}\n`,
    );
    const shown = message.body.length > 300 ? `${message.body.slice(0, 300)}… (${bytes} bytes)` : message.body;
    this.io.stdout(`body: ${shown}\n`);
    if (args.via) {
      const { info, dataDir, named } = args.via;
      this.io.stdout(`through hookbench serve at ${info.url} (pid ${info.pid}), destination "${args.destination}"; later: hookbench show ${message.id}${named ? ` --data-dir ${dataDir}` : ''}\n`);
    }
  }

  attempt(a: AttemptRecord): void {
    this.attemptsSeen++;
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

  /**
   * --fast through a serve or on a kept --data-dir: that clock stays where the send moved it, which the workbench
   * shows too (JSON: the result's clockOffsetMs).
   */
  clockMoved(offsetMs: number, where: 'serve' | 'dataDir' = 'serve'): void {
    if (this.json) return;
    const whose = where === 'serve' ? "the serve's engine clock" : "the data dir's engine clock";
    const back = where === 'serve' ? "Reset offset in the workbench's top bar puts it back" : 'a serve started on it begins there: Reset offset in its top bar puts it back';
    this.io.stdout(`${whose} is now ${formatDuration(Math.abs(offsetMs))} ${offsetMs < 0 ? 'behind' : 'ahead of'} real time (--fast moved it; ${back})\n`);
  }

  result(args: {
    message: MessageRecord;
    status: DeliveryStatus | 'filtered' | 'interrupted';
    reason: string | null;
    attempts: number;
    spanMs: number | null;
    exitCode: number;
    delivery?: DeliveryRecord;
    /** --fast through a serve or on a kept data dir: the clock offset the send left behind (clockMoved says it in words). */
    clockOffsetMs?: number | null;
  }): void {
    const { status, reason, attempts } = args;
    // Why no further attempt came, when the retry window ran out (docs/behaviour.md §3).
    const why = status === 'failed' && args.delivery ? pastWindowWords(args.delivery, this.webhookCount > 1) : null;
    if (this.json) {
      this.line({
        type: 'result',
        delivered: status === 'delivered',
        status,
        reason,
        ...(why ? { why } : {}),
        attempts,
        // The POSTs, as a list row's webhookAttempts: `attempts` counts rounds, one POST to each webhook.
        webhookAttempts: this.attemptsSeen,
        id: args.message.id,
        messageId: args.message.messageId,
        // A script that goes on with that serve needs to know its clock stays moved, as the human output says.
        ...(args.clockOffsetMs != null ? { clockOffsetMs: args.clockOffsetMs } : {}),
        exitCode: args.exitCode,
      });
      return;
    }
    const tries = `${triesWords(attempts, this.attemptsSeen, this.webhookCount > 1)}${args.spanMs !== null && attempts > 1 ? ` over ${formatDuration(args.spanMs)}` : ''}`;
    if (status === 'delivered') this.io.stdout(`delivered after ${tries}\n`);
    else if (status === 'filtered') this.io.stdout(`not sent: filtered (${reason ?? 'no reason given'})\n`);
    else if (status === 'interrupted') this.io.stdout(`interrupted after ${tries}: not delivered${reason ? ` (${reason})` : ''}\n`);
    else this.io.stdout(`${status}: ${reason ?? 'no reason given'} after ${tries}${why ? `; ${why}` : ''}\n`);
  }
}
