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
