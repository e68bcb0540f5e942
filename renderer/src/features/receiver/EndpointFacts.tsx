import { useMemo, type ReactNode } from 'react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver';
import { parseReceiverRef } from '../../../../main/contract/receiver';
import { useCatalog } from '../../stores/catalog';
import { CopyButton } from '../../ui/CopyButton';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="py-1 text-muted">{label}</dt>
      <dd className="flex min-h-7 min-w-0 items-center gap-1">{children}</dd>
    </div>
  );
}

function Copyable({ value, label }: { value: string | null; label: string }) {
  if (value === null) return <span className="text-faint">not listening</span>;
  return (
    <>
      <code className="min-w-0 truncate font-mono" title={value}>
        {value}
      </code>
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
      <Row label="URL">
        <Copyable value={endpoint.url} label={`Copy URL of ${endpoint.name}`} />
      </Row>
      <Row label="HTTPS URL">
        <Copyable value={endpoint.tlsUrl} label={`Copy HTTPS URL of ${endpoint.name}`} />
      </Row>
      <Row label="In a webhook">
        <span className="flex min-w-0 flex-wrap items-center gap-x-1">
          <span className="flex items-center">
            <Copyable value={`receiver:${endpoint.name}`} label={`Copy receiver:${endpoint.name}`} />
          </span>
          <span className="flex items-center">
            <Copyable value={`receiver+tls:${endpoint.name}`} label={`Copy receiver+tls:${endpoint.name}`} />
          </span>
        </span>
      </Row>
      <Row label="Used by">
        {users.length ? <span className="truncate">{users.map((d) => d.name).join(', ')}</span> : <span className="text-faint">no destination yet</span>}
      </Row>
    </dl>
  );
}
