/**
 * The Live list: the newest messages (capped; the full history stays in SQLite), kept up to date from
 * event batches. Bodies are not kept here: the detail pane fetches one message at a time.
 */
import { create } from 'zustand';
import type { MessageType } from '../../../main/contract/message/messageShapes';
import type { DeliveryStatus } from '../../../main/contract/deliveries';
import type { MessageStatus, MessageSummary } from '../../../main/contract/messages';
import { hasDelivery } from '../../../main/contract/message/messageSummary';
import { parseStatusChoice } from '../lib/statusFilter';
import { firstReset, shiftRows, shiftSummary } from '../lib/clockShift';
import { api } from '../api/instance';
import { LIVE_FIRST_PAGE } from '../api/firstRequests';
import type { CommandInput } from '../../../main/contract/api';
import type { EngineEvent } from '../../../main/contract/events';

/**
 * Live holds the newest 500 messages, whether they were loaded or pushed since (docs/ui.md says so, and the
 * count reads "newest 500 of N"): a long session shows what a reload would, and History has the rest.
 */
export const LIVE_CAP = 500;

export interface LiveFilter {
  /** A message status, or `delivery:failed`: any of its deliveries failed (lib/statusFilter.ts). */
  status: MessageStatus | 'all' | `delivery:${DeliveryStatus}`;
  type: MessageType | 'all';
}

interface LiveState {
  rows: MessageSummary[];
  loaded: boolean;
  streamPaused: boolean;
  /** Messages that arrived while the stream was paused, newest first. */
  held: MessageSummary[];
  filter: LiveFilter;
  /**
   * A screenful first (LIVE_FIRST_PAGE rows, shown at once), the rest of the list once that is painted; the
   * promise settles when the whole list is in. `resync`: after missed events the server's answer wins over
   * what this window holds, in one page. `newest`: the first page again, whose answer wins for its rows, and
   * a load on its way (the rest of the list) goes on: what the first page held may have missed events.
   */
  load(options?: { resync?: boolean; newest?: boolean }): Promise<void>;
  apply(events: EngineEvent[]): void;
  setStreamPaused(paused: boolean): void;
  setFilter(patch: Partial<LiveFilter>): void;
  /**
   * Adds a message this window just made (Compose's send, a Replay) from the command's answer, even while
   * paused. The answer is the message's first state: a row its events already brought is as new or newer
   * (its rounds, its attempts) and stays.
   */
  addNew(message: MessageSummary): void;
}

/** Newest first (ids grow with arrival), without duplicates (`preferred` wins), at most `cap`. */
export function mergeNewest(preferred: MessageSummary[], others: MessageSummary[], cap: number = LIVE_CAP): MessageSummary[] {
  if (!preferred.length) return others.length > cap ? others.slice(0, cap) : others;
  const byId = new Map<number, MessageSummary>();
  for (const m of preferred) byId.set(m.id, m);
  const fresh = [...byId.values()].sort((a, b) => b.id - a.id);
  const rest = others.filter((m) => !byId.has(m.id));
  // The common case, new messages on top, needs no sort of the whole list.
  const out = !rest.length || fresh[fresh.length - 1]!.id > rest[0]!.id ? fresh.concat(rest) : fresh.concat(rest).sort((a, b) => b.id - a.id);
  return out.length > cap ? out.slice(0, cap) : out;
}

/** Replaces rows by id where an update arrived; returns the same array when nothing changed. */
export function applyUpdates(rows: MessageSummary[], updates: Map<number, MessageSummary>): MessageSummary[] {
  if (updates.size === 0) return rows;
  let changed = false;
  const out = rows.map((row) => {
    const update = updates.get(row.id);
    if (!update) return row;
    changed = true;
    return update;
  });
  return changed ? out : rows;
}

/**
 * A message with an attempt in flight to these destinations: the row says `delivering` (any delivery in flight
 * makes the message's status delivering) and so do those destinations' chips, until its next update.
 */
export function withInFlight(row: MessageSummary, started: ReadonlyMap<number, ReadonlySet<string>>): MessageSummary {
  const destinations = started.get(row.id);
  if (!destinations) return row;
  return {
    ...row,
    status: 'delivering',
    deliveries: row.deliveries.map((d) => (destinations.has(d.destinationId) ? { ...d, status: 'delivering', nextAttemptAt: null } : d)),
  };
}

/** Rows (newest first, so found by binary search) with attempts started; the same array when none is listed. */
export function markInFlight(rows: MessageSummary[], started: ReadonlyMap<number, ReadonlySet<string>>): MessageSummary[] {
  let out = rows;
  for (const id of started.keys()) {
    let lo = 0;
    let hi = rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = rows[mid]!.id;
      if (at === id) {
        if (out === rows) out = rows.slice();
        out[mid] = withInFlight(rows[mid]!, started);
        break;
      }
      if (at > id) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  return out;
}

/**
 * Summaries pushed while a load is on its way: the page was read before them, so they win over its rows (a
 * resync answered after a jump's last events must not put its rows back to `delivering`).
 */
const pushedDuringLoads = new Set<Map<number, MessageSummary>>();

/** One page of listMessages, with the summaries pushed while it was on its way. */
async function readPage(input: NonNullable<CommandInput<'listMessages'>>) {
  const pushed = new Map<number, MessageSummary>();
  pushedDuringLoads.add(pushed);
  try {
    return { result: await api().call('listMessages', input), pushed: [...pushed.values()] };
  } finally {
    pushedDuringLoads.delete(pushed);
  }
}

let markRowsShown: () => void = () => {};
/** Settles once the Live view has committed rows (liveRowsShown), and stays settled. */
const rowsShown = new Promise<void>((resolve) => (markRowsShown = resolve));

/** The Live view says it has put its first rows on screen: what waits for their paint may follow. */
export function liveRowsShown(): void {
  markRowsShown();
}

/**
 * Resolves once the frame showing the rows just set has been painted: after the Live view committed them (a
 * frame before that commit paints nothing of theirs) and one frame more. Soon anyway where no such frame
 * comes: another screen open, a hidden tab, tests.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return void setTimeout(resolve, 0);
    const late = setTimeout(resolve, 500);
    void rowsShown.then(() =>
      requestAnimationFrame(() =>
        setTimeout(() => {
          clearTimeout(late);
          resolve();
        }, 0),
      ),
    );
  });
}

/** The latest load: an older one's second page is dropped. */
let loadGeneration = 0;

export const useLive = create<LiveState>((set, get) => ({
  rows: [],
  loaded: false,
  streamPaused: false,
  held: [],
  filter: { status: 'all', type: 'all' },
  async load(options) {
    const resync = options?.resync === true;
    const newest = options?.newest === true;
    const mine = newest ? loadGeneration : ++loadGeneration;
    const { result, pushed } = await readPage({ limit: resync ? LIVE_CAP : LIVE_FIRST_PAGE });
    if (!result.ok) return set({ loaded: true });
    // On a first load, messages that arrived by event while the page loaded are newer than the page; on a
    // resync the server's page wins over what this window held. Either way, what was pushed after it was read wins.
    const serverWins = resync || newest;
    set((s) => ({ rows: mergeNewest(pushed, serverWins ? mergeNewest(result.value.items, s.rows) : mergeNewest(s.rows, result.value.items)), loaded: true }));
    const cursor = result.value.nextCursor;
    const rest = LIVE_CAP - result.value.items.length;
    if (serverWins || cursor === null || rest <= 0) return;
    await afterPaint();
    if (mine !== loadGeneration) return;
    const tail = await readPage({ cursor, limit: rest });
    if (mine !== loadGeneration || !tail.result.ok) return;
    // Older messages than the first page's: the server's answer wins over what this window held of them.
    const older = tail.result.value.items;
    set((s) => ({ rows: mergeNewest(tail.pushed, mergeNewest(older, s.rows)) }));
  },
  apply(events) {
    // Events before a reset carry times from before it, those after it times already moved back.
    const reset = firstReset(events);
    if (reset) {
      get().apply(events.slice(0, reset.index));
      for (const pushed of pushedDuringLoads) for (const [id, m] of pushed) pushed.set(id, shiftSummary(m, reset.byMs));
      set((s) => ({ rows: shiftRows(s.rows, reset.byMs), held: shiftRows(s.held, reset.byMs) }));
      return get().apply(events.slice(reset.index + 1));
    }
    const accepted: MessageSummary[] = [];
    const updates = new Map<number, MessageSummary>();
    // Attempts started since a message's last update: the engine announces the start, not a new summary.
    const started = new Map<number, Set<string>>();
    for (const event of events) {
      if (event.type === 'messageAccepted') accepted.push(event.message);
      else if (event.type === 'messageUpdated') {
        updates.set(event.message.id, event.message);
        for (const pushed of pushedDuringLoads) pushed.set(event.message.id, event.message);
        started.delete(event.message.id);
      } else if (event.type === 'attemptStarted') {
        const destinations = started.get(event.messageId) ?? new Set<string>();
        started.set(event.messageId, destinations.add(event.destinationId));
      }
    }
    if (!accepted.length && !updates.size && !started.size) return;
    const { streamPaused } = get();
    set((s) => {
      // An update may concern a message accepted in the same batch.
      const fresh = accepted.map((m) => updates.get(m.id) ?? m);
      const rows = markInFlight(applyUpdates(s.rows, updates), started);
      if (streamPaused) return { held: mergeNewest(fresh.map((m) => withInFlight(m, started)), markInFlight(applyUpdates(s.held, updates), started)), rows };
      return { rows: mergeNewest(fresh.map((m) => withInFlight(m, started)), rows) };
    });
  },
  setStreamPaused(paused) {
    if (paused) return set({ streamPaused: true });
    set((s) => ({ streamPaused: false, rows: mergeNewest(s.held, s.rows), held: [] }));
  },
  setFilter(patch) {
    set((s) => ({ filter: { ...s.filter, ...patch } }));
  },
  addNew(message) {
    if (get().rows.some((r) => r.id === message.id)) return;
    set((s) => ({ rows: mergeNewest([message], s.rows) }));
  },
}));

export function matchesFilter(row: MessageSummary, filter: LiveFilter): boolean {
  return matchesStatus(row, filter.status) && (filter.type === 'all' || row.type === filter.type);
}

function matchesStatus(row: MessageSummary, status: LiveFilter['status']): boolean {
  if (status === 'all') return true;
  const choice = parseStatusChoice(status);
  if (choice?.delivery) return hasDelivery(row, choice.delivery);
  return row.status === status;
}
