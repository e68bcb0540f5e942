/**
 * History's list: pages of listMessages for one filter (cursor paging, newest first), loaded as the list
 * scrolls; the selection (checkboxes, shift-click ranges); updates of the rows already loaded from pushed
 * events. New messages are counted, not inserted (whether they match a body-text filter is the server's
 * to say): a Refresh brings them in. A body-text search over messages not indexed yet comes back in short
 * pages (`searching`); the next ones are asked for at once until the first screenful is filled.
 */
import { create } from 'zustand';
import type { EngineEvent } from '../../../../main/contract/events';
import type { MessageSummary } from '../../../../main/contract/messages';
import type { ApiError } from '../../../../main/contract/result';
import type { ApiClient } from '../../api/client';
import { api } from '../../api/instance';
import { onReadAgain } from '../../api/readAgain';
import { firstReset, shiftRows } from '../../lib/clockShift';
import { filterKey, HISTORY_PAGE, type HistoryFilter } from '../../lib/historyQuery';

export { HISTORY_PAGE };

interface HistoryState {
  key: string | null;
  filter: HistoryFilter;
  rows: MessageSummary[];
  nextCursor: string | null;
  /** The last page stopped early: about `left` messages not indexed yet are still to search. */
  searching: { left: number } | null;
  loading: boolean;
  /** The first page has answered for this filter. */
  loaded: boolean;
  error: ApiError | null;
  /** Messages accepted since the list was loaded that may match the filter (mayMatch: none that cannot is counted). */
  arrived: number;
  selected: ReadonlySet<number>;
  /** The last row clicked without shift: the other end of a shift-click range. */
  anchor: number | null;
  show(filter: HistoryFilter, options?: { force?: boolean }): void;
  loadMore(): Promise<void>;
  apply(events: EngineEvent[]): void;
  /**
   * Reads the first page again and updates the rows it holds (statuses that changed while events were missed);
   * the rest stays as loaded, and a row that no longer matches the filter keeps what it said until a Refresh.
   */
  refreshShown(): Promise<void>;
  toggle(id: number, range: boolean): void;
  selectAll(): void;
  clearSelection(): void;
}

let generation = 0;

/**
 * The list follows the engine's events from its first show on, not only while History is on screen: rows
 * loaded before a visit to Live must say what the detail pane says when History is shown again.
 */
let following: { client: ApiClient; off: () => void } | null = null;
function follow(): void {
  const client = api();
  if (following?.client === client) return;
  following?.off();
  following = { client, off: client.subscribe((batch) => useHistory.getState().apply(batch.events)) };
}

/** Ids from the anchor to `id` (either way round) in list order; `id` alone when the anchor is not loaded. */
export function rangeOf(rows: readonly Pick<MessageSummary, 'id'>[], anchor: number | null, id: number): number[] {
  const to = rows.findIndex((r) => r.id === id);
  const from = anchor === null ? -1 : rows.findIndex((r) => r.id === anchor);
  if (to < 0) return [];
  if (from < 0) return [id];
  const [a, b] = from < to ? [from, to] : [to, from];
  return rows.slice(a, b + 1).map((r) => r.id);
}

/** A search still going over unindexed messages goes on by itself until the first screenful is filled. */
function keepSearching(): void {
  const { searching, nextCursor, rows, loadMore } = useHistory.getState();
  if (searching && nextCursor && rows.length < HISTORY_PAGE) void loadMore();
}

export const useHistory = create<HistoryState>((set, get) => ({
  key: null,
  filter: {},
  rows: [],
  nextCursor: null,
  searching: null,
  loading: false,
  loaded: false,
  error: null,
  arrived: 0,
  selected: new Set(),
  anchor: null,
  show(filter, options) {
    const key = filterKey(filter);
    follow();
    if (key === get().key && !options?.force) return;
    const mine = ++generation;
    const sameFilter = key === get().key;
    set({ key, filter, loading: true, error: null, arrived: 0, ...(sameFilter ? {} : { rows: [], nextCursor: null, searching: null, loaded: false, selected: new Set(), anchor: null }) });
    void api()
      .call('listMessages', { ...filter, limit: HISTORY_PAGE }, { quiet: true })
      .then((result) => {
        if (mine !== generation) return;
        if (!result.ok) return set({ loading: false, loaded: true, error: result.error, rows: [], nextCursor: null, searching: null });
        // A refresh keeps what is still loaded selected.
        const ids = new Set(result.value.items.map((m) => m.id));
        set((s) => ({
          rows: result.value.items,
          nextCursor: result.value.nextCursor,
          searching: result.value.searching ?? null,
          loading: false,
          loaded: true,
          selected: sameFilter ? new Set([...s.selected].filter((id) => ids.has(id))) : s.selected,
        }));
        keepSearching();
      });
  },
  async loadMore() {
    const { nextCursor, loading, filter } = get();
    if (!nextCursor || loading) return;
    const mine = generation;
    set({ loading: true });
    const result = await api().call('listMessages', { ...filter, cursor: nextCursor, limit: HISTORY_PAGE }, { quiet: true });
    if (mine !== generation) return;
    if (!result.ok) return set({ loading: false, error: result.error });
    set((s) => ({ rows: s.rows.concat(result.value.items), nextCursor: result.value.nextCursor, searching: result.value.searching ?? null, loading: false }));
    keepSearching();
  },
  async refreshShown() {
    const { key, filter } = get();
    if (key === null) return;
    const mine = generation;
    const result = await api().call('listMessages', { ...filter, limit: HISTORY_PAGE }, { quiet: true });
    if (mine !== generation || !result.ok) return;
    const fresh = new Map(result.value.items.map((m) => [m.id, m]));
    set((s) => ({ rows: s.rows.map((r) => fresh.get(r.id) ?? r) }));
  },
  apply(events) {
    // Events before a reset carry times from before it, those after it times already moved back.
    const reset = firstReset(events);
    if (reset) {
      get().apply(events.slice(0, reset.index));
      set((s) => ({ rows: shiftRows(s.rows, reset.byMs) }));
      return get().apply(events.slice(reset.index + 1));
    }
    const updates = new Map<number, MessageSummary>();
    let arrived = 0;
    // Ids are given in order: a message up to the newest loaded row was stored before the list was read, so
    // it is in it when it matches (an import's messages, whose events come after the list read them again).
    const newest = get().rows[0]?.id ?? 0;
    let removed = false;
    for (const e of events) {
      if (e.type === 'messageUpdated') updates.set(e.message.id, e.message);
      else if (e.type === 'messageAccepted' && e.message.id > newest && mayMatch(e.message, get().filter)) arrived++;
      else if (e.type === 'messagesRemoved') removed = true;
    }
    // Retention removed old messages: rows may be gone, so the list is read again (as a Refresh).
    if (removed && get().key !== null) return get().show(get().filter, { force: true });
    if (!updates.size && !arrived) return;
    set((s) => {
      let changed = false;
      const rows = updates.size
        ? s.rows.map((r) => {
            const u = updates.get(r.id);
            if (!u) return r;
            changed = true;
            return u;
          })
        : s.rows;
      return { rows: changed ? rows : s.rows, arrived: s.arrived + arrived };
    });
  },
  toggle(id, range) {
    set((s) => {
      const selected = new Set(s.selected);
      if (range && s.anchor !== null) {
        // A range takes the state of the anchor's row: shift-click selects (or clears) everything between.
        const on = s.selected.has(s.anchor);
        for (const r of rangeOf(s.rows, s.anchor, id)) {
          if (on) selected.add(r);
          else selected.delete(r);
        }
        return { selected };
      }
      if (selected.has(id)) selected.delete(id);
      else selected.add(id);
      return { selected, anchor: id };
    });
  },
  selectAll() {
    set((s) => ({ selected: new Set(s.rows.map((r) => r.id)) }));
  },
  clearSelection() {
    set({ selected: new Set(), anchor: null });
  },
}));

// After missed events (a reconnect, the catch-up after the first open) the newest rows are read again: a row's
// status could otherwise stay what it was before them. The list keeps its place (a Refresh starts it over).
onReadAgain(() => void useHistory.getState().refreshShown());

/**
 * Whether a message just accepted may match the filter: false when what it will always be (its type, source,
 * user, event, time of receipt, destinations, or a check run's) rules it out. Its status, deliveries and body are
 * the server's to judge (surelyMatches says when none of those is asked).
 */
export function mayMatch(m: MessageSummary, f: HistoryFilter): boolean {
  if (f.type !== undefined && m.type !== f.type) return false;
  if (f.sourceId !== undefined && m.sourceId !== f.sourceId) return false;
  if (f.destinationId !== undefined && !m.destinationIds.includes(f.destinationId)) return false;
  if (f.userId !== undefined && m.userId !== f.userId && m.anonymousId !== f.userId) return false;
  if (f.event !== undefined && m.event !== f.event) return false;
  if (f.from !== undefined && m.receivedAt < f.from) return false;
  if (f.to !== undefined && m.receivedAt > f.to) return false;
  return (m.origin ?? null) === (f.origin ?? null);
}

/** Whether every message mayMatch lets through does match: the filter asks nothing of statuses, deliveries or bodies. */
export function surelyMatches(f: HistoryFilter): boolean {
  return f.status === undefined && f.delivery === undefined && f.failedSince === undefined && f.text === undefined;
}
