/**
 * The engine's control panel: the clock (docs/behaviour.md §5), the forwarding switch, the overview
 * counters, the API token and where the workbench lives. State that outlasts a restart (clock offset,
 * pause, token) is kept in the settings table.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { ClockAdvance, ClockState, ClockStatus, Overview, Settings } from '../contract/overview.js';
import type { CommandParsed } from '../contract/dispatch.js';
import { err, ok, type Result } from '../contract/result.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';
import type { ConfigStore } from '../store/configStore.js';
import type { MessageQueries } from '../store/messageQueries.js';
import type { Store } from '../store/store.js';
import type { AcceptedRate } from '../ingestion/acceptedRate.js';
import type { Clock } from '../platform/clock.js';
import type { Engine } from '../delivery/scheduler.js';
import type { EventBus } from '../platform/eventBus.js';
import { databaseBytes } from '../history/retention.js';

export const SETTINGS = {
  clockOffset: 'clock.offsetMs',
  fastForward: 'clock.fastForward',
  paused: 'forwarding.paused',
  apiToken: 'api.token',
  retrySeed: 'retry.seed',
} as const;

/** The seed of retry jitter: drawn once per data dir and kept, so that a restart replays the same jitter. */
export function retrySeed(config: ConfigStore): number {
  const stored = config.getSetting(SETTINGS.retrySeed);
  if (stored !== null) return Number(stored);
  const seed = randomInt(0, 2 ** 31);
  config.setSetting(SETTINGS.retrySeed, String(seed));
  return seed;
}

export interface ControlOptions {
  store: Pick<Store, 'config' | 'deliveries' | 'file' | 'sqliteVersion'>;
  clock: Clock;
  engine: Engine;
  bus: EventBus;
  queries: MessageQueries;
  rate: AcceptedRate;
  dataDir: string;
}

export class Control {
  private started = false;
  private token: string | null = null;

  constructor(private readonly options: ControlOptions) {}

  /** Whether a pause said with pauseForwarding is in force (it outlasts a restart). */
  get pausedByUser(): boolean {
    return this.options.store.config.getSetting(SETTINGS.paused) === 'true';
  }

  /** Starts forwarding, or starts it again after pause(). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.options.engine.start();
  }

  /** Holds forwarding: accepted messages wait, queued; rounds already in flight finish and are recorded. */
  pause(): void {
    if (!this.started) return;
    this.started = false;
    this.options.engine.pause();
  }

  // ---------------------------------------------------------------- clock

  /** docs/behaviour.md §5. `fastForward` overrides the persisted setting for this jump. */
  async advanceClock(input: CommandParsed<'advanceClock'>): Promise<Result<ClockAdvance>> {
    const fastForward = input.fastForward ?? this.fastForward;
    const played = await this.options.engine.advance(input.ms, fastForward, (offset) => this.options.store.config.setSetting(SETTINGS.clockOffset, String(offset)));
    const clock = this.clockState();
    if (played.movedMs > 0) this.options.bus.emit({ type: 'clockAdvanced', clock, byMs: played.movedMs });
    return ok({ ...clock, cancelled: played.cancelled, attemptsPlayed: played.attemptsPlayed, rounds: played.rounds });
  }

  async advanceToNextRetry(): Promise<Result<ClockAdvance>> {
    // Paused, a jump moves only the offset: the retry would stay unplayed, and the clock ahead for nothing.
    if (this.pausedByUser) return err({ code: 'conflict', message: 'forwarding is paused: the next retry would not be played; resume forwarding first' });
    const due = this.options.store.deliveries.nextDueAt();
    if (due === null) return err({ code: 'conflict', message: 'no delivery is waiting for a retry (of an enabled destination)' });
    return this.advanceClock({ ms: Math.max(0, due - this.options.clock.now()) });
  }

  /** Stops the jump in progress where it got to; answers at once (the advance answers `cancelled: true`). */
  cancelClockAdvance(): Result<ClockStatus> {
    this.options.engine.cancelAdvances();
    return ok({ ...this.clockState(), fastForward: this.fastForward, jump: null });
  }

  /** Interrupts any jump, then goes back to real time; answers at once, without waiting for attempts in flight. */
  resetClock(): Promise<Result<ClockState>> {
    const by = this.options.engine.resetOffset(() => this.options.store.config.setSetting(SETTINGS.clockOffset, '0'));
    const clock = this.clockState();
    if (by !== 0) this.options.bus.emit({ type: 'clockAdvanced', clock, byMs: -by });
    return Promise.resolve(ok(clock));
  }

  getClock(): Result<ClockStatus> {
    return ok({ ...this.clockState(), fastForward: this.fastForward, jump: this.options.engine.jumpState() });
  }

  /** The **Fast-forward unanswered attempts** setting, kept in the data dir (off by default). */
  get fastForward(): boolean {
    return this.options.store.config.getSetting(SETTINGS.fastForward) === 'true';
  }

  setFastForward(input: CommandParsed<'setFastForward'>): Result<ClockStatus> {
    this.options.store.config.setSetting(SETTINGS.fastForward, String(input.enabled));
    return this.getClock();
  }

  private clockState(): ClockState {
    return { now: this.options.clock.now(), offsetMs: this.options.clock.offsetMs() };
  }

  // ---------------------------------------------------------------- forwarding and overview

  pauseForwarding(): Result<{ paused: boolean }> {
    this.options.store.config.setSetting(SETTINGS.paused, 'true');
    this.pause();
    this.options.bus.emit({ type: 'forwardingChanged', paused: true });
    return ok({ paused: true });
  }

  resumeForwarding(): Result<{ paused: boolean }> {
    this.options.store.config.setSetting(SETTINGS.paused, 'false');
    this.start();
    this.options.bus.emit({ type: 'forwardingChanged', paused: false });
    return ok({ paused: false });
  }

  getOverview(): Result<Overview> {
    const now = this.options.clock.now();
    // Failures count by the real hour: time travel moves the engine clock, not the hour the user lived.
    const realHourAgo = this.options.clock.realNow() - 3_600_000;
    const backlog = this.options.store.deliveries.deliveryBacklog(now, realHourAgo);
    const counts = this.options.queries.countsPerStatus();
    return ok({
      counts,
      totalMessages: Object.values(counts).reduce((a, b) => a + b, 0),
      messageCounters: {
        inFlight: { messages: counts.delivering, filter: { status: 'delivering' } },
        retrying: { messages: counts.retrying, filter: { status: 'retrying' } },
        failedLastHour: { messages: this.options.queries.countFailedSince(realHourAgo), filter: { failedSince: realHourAgo } },
      },
      inFlight: this.options.engine.roundsInFlight,
      retrying: backlog.retrying,
      failedLastHour: backlog.failedSince,
      dueRetries: backlog.due,
      nextDueAt: this.options.store.deliveries.nextDueAt(),
      clock: this.clockState(),
      paused: !this.started,
      acceptedLastMinute: this.options.rate.lastMinute(now),
    });
  }

  // ---------------------------------------------------------------- token and settings

  /** The typed API's token for this data dir: made once, kept across restarts (a bookmarked UI URL keeps working). */
  apiToken(): string {
    this.token ??= this.options.store.config.getSetting(SETTINGS.apiToken) ?? this.rotateApiToken();
    return this.token;
  }

  /** Replaces the API token; the old one stops working at once. */
  rotateApiToken(): string {
    this.token = randomBytes(24).toString('hex');
    this.options.store.config.setSetting(SETTINGS.apiToken, this.token);
    return this.token;
  }

  /** The token, if one was made or read already (exports redact it). */
  knownToken(): string | null {
    return this.token;
  }

  getSettings(): Result<Settings> {
    const databaseFile = this.options.store.file;
    return ok({
      dataDir: this.options.dataDir,
      databaseFile,
      databaseBytes: databaseBytes(databaseFile),
      version: HOOKBENCH_VERSION,
      versions: { node: process.versions.node, electron: process.versions['electron'] ?? null, sqlite: this.options.store.sqliteVersion() },
      url: null,
      uiUrl: null,
      ingestUrl: null,
      receiverUrl: null,
      receiverTlsUrl: null,
    });
  }
}
