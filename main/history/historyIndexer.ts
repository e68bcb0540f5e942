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
  /**
   * True while the engine's thread is in a transaction or waiting for the write lock: the indexer starts no
   * chunk then (on its own thread it would otherwise take the lock back between the engine's retries).
   */
  engineWriting?: () => boolean;
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
  /** What the last look found (busy until one has looked); quiet, the next look is an interval later. */
  private busy = true;
  /** Messages indexed since the last look. */
  private indexedSinceLook = 0;
  private merged = true;
  /** Whether its last turn left work for the next one at once (still behind, or merging, while the core is quiet). */
  private workingNow = false;
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
      engineWriting: () => false,
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
    this.busy = true;
    this.turns.start(this.options.intervalMs);
  }

  stop(): void {
    this.turns.stop();
    this.workingNow = false;
  }

  /** True while it indexes or merges turn after turn; false while it waits (busy core, caught up, an error). */
  get working(): boolean {
    return this.workingNow;
  }

  private turn(): void {
    this.workingNow = false;
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
    const elapsedMs = now - this.lastLookedAt;
    if (this.busy || elapsedMs >= this.options.intervalMs) {
      // A look over about one interval (a busy indexer waits that long before the next): turns between two
      // chunks are too close together to say a rate.
      // Lag grows by the messages that arrived and shrinks by those indexed since the last look.
      const arrivedPerSecond = (Math.max(0, lag + this.indexedSinceLook - this.lastLag) * 1000) / elapsedMs;
      const rounds = this.options.roundsRecorded();
      const finishedPerSecond = ((rounds - this.lastRounds) * 1000) / elapsedMs;
      this.busy = arrivedPerSecond >= this.options.busyMessagesPerSecond || finishedPerSecond >= this.options.busyRoundsPerSecond;
      this.lastRounds = rounds;
      this.lastLag = lag;
      this.lastLookedAt = now;
      this.indexedSinceLook = 0;
    }
    if (this.busy || this.options.roundsInFlight() > this.options.busyRounds) return this.turns.later(this.options.intervalMs);
    if (this.options.engineWriting()) return this.turns.later(1);
    let more = lag > 0;
    while (more && performance.now() - now < this.options.sliceMs && !this.options.engineWriting()) {
      const n = this.options.index.indexNext(this.options.chunk);
      this.indexedSinceLook += n;
      more = n > 0;
    }
    if (lag > 0) this.merged = false;
    if (!more && !this.merged) {
      // Caught up: fewer, larger segments make every search cheaper.
      while (performance.now() - now < this.options.sliceMs && !this.options.engineWriting()) {
        if (!this.options.index.merge(100)) {
          this.merged = true;
          break;
        }
      }
    }
    // Still behind and quiet: go on as soon as the event loop has had its turn.
    this.workingNow = more || !this.merged;
    this.turns.later(this.workingNow ? 0 : this.options.intervalMs);
  }
}
