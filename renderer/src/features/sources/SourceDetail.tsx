import { useState } from 'react';
import { RefreshCw, Trash2 } from 'lucide-react';
import { SOURCE_KINDS, type Source, type SourceKind, type SourceUsage } from '../../../../main/contract/sources';
import { WRITE_KEY_BYTES, writeKeyOf } from '../../../../main/contract/schemas';
import { api } from '../../api/instance';
import { formatCount, plural } from '../../lib/format';
import { useCatalog } from '../../stores/catalog';
import { useSecrets } from '../../stores/secrets';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { CopyButton } from '../../ui/CopyButton';
import { FactRow } from '../../ui/FactRow';
import { InlineConfirm } from '../../ui/InlineConfirm';
import { SecretValue } from '../../ui/SecretValue';
import { Select } from '../../ui/Select';
import { SourceTrafficChart } from './SourceTrafficChart';

/** Copies the write key in clear, asking the workbench for it first (revealSecret). */
export async function clearWriteKey(source: Source): Promise<string> {
  const key = await useSecrets.getState().reveal('source', source.id);
  if (typeof key !== 'string') throw new Error('the write key could not be read');
  return key;
}

/** One source: kind, write key (reveal, copy, regenerate), usage with the last hour, delete. */
export function SourceDetail({ source, usage, onDeleted }: { source: Source; usage: SourceUsage | undefined; onDeleted(): void }) {
  const destinations = useCatalog((s) => s.destinations);
  const connected = destinations.filter((d) => d.sourceIds.includes(source.id));
  // Only a destination that is on gets a delivery: one that is off is named as such, or the list reads as where calls go.
  const destinationWords = `${connected.map((d) => (d.enabled ? d.name : `${d.name} (off)`)).join(', ')}${connected.length && connected.every((d) => !d.enabled) ? ': all off, its calls are stored as filtered' : ''}`;
  const [confirm, setConfirm] = useState<'regenerate' | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);

  const changeKind = async (kind: SourceKind) => {
    const result = await api().call('updateSource', { id: source.id, patch: { kind } });
    if (result.ok) await useCatalog.getState().load();
  };
  const regenerate = async () => {
    setBusy(true);
    const writeKey = writeKeyOf(crypto.getRandomValues(new Uint8Array(WRITE_KEY_BYTES)));
    const result = await api().call('updateSource', { id: source.id, patch: { writeKey } });
    setBusy(false);
    if (!result.ok) return;
    useSecrets.getState().forget('source', source.id);
    setConfirm(null);
    await useCatalog.getState().load();
    useToasts.getState().push({ tone: 'success', title: 'Write key regenerated', message: `${source.name}: SDKs still sending the old key now get 401 (see the ingest log).` });
  };
  const remove = async () => {
    setBusy(true);
    const result = await api().call('deleteSource', { id: source.id });
    setBusy(false);
    if (!result.ok) return;
    await useCatalog.getState().load();
    const gone = result.value.disconnectedDestinations;
    useToasts.getState().push({ tone: 'success', title: `Source ${source.name} deleted`, message: gone.length ? `Disconnected from ${gone.join(', ')}.` : 'No destination was connected to it.' });
    onDeleted();
  };

  return (
    <section aria-label={`Source ${source.name}`} className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <h3 className="min-w-0 flex-1 truncate font-mono text-[13px] font-semibold">{source.name}</h3>
        <Button variant="ghost" icon={<Trash2 aria-hidden className="size-3.5" />} onClick={() => setConfirm('delete')} disabled={confirm !== null} title={confirm !== null ? 'Answer the question below first' : undefined}>
          Delete source
        </Button>
      </div>
      <dl className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 text-xs">
        <FactRow label="Kind">
          <Select label="Kind" labelHidden value={source.kind} onChange={(v) => void changeKind(v as SourceKind)} options={SOURCE_KINDS} />
        </FactRow>
        <FactRow label="Write key">
          <SecretValue kind="source" id={source.id} masked={source.writeKey} label="Write key" />
          <CopyButton text={() => clearWriteKey(source)} label={`Copy write key of ${source.name}`} showLabel={false} />
          <Button variant="ghost" icon={<RefreshCw aria-hidden className="size-3.5" />} onClick={() => setConfirm('regenerate')} disabled={confirm !== null} title={confirm !== null ? 'Answer the question below first' : 'A new write key replaces this one (you confirm first)'}>
            Regenerate
          </Button>
        </FactRow>
        <FactRow label="Destinations">
          {connected.length ? (
            <span className="truncate" title={destinationWords}>
              {destinationWords}
            </span>
          ) : (
            <span className="text-faint">none connected: its calls are stored as filtered</span>
          )}
        </FactRow>
      </dl>
      {confirm === 'regenerate' && (
        <InlineConfirm label="Regenerate write key?" action="Regenerate write key" busy={busy} onConfirm={() => void regenerate()} onCancel={() => setConfirm(null)}>
          A new key replaces <span className="font-mono">{source.writeKey}</span> at once: SDKs still configured with the old key are refused (401, in the ingest log) until you give them the new one.
        </InlineConfirm>
      )}
      {confirm === 'delete' && (
        <InlineConfirm label={`Delete source ${source.name}?`} action="Delete source" busy={busy} onConfirm={() => void remove()} onCancel={() => setConfirm(null)}>
          Its write key stops working (401) and its audiences go.{' '}
          {connected.length ? `${plural(connected.length, 'destination')} will be disconnected from it: ${connected.map((d) => d.name).join(', ')}.` : 'No destination is connected to it.'} Its messages stay in the history.
        </InlineConfirm>
      )}
      <div>
        <h4 className="mb-1.5 text-xs font-semibold tracking-wide text-muted uppercase">Usage</h4>
        <dl aria-label={`Usage of ${source.name}`} className="grid grid-cols-4 gap-1.5">
          {(['received', 'accepted', 'refused', 'filtered'] as const).map((counter) => (
            <div key={counter} className="rounded-md border border-line px-2 py-1.5">
              <dt className="text-[11px] text-muted capitalize">{counter}</dt>
              <dd className={`tabular font-mono text-[15px] font-semibold ${counter === 'refused' && (usage?.refused ?? 0) > 0 ? 'text-err' : ''}`} aria-label={`${counter}: ${usage?.[counter] ?? 0}`}>
                {formatCount(usage?.[counter] ?? 0)}
              </dd>
            </div>
          ))}
        </dl>
        {/* Beside an ingest log that lists a refused request of this source, 'Refused 0' needs its unit. */}
        <p className="mt-1 text-[11px] text-faint">Counted in calls: a request refused unread (invalid JSON) counts none. The ingest log lists every refused request.</p>
        {usage && (
          <div className="mt-2">
            <SourceTrafficChart minutes={usage.lastHour} />
          </div>
        )}
      </div>
    </section>
  );
}
