import { useMemo } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { useCatalog } from '../../stores/catalog';
import { useEngine } from '../../stores/engine';
import { matchesFilter, useLive } from '../../stores/live';
import { LazyDetailPane } from '../detail/LazyDetailPane';
import { LiveEmpty } from './LiveEmpty';
import { LiveToolbar } from './LiveToolbar';
import { MessageList } from './MessageList';
import { useListKeys } from './useListKeys';

export function LiveView() {
  const { rows, filter, loaded } = useLive();
  const sources = useCatalog((s) => s.sources);
  const clock = useEngine((s) => s.clock);
  const visible = useMemo(() => (filter.status === 'all' && filter.type === 'all' ? rows : rows.filter((r) => matchesFilter(r, filter))), [rows, filter]);
  const { openId, cursorId, open, onRowClick, gridRef } = useListKeys(visible);

  return (
    <Group orientation="horizontal" className="h-full">
      <Panel id="list" minSize="35%" className="flex flex-col bg-panel">
        <LiveToolbar shown={visible.length} total={rows.length} />
        {loaded && visible.length === 0 ? (
          <LiveEmpty total={rows.length} />
        ) : (
          <MessageList rows={visible} sources={sources} clock={clock} cursorId={cursorId} openId={openId} onRowClick={onRowClick} gridRef={gridRef} />
        )}
      </Panel>
      {openId !== null && (
        <>
          <Separator className="w-px" />
          <Panel id="detail" defaultSize="48%" minSize="30%" className="bg-bg">
            <LazyDetailPane onClose={() => open(null)} />
          </Panel>
        </>
      )}
    </Group>
  );
}
