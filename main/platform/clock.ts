/**
 * Engine time = real time + an offset (docs/behaviour.md §5). The engine reads time only through a Clock.
 * Network waits are real time; timestamps, due times and the retry window are engine time.
 */
export interface Clock {
  /** Engine time, ms since the epoch. */
  now(): number;
  /** Real time, ms since the epoch (for Retry-After dates and network waits). */
  realNow(): number;
  offsetMs(): number;
  /** Moves the offset forward; it never goes back (see resetOffset). */
  setOffset(ms: number): void;
  /** Back to real time: offset 0 (resetClock; docs/behaviour.md §5). */
  resetOffset(): void;
}

export function createClock(options: { offsetMs?: number; realNow?: () => number } = {}): Clock {
  const realNow = options.realNow ?? Date.now;
  let offset = options.offsetMs ?? 0;
  return {
    now: () => realNow() + offset,
    realNow,
    offsetMs: () => offset,
    setOffset(ms) {
      if (ms > offset) offset = ms;
    },
    resetOffset() {
      offset = 0;
    },
  };
}

/**
 * Monotonic time for pacing, in ms from any origin, with its timer: the engine's tick spacing and in-flight
 * window (engine.ts) read it. Real by default; a test passes its own so that the engine's decisions do not
 * depend on how busy the machine is.
 */
export interface MonotonicTime {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realMonotonicTime: MonotonicTime = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
