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
  intervalMs?: number;
  sliceMs?: number;
  chunk?: number;
  busyRounds?: number;
}

export class Retention {
  private readonly turns = new BackgroundTurns(() => this.turn());
  private lastPrunedAt: number | null = null;
  private readonly o: Required<RetentionOptions>;

  constructor(options: RetentionOptions) {
    this.o = {
      writable: () => true,
      onError: (e) => console.error('hookbench: retention could not remove old messages; it tries again later', e),
      intervalMs: 60_000,
      sliceMs: 20,
      chunk: 200,
      busyRounds: 8,
      ...options,
    };
  }

  policy(): RetentionPolicy {
    const read = (key: string) => {
      const v = this.o.store.config.getSetting(key);
      return v === null || v === '' ? null : Number(v);
    };
    return { maxAgeDays: read(RETENTION_SETTINGS.maxAgeDays), maxMessages: read(RETENTION_SETTINGS.maxMessages) };
  }

  getRetention(): Result<RetentionState> {
    const { retention } = this.o.store;
    return ok({
      ...this.policy(),
      databaseBytes: databaseBytes(this.o.store.file),
      messages: retention.count(),
      oldestReceivedAt: retention.oldestReceivedAt(),
      pruned: retention.pruned(),
      lastPrunedAt: this.lastPrunedAt,
    });
  }

  setRetention(input: SetRetentionInput): Result<RetentionState> {
    const { config } = this.o.store;
    if (input.maxAgeDays !== undefined) config.setSetting(RETENTION_SETTINGS.maxAgeDays, input.maxAgeDays === null ? '' : String(input.maxAgeDays));
    if (input.maxMessages !== undefined) config.setSetting(RETENTION_SETTINGS.maxMessages, input.maxMessages === null ? '' : String(input.maxMessages));
    // Apply the new policy soon, not at the next interval.
    this.turns.later(0);
    return this.getRetention();
  }

  start(): void {
    this.turns.start(this.o.intervalMs);
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
      before: maxAgeDays === null ? null : this.o.clock.now() - maxAgeDays * DAY_MS,
      belowId: maxMessages === null ? null : this.o.store.retention.cutoffForNewest(maxMessages),
    };
    if (limits.before === null && limits.belowId === null) return { removed: 0, done: true };
    const started = performance.now();
    let removed = 0;
    for (;;) {
      const n = this.o.store.retention.pruneChunk(limits, this.o.chunk);
      removed += n;
      if (n < this.o.chunk) {
        if (removed > 0) this.lastPrunedAt = this.o.clock.now();
        return { removed, done: true };
      }
      if (performance.now() - started >= maxMs) {
        this.lastPrunedAt = this.o.clock.now();
        return { removed, done: false };
      }
    }
  }

  private turn(): void {
    if (!this.o.writable() || this.o.roundsInFlight() > this.o.busyRounds) return this.turns.later(Math.min(this.o.intervalMs, 1000));
    try {
      const { done } = this.pruneNow(this.o.sliceMs);
      this.turns.later(done ? this.o.intervalMs : 0);
    } catch (e) {
      this.o.onError(e);
      this.turns.later(this.o.intervalMs);
    }
  }
}
