import { useEffect, useMemo, useRef, useState } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { Inbox, Trash2 } from 'lucide-react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { useFocusBack } from '../../lib/useFocusBack';
import { useNow } from '../../lib/useNow';
import { engineNow, useEngine } from '../../stores/engine';
import { capturesCount, useReceiver } from '../../stores/receiver';
import { useRouter } from '../../stores/router';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Segmented } from '../../ui/Segmented';
import { CaptureDetail } from './CaptureDetail';
import { CaptureList } from './CaptureList';

type Scope = 'endpoint' | 'all';

/**
 * The requests the endpoints captured, live: the selected endpoint's or all of them, each with its signature
 * verdict and the engine message that sent it; the one opened (the route's capture) below.
 */
export function CapturesPanel({ selected, routeReceiver }: { selected: ReceiverEndpoint | null; routeReceiver: string | null }) {
  const { captures, loaded, load, clear, older } = useReceiver();
  const captureId = useRouter((s) => s.route.captureId);
  const navigate = useRouter((s) => s.navigate);
  const now = engineNow(useEngine((s) => s.clock), useNow(1000));
  const [scope, setScope] = useState<Scope>('endpoint');
  // Clear disables itself (nothing left to clear): the focus goes back into the toolbar, not to the page.
  const toolbar = useRef<HTMLDivElement>(null);
  const [clearing, setClearing] = useState(false);
  useFocusBack(toolbar, clearing);
  const clearShown = async () => {
    setClearing(true);
    await clear(scope === 'all' ? null : (selected?.name ?? null));
    setClearing(false);
  };

  useEffect(() => {
    void load(selected?.name ?? null);
  }, [load, selected?.name]);

  const shown = useMemo(() => (scope === 'all' || !selected ? captures : captures.filter((c) => c.receiver === selected.name)), [captures, scope, selected]);
  const openCapture = (id: number | null) => navigate({ view: 'receiver', receiver: selected?.name ?? routeReceiver, captureId: id });

  return (
    <>
      <div ref={toolbar} className="flex h-10 shrink-0 items-center gap-2 border-b border-line px-3 whitespace-nowrap">
        <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">Captured requests</h2>
        {selected && (
          <Segmented<Scope>
            label="Show captures of"
            value={scope}
            onChange={setScope}
            options={[
              { value: 'endpoint', label: selected.name },
              { value: 'all', label: 'all endpoints' },
            ]}
          />
        )}
        <span
          className="tabular ml-auto text-xs text-muted"
          aria-live="polite"
          title="This list loads the newest captures the receiver keeps, then each new one as it arrives"
        >
          {capturesCount(shown.length, scope === 'all' || !selected ? older.all : (older.byReceiver[selected.name] ?? false))}
        </span>
        <Button
          variant="ghost"
          icon={<Trash2 aria-hidden className="size-3.5" />}
          disabled={shown.length === 0}
          onClick={() => void clearShown()}
          title={shown.length === 0 ? 'Nothing to clear: no request captured' : scope === 'all' ? 'Delete every capture' : `Delete the captures of ${selected?.name ?? 'this endpoint'}`}
        >
          Clear
        </Button>
      </div>
      <Group orientation="vertical" className="min-h-0 flex-1">
        <Panel id="capture-list" minSize="25%" className="flex flex-col">
          {loaded && shown.length === 0 ? (
            <EmptyState icon={<Inbox />} title="No requests captured yet">
              {selected ? (
                <>
                  Requests to <code className="font-mono">{selected.url ?? `/r/${selected.name}`}</code> appear here as they arrive, with their signature verdict and the message that sent them.
                </>
              ) : (
                'Requests to the endpoints appear here as they arrive.'
              )}
            </EmptyState>
          ) : (
            <CaptureList captures={shown} selectedId={captureId} engineNow={now} onSelect={(id) => openCapture(id === captureId ? null : id)} onOpenMessage={(id) => navigate({ view: 'live', messageId: id })} />
          )}
        </Panel>
        {captureId !== null && (
          <>
            <Separator className="h-px" />
            <Panel id="capture-detail" defaultSize="55%" minSize="25%" className="bg-bg">
              <CaptureDetail captureId={captureId} fromStore={captures.find((c) => c.id === captureId)} onClose={() => openCapture(null)} />
            </Panel>
          </>
        )}
      </Group>
    </>
  );
}
