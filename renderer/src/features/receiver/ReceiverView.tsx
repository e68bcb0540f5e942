import { useEffect, useMemo, useState } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { Inbox, ShieldCheck, Trash2 } from 'lucide-react';
import { plural } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { useCatalog } from '../../stores/catalog';
import { openCheck } from '../../stores/check';
import { engineNow, useEngine } from '../../stores/engine';
import { useReceiver } from '../../stores/receiver';
import { useRouter } from '../../stores/router';
import { useSecrets } from '../../stores/secrets';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { Segmented } from '../../ui/Segmented';
import { CaptureDetail } from './CaptureDetail';
import { CaptureList } from './CaptureList';
import { EndpointEditor } from './EndpointEditor';
import { EndpointList } from './EndpointList';
import { ListHeader } from '../../ui/ListHeader';

type Scope = 'endpoint' | 'all';

/**
 * The mock receiver: its endpoints (URLs, secret, script) on the left; the requests they captured, live,
 * with each signature verdict and the engine message that sent it, on the right.
 */
export function ReceiverView() {
  const endpoints = useCatalog((s) => s.receivers);
  const loadedCatalog = useCatalog((s) => s.loaded);
  const { captures, loaded, load, clear } = useReceiver();
  const { receiver: routeReceiver, captureId } = useRouter((s) => s.route);
  const navigate = useRouter((s) => s.navigate);
  const reveal = useSecrets((s) => s.reveal);
  const clock = useEngine((s) => s.clock);
  const now = engineNow(clock, useNow(1000));
  const [creating, setCreating] = useState(false);
  const [scope, setScope] = useState<Scope>('endpoint');

  const selected = endpoints.find((e) => e.name === routeReceiver) ?? (routeReceiver === null ? endpoints[0] : undefined) ?? null;
  useEffect(() => {
    void load(selected?.name ?? null);
  }, [load, selected?.name]);

  const shown = useMemo(() => (scope === 'all' || !selected ? captures : captures.filter((c) => c.receiver === selected.name)), [captures, scope, selected]);
  const select = (name: string) => {
    setCreating(false);
    navigate({ view: 'receiver', receiver: name });
  };
  const openCapture = (id: number | null) => navigate({ view: 'receiver', receiver: selected?.name ?? routeReceiver, captureId: id });

  /** Check opens with the endpoint's URL and its secret in clear (none: the signature area warns). */
  const checkReceiver = async (endpoint: ReceiverEndpoint) => {
    const clear = endpoint.secret === null ? null : await reveal('receiver', endpoint.name);
    const note = `From receiver endpoint ${endpoint.name}${endpoint.secret === null ? ' (no secret: it accepts any signature)' : ''}.${clear === undefined ? ' Its secret could not be fetched: type it.' : ''}`;
    openCheck({ url: endpoint.url ?? '', secret: clear ?? '', note });
  };

  return (
    <Group orientation="horizontal" className="h-full">
      <Panel id="endpoints" defaultSize="40%" minSize="28%" className="flex flex-col bg-panel">
        <ListHeader title="Endpoints" count={plural(endpoints.length, 'endpoint')} newLabel="New endpoint" onNew={() => setCreating(true)} newDisabled={creating ? 'The new endpoint’s form is open below' : null} />
        <div className="min-h-0 flex-1 overflow-y-auto">
          {creating && (
            <div className="border-b border-line p-3">
              <h3 className="mb-2 text-[13px] font-semibold">New endpoint</h3>
              <EndpointEditor endpoint={null} onDone={() => setCreating(false)} />
            </div>
          )}
          {endpoints.length === 0 && !creating ? (
            loadedCatalog && (
              <EmptyState icon={<Inbox />} title="No endpoints yet" action={<Button variant="primary" onClick={() => setCreating(true)}>Create the first endpoint</Button>}>
                An endpoint answers at <code className="font-mono whitespace-nowrap">/r/&lt;name&gt;</code> as its script says (500,500,200, delays, resets, failure rates) and captures every request. Point a destination at it with{' '}
                <code className="font-mono whitespace-nowrap">receiver:&lt;name&gt;</code>.
              </EmptyState>
            )
          ) : (
            <div className="p-1.5">
              <EndpointList endpoints={endpoints} selected={selected?.name ?? null} onSelect={select} />
            </div>
          )}
          {selected && !creating && (
            <div className="border-t border-line p-3">
              <div className="mb-2 flex items-center gap-2">
                <h3 className="min-w-0 truncate font-mono text-[13px] font-semibold">{selected.name}</h3>
                <Button className="ml-auto" icon={<ShieldCheck aria-hidden className="size-3.5" />} disabled={selected.url === null} onClick={() => void checkReceiver(selected)} title={selected.url === null ? 'The receiver is not listening' : `Run the conformance checks against ${selected.url}`}>
                  Check endpoint
                </Button>
              </div>
              <EndpointEditor key={`${selected.name}:${selected.updatedAt}`} endpoint={selected} />
            </div>
          )}
          {routeReceiver !== null && !selected && loadedCatalog && <p className="p-3 text-xs text-err">No endpoint is named “{routeReceiver}”.</p>}
        </div>
      </Panel>
      <Separator className="w-px" />
      <Panel id="captures" minSize="35%" className="flex flex-col bg-panel">
        <div className="flex h-10 shrink-0 items-center gap-2 border-b border-line px-3 whitespace-nowrap">
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
          <span className="tabular ml-auto text-xs text-muted" aria-live="polite">
            {plural(shown.length, 'request')}
          </span>
          <Button
            variant="ghost"
            icon={<Trash2 aria-hidden className="size-3.5" />}
            disabled={shown.length === 0}
            onClick={() => void clear(scope === 'all' ? null : (selected?.name ?? null))}
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
      </Panel>
    </Group>
  );
}
