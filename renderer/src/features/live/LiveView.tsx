import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { api } from '../../api/instance';
import { useCatalog } from '../../stores/catalog';
import { useDetail } from '../../stores/detail';
import { useEngine } from '../../stores/engine';
import { matchesFilter, useLive } from '../../stores/live';
import { useRouter } from '../../stores/router';
import { LazyDetailPane } from '../detail/LazyDetailPane';
import { LiveEmpty } from './LiveEmpty';
import { LiveToolbar } from './LiveToolbar';
import { MessageList } from './MessageList';

/** Keys typed into a control belong to it, not to the list. */
function typingOrOnControl(e: KeyboardEvent): boolean {
  const target = e.target as HTMLElement | null;
  if (!target) return false;
  return target.closest('button, a, input, select, textarea, [contenteditable="true"], [role="switch"], [role="radio"], [role="tab"], .cm-editor') !== null;
}

export function LiveView() {
  const { rows, filter, loaded } = useLive();
  const sources = useCatalog((s) => s.sources);
  const clock = useEngine((s) => s.clock);
  const openId = useRouter((s) => s.route.messageId);
  const navigate = useRouter((s) => s.navigate);
  const openDetail = useDetail((s) => s.open);
  const [cursorId, setCursorId] = useState<number | null>(openId);
  const gridRef = useRef<HTMLDivElement | null>(null);

  const visible = useMemo(() => (filter.status === 'all' && filter.type === 'all' ? rows : rows.filter((r) => matchesFilter(r, filter))), [rows, filter]);

  useEffect(() => {
    openDetail(openId);
  }, [openId, openDetail]);
  useEffect(() => {
    if (openId !== null) setCursorId(openId);
  }, [openId]);

  const open = useCallback((id: number | null, replace = false) => navigate({ messageId: id }, { replace }), [navigate]);
  const onRowClick = useCallback(
    (id: number) => {
      setCursorId(id);
      open(id);
    },
    [open],
  );

  const move = (delta: number) => {
    if (!visible.length) return;
    const index = visible.findIndex((r) => r.id === cursorId);
    const next = visible[Math.max(0, Math.min(visible.length - 1, index < 0 ? 0 : index + delta))]!;
    setCursorId(next.id);
    // With the pane open, it follows the cursor (without filling the history).
    if (openId !== null) open(next.id, true);
  };

  const options = { ignoreEventWhen: typingOrOnControl, preventDefault: true };
  useHotkeys(['down', 'j'], () => move(1), options, [visible, cursorId, openId]);
  useHotkeys(['up', 'k'], () => move(-1), options, [visible, cursorId, openId]);
  useHotkeys('enter', () => cursorId !== null && open(cursorId), options, [cursorId]);
  useHotkeys(
    'escape',
    () => {
      if (openId !== null) {
        open(null);
        gridRef.current?.focus();
      }
    },
    { preventDefault: false },
    [openId],
  );
  useHotkeys('r', () => {
    const id = openId ?? cursorId;
    if (id !== null) void api().call('retryNow', { id });
  }, options, [openId, cursorId]);

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
