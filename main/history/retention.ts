/**
 * Retention (docs/behaviour.md §10): the policy, kept in the settings table, and the pruner that applies
 * it. Like the history indexer, the pruner works only while the core is quiet (few rounds in flight), a
 * chunk per transaction, giving the event loop back after each slice; it looks every `intervalMs` and at
 * once after the policy changes. Messages still waiting for a delivery are never removed
 * (main/store/retentionStore.ts).
 */
import { statSync } from 'node:fs';
import { ok, type Result } from '../contract/result.js';
import type { RetentionPolicy, RetentionState, SetRetentionInput } from '../contract/retention.js';
import type { Store } from '../store/store.js';
import { BackgroundTurns } from '../platform/backgroundTurns.js';

export const RETENTION_SETTINGS = { maxAgeDays: 'retention.maxAgeDays', maxMessages: 'retention.maxMessages' } as const;
const DAY_MS = 86_400_000;

/** Size of a SQLite database and its WAL, in bytes (0 for a file that is not there). */
export function databaseBytes(file: string): number {
  const size = (f: string) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  };
  return size(file) + size(`${file}-wal`);
}

export interface RetentionOptions {
  store: Pick<Store, 'retention' | 'config' | 'file'>;
  clock: { now(): number };
  /** Rounds in flight right now: above `busyRounds` the pruner waits. */
  roundsInFlight: () => number;
  /** False while the database must not be written (store/integrity.ts). */
  writable?: () => boolean;
  onError?: (error: unknown) => void;
  /** Messages were removed (a background pass): the faces' lists read again (messagesRemoved). */
  removed?: (count: number) => void;
  intervalMs?: number;
  sliceMs?: number;
  chunk?: number;
  busyRounds?: number;
}

export class Retention {
  private readonly turns = new BackgroundTurns(() => this.turn());
  private lastPrunedAt: number | null = null;
  private readonly options: Required<RetentionOptions>;

  constructor(options: RetentionOptions) {
    this.options = {
      writable: () => true,
      onError: (e) => console.error('hookbench: retention could not remove old messages; it tries again later', e),
      removed: () => undefined,
      intervalMs: 60_000,
      sliceMs: 20,
      chunk: 200,
      busyRounds: 8,
      ...options,
    };
  }

  policy(): RetentionPolicy {
    const read = (key: string) => {
      const v = this.options.store.config.getSetting(key);
      return v === null || v === '' ? null : Number(v);
    };
    return { maxAgeDays: read(RETENTION_SETTINGS.maxAgeDays), maxMessages: read(RETENTION_SETTINGS.maxMessages) };
  }

  getRetention(): Result<RetentionState> {
    const { retention } = this.options.store;
    return ok({
      ...this.policy(),
      databaseBytes: databaseBytes(this.options.store.file),
      messages: retention.count(),
      checkMessages: retention.countChecks(),
      oldestReceivedAt: retention.oldestReceivedAt(),
      pruned: retention.pruned(),
      lastPrunedAt: this.lastPrunedAt,
    });
  }

  setRetention(input: SetRetentionInput): Result<RetentionState> {
    const { config } = this.options.store;
    if (input.maxAgeDays !== undefined) config.setSetting(RETENTION_SETTINGS.maxAgeDays, input.maxAgeDays === null ? '' : String(input.maxAgeDays));
    if (input.maxMessages !== undefined) config.setSetting(RETENTION_SETTINGS.maxMessages, input.maxMessages === null ? '' : String(input.maxMessages));
    // Apply the new policy soon, not at the next interval.
    this.turns.later(0);
    return this.getRetention();
  }

  start(): void {
    this.turns.start(this.options.intervalMs);
  }

  stop(): void {
    this.turns.stop();
  }

  /**
   * Removes what the policy says must go, up to `maxMs` of work (all of it by default); returns how many
   * messages went. The background pass calls this with its slice; tests call it directly.
   */
  pruneNow(maxMs = Number.POSITIVE_INFINITY): { removed: number; done: boolean } {
    const { maxAgeDays, maxMessages } = this.policy();
    if (maxAgeDays === null && maxMessages === null) return { removed: 0, done: true };
    const limits = {
      before: maxAgeDays === null ? null : this.options.clock.now() - maxAgeDays * DAY_MS,
      belowId: maxMessages === null ? null : this.options.store.retention.cutoffForNewest(maxMessages),
    };
    if (limits.before === null && limits.belowId === null) return { removed: 0, done: true };
    const started = performance.now();
    let removed = 0;
    for (;;) {
      const n = this.options.store.retention.pruneChunk(limits, this.options.chunk);
      removed += n;
      if (n < this.options.chunk) {
        if (removed > 0) this.lastPrunedAt = this.options.clock.now();
        return { removed, done: true };
      }
      if (performance.now() - started >= maxMs) {
        this.lastPrunedAt = this.options.clock.now();
        return { removed, done: false };
      }
    }
  }

  private turn(): void {
    if (!this.options.writable() || this.options.roundsInFlight() > this.options.busyRounds) return this.turns.later(Math.min(this.options.intervalMs, 1000));
    try {
      const { done, removed } = this.pruneNow(this.options.sliceMs);
      if (removed > 0) this.options.removed(removed);
      this.turns.later(done ? this.options.intervalMs : 0);
    } catch (e) {
      this.options.onError(e);
      this.turns.later(this.options.intervalMs);
    }
  }
}
