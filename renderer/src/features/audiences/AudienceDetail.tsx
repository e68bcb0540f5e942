import { useCallback, useState } from 'react';
import { RefreshCw, Trash2 } from 'lucide-react';
import type { Audience, AudienceDetail as Detail, AudiencePreview, ComputedTrait } from '../../../../main/contract/audiences';
import { api } from '../../api/instance';
import { useRefresh } from '../../api/useRefresh';
import { formatTimestamp, plural } from '../../lib/format';
import { sourceName, useCatalog } from '../../stores/catalog';
import { Button } from '../../ui/Button';
import { CopyButton } from '../../ui/CopyButton';
import { InlineConfirm } from '../../ui/InlineConfirm';
import { AudienceEditor } from './AudienceEditor';
import { useAudiences } from './audiencesStore';
import { ComputedTraitEditor } from './ComputedTraitEditor';
import { NowhereNote } from './NowhereNote';
import { SyncCalls } from './SyncCalls';

/** getAudience is read again this often while open: identify calls arriving change who would join. */
const REFRESH_MS = 3000;

function Section({ title, aside, children }: { title: string; aside?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1.5">
      <div className="flex items-baseline gap-2">
        <h4 className="text-xs font-semibold tracking-wide text-muted uppercase">{title}</h4>
        {aside && <span className="text-[11px] text-faint">{aside}</span>}
      </div>
      {children}
    </section>
  );
}

/** The trait key it sets (with a copy button), its source, and when it last synced. */
function ItemFacts({ item }: { item: Audience | ComputedTrait }) {
  const sources = useCatalog((s) => s.sources);
  return (
    <dl className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
      <div className="flex items-center gap-1">
        <dt className="text-muted">Trait</dt>
        <dd className="flex items-center">
          <code aria-label="Trait key" className="rounded bg-panel-2 px-1 font-mono">
            {item.traitKey}
          </code>
          <CopyButton text={item.traitKey} label={`Copy trait key ${item.traitKey}`} showLabel={false} />
        </dd>
      </div>
      <div className="flex gap-1">
        <dt className="text-muted">Source</dt>
        <dd className="font-mono">{sourceName(sources, item.sourceId)}</dd>
      </div>
      <div className="flex gap-1">
        <dt className="text-muted">Last sync</dt>
        <dd>{item.syncedAt === null ? 'never' : formatTimestamp(item.syncedAt)}</dd>
      </div>
    </dl>
  );
}

/**
 * One audience or computed trait: its trait key, Sync (with exactly the identify calls it sent), who it
 * held at the last sync, what a sync now would send, and its definition.
 */
export function AudienceDetail({ item, onDeleted }: { item: Audience | ComputedTrait; onDeleted(): void }) {
  const lastSync = useAudiences((s) => s.syncs[item.id]);
  const [detail, setDetail] = useState<Detail | null>(null);
  const [busy, setBusy] = useState<'sync' | 'delete' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const isAudience = item.kind === 'audience';
  const noun = isAudience ? 'audience' : 'computed trait';

  // Who would belong now under the saved definition, read with the detail: 'A sync now would send' and the
  // definition's 'would belong now' then come from the same moment (apart, one lagged the other by seconds).
  const [savedPreview, setSavedPreview] = useState<AudiencePreview | null>(null);
  const load = useCallback(async (current: () => boolean = () => true) => {
    const [result, preview] = await Promise.all([
      api().call('getAudience', { id: item.id }, { quiet: true }),
      item.kind === 'audience' ? api().call('previewAudience', { source: item.sourceId, ...(item.members.length ? { members: item.members } : {}), ...(item.rule ? { rule: item.rule } : {}) }, { quiet: true }) : null,
    ]);
    if (!result.ok || !current()) return;
    setDetail(result.value);
    setSavedPreview(preview?.ok ? preview.value : null);
  }, [item]);
  // The item itself in the key: a saved edit (a new rule) loads again at once.
  useRefresh(JSON.stringify(item), load, { everyMs: REFRESH_MS });

  const sync = async () => {
    setBusy('sync');
    const result = isAudience ? await api().call('syncAudience', { id: item.id }) : await api().call('syncComputedTrait', { id: item.id });
    setBusy(null);
    if (!result.ok) return;
    await useAudiences.getState().load();
    const synced = useAudiences.getState().items.find((i) => i.id === item.id);
    useAudiences.getState().recordSync(item.id, { at: synced?.syncedAt ?? null, calls: result.value.calls, how: 'synced' });
    await load();
  };
  const remove = async () => {
    setBusy('delete');
    const result = isAudience ? await api().call('deleteAudience', { id: item.id }) : await api().call('deleteComputedTrait', { id: item.id });
    setBusy(null);
    if (!result.ok) return;
    await useAudiences.getState().load();
    onDeleted();
  };

  const members = detail?.synced.filter((s) => (isAudience ? s.value === true : true)) ?? [];
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-col gap-1.5">
        <div className="flex items-center gap-2">
          <h3 className="min-w-0 flex-1 truncate text-[15px] font-semibold">{item.name}</h3>
          <Button variant="primary" busy={busy === 'sync'} icon={<RefreshCw aria-hidden className="size-3.5" />} onClick={() => void sync()}>
            Sync
          </Button>
          <Button variant="ghost" icon={<Trash2 aria-hidden className="size-3.5" />} onClick={() => setConfirmDelete(true)} disabled={confirmDelete} title={confirmDelete ? 'Answer the question below first' : undefined}>
            Delete
          </Button>
        </div>
        <ItemFacts item={item} />
        {confirmDelete && (
          <InlineConfirm label={`Delete ${noun} ${item.name}?`} action={`Delete ${noun}`} busy={busy === 'delete'} onConfirm={() => void remove()} onCancel={() => setConfirmDelete(false)}>
            Nothing is sent: users keep the trait their last sync gave them.
          </InlineConfirm>
        )}
      </header>

      {lastSync && (
        <Section title={lastSync.how === 'created' ? 'Sent when created' : 'Last sync'} aside={`${plural(lastSync.calls.length, 'identify call')}${lastSync.at !== null ? ` at ${formatTimestamp(lastSync.at)}` : ''}`}>
          {lastSync.calls.length ? (
            <SyncCalls label="Identify calls sent" kind={item.kind} traitKey={item.traitKey} calls={lastSync.calls} />
          ) : (
            <p role="status" className="text-xs text-muted">
              Nothing changed since the sync before: no identify call was sent.
            </p>
          )}
        </Section>
      )}

      <Section title="A sync now would send" aside={detail ? plural(detail.pending.length, 'identify call') : undefined}>
        {detail === null ? (
          <p className="text-xs text-faint">Loading…</p>
        ) : detail.pending.length ? (
          <>
            <SyncCalls label="Identify calls a sync would send" kind={item.kind} traitKey={item.traitKey} calls={detail.pending} />
            <NowhereNote sourceId={item.sourceId} when="sync" />
          </>
        ) : (
          <p className="text-xs text-muted">Nothing: {isAudience ? 'membership' : 'every value'} is as the last sync left it.</p>
        )}
      </Section>

      <Section title={isAudience ? 'Members at the last sync' : 'Values at the last sync'} aside={detail ? `${plural(members.length, isAudience ? 'member' : 'user')} · ${plural(detail.users, 'user')} of the source have traits` : undefined}>
        {members.length ? (
          <ul aria-label={isAudience ? 'Members' : 'Values'} className="flex max-h-40 flex-wrap gap-1 overflow-y-auto">
            {members.map((m) => (
              <li key={m.userId} className="rounded bg-panel-2 px-1.5 py-0.5 font-mono text-[11px]">
                {m.userId}
                {!isAudience && <span className="text-muted"> = {JSON.stringify(m.value)}</span>}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-faint">{detail === null ? '' : 'None yet.'}</p>
        )}
      </Section>

      <Section title="Definition">
        {item.kind === 'audience' ? <AudienceEditor key={`${item.id}:${item.syncedAt}:${JSON.stringify([item.members, item.rule])}`} audience={item} savedPreview={savedPreview} /> : <ComputedTraitEditor key={`${item.id}:${JSON.stringify(item.values)}`} trait={item} />}
      </Section>
    </div>
  );
}
