/**
 * `hookbench send` while a serve runs on the data dir (--data-dir, else the default one): the message goes
 * through that serve's typed API and its attempts are followed on the serve's event socket.
 */
import type { SendMessageOutput } from '../../../contract/api.js';
import type { EngineEvent } from '../../../contract/events.js';
import type { MessageType } from '../../../contract/message/messageShapes.js';
import type { AttemptRecord, DeliveryRecord } from '../../../contract/deliveries.js';
import type { Destination } from '../../../contract/destinations.js';
import type { MessageDetail } from '../../../contract/messages.js';
import type { ClockState } from '../../../contract/overview.js';
import { HookbenchError, type Result } from '../../../contract/result.js';
import { EventStream, untilAborted } from '../../events.js';
import { EXIT, refusalText, UsageError, type CliIO } from '../../io.js';
import { callApi, listAll } from '../../remote.js';
import { withFlagHint } from './sendInput.js';
import { CANCELLED_WORDS, isFinal, span, type Reporter } from './sendReport.js';
import { listResult, takeSendDestination, type DestinationApi, type SendDestinationSettings } from './sendDestination.js';
import type { ServerInfo } from '../serve.js';

/** The destination commands of a running serve. */
function remoteDestinations(info: () => ServerInfo): DestinationApi {
  return {
    list: async () => listResult(await listAll<Destination>((input) => callApi(info(), 'listDestinations', { ...input, owner: 'send' }))),
    create: (input) => callApi<Destination>(info(), 'createDestination', input),
    update: (id, patch) => callApi<Destination>(info(), 'updateDestination', { id, patch }),
  };
}

export interface ThroughServe {
  info: ServerInfo;
  dataDir: string;
  /** Whether the user named the data dir (--data-dir): then the hints name it too. */
  dataDirNamed: boolean;
  type: MessageType;
  call: Record<string, unknown>;
  destination: SendDestinationSettings;
  report: Reporter;
  fast: boolean;
  io: CliIO;
}

/**
 * Following one message on a serve: its attempts and its delivery as the event socket tells them (events that
 * come before the message is known wait in a backlog), read again from the serve when events may have been
 * missed (a reconnect, --fast), each attempt printed once.
 */
class Follow {
  messageRowId = -1;
  deliveryId = -1;
  /** Changes to our delivery so far: a count to wait on without a race. */
  changes = 0;
  private readonly printed = new Set<number>();
  private lastRound = 0;
  private retryShownFor = 0;
  private wake: () => void = () => undefined;
  private settle: (d: DeliveryRecord) => void = () => undefined;
  /** The delivery once final, as the events told it. */
  readonly settled = new Promise<DeliveryRecord>((resolve) => (this.settle = resolve));
  private readonly backlog: EngineEvent[] = [];

  constructor(
    /** The serve as last connected to: a reconnect updates it. */
    public info: ServerInfo,
    private readonly report: Reporter,
    private readonly fast: boolean,
  ) {}

  /** The message is known: its events are followed from now, those that came before it first. */
  begin(messageRowId: number, deliveryId: number): void {
    this.deliveryId = deliveryId;
    this.messageRowId = messageRowId;
    this.backlog.splice(0).forEach((event) => this.onEvent(event));
  }

  onEvent(event: EngineEvent): void {
    if (this.messageRowId < 0) return void this.backlog.push(event);
    if (event.type === 'attemptFinished' && event.attempt.messageId === this.messageRowId) {
      if (!this.fast) this.showAttempt(event.attempt);
    } else if (event.type === 'deliveryUpdated' && event.delivery.id === this.deliveryId) {
      if (!this.fast) this.showDelivery(event.delivery);
      this.changes++;
      this.wake();
    }
  }

  /** Waits for the next change to our delivery, unless one came since `seen`. */
  async changeSince(seen: number, aborted: Promise<null>): Promise<void> {
    if (this.changes === seen) await Promise.race([new Promise<void>((resolve) => (this.wake = resolve)), aborted]);
  }

  /** Reads the message from the serve and prints what the events did not (missed while disconnected, or --fast). */
  async catchUp(): Promise<DeliveryRecord | null> {
    const detail = await callApi<MessageDetail>(this.info, 'getMessage', { id: this.messageRowId });
    if (!detail.ok) throw new HookbenchError(detail.error);
    const own = detail.value.attempts.filter((a) => a.deliveryId === this.deliveryId).sort((a, b) => a.attemptNumber - b.attemptNumber || a.webhookIndex - b.webhookIndex);
    for (const a of own) this.showAttempt(a);
    const d = detail.value.deliveries.find((x) => x.id === this.deliveryId) ?? null;
    if (d) this.showDelivery(d);
    return d;
  }

  private showAttempt(a: AttemptRecord): void {
    if (this.printed.has(a.id)) return;
    this.printed.add(a.id);
    this.lastRound = Math.max(this.lastRound, a.attemptNumber);
    this.report.attempt(a);
  }

  private showDelivery(d: DeliveryRecord): void {
    if (d.status === 'retrying' && d.nextAttemptAt !== null && d.attempts === this.lastRound && this.retryShownFor < d.attempts) {
      this.retryShownFor = d.attempts;
      this.report.retry(d, d.updatedAt);
    }
    if (isFinal(d.status)) this.settle(d);
  }
}

/**
 * `send` while a serve runs on the data dir: the message goes through that serve's typed API, to its
 * `hookbench send` destination, and its attempts are followed on the serve's event socket (reconnecting if
 * it drops). --fast moves that serve's engine clock forward, as the UI's fast-forward does, and says so
 * once done. Ctrl-C cancels the message there, as it does locally.
 */
export async function sendThroughServe(o: ThroughServe): Promise<number> {
  const { report, io } = o;
  const follow = new Follow(o.info, report, o.fast);
  const api = remoteDestinations(() => follow.info);
  let taken: Result<Destination>;
  try {
    taken = await takeSendDestination(api, o.destination);
  } catch (e) {
    if (e instanceof UsageError) return report.usage(e.message);
    if (e instanceof HookbenchError) return report.usage(e.message, e.error);
    throw e;
  }
  if (!taken.ok) return report.usage(refusalText(taken.error, withFlagHint), taken.error);
  const dest = taken.value;

  const stream = new EventStream({
    dataDir: o.dataDir,
    info: follow.info,
    onFrame: (frame) => frame.events.forEach((event) => follow.onEvent(event)),
    onStatus: (s) => {
      if (s.kind === 'connected') {
        follow.info = s.info;
        if (s.again && follow.messageRowId >= 0) {
          io.stderr(`(reconnected to hookbench serve at ${s.info.url})\n`);
          follow.catchUp().catch(() => undefined);
        }
      } else if (s.kind === 'lost') io.stderr(`(lost the connection to hookbench serve at ${s.info.url}: ${s.reason}; reconnecting, Ctrl-C to stop)\n`);
    },
  });
  try {
    // Subscribe before sending: the first attempt starts at once.
    const connected = await Promise.race([stream.connected, untilAborted(io.signal).then(() => false)]);
    if (!connected) return report.usage(`interrupted before hookbench serve at ${follow.info.url} answered`);
    return await sendAndFollow(o, dest, follow);
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

/** Sends the message through the serve, follows it until its delivery is final (or Ctrl-C), and reports it. */
async function sendAndFollow(o: ThroughServe, dest: Destination, follow: Follow): Promise<number> {
  const { report, io } = o;
  const info = follow.info;
  const sent = await callApi<SendMessageOutput>(info, 'sendMessage', { type: o.type, call: o.call, destinations: [dest.id], strict: true });
  if (!sent.ok) return report.usage(`--data: ${sent.error.message}`, sent.error);
  const message = sent.value.message;
  report.start({
    message,
    kept: true,
    via: { info, dataDir: o.dataDir, named: o.dataDirNamed },
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
  follow.begin(message.id, delivery.id);

  const aborted = untilAborted(io.signal).then(() => null);
  const { final, movedTo } = o.fast
    ? await playOnServeClock(follow, aborted, () => io.signal?.aborted === true)
    : { final: await Promise.race([follow.settled, aborted]), movedTo: null };
  if (final === null || !isFinal(final.status)) {
    // Ctrl-C: stop the retries for good, as a local send does.
    const cancelled = await callApi(follow.info, 'cancelMessage', { id: message.id }).catch(() => null);
    if (!cancelled?.ok) io.stderr(`hookbench send: could not cancel message #${message.id} on the serve; its retries go on there\n`);
    const d = (await follow.catchUp().catch(() => null)) ?? final ?? delivery;
    // Said, so the user knows the message will not go out later on its own.
    report.result({ message, status: 'interrupted', reason: cancelled?.ok ? CANCELLED_WORDS : null, attempts: d.attempts, spanMs: span(d), exitCode: EXIT.failed });
    return EXIT.failed;
  }
  await follow.catchUp(); // every attempt printed, also those of a round whose events came late
  const exitCode = final.status === 'delivered' ? EXIT.ok : EXIT.failed;
  report.result({ message, status: final.status, reason: final.reason, attempts: final.attempts, spanMs: span(final), exitCode, delivery: final, clockOffsetMs: movedTo });
  if (movedTo !== null) report.clockMoved(movedTo);
  return exitCode;
}

/**
 * --fast: plays the schedule on the serve's clock. While the delivery waits, engine time moves to its next
 * attempt (advanceClock answers once that attempt is recorded); while a round is in flight, its event is
 * awaited. Answers the delivery (null or not final when interrupted) and the serve's clock offset after the
 * last jump (null: it made none).
 */
async function playOnServeClock(follow: Follow, aborted: Promise<null>, interrupted: () => boolean): Promise<{ final: DeliveryRecord | null; movedTo: number | null }> {
  let movedTo: number | null = null;
  for (;;) {
    const seen = follow.changes;
    const d = await follow.catchUp();
    if (!d || isFinal(d.status)) return { final: d, movedTo };
    if (interrupted()) return { final: null, movedTo };
    if (d.status === 'retrying' && d.nextAttemptAt !== null) {
      const clock = await callApi<ClockState>(follow.info, 'getClock', {});
      if (!clock.ok) throw new HookbenchError(clock.error);
      const advanced = await callApi<ClockState>(follow.info, 'advanceClock', { ms: Math.max(0, d.nextAttemptAt - clock.value.now) });
      if (!advanced.ok) throw new HookbenchError(advanced.error);
      movedTo = advanced.value.offsetMs;
    } else {
      await follow.changeSince(seen, aborted);
    }
  }
}
