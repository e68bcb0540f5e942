import { useEffect, type ReactNode } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { BookUser, Plus, UserX } from 'lucide-react';
import { plural } from '../../lib/format';
import { sourceName, useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { AudienceDetail } from './AudienceDetail';
import { AudienceEditor } from './AudienceEditor';
import { useAudiences } from './audiencesStore';
import { ComputedTraitEditor } from './ComputedTraitEditor';
import { DeletionDetail, DeletionForm } from './Deletion';
import { PickButton } from '../../ui/PickButton';

type Kind = 'audience' | 'trait' | 'deletion';

/**
 * Audiences, computed traits and deletion requests: the three lists on the left, the selected one (or a
 * new one's form) on the right. Routes: `#/audiences/audience/<id>`, `#/audiences/trait/<id>`,
 * `#/audiences/deletion/<id>`, `#/audiences/new/<kind>`.
 */
export function AudiencesView() {
  const { items, deletions, loaded, load } = useAudiences();
  const sources = useCatalog((s) => s.sources);
  const catalogLoaded = useCatalog((s) => s.loaded);
  const sub = useRouter((s) => s.route.sub);
  const navigate = useRouter((s) => s.navigate);
  useEffect(() => void load(), [load]);

  const go = (...parts: string[]) => navigate({ view: 'audiences', sub: parts });
  const audiences = items.filter((i) => i.kind === 'audience');
  const traits = items.filter((i) => i.kind === 'computed_trait');
  const [first, second] = sub;
  const creating = first === 'new' ? (second as Kind | undefined) : undefined;
  const selectedItem = first === 'audience' || first === 'trait' ? items.find((i) => i.id === second) : undefined;
  const selectedDeletion = first === 'deletion' ? deletions.find((d) => String(d.id) === second) : undefined;
  const nothingYet = loaded && items.length === 0 && deletions.length === 0;

  let right: ReactNode;
  if (creating === 'audience') right = <Pane title="New audience"><AudienceEditor audience={null} onCreated={(id) => go('audience', id)} /></Pane>;
  else if (creating === 'trait') right = <Pane title="New computed trait"><ComputedTraitEditor trait={null} onCreated={(id) => go('trait', id)} /></Pane>;
  else if (creating === 'deletion') right = <Pane title="New deletion request"><DeletionForm onCreated={(id) => go('deletion', String(id))} /></Pane>;
  else if (selectedItem) right = <Pane><AudienceDetail key={selectedItem.id} item={selectedItem} onDeleted={() => go()} /></Pane>;
  else if (selectedDeletion) right = <Pane><DeletionDetail key={selectedDeletion.id} request={selectedDeletion} /></Pane>;
  else if (first !== undefined && loaded) right = <p className="p-4 text-xs text-err">Nothing here at “{sub.join('/')}”: it may have been deleted.</p>;
  else if (catalogLoaded && sources.length === 0)
    right = (
      <EmptyState icon={<BookUser />} title="Audiences need a source" action={<Button variant="primary" onClick={() => navigate({ view: 'sources' })}>Go to Sources</Button>}>
        An audience belongs to a source and is built from the traits its identify calls report. Create a source first, then send it a few identify calls.
      </EmptyState>
    );
  else
    right = (
      <EmptyState icon={<BookUser />} title={nothingYet ? 'No audiences yet' : 'Pick one on the left'} action={nothingYet ? <Button variant="primary" onClick={() => go('new', 'audience')}>Create the first audience</Button> : undefined}>
        An audience sends each member an identify with its snake_cased name as a trait (<code className="font-mono">big_spenders: true</code>), and on every Sync only the users who joined (true) or left (false). A computed trait sends each user a value. A deletion request sends a <code className="font-mono">delete</code> message per source.
      </EmptyState>
    );

  return (
    <Group orientation="horizontal" className="h-full">
      <Panel id="audience-lists" defaultSize="34%" minSize="26%" className="flex flex-col overflow-y-auto bg-panel">
        <ListSection title="Audiences" count={audiences.length} noun="audience" action="New audience" onNew={() => go('new', 'audience')} needsSource={sources.length === 0} active={creating === 'audience'}>
          {audiences.map((a) => (
            <Item key={a.id} label={a.name} detail={`${sourceName(sources, a.sourceId)} · ${a.traitKey}`} active={a.id === selectedItem?.id} onClick={() => go('audience', a.id)} />
          ))}
        </ListSection>
        <ListSection title="Computed traits" count={traits.length} noun="computed trait" action="New computed trait" onNew={() => go('new', 'trait')} needsSource={sources.length === 0} active={creating === 'trait'}>
          {traits.map((t) => (
            <Item key={t.id} label={t.name} detail={`${sourceName(sources, t.sourceId)} · ${t.traitKey}`} active={t.id === selectedItem?.id} onClick={() => go('trait', t.id)} />
          ))}
        </ListSection>
        <ListSection title="Deletion requests" count={deletions.length} noun="deletion request" action="New deletion request" onNew={() => go('new', 'deletion')} needsSource={sources.length === 0} active={creating === 'deletion'} icon={<UserX aria-hidden className="size-3.5" />}>
          {deletions.map((d) => (
            <Item key={d.id} label={`#${d.id} ${d.userId}`} detail={plural(d.sourceIds.length, 'source')} active={d.id === selectedDeletion?.id} onClick={() => go('deletion', String(d.id))} />
          ))}
        </ListSection>
      </Panel>
      <Separator className="w-px" />
      <Panel id="audience-detail" minSize="45%" className="flex flex-col bg-bg">
        <div className="min-h-0 flex-1 overflow-y-auto">{right}</div>
      </Panel>
    </Group>
  );
}

function Pane({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-3 p-4">
      {title && <h3 className="text-[15px] font-semibold">{title}</h3>}
      {children}
    </div>
  );
}

function ListSection({ title, count, noun, action, onNew, needsSource, active, icon, children }: { title: string; count: number; noun: string; action: string; onNew(): void; needsSource: boolean; active: boolean; icon?: ReactNode; children: ReactNode }) {
  const blocked = needsSource ? 'There is no source yet: create one in Sources first' : active ? `The new ${noun}’s form is open on the right` : null;
  return (
    <section aria-label={title} className="border-b border-line">
      <div className="flex h-10 items-center gap-2 px-3">
        <h2 className="text-xs font-semibold tracking-wide whitespace-nowrap text-muted uppercase">{title}</h2>
        <span className="text-[11px] whitespace-nowrap text-faint">{count}</span>
        <Button className="ml-auto" variant="ghost" icon={icon ?? <Plus aria-hidden className="size-3.5" />} onClick={onNew} disabled={blocked !== null} aria-label={action} title={blocked ?? action}>
          New
        </Button>
      </div>
      {count > 0 ? (
        <ul aria-label={title} className="flex flex-col gap-0.5 px-1.5 pb-1.5">
          {children}
        </ul>
      ) : (
        <p className="px-3 pb-2.5 text-[11px] text-faint">No {noun} yet.</p>
      )}
    </section>
  );
}

function Item({ label, detail, active, onClick }: { label: string; detail: string; active: boolean; onClick(): void }) {
  return (
    <li>
      <PickButton label={label} active={active} onClick={onClick} className="flex flex-col py-1">
        <span className={`w-full truncate ${active ? 'font-semibold' : ''}`}>{label}</span>
        <span className="w-full truncate font-mono text-[11px] text-faint">{detail}</span>
      </PickButton>
    </li>
  );
}
