import { useCallback, useEffect, useMemo, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { Filter, History as HistoryIcon, LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import { useCatalog } from '../../stores/catalog';
import { useEngine } from '../../stores/engine';
import { useRouter } from '../../stores/router';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import type { ApiError } from '../../../../main/contract/result';
import { LazyDetailPane } from '../detail/LazyDetailPane';
import { ListAndPane, type PanelSizes } from '../detail/ListAndPane';
import { LIST_KEY_OPTIONS, useListKeys } from '../live/useListKeys';
import { MessageList } from '../live/MessageList';
import { HistoryActions } from './HistoryActions';
import { HistoryFilters } from './HistoryFilters';
import { filterQueryOf, isEmptyFilter, parseFilterQuery, type FilterQuery } from '../../lib/historyQuery';
import { surelyMatches, useHistory } from './historyStore';
import { RetentionBar } from './RetentionBar';
import { formatCount } from '../../lib/format';

const SIZES: PanelSizes = { listId: 'history-list', listMinSize: '45%', paneId: 'history-detail', paneDefaultSize: '45%', paneMinSize: '30%' };

/**
 * History: every stored message, searched and filtered by the server (listMessages, cursor pages loaded as
 * the list scrolls); the filter lives in the hash (`#/history?status=failed&userId=ada`), a message opens in
 * the detail pane beside the list (`#/history/42?...`).
 */
export function HistoryView() {
  const route = useRouter((s) => s.route);
  const navigate = useRouter((s) => s.navigate);
  const query = useMemo(() => filterQueryOf(route.query), [route.query]);
  const parsed = useMemo(() => parseFilterQuery(route.query), [route.query]);
  const { rows, loaded, loading, error, nextCursor, searching, selected, arrived, show, loadMore, toggle } = useHistory();
  const sources = useCatalog((s) => s.sources);
  const clock = useEngine((s) => s.clock);
  const [refreshKey, setRefreshKey] = useState(0);
  const { openId, cursorId, close, onRowClick, gridRef } = useListKeys(rows);

  // The store follows the engine's events from here on (rows' statuses; new messages counted for a Refresh).
  useEffect(() => show(parsed.filter), [parsed.filter, show]);

  const setQuery = useCallback(
    (patch: FilterQuery, options?: { replace?: boolean }) => {
      const next: Record<string, string> = { ...useRouter.getState().route.query, ...patch };
      for (const [k, v] of Object.entries(next)) if (!v) delete next[k];
      navigate({ query: next }, options);
    },
    [navigate],
  );
  const applySaved = useCallback((saved: FilterQuery) => navigate({ query: { ...saved }, messageId: null }), [navigate]);
  const refresh = () => {
    show(parsed.filter, { force: true });
    setRefreshKey((k) => k + 1);
  };

  useHotkeys('x', () => cursorId !== null && toggle(cursorId, false), LIST_KEY_OPTIONS, [cursorId]);

  const lead = useSelectionLead(selected, toggle);
  const onEndReached = useCallback(() => void loadMore(), [loadMore]);

  const body =
    loaded && rows.length > 0 ? (
      <MessageList
        label="Messages"
        rows={rows}
        sources={sources}
        clock={clock}
        cursorId={cursorId}
        openId={openId}
        onRowClick={onRowClick}
        gridRef={gridRef}
        lead={lead}
        onEndReached={nextCursor ? onEndReached : undefined}
        footer={<ListFooter searching={searching} loading={loading} more={Boolean(nextCursor)} error={error} count={rows.length} />}
      />
    ) : (
      <NoRows
        error={rows.length === 0 ? error : null}
        loaded={loaded}
        searching={searching}
        filtered={!isEmptyFilter(parsed.filter)}
        onRetry={refresh}
        onCompose={() => navigate({ view: 'compose' })}
        onShowAll={() => setQuery(Object.fromEntries(Object.keys(query).map((k) => [k, ''])))}
      />
    );

  return (
    <ListAndPane
      sizes={SIZES}
      list={
        <>
          <HistoryFilters query={query} parsed={parsed} onChange={setQuery} />
          <HistoryActions filter={parsed.filter} query={query} onApplyQuery={applySaved} />
          {arrived > 0 && (
            <div className="flex h-8 shrink-0 items-center gap-2 border-b border-line bg-info-soft px-3 text-xs text-info">
              {formatCount(arrived)} new {arrived === 1 ? 'message has' : 'messages have'} arrived since this list was loaded
              {surelyMatches(parsed.filter) ? '.' : `; ${arrived === 1 ? 'it' : 'they'} may not match these filters.`}
              <Button variant="ghost" icon={<RefreshCw aria-hidden className="size-3.5" />} onClick={refresh}>
                Refresh
              </Button>
            </div>
          )}
          <div className="flex min-h-0 flex-1 flex-col">{body}</div>
          <RetentionBar refreshKey={refreshKey} />
        </>
      }
      pane={openId !== null ? <LazyDetailPane onClose={close} /> : null}
    />
  );
}

/** The list's first column: a box per row, and one in the header that selects every loaded row. */
function useSelectionLead(selected: ReadonlySet<number>, toggle: (id: number, range: boolean) => void) {
  return useMemo(
    () => ({
      header: <SelectAllBox />,
      cell: (m: { id: number }) => (
        <input
          type="checkbox"
          aria-label={`Select message #${m.id}`}
          checked={selected.has(m.id)}
          onClick={(e) => {
            e.stopPropagation();
            toggle(m.id, e.shiftKey);
          }}
          onChange={() => undefined}
          className="size-3.5 accent-[var(--accent)]"
        />
      ),
    }),
    [selected, toggle],
  );
}

/** The list's place when it has no rows: the read failed, a search is still going, nothing is stored or matches, or it is loading. */
function NoRows({ error, loaded, searching, filtered, onRetry, onCompose, onShowAll }: {
  error: ApiError | null;
  loaded: boolean;
  searching: { left: number } | null;
  filtered: boolean;
  onRetry(): void;
  onCompose(): void;
  onShowAll(): void;
}) {
  if (error) {
    // A token the server no longer takes: the banner above says what to do, and trying again cannot help.
    if (error.code === 'unauthorized') {
      return (
        <EmptyState icon={<TriangleAlert />} title="The history could not be read">
          This window's API token no longer works: open the new link (see the notice above).
        </EmptyState>
      );
    }
    return (
      <EmptyState icon={<TriangleAlert />} title="The history could not be read" action={<Button onClick={onRetry}>Try again</Button>}>
        {error.message}
      </EmptyState>
    );
  }
  if (!loaded) {
    return (
      <div className="flex h-32 items-center justify-center text-faint" role="status" aria-label="Loading messages">
        <LoaderCircle aria-hidden className="size-5 animate-spin" />
      </div>
    );
  }
  if (searching) {
    return (
      <EmptyState icon={<LoaderCircle aria-hidden className="animate-spin" />} title="Searching messages not indexed yet">
        About {formatCount(searching.left)} recent messages are not indexed yet, so their bodies are searched a slice at a time. Matches appear here as they are found.
      </EmptyState>
    );
  }
  return filtered ? (
    <EmptyState icon={<Filter />} title="No message matches these filters" action={<Button onClick={onShowAll} title="Clear every filter">Show all messages</Button>}>
      User ID and Event match exactly; the body search matches any piece of text (ASCII letters in any case). Widen the time range or search a shorter piece.
    </EmptyState>
  ) : (
    <EmptyState icon={<HistoryIcon />} title="No messages stored yet" action={<Button variant="primary" onClick={onCompose}>Compose a message</Button>}>
      Every message the workbench receives (from SDKs on <code className="font-mono">/v1/batch</code>, Compose, the API or an import) is kept here, searchable by status, user, event or any text in its body. Import an export with the Import button above.
    </EmptyState>
  );
}

/** Under the list: a search still going, more loading, a page that failed, or the end with its count. */
function ListFooter({ searching, loading, more, error, count }: { searching: { left: number } | null; loading: boolean; more: boolean; error: ApiError | null; count: number }) {
  let text: React.ReactNode;
  if (searching) {
    text = (
      <span className="inline-flex items-center gap-1.5">
        {loading && <LoaderCircle aria-hidden className="size-3 animate-spin" />}
        {`Searching… about ${formatCount(searching.left)} messages not indexed yet are left to search${loading ? '' : ' (scroll for more)'}`}
      </span>
    );
  } else if (loading) text = 'Loading more…';
  else if (more) text = '';
  else if (error) text = `Could not load more: ${error.message}`;
  else text = `End of the history: ${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;
  return <div className="flex h-8 items-center justify-center text-[11px] text-faint">{text}</div>;
}

function SelectAllBox() {
  const { rows, selected, selectAll, clearSelection } = useHistory();
  const all = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const some = selected.size > 0 && !all;
  return (
    <input
      type="checkbox"
      aria-label="Select all loaded messages"
      checked={all}
      ref={(el) => {
        if (el) el.indeterminate = some;
      }}
      onChange={() => (all || some ? clearSelection() : selectAll())}
      className="size-3.5 accent-[var(--accent)]"
    />
  );
}
