import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { elementScroll, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { ArrowUp } from 'lucide-react';
import type { MessageSummary } from '../../../../main/contract/messages';
import { useNow } from '../../lib/useNow';
import { sameDay } from '../../lib/format';
import { sourceName, useCatalog } from '../../stores/catalog';
import type { Destination } from '../../../../main/contract/destinations';
import { engineNow as toEngineNow } from '../../stores/engine';
import type { Source } from '../../../../main/contract/sources';
import type { ClockState } from '../../../../main/contract/overview';
import { useRowHeight } from '../../stores/density';
import { COLUMNS, columnClass } from './columns';
import { MessageRow } from './MessageRow';

export interface MessageListProps {
  rows: MessageSummary[];
  sources: Source[];
  clock: ClockState | null;
  cursorId: number | null;
  openId: number | null;
  onRowClick(id: number): void;
  /** Key handling lives in the view (it also works when the pane has focus). */
  onKeyDown?(e: KeyboardEvent<HTMLDivElement>): void;
  gridRef?: React.Ref<HTMLDivElement>;
  /** The grid's accessible name (default "Messages"). */
  label?: string;
  /** A first column (History's checkboxes): its header cell and one cell per row. */
  lead?: { header: React.ReactNode; cell(message: MessageSummary): React.ReactNode };
  /** Called when the list is scrolled near its end (History loads the next page). */
  onEndReached?(): void;
  /** Shown under the last row (a "loading more" line). */
  footer?: React.ReactNode;
}

/** Whether the row at `index` was received in the same second as the row above or below it. */
export function sharesSecond(rows: readonly Pick<MessageSummary, 'receivedAt'>[], index: number): boolean {
  const second = Math.floor(rows[index]!.receivedAt / 1000);
  return (index > 0 && Math.floor(rows[index - 1]!.receivedAt / 1000) === second) || (index + 1 < rows.length && Math.floor(rows[index + 1]!.receivedAt / 1000) === second);
}

/**
 * The list's size as the virtualizer learns it: from a ResizeObserver alone, which reports it right after the
 * browser's own layout. The library's default also reads it at mount, which forces a layout of the whole page
 * before the rows are even rendered; until the first report the virtualizer assumes the window's size
 * (initialRect), so the first commit already has the rows that fill the screen. `sized` hears of each report.
 */
function observeRectAfterLayout(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void, sized: () => void): () => void {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return () => {};
  const observer = new ResizeObserver(() => {
    cb({ width: element.clientWidth, height: element.clientHeight });
    sized();
  });
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/** Scroll elements the virtualizer has written a position to. */
const written = new WeakSet<Element>();

/**
 * The library's scrolling, less its first write to a new list when that is to the top, where a new element is
 * already: that write, at mount, would force a layout of the whole page before the first paint.
 */
function scrollUnlessNew(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: Virtualizer<HTMLDivElement, Element>): void {
  const element = instance.scrollElement;
  if (element && !written.has(element)) {
    written.add(element);
    if (offset + (options.adjustments ?? 0) === 0) return;
  }
  elementScroll(offset, options, instance);
}

/** At least the list's size: a few rows too many until the first report, never a blank strip. */
const initialRect = (): Rect => (typeof window === 'undefined' ? { width: 0, height: 0 } : { width: window.innerWidth, height: window.innerHeight });

function startOfDay(at: number): number {
  const d = new Date(at);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * Keeps the reading position when rows arrive above it, and counts them for the pill. Whether the list is
 * scrolled down is remembered from scroll events: reading scrollTop here would force a synchronous layout of
 * the grid on every batch.
 */
function useReadingPosition(scrollRef: React.RefObject<HTMLDivElement | null>, rows: MessageSummary[], rowHeight: number) {
  const [newAbove, setNewAbove] = useState(0);
  const topId = useRef<number | null>(null);
  const scrolledDown = useRef(false);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const previous = topId.current;
    const first = rows[0]?.id ?? null;
    if (el && previous !== null && first !== previous && scrolledDown.current) {
      const added = rows.findIndex((r) => r.id === previous);
      if (added > 0) {
        el.scrollTop += added * rowHeight;
        setNewAbove((n) => n + added);
      }
    }
    topId.current = first;
  }, [rows]);

  const onScroll = useCallback(() => {
    scrolledDown.current = (scrollRef.current?.scrollTop ?? 0) > 0;
    if (!scrolledDown.current) setNewAbove(0);
  }, [scrollRef]);
  return { newAbove, onScroll };
}

/** The column headers, above the scrolling rows. */
function HeaderRow({ lead, wideTime }: { lead: React.ReactNode; wideTime: boolean }) {
  return (
    <div role="rowgroup" className="shrink-0 border-b border-line bg-panel-2">
      <div role="row" aria-rowindex={1} className="flex h-7 items-center gap-2 pr-3 @[680px]:gap-3 text-[11px] font-medium tracking-wide text-faint uppercase">
        <span aria-hidden className="w-[3px] shrink-0" />
        {lead !== undefined && <div role="columnheader" className="flex w-5 shrink-0 items-center">{lead}</div>}
        {COLUMNS.map((c) => (
          <div key={c.key} role="columnheader" className={`truncate ${columnClass(c, wideTime)}`}>
            {c.label}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * The virtualised grid. It follows the newest messages only while scrolled to the top; scrolled down,
 * new rows are added above without moving what the user is reading, and a pill offers to jump up.
 */
export function MessageList({ rows, sources, clock, cursorId, openId, onRowClick, onKeyDown, gridRef, label = 'Messages', lead, onEndReached, footer }: MessageListProps) {
  // Destinations that hold their deliveries (off, or without a webhook URL): a row waiting only on them says held.
  const heldDestinations = useCatalog((c) => heldIds(c.destinations));
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const now = toEngineNow(clock, useNow(1000));
  // Only a retry countdown changes every second; other rows depend on the day alone (a time from another day
  // shows its date), so the 1 s tick re-renders just the rows that count down.
  const today = startOfDay(now);
  // Rows are newest first: the first and the last say whether any listed message is from another day (a
  // message from a later day is listed after Reset offset undoes a jump).
  const wideTime = rows.length > 0 && (!sameDay(rows[0]!.receivedAt, today) || !sameDay(rows[rows.length - 1]!.receivedAt, today));
  const rowHeight = useRowHeight('live');
  const [firstRect] = useState(initialRect);
  // Rows beyond the screen are there to scroll into: none until the list's size is known, so the first commit
  // has only the rows the first frame shows.
  const [sized, setSized] = useState(false);
  const [observeRect] = useState(() => (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) => observeRectAfterLayout(instance, cb, () => setSized(true)));
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: sized ? 12 : 0,
    initialRect: firstRect,
    observeElementRect: observeRect,
    scrollToFn: scrollUnlessNew,
  });
  // A new density re-measures every row (not at mount: nothing is measured yet, and it would only render again).
  const measuredFor = useRef(rowHeight);
  useEffect(() => {
    if (measuredFor.current === rowHeight) return;
    measuredFor.current = rowHeight;
    virtualizer.measure();
  }, [rowHeight, virtualizer]);
  const { newAbove, onScroll } = useReadingPosition(scrollRef, rows, rowHeight);

  // Near the end (the last rendered row is within a screen of the last row), ask for more.
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (onEndReached && rows.length > 0 && lastIndex >= rows.length - 30) onEndReached();
  }, [onEndReached, lastIndex, rows.length]);

  // Keep the keyboard cursor in view.
  const cursorIndex = cursorId === null ? -1 : rows.findIndex((r) => r.id === cursorId);
  useEffect(() => {
    if (cursorIndex >= 0) virtualizer.scrollToIndex(cursorIndex, { align: 'auto' });
  }, [cursorIndex, virtualizer]);

  return (
    <div className="@container relative flex min-h-0 flex-1 flex-col">
      <div
        ref={gridRef}
        role="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-activedescendant={cursorIndex >= 0 ? `message-row-${cursorId}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        className="flex min-h-0 flex-1 flex-col focus-visible:outline-none"
      >
        <HeaderRow lead={lead?.header} wideTime={wideTime} />
        <div ref={scrollRef} role="rowgroup" onScroll={onScroll} className="relative min-h-0 flex-1 overflow-y-auto">
          <div style={{ height: virtualizer.getTotalSize() }} className="relative w-full">
            {items.map((item) => {
              const m = rows[item.index]!;
              return (
                // Keyed by position, not by message: when a burst puts new messages on top, the rows on
                // screen are updated in place instead of every one being unmounted and another mounted.
                <MessageRow
                  key={item.index}
                  message={m}
                  index={item.index}
                  top={item.start}
                  active={m.id === cursorId}
                  open={m.id === openId}
                  engineNow={m.status === 'retrying' && m.nextAttemptAt !== null ? now : today}
                  sourceName={sourceName(sources, m.sourceId)}
                  onClick={onRowClick}
                  lead={lead?.cell(m)}
                  showMs={sharesSecond(rows, item.index)}
                  wideTime={wideTime}
                  held={heldBy(m, heldDestinations)}
                />
              );
            })}
          </div>
          {footer}
        </div>
      </div>
      {newAbove > 0 && (
        <button
          type="button"
          onClick={() => scrollRef.current?.scrollTo({ top: 0 })}
          className="absolute top-9 left-1/2 flex -translate-x-1/2 items-center gap-1 rounded-full bg-accent px-3 py-1 text-xs font-medium text-accent-fg shadow-pop"
        >
          <ArrowUp aria-hidden className="size-3.5" />
          {newAbove} new {newAbove === 1 ? 'message' : 'messages'}
        </button>
      )}
    </div>
  );
}

/** The ids of the destinations that hold their deliveries (off, or without a webhook URL), as one string a selector can compare. */
function heldIds(destinations: readonly Destination[]): string {
  return destinations
    .filter((d) => !d.enabled || d.webhooks.length === 0)
    .map((d) => d.id)
    .join(' ');
}

/** Whether every delivery the message still waits on goes to a destination that holds it. */
function heldBy(m: MessageSummary, held: string): boolean {
  if (held === '' || (m.status !== 'queued' && m.status !== 'retrying')) return false;
  const waiting = m.deliveries.filter((d) => d.status === 'queued' || d.status === 'retrying');
  return waiting.length > 0 && waiting.every((d) => held.split(' ').includes(d.destinationId));
}
