/**
 * The mock receiver's captured requests, newest first (capped; the full history stays in SQLite), loaded
 * with listCaptures and kept up to date from `requestCaptured` events.
 */
import { create } from 'zustand';
import type { EngineEvent } from '../../../main/contract/events';
import type { CaptureRecord } from '../../../main/contract/receiver/receiver';
import { api } from '../api/instance';
import { plural } from '../lib/format';
import { useCatalog } from './catalog';

export const CAPTURES_CAP = 2000;
const PAGE = 300;

interface ReceiverState {
  captures: CaptureRecord[];
  loaded: boolean;
  /**
   * Whether older captures are kept than those loaded: of every endpoint (`all`), and of each endpoint loaded
   * by name. The list then shows the newest only, and its count says so.
   */
  older: { all: boolean; byReceiver: Record<string, boolean> };
  /** Loads the newest captures (of one endpoint too, when given: its history may be older than the rest). */
  load(receiver?: string | null): Promise<void>;
  apply(events: EngineEvent[]): void;
  clear(receiver: string | null): Promise<void>;
}

/** Whether a capture already says its client left before the answer (the one change a capture gets after it is announced). */
const closed = (c: CaptureRecord): boolean => c.step.clientClosedAfterMs != null;

/**
 * Newest first by id, without duplicates (`preferred` wins, but for a capture the other copy already knows was
 * left by its client: a page read before that close must not undo its update), at most `cap`.
 */
export function mergeCaptures(preferred: CaptureRecord[], others: CaptureRecord[], cap: number = CAPTURES_CAP): CaptureRecord[] {
  if (!preferred.length) return others.length > cap ? others.slice(0, cap) : others;
  const byId = new Map<number, CaptureRecord>();
  for (const c of preferred) if (!byId.has(c.id)) byId.set(c.id, c);
  for (const c of others) {
    const kept = byId.get(c.id);
    if (kept && closed(c) && !closed(kept)) byId.set(c.id, c);
  }
  const merged = [...byId.values()].concat(others.filter((c) => !byId.has(c.id))).sort((a, b) => b.id - a.id);
  return merged.length > cap ? merged.slice(0, cap) : merged;
}

/**
 * How many captures the list shows, said as what they are: all of them, or the newest when older ones are kept
 * than are loaded (or the list is at its cap): `308 requests`, `newest 300 requests`.
 */
export function capturesCount(shown: number, older: boolean): string {
  return older || shown >= CAPTURES_CAP ? `newest ${plural(shown, 'request')}` : plural(shown, 'request');
}

export const useReceiver = create<ReceiverState>((set) => ({
  captures: [],
  loaded: false,
  older: { all: false, byReceiver: {} },
  async load(receiver) {
    const [all, mine] = await Promise.all([
      api().call('listCaptures', { limit: PAGE }),
      receiver ? api().call('listCaptures', { receiver, limit: PAGE }) : Promise.resolve(null),
    ]);
    const fresh = [...(all.ok ? all.value.items : []), ...(mine?.ok ? mine.value.items : [])];
    set((s) => ({
      captures: mergeCaptures(fresh, s.captures),
      loaded: true,
      older: {
        all: all.ok ? all.value.nextCursor !== null : s.older.all,
        byReceiver: receiver && mine?.ok ? { ...s.older.byReceiver, [receiver]: mine.value.nextCursor !== null } : s.older.byReceiver,
      },
    }));
  },
  apply(events) {
    const fresh: CaptureRecord[] = [];
    const changed = new Map<number, CaptureRecord>();
    for (const e of events) {
      if (e.type === 'requestCaptured') fresh.push(e.capture);
      else if (e.type === 'captureUpdated') changed.set(e.capture.id, e.capture);
    }
    // A capture whose client left before the answer: replaced where it is listed, never added. Its update may
    // come in the same batch as the capture itself, so the captures are merged first and the updates applied after.
    if (fresh.length) set((s) => ({ captures: mergeCaptures(fresh, s.captures) }));
    if (changed.size) set((s) => ({ captures: s.captures.map((c) => changed.get(c.id) ?? c) }));
    if (!fresh.length) return;
    // Each answered request moves its endpoint's script on: "request n of the script" stays true.
    useCatalog.setState((c) => ({
      receivers: c.receivers.map((r) => {
        const latest = fresh.filter((f) => f.receiver === r.name && f.matched && f.step.request !== null).reduce((n, f) => Math.max(n, f.step.request ?? 0), 0);
        return latest > r.answered ? { ...r, answered: latest } : r;
      }),
    }));
  },
  async clear(receiver) {
    const result = await api().call('clearCaptures', receiver ? { receiver } : {});
    if (!result.ok) return;
    set((s) => ({
      captures: receiver ? s.captures.filter((c) => c.receiver !== receiver) : [],
      older: receiver ? { ...s.older, byReceiver: { ...s.older.byReceiver, [receiver]: false } } : { all: false, byReceiver: {} },
    }));
  },
}));
