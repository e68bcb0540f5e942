import { useMemo } from 'react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { parseReceiverRef } from '../../../../main/contract/receiver/receiver';
import { useCatalog } from '../../stores/catalog';
import { CopyButton } from '../../ui/CopyButton';
import { FactRow } from '../../ui/FactRow';

function Copyable({ value, label }: { value: string | null; label: string }) {
  if (value === null) return <span className="text-faint">not listening</span>;
  return (
    <>
      {/* Wrapped, never cut: the whole URL is what gets copied and what a person reads to check it. */}
      <code className="min-w-0 font-mono break-all">{value}</code>
      <CopyButton text={value} label={label} showLabel={false} />
    </>
  );
}

/** Where an endpoint answers, how a destination names it, and which destinations do. */
export function EndpointFacts({ endpoint }: { endpoint: ReceiverEndpoint }) {
  const destinations = useCatalog((s) => s.destinations);
  const users = useMemo(() => destinations.filter((d) => d.webhooks.some((w) => parseReceiverRef(w.url)?.name === endpoint.name)), [destinations, endpoint.name]);
  return (
    <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 text-xs">
      <FactRow label="URL">
        <Copyable value={endpoint.url} label={`Copy URL of ${endpoint.name}`} />
      </FactRow>
      <FactRow label="HTTPS URL">
        <Copyable value={endpoint.tlsUrl} label={`Copy HTTPS URL of ${endpoint.name}`} />
      </FactRow>
      <FactRow label="In a webhook">
        <span className="flex min-w-0 flex-wrap items-center gap-x-1">
          <span className="flex items-center">
            <Copyable value={`receiver:${endpoint.name}`} label={`Copy receiver:${endpoint.name}`} />
          </span>
          <span className="flex items-center">
            <Copyable value={`receiver+tls:${endpoint.name}`} label={`Copy receiver+tls:${endpoint.name}`} />
          </span>
        </span>
      </FactRow>
      <FactRow label="Used by">
        {users.length ? <span className="truncate" title={users.map((d) => d.name).join(', ')}>{users.map((d) => d.name).join(', ')}</span> : <span className="text-faint">no destination yet</span>}
      </FactRow>
    </dl>
  );
}
