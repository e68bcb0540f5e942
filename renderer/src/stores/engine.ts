/** The engine's clock, forwarding switch and counters (the top bar). */
import { create } from 'zustand';
import type { ClockState } from '../../../main/contract/models';
import { api } from '../api/instance';
import type { EngineEvent } from '../../../main/contract/events';
import type { Overview } from '../../../main/contract/models';

export type TimeAction = '+5s' | '+1min' | '+1h' | '+4h' | 'next' | 'reset';

interface EngineState {
  clock: ClockState | null;
  overview: Overview | null;
  paused: boolean;
  /** The time action in progress: its button shows a spinner and the others wait. */
  busy: TimeAction | 'pause' | null;
  refresh(): Promise<void>;
  advance(ms: number, action: TimeAction): Promise<void>;
  nextRetry(): Promise<void>;
  reset(): Promise<void>;
  setPaused(paused: boolean): Promise<void>;
  apply(events: EngineEvent[]): void;
}

const OVERVIEW_EVERY_MS = 1000;
let overviewTimer: ReturnType<typeof setTimeout> | null = null;

/** Counters are refreshed at most once a second however many events arrive. */
function scheduleOverview(): void {
  if (overviewTimer) return;
  overviewTimer = setTimeout(() => {
    overviewTimer = null;
    void useEngine.getState().refresh();
  }, OVERVIEW_EVERY_MS);
}

export const useEngine = create<EngineState>((set, get) => {
  const timeTravel = async (action: TimeAction, run: () => Promise<{ ok: boolean; value?: ClockState }>) => {
    if (get().busy) return;
    set({ busy: action });
    try {
      const result = await run();
      if (result.ok && result.value) set({ clock: result.value });
    } finally {
      set({ busy: null });
      await get().refresh();
    }
  };
  return {
    clock: null,
    overview: null,
    paused: false,
    busy: null,
    async refresh() {
      const result = await api().call('getOverview', {}, { quiet: true });
      if (result.ok) set({ overview: result.value, clock: result.value.clock, paused: result.value.paused });
    },
    advance: (ms, action) => timeTravel(action, () => api().call('advanceClock', { ms })),
    nextRetry: () => timeTravel('next', () => api().call('advanceToNextRetry', {})),
    reset: () => timeTravel('reset', () => api().call('resetClock', {})),
    async setPaused(paused) {
      set({ busy: 'pause' });
      const result = await api().call(paused ? 'pauseForwarding' : 'resumeForwarding', {});
      set({ busy: null, ...(result.ok ? { paused: result.value.paused } : {}) });
    },
    apply(events) {
      for (const event of events) {
        if (event.type === 'clockAdvanced') set({ clock: event.clock });
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
