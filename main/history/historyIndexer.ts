/**
 * Keeps the history index (main/store/historyIndex.ts) caught up off the hot path. Indexing a message
 * costs about twice what storing it does (its body's trigrams, mostly), so it is never done while
 * messages are stored or delivered: the indexer looks every `intervalMs`, and indexes only while the
 * core is quiet (fewer than `busyMessagesPerSecond` new messages and fewer than `busyRoundsPerSecond`
 * rounds finished since it last looked, and no more than `busyRounds` rounds in flight), a chunk at a
 * time, giving the event loop back after each `sliceMs`. Counting finished rounds keeps it off the tail
 * of a burst too, when the last rounds drain below `busyRounds` and indexing would still slow delivery.
 * Under sustained load the unindexed tail grows, and listMessages reads it in id order (slower for rare
 * filter values) until the indexer catches up.
 */
import type { HistoryIndex } from '../store/historyIndex.js';
import { BackgroundTurns } from '../platform/backgroundTurns.js';

export interface HistoryIndexerOptions {
  index: Pick<HistoryIndex, 'indexNext' | 'lag' | 'merge'>;
  /** Rounds in flight right now. */
  roundsInFlight: () => number;
  /** Rounds finished so far (a counter that only grows); none by default. */
  roundsRecorded?: () => number;
  /** False while the database must not be written (store/integrity.ts): the indexer waits. */
  writable?: () => boolean;
  /** An error while indexing; the indexer tries again after `retryAfterErrorMs`. */
  onError?: (error: unknown) => void;
  retryAfterErrorMs?: number;
  intervalMs?: number;
  sliceMs?: number;
  /** Messages per transaction. */
  chunk?: number;
  busyMessagesPerSecond?: number;
  busyRoundsPerSecond?: number;
  busyRounds?: number;
  /** On a thread of its own: its turns keep the thread's event loop turning (BackgroundTurns' holdOpen). */
  ownThread?: boolean;
}

export const HISTORY_INDEX_CHUNK = 100;

export class HistoryIndexer {
  private readonly turns: BackgroundTurns;
  /** lag() when last looked, and when. */
  private lastLag = 0;
  private lastLookedAt = 0;
  /** roundsRecorded() when last looked. */
  private lastRounds = 0;
  private merged = true;
  private readonly options: Required<HistoryIndexerOptions>;

  constructor(options: HistoryIndexerOptions) {
    this.options = {
      intervalMs: 250,
      sliceMs: 20,
      chunk: HISTORY_INDEX_CHUNK,
      busyMessagesPerSecond: 200,
      busyRoundsPerSecond: 200,
      busyRounds: 32,
      roundsRecorded: () => 0,
      writable: () => true,
      onError: (e) => console.error('hookbench: the history index could not be updated; listMessages reads the newest messages in id order meanwhile', e),
      retryAfterErrorMs: 30_000,
      ownThread: false,
      ...options,
    };
    this.turns = new BackgroundTurns(() => this.turn(), this.options.ownThread);
  }

  start(): void {
    if (!this.turns.stopped) return;
    this.lastLag = this.options.index.lag();
    this.lastRounds = this.options.roundsRecorded();
    this.lastLookedAt = performance.now();
    this.turns.start(this.options.intervalMs);
  }

  stop(): void {
    this.turns.stop();
  }

  private turn(): void {
    try {
      this.work();
    } catch (e) {
      this.options.onError(e);
      this.turns.later(this.options.retryAfterErrorMs);
    }
  }

  private work(): void {
    if (!this.options.writable()) return this.turns.later(this.options.intervalMs);
    const now = performance.now();
    const lag = this.options.index.lag();
    // New messages since the last look (lag grows by them; indexing shrinks it, so count only growth).
    const elapsedMs = Math.max(1, now - this.lastLookedAt);
    const arrivedPerSecond = (Math.max(0, lag - this.lastLag) * 1000) / elapsedMs;
    const rounds = this.options.roundsRecorded();
    const finishedPerSecond = ((rounds - this.lastRounds) * 1000) / elapsedMs;
    this.lastRounds = rounds;
    if (arrivedPerSecond >= this.options.busyMessagesPerSecond || finishedPerSecond >= this.options.busyRoundsPerSecond || this.options.roundsInFlight() > this.options.busyRounds) {
      this.lastLag = lag;
      this.lastLookedAt = now;
      return this.turns.later(this.options.intervalMs);
    }
    let more = lag > 0;
    while (more && performance.now() - now < this.options.sliceMs) more = this.options.index.indexNext(this.options.chunk) > 0;
    if (lag > 0) this.merged = false;
    if (!more && !this.merged) {
      // Caught up: fewer, larger segments make every search cheaper.
      while (performance.now() - now < this.options.sliceMs) {
        if (!this.options.index.merge(100)) {
          this.merged = true;
          break;
        }
      }
    }
    this.lastLag = this.options.index.lag();
    this.lastLookedAt = performance.now();
    // Still behind and quiet: go on as soon as the event loop has had its turn.
    this.turns.later(more || !this.merged ? 0 : this.options.intervalMs);
  }
}
