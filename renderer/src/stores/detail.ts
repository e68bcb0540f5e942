/** The selected message's full detail (body, deliveries, attempts), fetched on demand and kept fresh. */
import { create } from 'zustand';
import type { MessageDetail } from '../../../main/contract/messages';
import { api } from '../api/instance';
import { firstReset, shiftDetail } from '../lib/clockShift';
import type { EngineEvent } from '../../../main/contract/events';

interface DetailState {
  id: number | null;
  detail: MessageDetail | null;
  loading: boolean;
  /** Set when the message cannot be shown (e.g. it no longer exists). */
  missing: string | null;
  open(id: number | null): void;
  reload(): Promise<void>;
  apply(events: EngineEvent[]): void;
}

/** Which message an event concerns, if any. */
export function messageOf(event: EngineEvent): number | null {
  switch (event.type) {
    case 'messageAccepted':
    case 'messageUpdated':
      return event.message.id;
    case 'attemptStarted':
      return event.messageId;
    case 'attemptFinished':
      return event.attempt.messageId;
    case 'deliveryUpdated':
      return event.delivery.messageId;
    default:
      return null;
  }
}

let generation = 0;

export const useDetail = create<DetailState>((set, get) => ({
  id: null,
  detail: null,
  loading: false,
  missing: null,
  open(id) {
    if (id === get().id) return;
    set({ id, detail: null, missing: null, loading: id !== null });
    if (id !== null) void get().reload();
  },
  async reload() {
    const id = get().id;
    if (id === null) return;
    const mine = ++generation;
    const result = await api().call('getMessage', { id }, { quiet: true });
    if (mine !== generation || get().id !== id) return;
    if (result.ok) set({ detail: result.value, loading: false, missing: null });
    else set({ loading: false, missing: result.error.message });
  },
  apply(events) {
    const id = get().id;
    if (id === null) return;
    // A reset moved the waiting deliveries' times on the server: moved here at once, then read to be sure.
    const reset = firstReset(events);
    if (reset) {
      const detail = get().detail;
      if (detail) set({ detail: shiftDetail(detail, reset.byMs) });
    }
    if (reset || events.some((e) => messageOf(e) === id)) void get().reload();
  },
}));
