/**
 * A message list (Live, History) and, once a message is opened, its pane beside it in a resizable split. The
 * split (PaneSplit.tsx, react-resizable-panels) is loaded with the first message opened, or once the app is
 * idle: a list alone, the first screen of both, paints without the library and without the layout the
 * library reads when a split mounts. The list is rendered once, into a node of its own (ui/MovableNode.tsx),
 * so it keeps its state, scroll and focus when it moves into the split; from then on the split stays.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { NodeSlot, useMovableNode } from '../../ui/MovableNode';
import { PaneSplit, preloadDetailPane } from './LazyDetailPane';

/** The split's panels: their ids and sizes, as react-resizable-panels takes them. */
export interface PanelSizes {
  listId: string;
  listMinSize: string;
  paneId: string;
  paneDefaultSize: string;
  paneMinSize: string;
}

/** Once the app is idle, the split loads anyway, so the first message opened does not wait for it. */
const SPLIT_AFTER_MS = 2000;

export function ListAndPane({ list, pane, sizes }: { list: ReactNode; pane: ReactNode | null; sizes: PanelSizes }) {
  const node = useMovableNode();
  const opened = pane !== null;
  const [split, setSplit] = useState(() => opened && PaneSplit.loaded());
  useEffect(() => {
    if (split || !opened) return;
    let current = true;
    // Should the chunk fail to load, the split's own lazy load fails again, where the error boundary shows it.
    void preloadDetailPane()
      .catch(() => undefined)
      .then(() => current && setSplit(true));
    return () => {
      current = false;
    };
  }, [split, opened]);
  useEffect(() => {
    const timer = setTimeout(() => void PaneSplit.preload().catch(() => undefined), SPLIT_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);

  return (
    <>
      {split ? (
        <PaneSplit list={<NodeSlot node={node} />} pane={pane} sizes={sizes} />
      ) : (
        // Laid out as the split lays out its list's panel when no message is open.
        <div className="flex h-full w-full overflow-hidden">
          <div className="flex min-h-0 min-w-0 flex-1 flex-col overflow-auto bg-panel">
            <NodeSlot node={node} />
          </div>
        </div>
      )}
      {createPortal(list, node)}
    </>
  );
}
