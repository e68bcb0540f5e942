import type { CpuByThread } from './threads.js';

/** What each contender's run hands back to the harness (bench/run.ts) before it adds RSS, CPU and receiver counters. */
export interface ContenderOutput {
  /** Deliveries completed (and, where the contender persists, verified in its database). */
  deliveries: number;
  /** Wall time from the first send to the last delivery completed (and committed), ms. */
  elapsedMs: number;
  /** The headline latency per delivery, ms (what it measures is in `latencyMeaning`). */
  latencyMs: Float64Array;
  latencyMeaning: string;
  /** The HTTP request alone, ms, where that differs from the headline latency. */
  requestMs?: Float64Array;
  /** Configuration facts worth recording (concurrency, chunk size, pragmas). */
  details: Record<string, number | string>;
  /** What the engine contenders verified and measured besides the totals. */
  engine?: EngineFacts;
}

export interface EngineFacts {
  mode: 'live' | 'drain';
  /** Time spent in core.sendMessage for all messages (in `live`, interleaved with deliveries). */
  acceptPhaseMs: number;
  acceptedPerSecond: number;
  messagesDelivered: number;
  attemptRows: number;
  successfulAttempts: number;
  /** Times core.idle() resolved while deliveries were still waiting (see drain() in bench/engine.ts). */
  extraIdleWaits: number;
  /** The measured part's CPU per delivery (µs) by thread, from /proc (Linux; null elsewhere). */
  cpuByThread: CpuByThread | null;
}

/** What the harness gives a contender's run. */
export interface ContenderRun {
  /** Messages a contender that warms up in place (the engine, in its own core) sends before it is measured. */
  warmUp: number;
  /**
   * Called once, right before the measured part: the harness resets the receiver's counters and starts its
   * CPU and RSS measurement here, so a warm-up done in place is not counted.
   */
  ready(): Promise<void>;
  /**
   * Called once, right after the measured part (the engine: its last result logged): the harness's CPU
   * measurement ends here, so what the contender does afterwards (its own checks of what it stored, closing
   * its core) is not counted as deliveries' CPU. A contender that does not call it is measured until it returns.
   */
  measured(): void;
}
