import { useEffect, useMemo } from 'react';
import { useCatalog } from '../../stores/catalog';
import { useEngine } from '../../stores/engine';
import { liveRowsShown, matchesFilter, useLive } from '../../stores/live';
import { LazyDetailPane } from '../detail/LazyDetailPane';
import { ListAndPane, type PanelSizes } from '../detail/ListAndPane';
import { LiveEmpty } from './LiveEmpty';
import { LiveToolbar } from './LiveToolbar';
import { MessageList } from './MessageList';
import { useListKeys } from './useListKeys';

const SIZES: PanelSizes = { listId: 'list', listMinSize: '35%', paneId: 'detail', paneDefaultSize: '48%', paneMinSize: '30%' };

export function LiveView() {
  const { rows, filter, loaded } = useLive();
  const sources = useCatalog((s) => s.sources);
  const clock = useEngine((s) => s.clock);
  const visible = useMemo(() => (filter.status === 'all' && filter.type === 'all' ? rows : rows.filter((r) => matchesFilter(r, filter))), [rows, filter]);
  const { openId, cursorId, close, onRowClick, gridRef } = useListKeys(visible);
  // The rest of the list is asked for once these rows are painted, not while they are on their way to the screen.
  const shown = visible.length > 0;
  useEffect(() => {
    if (shown) liveRowsShown();
  }, [shown]);

  return (
    <ListAndPane
      sizes={SIZES}
      list={
        <>
          <LiveToolbar shown={visible.length} total={rows.length} />
          {loaded && visible.length === 0 ? (
            <LiveEmpty total={rows.length} />
          ) : (
            <MessageList rows={visible} sources={sources} clock={clock} cursorId={cursorId} openId={openId} onRowClick={onRowClick} gridRef={gridRef} />
          )}
        </>
      }
      pane={openId !== null ? <LazyDetailPane onClose={close} /> : null}
    />
  );
}
