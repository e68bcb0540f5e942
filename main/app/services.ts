/**
 * What a core is made of: builds every service of the engine over narrow views of the store, and hands each
 * what it needs of the others as functions (a feature never imports one beside or above it). The commands'
 * handlers (main/<feature>/commands.ts) receive the services this returns; createCore.ts runs their lifecycle.
 */
import { withParsedInput } from '../contract/dispatch.js';
import type { EngineEvent } from '../contract/events.js';
import type { MessageDetail } from '../contract/messages.js';
import type { IngestRefusal } from '../contract/sources.js';
import { parseReceiverRef, type ReceiverCheck } from '../contract/receiver/receiver.js';
import { ok } from '../contract/result.js';
import { AudienceService } from '../audiences/audienceService.js';
import { AudienceStore } from '../audiences/audienceStore.js';
import { DeletionRequests } from '../audiences/deletions.js';
import { CheckRunStore } from '../check/checkRunStore.js';
import { CheckService } from '../check/checkService.js';
import { CheckTraffic } from '../check/checkTraffic.js';
import { Control, retrySeed, SETTINGS } from '../control/control.js';
import { DeliveryCommands } from '../delivery/deliveryCommands.js';
import { DeliveryMinutes } from '../delivery/deliveryMinutes.js';
import { chooseForwarder, type Forwarder } from '../delivery/forwarders.js';
import { Engine } from '../delivery/scheduler.js';
import { DiagnosticsService } from '../diagnostics/diagnostics.js';
import { DiagnosticsQueries } from '../diagnostics/diagnosticsQueries.js';
import { receiverChecks } from '../domain/receiverVerdict.js';
import { History } from '../history/history.js';
import { historyIndexPart } from '../history/historyIndexPart.js';
import { Retention } from '../history/retention.js';
import { ingestionPort, type IngestionPort } from '../ingestion/ingestionPort.js';
import { Intake } from '../ingestion/intake.js';
import { createClock, type Clock } from '../platform/clock.js';
import { EventBus } from '../platform/eventBus.js';
import { ReceiverService } from '../receiver/receiverService.js';
import { ReceiverStore } from '../receiver/receiverStore.js';
import { Registry } from '../registry/registry.js';
import { corruptionError, isCorruptionError } from '../store/integrity.js';
import type { Store } from '../store/store.js';
import { startBackgroundThread } from './backgroundThread.js';
import { checkpointPart } from './checkpointPart.js';
import type { CoreOptions } from './createCore.js';

/** A running core checks its whole database this often, when no round is out (store/integrity.ts). */
const RUNNING_INTEGRITY_CHECK_MS = 60_000;

export interface Services {
  readonly store: Store;
  readonly clock: Clock;
  readonly bus: EventBus;
  /** Listeners of refused ingestion requests alone (serve's log): they do not make the core build every event. */
  readonly refusalListeners: Set<(refusal: IngestRefusal) => void>;
  readonly receivers: ReceiverService;
  readonly registry: Registry;
  readonly forwarder: Forwarder;
  readonly engine: Engine;
  /** The background thread (checkpoints, the history index: app/backgroundThread.ts) and the loading of the history tail, started with the core. */
  readonly background: { start(): void; stop(): Promise<void> };
  readonly retention: Retention;
  readonly intake: Intake;
  readonly audiences: AudienceService;
  readonly control: Control;
  readonly history: History;
  readonly deliveries: DeliveryCommands;
  readonly diagnostics: DiagnosticsService;
  readonly checks: CheckService;
  /** Which events are a check run's own traffic (left out of the user's faces). */
  readonly checkTraffic: CheckTraffic;
  readonly deletions: DeletionRequests;
  readonly ingestion: IngestionPort;
  /** A transaction rolled back: the in-memory copies are read again, and the scheduler looks again. */
  rolledBack(): void;
}

/** Builds the services in dependency order; a service reaches one built after it only through a function called later. */
export function buildServices(options: CoreOptions, store: Store): Services {
  const queries = store.queries;
  const bus = new EventBus((id) => queries.summary(id));
  const emit = (event: EngineEvent) => bus.emit(event);
  const clock = options.clock ?? createClock({ offsetMs: Number(store.config.getSetting(SETTINGS.clockOffset) ?? '0') });
  const writable = () => store.health.problem === null;
  // Read first: what cannot be read (secrets the codec cannot decrypt) fails before any thread starts.
  const receivers = new ReceiverService({
    store: new ReceiverStore(store.db, options.receiver?.maxCaptures, options.secretCodec, options.receiver?.maxCaptureBytes, (fn) => store.transaction(fn)),
    clock,
    dataDir: options.dataDir,
    emit,
    fallbackReceiver: options.receiver?.fallbackReceiver,
    destinationsUsing: (name): string[] => registry.allDestinations().filter((d) => d.webhooks.some((w) => parseReceiverRef(w.url)?.name === name)).map((d) => d.name),
  });
  const registry = new Registry({
    store,
    clock,
    receiverExists: (name) => receivers.getReceiver({ name }).ok,
    destinationSaved: () => engine.reschedule(),
    caFileDropped: (caFile) => forwarder.invalidate(caFile),
    changed: (catalog) => bus.emit({ type: 'catalogChanged', catalog }),
  });
  const forwarder = chooseForwarder(options.forwarder, options.dispatcher);
  const deliveryMinutes = new DeliveryMinutes(clock.now());
  const engine = new Engine({
    store,
    clock,
    forwarder,
    seed: options.seed ?? retrySeed(store.config),
    destination: (id) => registry.destination(id),
    resolveUrl: (url) => receivers.resolveWebhookUrl(url),
    expectRequest: (url, body, attempt, headers) => receivers.expectRequest(url, body, attempt, headers),
    emit,
    listening: () => bus.listening,
    recorded: (rounds) => deliveryMinutes.addRounds(rounds),
    onJump: (jump) => bus.emit({ type: 'clockJumpUpdated', jump }),
    ...(options.minInFlight !== undefined ? { minInFlight: options.minInFlight } : {}),
    ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
    ...(options.monotonicTime !== undefined ? { time: options.monotonicTime } : {}),
  });
  // WAL checkpoints, integrity checks while running, and the history index that listMessages' filters read
  // (main/store/historyIndex.ts, filled while the core is quiet), on a thread of their own.
  let thread: { stop(): Promise<void> } | null = null;
  // The messages stored before this start that the index does not cover yet go into the history tail a
  // slice at a time between the core's other work (Store.loadTail), so that a restart mid-burst answers at once.
  let tailSlice: NodeJS.Immediate | null = null;
  const loadTail = (): void => {
    tailSlice = store.loadTail() ? setImmediate(loadTail) : null;
  };
  const background = {
    start: (): void => {
      tailSlice ??= setImmediate(loadTail);
      thread ??= startBackgroundThread({
        file: store.file,
        checkpoints: checkpointPart(store, {
          integrityCheckIntervalMs: options.integrityCheckIntervalMs ?? RUNNING_INTEGRITY_CHECK_MS,
          quiet: () => engine.roundsInFlight === 0,
        }),
        index: historyIndexPart({
          writing: store.writing,
          roundsInFlight: () => engine.roundsInFlight,
          roundsRecorded: () => engine.stats.roundsRecorded,
          writable,
          onError: backgroundFailure(store, 'the history index could not be updated; listMessages reads the newest messages in id order meanwhile'),
          // What the index now covers, the tail's columns need no longer hold (their memory goes as it goes).
          onProgress: (covered) => queries.tail.forget(covered),
        }),
        onError: backgroundFailure(store, 'the background thread failed; checkpoints wait and listMessages reads the newest messages in id order meanwhile'),
      });
    },
    stop: (): Promise<void> => {
      if (tailSlice) clearImmediate(tailSlice);
      tailSlice = null;
      return thread?.stop() ?? Promise.resolve();
    },
  };
  // Removes settled messages past the retention policy while the core is quiet (history/retention.ts).
  const retention = new Retention({
    store,
    clock,
    roundsInFlight: () => engine.roundsInFlight,
    writable,
    onError: backgroundFailure(store, 'retention could not remove old messages; it tries again later'),
    removed: (count) => bus.emit({ type: 'messagesRemoved', count }),
  });
  const intake: Intake = new Intake({
    store,
    clock,
    registry,
    bus,
    recordIdentify: (sourceId, userId, traits) => audiences.recordIdentify(sourceId, userId, traits),
    wake: () => engine.wake(),
  });
  const audienceStore = new AudienceStore(store.db);
  const audiences: AudienceService = new AudienceService({
    store: audienceStore,
    transaction: (fn) => store.transaction(fn),
    clock,
    // What an audience sends is not traits a source reported: it never feeds back into user_traits.
    send: (messages) => intake.acceptMessages(messages, 'messages', { recordsTraits: false }),
    findSource: (ref) => registry.findSource(ref),
    noSuchSource: (field, ref) => registry.noSuchSource(field, ref),
  });
  const control = new Control({ store, clock, engine, bus, queries, rate: intake.rate, dataDir: options.dataDir });
  const history = new History({
    store,
    queries,
    registry,
    usage: { minutes: intake.usage, now: () => clock.now() },
    deliveryMinutes,
    otherSecrets: () => [control.apiToken(), ...receivers.allSecrets()],
    receiverChecks: (detail) => receiverChecksOf(detail, receivers, registry),
  });
  const deliveries = new DeliveryCommands({ store, clock, registry, intake, bus, reschedule: () => engine.reschedule() });
  const rolledBack = () => {
    registry.reload();
    receivers.reload();
    engine.reschedule();
  };
  const refusalListeners = new Set<(refusal: IngestRefusal) => void>();
  const built = { store, clock, bus, refusalListeners, receivers, registry, forwarder, engine, background, retention, intake, audiences, control, history, deliveries, rolledBack };
  const checkTraffic = new CheckTraffic();
  return {
    ...built,
    diagnostics: diagnosticsOver(built),
    checks: checksOver(built, options, checkTraffic),
    checkTraffic,
    deletions: new DeletionRequests({ store, clock, registry, intake, rolledBack, forgetUser: (sourceIds, userId) => audienceStore.forgetUser(sourceIds, userId) }),
    ingestion: ingestionPort({ store, clock, bus, registry, intake, refusalListeners }),
  };
}

type Built = Omit<Services, 'diagnostics' | 'checks' | 'checkTraffic' | 'deletions' | 'ingestion'>;

/** The troubleshooting checklist reads every other feature's newest data (docs/behaviour.md §13). */
function diagnosticsOver({ store, clock, registry, receivers, history, control }: Built): DiagnosticsService {
  return new DiagnosticsService({
    store: { diagnostics: new DiagnosticsQueries(store.db), deliveries: store.deliveries, ingestLog: store.ingestLog },
    clock,
    sources: () => registry.allSources(),
    destinations: () => registry.allDestinations(),
    captures: (limit) => {
      const page = receivers.listCaptures({ limit });
      return page.ok ? page.value.items : [];
    },
    receiverSecret: receiverSecretOf(receivers),
    message: (id) => history.getMessage({ id }),
    overview: () => {
      const overview = control.getOverview();
      if (!overview.ok) throw new Error(overview.error.message);
      return overview.value;
    },
  });
}

/** The endpoint check sends through the engine when a check asks for it (check/engineRoute.ts). */
function checksOver({ store, bus, registry, intake, history, control, receivers }: Built, options: CoreOptions, checkTraffic: CheckTraffic): CheckService {
  return new CheckService({
    mockEndpoint: (url) => receivers.endpointForUrl(url),
    expectDirect: (url, body) => receivers.expectCheckRequest(url, body),
    expectLoad: (url, body) => receivers.expectCheckLoad(url, body),
    resolveUrl: (url) => receivers.resolveWebhookUrl(url),
    runs: new CheckRunStore(store.db),
    emit: (event) => bus.emit(event),
    timing: options.checkTiming,
    dispatcher: options.dispatcher,
    engine: {
      forwarding: () => {
        const overview = control.getOverview();
        return overview.ok && !overview.value.paused;
      },
      findDestination: (ref) => registry.findDestination(ref),
      // The check's own destinations are checked as the commands' are, where they enter the registry.
      createDestination: withParsedInput('createDestination', (input) => registry.createDestination(input)),
      updateDestination: withParsedInput('updateDestination', (input) => registry.updateDestination(input)),
      // The check's messages are its own: marked so that lists, counters and the user's event streams leave them out.
      sendMessage: (input) => {
        const sent = intake.acceptMessages([input], null, { recordsTraits: true, origin: 'check' });
        if (!sent.ok) return sent;
        checkTraffic.add(sent.value[0]!.message.id);
        return ok(sent.value[0]!);
      },
      getMessage: (input) => history.getMessage(input),
      onEvent: (listener) => bus.on(listener),
    },
  });
}

/** Both sides of the message's attempts to the mock receiver (domain/receiverVerdict.ts). */
function receiverChecksOf(detail: MessageDetail, receivers: ReceiverService, registry: Registry): ReceiverCheck[] {
  const captures = receivers.capturesOfMessage(detail.message.id);
  if (captures.length === 0) return [];
  return receiverChecks(captures, {
    attempts: detail.attempts,
    deliveryOf: (id) => detail.deliveries.find((d) => d.id === id),
    destination: (id) => registry.destination(id),
    receiverSecret: receiverSecretOf(receivers),
  });
}

/** An endpoint's secret as the checklist and the verdicts ask for it: undefined when there is no such endpoint. */
function receiverSecretOf(receivers: ReceiverService): (name: string) => string | null | undefined {
  return (name) => {
    const r = receivers.receiverSecret(name);
    return r.ok ? r.value : undefined;
  };
}

/**
 * What background work (the background thread, retention) does with its errors: a damaged database stops writes
 * (store/integrity.ts); anything else is logged, and the work tries again on a later turn.
 */
function backgroundFailure(store: Store, what: string): (e: unknown) => void {
  return (e) => {
    if (isCorruptionError(e)) store.health.fail(corruptionError(store.file, (e as Error).message));
    else console.error(`hookbench: ${what}`, e);
  };
}
