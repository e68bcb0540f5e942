import { Send, Waypoints } from 'lucide-react';
import type { Destination, DestinationStats } from '../../../../main/contract/destinations';
import type { Source } from '../../../../main/contract/sources';
import { formatAgo, plural } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { useCatalog } from '../../stores/catalog';
import { engineNow, useEngine } from '../../stores/engine';
import { useRouter } from '../../stores/router';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { StatusBadge } from '../../ui/StatusBadge';
import { Switch } from '../../ui/Switch';
import { sendTestEvent, setEnabled } from './actions';
import { FirstRunButton } from './FirstRunButton';
import { useDestinationStats } from './useDestinationStats';
import { ListHeader } from '../../ui/ListHeader';
import { VisibleText } from '../../ui/VisibleText';

/** Every destination: on/off, sources, webhooks, its newest delivery and its failure rate. */
export function DestinationList() {
  const destinations = useCatalog((s) => s.destinations);
  const sources = useCatalog((s) => s.sources);
  const loaded = useCatalog((s) => s.loaded);
  const navigate = useRouter((s) => s.navigate);
  const stats = useDestinationStats();
  const now = engineNow(useEngine((s) => s.clock), useNow(1000));
  const create = () => navigate({ view: 'destinations', sub: ['new'] });

  return (
    <div className="flex h-full flex-col bg-panel">
      <ListHeader title="Destinations" count={plural(destinations.length, 'destination')} newLabel="New destination" onNew={create} primary />
      {loaded && destinations.length === 0 ? (
        <EmptyState icon={<Waypoints />} title="No destinations yet" action={<div className="flex flex-col items-center gap-2"><FirstRunButton /><Button onClick={create}>Set one up step by step</Button></div>}>
          A destination forwards the messages of its sources to up to five webhook URLs, signed with its shared secret, retried for up to 4 hours. Start with one click: a destination to the built-in mock receiver, and a test event you can follow in Live. Or set one up step by step.
        </EmptyState>
      ) : (
        <div className="min-h-0 flex-1 overflow-auto">
          <table aria-label="Destinations" className="w-full border-collapse text-xs">
            <thead className="sticky top-0 z-10 bg-panel-2 text-left text-[11px] font-medium text-muted">
              <tr className="h-8 border-b border-line">
                <th scope="col" className="w-16 pr-4 pl-3 font-medium">On</th>
                <th scope="col" className="font-medium">Name</th>
                <th scope="col" className="font-medium">Sources</th>
                <th scope="col" className="font-medium">Webhooks</th>
                <th scope="col" className="font-medium">Last delivery</th>
                <th scope="col" className="w-32 font-medium" title="Failed for good, of the newest 100 deliveries that finished">Failure rate</th>
                <th scope="col" className="w-10 pr-3"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {destinations.map((d) => (
                <Row key={d.id} destination={d} sources={sources} stats={stats?.get(d.id) ?? null} now={now} onOpen={() => navigate({ view: 'destinations', sub: [d.id] })} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Row({ destination: d, sources, stats, now, onOpen }: { destination: Destination; sources: Source[]; stats: DestinationStats | null; now: number; onOpen(): void }) {
  const names = d.sourceIds.map((id) => sources.find((s) => s.id === id)?.name ?? id);
  const noWebhook = d.webhooks.length === 0;
  return (
    <tr aria-label={d.name} className="h-11 border-b border-line hover:bg-hover">
      {/* Its own right padding: in a narrow table the switch would otherwise touch the name. */}
      <td className="w-16 pr-4 pl-3">
        <Switch
          checked={d.enabled}
          label={`Enabled: ${d.name}`}
          disabled={noWebhook && !d.enabled}
          title={noWebhook && !d.enabled ? 'Add a webhook URL first: a destination cannot be enabled without one' : d.enabled ? 'On: it receives messages. Click to turn it off (its deliveries wait).' : 'Off: its deliveries wait. Click to turn it on.'}
          onChange={(next) => void setEnabled(d, next)}
        />
      </td>
      <td className="max-w-52 pr-3">
        <a href={`#/destinations/${encodeURIComponent(d.id)}`} onClick={(e) => (e.preventDefault(), onOpen())} className="block truncate font-medium text-fg hover:text-accent hover:underline">
          <VisibleText text={d.name} />
        </a>
        <div className="truncate text-[11px] text-faint">{d.sharedSecret ? 'signed' : 'unsigned'} · timeout {d.timeoutMs / 1000} s{d.filters.allowEvents.length + d.filters.blockEvents.length ? ' · event filters' : ''}</div>
      </td>
      <td className="max-w-40 pr-3">
        {names.length ? <span className="line-clamp-2 text-muted">{names.join(', ')}</span> : <span className="text-faint" title="Only messages sent to it directly (Compose) reach it">none</span>}
      </td>
      <td className="max-w-64 pr-3">
        {noWebhook ? (
          <span className="text-warn">no webhook yet</span>
        ) : (
          <div className="flex min-w-0 items-center gap-1.5">
            <span className="truncate font-mono text-muted" title={d.webhooks.map((w) => w.url).join('\n')}>{d.webhooks[0]!.url}</span>
            {d.webhooks.length > 1 && <span className="shrink-0 rounded bg-panel-2 px-1 text-[11px] text-muted">+{d.webhooks.length - 1}</span>}
          </div>
        )}
      </td>
      <td className="pr-3">
        {stats?.last ? (
          <div className="flex min-w-0 items-center gap-1.5" title={stats.last.reason ?? undefined}>
            <StatusBadge status={stats.last.status} />
            <a href={`#/live/${stats.last.messageId}`} aria-label={`${d.name}: last delivery ${formatAgo(stats.last.at, now)}`} className="shrink-0 whitespace-nowrap text-muted hover:text-accent hover:underline">
              {formatAgo(stats.last.at, now)}
            </a>
            {stats.pending > 0 && <span className="shrink-0 text-[11px] whitespace-nowrap text-faint">· {stats.pending} pending</span>}
          </div>
        ) : (
          <span className="text-faint">{stats ? 'none yet' : '…'}</span>
        )}
      </td>
      <td className="pr-3">
        <FailureRate stats={stats} />
      </td>
      <td className="pr-3 text-right">
        <Button variant="ghost" aria-label={`Send a test event to ${d.name}`} title="Send a test track to this destination and follow it in Live" icon={<Send aria-hidden className="size-3.5" />} onClick={() => void sendTestEvent(d)} />
      </td>
    </tr>
  );
}

function FailureRate({ stats }: { stats: DestinationStats | null }) {
  if (!stats || stats.failureRate === null) return <span className="text-faint">{stats ? '–' : '…'}</span>;
  const pct = Math.round(stats.failureRate * 100);
  const finished = stats.delivered + stats.failed;
  const tone = pct === 0 ? 'bg-ok' : pct < 20 ? 'bg-warn' : 'bg-err';
  return (
    <div className="flex items-center gap-1.5" aria-label={`Failure rate ${pct}% (${stats.failed} of ${finished} finished)`} title={`${stats.failed} failed, ${stats.delivered} delivered, of its newest ${stats.recent} deliveries`}>
      <span className="tabular w-9 text-right font-mono text-fg">{pct}%</span>
      <span className="relative h-1.5 w-10 shrink-0 overflow-hidden rounded-full bg-panel-2" aria-hidden>
        <span className={`absolute inset-y-0 left-0 ${tone}`} style={{ width: `${Math.max(pct, pct > 0 ? 4 : 0)}%` }} />
      </span>
      <span className="tabular text-[11px] whitespace-nowrap text-faint">of {finished}</span>
    </div>
  );
}
