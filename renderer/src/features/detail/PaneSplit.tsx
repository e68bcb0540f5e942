/**
 * A list beside an open message's pane, resizable (react-resizable-panels): a chunk of its own, loaded when a
 * message is first opened or linked (ListAndPane.tsx), so a list alone paints without the library and
 * without the layout it reads when a split mounts.
 */
import type { ReactNode } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import type { PanelSizes } from './ListAndPane';

export function PaneSplit({ list, pane, sizes }: { list: ReactNode; pane: ReactNode | null; sizes: PanelSizes }) {
  return (
    <Group orientation="horizontal" className="h-full">
      <Panel id={sizes.listId} minSize={sizes.listMinSize} className="flex flex-col bg-panel">
        {list}
      </Panel>
      {pane !== null && (
        <>
          <Separator className="w-px" aria-label="Resize the list and the details" />
          <Panel id={sizes.paneId} defaultSize={sizes.paneDefaultSize} minSize={sizes.paneMinSize} className="bg-bg">
            {pane}
          </Panel>
        </>
      )}
    </Group>
  );
}
