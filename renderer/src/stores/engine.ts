/** The engine's clock, forwarding switch and counters (the top bar). */
import { create } from 'zustand';
import type { ClockJump, ClockState, Overview } from '../../../main/contract/overview';
import { api } from '../api/instance';
import type { EngineEvent } from '../../../main/contract/events';
import type { TimeAction } from '../lib/timeSteps';

export type { TimeAction };

interface EngineState {
  clock: ClockState | null;
  overview: Overview | null;
  paused: boolean;
  /** The jump playing now (advanceClock), from getClock and clockJumpUpdated; null when none. */
  jump: ClockJump | null;
  /** The persisted **Fast-forward unanswered attempts** setting. */
  fastForward: boolean;
  /** The time action in progress: its button shows a spinner and the others wait (Cancel and Reset excepted). */
  busy: TimeAction | 'pause' | 'fast-forward' | null;
  refresh(): Promise<void>;
  advance(ms: number, action: TimeAction): Promise<void>;
  /** Advances to an engine time (a ghost marker's due time): nothing when it is not ahead. */
  advanceTo(at: number): Promise<void>;
  nextRetry(): Promise<void>;
  /** Interrupts the jump in progress where it got to. */
  cancel(): Promise<void>;
  /** Back to real time; interrupts a jump in progress. */
  reset(): Promise<void>;
  setFastForward(enabled: boolean): Promise<void>;
  setPaused(paused: boolean): Promise<void>;
  apply(events: EngineEvent[]): void;
}

/** Counters follow the engine's events within half a second: at once, then at most every OVERVIEW_EVERY_MS. */
export const OVERVIEW_EVERY_MS = 400;
let overviewTimer: ReturnType<typeof setTimeout> | null = null;
let overviewAgain = false;

/** Refreshes the counters now, unless one did within OVERVIEW_EVERY_MS: then once that has passed. */
function scheduleOverview(): void {
  if (overviewTimer) {
    overviewAgain = true;
    return;
  }
  void useEngine.getState().refresh();
  const quiet = () => {
    overviewTimer = null;
    if (!overviewAgain) return;
    overviewAgain = false;
    void useEngine.getState().refresh();
    overviewTimer = setTimeout(quiet, OVERVIEW_EVERY_MS);
  };
  overviewTimer = setTimeout(quiet, OVERVIEW_EVERY_MS);
}

export const useEngine = create<EngineState>((set, get) => {
  const timeTravel = async (action: TimeAction, run: () => Promise<{ ok: boolean; value?: ClockState }>) => {
    if (get().busy) return;
    set({ busy: action });
    try {
      const result = await run();
      if (result.ok && result.value) set({ clock: { now: result.value.now, offsetMs: result.value.offsetMs } });
    } finally {
      set({ busy: null });
      await get().refresh();
    }
  };
  /** Cancel and Reset answer at once, even while an advance is pending: they interrupt it. */
  const interrupt = async (action: 'cancel' | 'reset', run: () => Promise<{ ok: boolean; value?: ClockState }>) => {
    const before = get().busy;
    if (before === 'cancel' || before === 'reset') return;
    set({ busy: action });
    try {
      const result = await run();
      if (result.ok && result.value) set({ clock: { now: result.value.now, offsetMs: result.value.offsetMs }, jump: null });
    } finally {
      if (get().busy === action) set({ busy: null });
      await get().refresh();
    }
  };
  return {
    clock: null,
    overview: null,
    paused: false,
    jump: null,
    fastForward: false,
    busy: null,
    async refresh() {
      const [overview, clock] = await Promise.all([api().call('getOverview', {}, { quiet: true }), api().call('getClock', {}, { quiet: true })]);
      if (overview.ok) set({ overview: overview.value, clock: overview.value.clock, paused: overview.value.paused });
      if (clock.ok) set({ jump: clock.value.jump, fastForward: clock.value.fastForward, clock: { now: clock.value.now, offsetMs: clock.value.offsetMs } });
    },
    advance: (ms, action) => timeTravel(action, () => api().call('advanceClock', { ms })),
    advanceTo: async (at) => {
      const ms = Math.round(at - engineNow(get().clock));
      if (ms > 0) await timeTravel('to-retry', () => api().call('advanceClock', { ms }));
    },
    nextRetry: () => timeTravel('next', () => api().call('advanceToNextRetry', {})),
    cancel: () => interrupt('cancel', () => Promise.resolve(api().call('cancelClockAdvance', {}))),
    reset: () => interrupt('reset', () => api().call('resetClock', {})),
    async setFastForward(enabled) {
      const before = get().busy;
      if (before === null) set({ busy: 'fast-forward' });
      const result = await api().call('setFastForward', { enabled });
      if (result.ok) set({ fastForward: result.value.fastForward });
      if (get().busy === 'fast-forward') set({ busy: null });
    },
    async setPaused(paused) {
      set({ busy: 'pause' });
      const result = await api().call(paused ? 'pauseForwarding' : 'resumeForwarding', {});
      set({ busy: null, ...(result.ok ? { paused: result.value.paused } : {}) });
    },
    apply(events) {
      for (const event of events) {
        if (event.type === 'clockAdvanced') set({ clock: event.clock });
        else if (event.type === 'clockJumpUpdated') {
          // Times shown follow the jump as it moves the clock (clockAdvanced comes when it ends).
          const jump = event.jump;
          set(jump ? { jump, clock: { now: Date.now() + jump.reachedOffsetMs, offsetMs: jump.reachedOffsetMs } } : { jump });
        }
        else if (event.type === 'forwardingChanged') set({ paused: event.paused });
      }
      if (events.length) scheduleOverview();
    },
  };
});

/** Engine time for a real instant: real time plus the offset. */
export function engineNow(clock: ClockState | null, realNow: number = Date.now()): number {
  return realNow + (clock?.offsetMs ?? 0);
}
