/**
 * `hookbench send` while a serve runs on the data dir (--data-dir, else the default one): the message goes
 * through that serve's typed API and its attempts are followed on the serve's event socket.
 */
import type { SendMessageOutput } from '../../../contract/api.js';
import type { EngineEvent } from '../../../contract/events.js';
import type { MessageType } from '../../../contract/message/messageShapes.js';
import type { AttemptRecord, ClockState, DeliveryRecord, Destination, MessageDetail } from '../../../contract/models.js';
import { HookbenchError, type Result } from '../../../contract/result.js';
import { EventStream, untilAborted } from '../../events.js';
import { EXIT, UsageError, type CliIO } from '../../io.js';
import { callApi, listAll } from '../../remote.js';
import { flagHint } from './sendInput.js';
import { isFinal, span, type Reporter } from './sendReport.js';
import { listResult, takeSendDestination, type DestinationApi, type SendDestinationSettings } from './sendDestination.js';
import type { ServerInfo } from '../serve.js';

/** The destination commands of a running serve. */
function remoteDestinations(info: () => ServerInfo): DestinationApi {
  return {
    list: async () => listResult(await listAll<Destination>((input) => callApi(info(), 'listDestinations', { ...input, owner: 'send' }))),
    create: (input) => callApi<Destination>(info(), 'createDestination', input),
    update: (id, patch) => callApi<Destination>(info(), 'updateDestination', { id, patch }),
    remove: (id) => callApi(info(), 'deleteDestination', { id }),
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
 * `send` while a serve runs on the data dir: the message goes through that serve's typed API, to its
 * `hookbench send` destination, and its attempts are followed on the serve's event socket (reconnecting if
 * it drops). --fast moves that serve's engine clock forward, as the UI's fast-forward does, and says so
 * once done. Ctrl-C cancels the message there, as it does locally.
 */
export async function sendThroughServe(o: ThroughServe): Promise<number> {
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
    deliveryId = delivery.id;
    messageRowId = message.id;
    backlog.splice(0).forEach(onEvent);

    const aborted = untilAborted(io.signal).then(() => null);
    let final: DeliveryRecord | null = null;
    /** The serve's clock offset after the last jump --fast made (null: it made none). */
    let movedTo: number | null = null;
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
          movedTo = advanced.value.offsetMs;
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
    if (movedTo !== null) report.clockMoved(movedTo);
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
