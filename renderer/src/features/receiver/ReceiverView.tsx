import { useState } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { Inbox } from 'lucide-react';
import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { ListDetailPanel } from '../../ui/ListDetailPanel';
import { CapturesPanel } from './CapturesPanel';
import { EndpointEditor } from './EndpointEditor';
import { EndpointList } from './EndpointList';
import { EndpointPanel } from './EndpointPanel';

/**
 * The mock receiver: its endpoints (URLs, secret, script) on the left; the requests they captured, live,
 * with each signature verdict and the engine message that sent it, on the right.
 */
export function ReceiverView() {
  const endpoints = useCatalog((s) => s.receivers);
  const loadedCatalog = useCatalog((s) => s.loaded);
  const routeReceiver = useRouter((s) => s.route.receiver);
  const navigate = useRouter((s) => s.navigate);
  const [creating, setCreating] = useState(false);

  const selected = endpoints.find((e) => e.name === routeReceiver) ?? (routeReceiver === null ? endpoints[0] : undefined) ?? null;
  const select = (name: string) => {
    setCreating(false);
    navigate({ view: 'receiver', receiver: name });
  };

  return (
    <Group orientation="horizontal" className="h-full">
      <Panel id="endpoints" defaultSize="40%" minSize="28%" className="flex flex-col bg-panel">
        <ListDetailPanel
          noun="endpoint"
          count={endpoints.length}
          loaded={loadedCatalog}
          creating={creating}
          onNew={() => setCreating(true)}
          newForm={<EndpointEditor endpoint={null} onDone={() => setCreating(false)} />}
          emptyIcon={<Inbox />}
          emptyText={
            <>
              An endpoint answers at <code className="font-mono whitespace-nowrap">/r/&lt;name&gt;</code> as its script says (500,500,200, delays, resets, failure rates) and captures every request. Point a destination at it with{' '}
              <code className="font-mono whitespace-nowrap">receiver:&lt;name&gt;</code>.
            </>
          }
          list={<EndpointList endpoints={endpoints} selected={selected?.name ?? null} onSelect={select} />}
          detail={selected && <EndpointPanel key={`${selected.name}:${selected.updatedAt}`} endpoint={selected} />}
          missing={routeReceiver !== null && !selected ? routeReceiver : null}
        />
      </Panel>
      <Separator className="w-px" />
      <Panel id="captures" minSize="35%" className="flex flex-col bg-panel">
        <CapturesPanel selected={selected} routeReceiver={routeReceiver} />
      </Panel>
    </Group>
  );
}
