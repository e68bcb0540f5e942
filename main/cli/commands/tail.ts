/**
 * `hookbench tail [--data-dir DIR] [--json]`: a running serve's deliveries and attempts as they happen, like
 * `stripe listen`. One line per message accepted, per attempt finished, per delivery status change and per
 * ingestion request refused;
 * `--json` prints the raw events, one per line. Reconnects when the serve restarts; Ctrl-C exits 0.
 */
import type { EngineEvent } from '../../contract/events.js';
import type { AttemptRecord, DeliveryRecord } from '../../contract/deliveries.js';
import type { MessageDetail } from '../../contract/messages.js';
import type { ClockStatus } from '../../contract/overview.js';
import { recordTriesWords, triesWords } from '../../contract/message/deliveryWords.js';
import { resolveDataDir } from '../../app/dataDir.js';
import { EventStream, untilAborted, type EventFrame, type StreamStatus } from '../events.js';
import { EXIT, formatDuration, runCommand, type CliIO } from '../io.js';
import { callApi, findRunningServe, sourceNamesOf } from '../remote.js';
import type { ServerInfo } from './serve.js';

export interface TailOptions {
  dataDir?: string | undefined;
  json?: boolean | undefined;
}

export interface TailDeps {
  /** Reconnection waits (tests: short). */
  retryMs?: { min: number; max: number };
  /** Local time zone of the printed times (tests: 'UTC'). */
  timeZone?: string;
}

/** What a line says about its message: `#42 track "Signed Up"`. */
interface MessageLabel {
  label: string;
  source: string;
}

const LABEL_WIDTH = 30;
const DESTINATION_WIDTH = 20;
/** Labels of messages seen, kept for their later attempts (a bounded cache: oldest out first). */
const MAX_REMEMBERED = 10_000;

const pad = (text: string, width: number) => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function labelOf(m: { id: number; type: string; event?: string | null }): string {
  return m.type === 'track' && m.event ? `#${m.id} ${m.type} ${JSON.stringify(m.event)}` : `#${m.id} ${m.type}`;
}

/** Human lines, aligned in columns: time, message, direction and destination (or source), what happened. */
export class TailPrinter {
  private readonly messages = new Map<number, MessageLabel | Promise<MessageLabel>>();
  /** Per delivery: its last status, and the attempts seen here (rounds and webhooks), to count as the detail pane does. */
  private readonly deliveries = new Map<number, { status: string; destination: string; attempts: number; rounds: Set<number>; webhooks: Set<number> }>();
  private sourceName: ((id: string) => string) | null = null;
  private readonly unknownSources = new Set<string>();
  private lastDate = '';
  private readonly time: Intl.DateTimeFormat;
  private readonly date: Intl.DateTimeFormat;

  constructor(
    private readonly io: CliIO,
    private info: ServerInfo,
    timeZone?: string,
  ) {
    const zone = timeZone ? { timeZone } : {};
    this.time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false, ...zone });
    this.date = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...zone });
  }

  /** After a reconnection: the serve may be another one. */
  setServer(info: ServerInfo): void {
    this.info = info;
    this.sourceName = null;
    this.unknownSources.clear();
  }

  async frame(frame: EventFrame): Promise<void> {
    const events = frame.events;
    /** Attempts wait for their round's deliveryUpdated (same frame): it carries the next retry. */
    const pending: AttemptRecord[] = [];
    for (const event of events) {
      switch (event.type) {
        case 'messageAccepted':
          await this.accepted(event.message);
          break;
        case 'attemptFinished':
          pending.push(event.attempt);
          break;
        case 'deliveryUpdated': {
          const round = pending.filter((a) => a.deliveryId === event.delivery.id);
          for (const a of round) pending.splice(pending.indexOf(a), 1);
          await this.delivery(event.delivery, round);
          break;
        }
        case 'clockAdvanced': {
          const by = event.byMs >= 0 ? `forward by ${formatDuration(event.byMs)}` : `back by ${formatDuration(-event.byMs)}`;
          const offset = event.clock.offsetMs === 0 ? 'real time' : `${event.clock.offsetMs > 0 ? '+' : '-'}${formatDuration(Math.abs(event.clock.offsetMs))} from real time`;
          this.line(event.clock.now, `clock moved ${by} (engine time is ${offset})`);
          break;
        }
        case 'ingestRefused': {
          // Refused at the door: nothing was stored, and the SDK that sent it may say nothing.
          const r = event.refusal;
          const from = r.clientIp ? `  from ${r.clientIp}` : '';
          this.line(r.receivedAt, `${pad('request refused', LABEL_WIDTH)}  ← ${pad(r.route, DESTINATION_WIDTH)}  HTTP ${r.httpStatus} ${r.code}: ${r.message}${from}`);
          break;
        }
        default:
          break; // attemptStarted, requestCaptured and others: --json shows them
      }
    }
    for (const a of pending) await this.attempts([a], null);
    if (frame.dropped) this.io.stderr(`(${plural(frame.dropped, 'event')} not shown: the serve dropped them because this terminal fell behind)\n`);
  }

  private async accepted(m: { id: number; type: string; event: string | null; sourceId: string | null; userId: string | null; status: string; statusReason: string | null; receivedAt: number }): Promise<void> {
    const source = m.sourceId === null ? 'API' : await this.source(m.sourceId);
    const known: MessageLabel = { label: labelOf(m), source };
    this.remember(m.id, known);
    const who = m.userId ? `  user ${m.userId}` : '';
    const what = m.status === 'filtered' ? `filtered: ${m.statusReason ?? 'no reason given'}` : 'accepted';
    this.line(m.receivedAt, `${pad(known.label, LABEL_WIDTH)}  ← ${pad(source, DESTINATION_WIDTH)}  ${what}${who}`);
  }

  private async delivery(d: DeliveryRecord, round: AttemptRecord[]): Promise<void> {
    const before = this.deliveries.get(d.id);
    const seen = { status: d.status, destination: d.destinationName, attempts: before?.attempts ?? 0, rounds: before?.rounds ?? new Set<number>(), webhooks: before?.webhooks ?? new Set<number>() };
    for (const a of round) {
      seen.attempts++;
      seen.rounds.add(a.attemptNumber);
      seen.webhooks.add(a.webhookIndex);
    }
    this.deliveries.set(d.id, seen);
    if (round.length) await this.attempts(round, d);
    if (before?.status === d.status) return; // lines are for changes
    if (d.status === 'retrying' && round.length) return; // the attempt line says when the next one is due
    if (d.status === 'delivering') return; // its attempt lines follow
    const m = await this.message(d.messageId);
    // Counted from what it saw when it saw every round; a delivery begun before the tail asks the serve, since
    // the rounds it missed may have gone to other webhooks.
    const whole = seen.rounds.size === d.attempts;
    const after = d.attempts ? ` after ${whole ? triesWords(d.attempts, seen.attempts, seen.webhooks.size > 1) : await this.tries(d)}` : '';
    let what: string;
    if (d.status === 'delivered') what = `delivered${after}`;
    else if (d.status === 'failed' || d.status === 'cancelled') what = `${d.status}: ${d.reason ?? 'no reason given'}${after}`;
    else what = `${d.status}${d.nextAttemptAt !== null ? `, next attempt ${this.when(d.nextAttemptAt, d.updatedAt)}` : ''}`;
    this.line(d.updatedAt, `${pad(m.label, LABEL_WIDTH)}  → ${pad(d.destinationName, DESTINATION_WIDTH)}  ${what}`);
  }

  private async attempts(round: AttemptRecord[], d: DeliveryRecord | null): Promise<void> {
    const several = round.some((a) => a.webhookIndex > 0);
    for (const a of round) {
      const m = await this.message(a.messageId);
      const destination = d?.destinationName ?? this.deliveries.get(a.deliveryId)?.destination ?? '?';
      const which = several || a.webhookIndex > 0 ? ` [webhook ${a.webhookIndex + 1}]` : '';
      const status = a.statusCode === null ? 'no response' : `HTTP ${a.statusCode}`;
      const why = a.outcome !== 'success' && a.error && a.error !== status ? `  (${a.error})` : '';
      const next = d && d.status === 'retrying' && d.nextAttemptAt !== null ? `  next retry ${this.when(d.nextAttemptAt, a.finishedAt)}` : '';
      const cols = `${`attempt ${a.attemptNumber}${which}`.padEnd(10)}  ${a.outcome.padEnd(13)}  ${status.padEnd(11)}  ${`${Math.round(a.durationMs)} ms`.padStart(8)}`;
      this.line(a.finishedAt, `${pad(m.label, LABEL_WIDTH)}  → ${pad(destination, DESTINATION_WIDTH)}  ${cols}  ${a.url}${next}${why}`);
    }
  }

  private when(at: number, now: number): string {
    return `${this.time.format(at)} (in ${formatDuration(at - now)})`;
  }

  private line(at: number, text: string): void {
    const date = this.date.format(at);
    if (date !== this.lastDate) {
      if (this.lastDate !== '' || date !== this.date.format(Date.now())) this.io.stdout(`-- ${date} --\n`);
      this.lastDate = date;
    }
    this.io.stdout(`${this.time.format(at)}  ${text}\n`);
  }

  private remember(id: number, label: MessageLabel | Promise<MessageLabel>): void {
    this.messages.delete(id);
    this.messages.set(id, label);
    if (this.messages.size > MAX_REMEMBERED) this.messages.delete(this.messages.keys().next().value!);
    if (this.deliveries.size > MAX_REMEMBERED) this.deliveries.delete(this.deliveries.keys().next().value!);
  }

  /** A message accepted before the tail started: asked of the serve once. */
  private message(id: number): Promise<MessageLabel> | MessageLabel {
    const known = this.messages.get(id);
    if (known) return known;
    const asked = (async (): Promise<MessageLabel> => {
      try {
        const r = await callApi<MessageDetail>(this.info, 'getMessage', { id });
        if (!r.ok) return { label: `#${id}`, source: '?' };
        const m = r.value.message;
        return { label: labelOf(m), source: m.sourceId === null ? 'API' : await this.source(m.sourceId) };
      } catch {
        return { label: `#${id}`, source: '?' };
      }
    })();
    this.remember(id, asked);
    return asked;
  }

  /** How many rounds and attempts a delivery took, read from the serve (the attempts it made before the tail). */
  private async tries(d: DeliveryRecord): Promise<string> {
    try {
      const r = await callApi<MessageDetail>(this.info, 'getMessage', { id: d.messageId });
      if (r.ok) return recordTriesWords(d, r.value.attempts.filter((a) => a.deliveryId === d.id));
    } catch {
      // The serve went away: say what the delivery itself counts, its rounds.
    }
    return plural(d.attempts, 'round');
  }

  private async source(id: string): Promise<string> {
    if (!this.sourceName || (this.sourceName(id) === id && !this.unknownSources.has(id))) {
      this.unknownSources.add(id); // a source created since: the list is asked again, once per new id
      try {
        this.sourceName = await sourceNamesOf(this.info);
      } catch {
        return id;
      }
    }
    return this.sourceName(id);
  }
}

export async function runTail(options: TailOptions, io: CliIO, deps: TailDeps = {}): Promise<number> {
  return runCommand(io, 'tail', async () => {
    const info = findRunningServe(options.dataDir).info;
    const dataDir = resolveDataDir(options.dataDir);
    const printer = options.json ? null : new TailPrinter(io, info, deps.timeZone);
    // Times are engine times: when time travel left the clock away from real time, the first line says so,
    // or "18:42" an hour before 18:00 reads as a wrong clock.
    const clock = printer ? await callApi<ClockStatus>(info, 'getClock', {}).catch(() => null) : null;
    const away = clock?.ok && clock.value.offsetMs !== 0 ? clock.value.offsetMs : 0;
    const timesNote = away === 0 ? '' : `; times are engine times, ${formatDuration(Math.abs(away))} ${away > 0 ? 'ahead of' : 'behind'} real time (Reset offset in the workbench puts the clock back)`;
    const onFrame = (frame: EventFrame) => {
      if (!printer) {
        for (const event of frame.events) io.stdout(`${JSON.stringify(event satisfies EngineEvent)}\n`);
        if (frame.dropped) io.stdout(`${JSON.stringify({ type: 'dropped', count: frame.dropped })}\n`);
        return;
      }
      return printer.frame(frame);
    };
    const onStatus = (s: StreamStatus) => {
      if (s.kind === 'connected') {
        printer?.setServer(s.info);
        io.stderr(
          s.again
            ? `reconnected to Hookbench at ${s.info.url} (pid ${s.info.pid}); events while disconnected are not shown\n`
            : `tailing Hookbench at ${s.info.url} (pid ${s.info.pid}, data dir ${dataDir}): messages, attempts, deliveries and refused requests as they happen${timesNote}; Ctrl-C to stop\n`,
        );
      } else if (s.kind === 'lost') io.stderr(`lost the connection to Hookbench at ${s.info.url} (${s.reason}); reconnecting...\n`);
      else io.stderr(`waiting: ${s.reason}; trying again...\n`);
    };
    const stream = new EventStream({ dataDir, info, onFrame, onStatus, ...(deps.retryMs ? { retryMs: deps.retryMs } : {}) });
    await untilAborted(io.signal);
    stream.stop();
    await stream.done;
    return EXIT.ok;
  });
}
