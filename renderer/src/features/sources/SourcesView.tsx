import { useEffect, useState } from 'react';
import { Group, Panel, Separator } from 'react-resizable-panels';
import { Plug, ShieldCheck } from 'lucide-react';
import { useRefresh } from '../../api/useRefresh';
import { plural } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { useCatalog } from '../../stores/catalog';
import { engineNow, useEngine } from '../../stores/engine';
import { useRouter } from '../../stores/router';
import { EmptyState } from '../../ui/EmptyState';
import { IngestLog } from './IngestLog';
import { NewSourceForm } from './NewSourceForm';
import { DEFAULT_INGEST_URL, SdkSnippets } from './SdkSnippets';
import { SDKS, type Sdk } from './sdkSnippets';
import { SourceDetail } from './SourceDetail';
import { SourceList } from './SourceList';
import { POLL_MS, useSources } from './sourcesStore';
import { ListDetailPanel } from '../../ui/ListDetailPanel';

/**
 * Sources: the list with usage and the last hour on the left, the selected one's write key and counters
 * below it; on the right, SDK snippets pointed at this workbench, and the ingest log of refused requests.
 * Routes: `#/sources/<name>?sdk=curl&refusal=12`.
 */
export function SourcesView() {
  const sources = useCatalog((s) => s.sources);
  const catalogLoaded = useCatalog((s) => s.loaded);
  const { usage, ingestUrl, log, logLoaded, olderCursor, loadingOlder, refresh, loadSettings, loadOlder } = useSources();
  const route = useRouter((s) => s.route);
  const navigate = useRouter((s) => s.navigate);
  const clock = useEngine((s) => s.clock);
  const now = engineNow(clock, useNow(1000));
  const [creating, setCreating] = useState(false);

  useEffect(() => void loadSettings(), [loadSettings]);
  useRefresh('sources', refresh, { everyMs: POLL_MS });

  const wanted = route.sub[0] ?? null;
  // By name (the Sources screen's own links) or id (Troubleshoot's evidence).
  const selected = sources.find((s) => s.name === wanted || s.id === wanted) ?? (wanted === null ? sources[0] : undefined) ?? null;
  const sdk: Sdk = (SDKS as readonly string[]).includes(route.query['sdk'] ?? '') ? (route.query['sdk'] as Sdk) : 'node';
  const openId = /^\d+$/.test(route.query['refusal'] ?? '') ? Number(route.query['refusal']) : null;
  const go = (patch: { source?: string | null; sdk?: Sdk; refusal?: number | null }, replace = false) => {
    const source = patch.source !== undefined ? patch.source : (selected?.name ?? null);
    const query: Record<string, string> = { ...route.query };
    if (patch.sdk !== undefined) query['sdk'] = patch.sdk;
    if (patch.refusal !== undefined) query['refusal'] = patch.refusal === null ? '' : String(patch.refusal);
    navigate({ view: 'sources', sub: source ? [source] : [], query }, { replace });
  };

  return (
    <Group orientation="horizontal" className="h-full">
      <Panel id="sources" defaultSize="42%" minSize="30%" className="flex flex-col bg-panel">
        <ListDetailPanel
          noun="source"
          count={sources.length}
          loaded={catalogLoaded}
          creating={creating}
          onNew={() => setCreating(true)}
          newForm={
            <NewSourceForm
              onDone={(created) => {
                setCreating(false);
                if (created) go({ source: created.name });
              }}
            />
          }
          emptyIcon={<Plug />}
          emptyText={
            <>
              A source is where calls come from: your backend, a website, an app. Each has a write key; point an SDK at{' '}
              <code className="font-mono whitespace-nowrap">{ingestUrl ?? DEFAULT_INGEST_URL}</code> with it and its calls reach the destinations connected to it.
            </>
          }
          list={<SourceList sources={sources} usage={usage} selected={selected?.name ?? null} onSelect={(name) => go({ source: name, refusal: null })} />}
          detail={selected && <SourceDetail key={selected.id} source={selected} usage={usage[selected.id]} onDeleted={() => go({ source: null })} />}
          missing={wanted !== null && !selected ? wanted : null}
        />
      </Panel>
      <Separator className="w-px" />
      <Panel id="sources-right" minSize="35%" className="flex flex-col bg-panel">
        <Group orientation="vertical" className="min-h-0 flex-1">
          <Panel id="snippets" defaultSize="52%" minSize="20%" className="flex flex-col">
            {selected ? (
              <SdkSnippets source={selected} ingestUrl={ingestUrl} sdk={sdk} onSdk={(s) => go({ sdk: s }, true)} />
            ) : (
              <EmptyState icon={<Plug />} title="SDK snippets">
                Create a source to get code for @segment/analytics-node, the browser, cURL, Python, Go and Hookbench’s client, pointed at this workbench with its write key.
              </EmptyState>
            )}
          </Panel>
          <Separator className="h-px" />
          <Panel id="ingest-log" minSize="20%" className="flex flex-col">
            <div className="flex h-10 shrink-0 items-center gap-2 border-t border-b border-line px-3 whitespace-nowrap">
              <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">Ingest log</h2>
              <span className="truncate text-[11px] text-faint">every source's refused requests, newest first</span>
              <span className="tabular ml-auto text-xs text-muted" aria-live="polite">
                {plural(log.length, 'refusal')}
                {olderCursor !== null && '+'}
              </span>
            </div>
            {logLoaded && log.length === 0 ? (
              <EmptyState icon={<ShieldCheck />} title="Nothing refused">
                Requests the ingestion API refuses appear here with their reason, field and limit: an unknown write key (401), invalid JSON, a call over 32 KiB, a request over 500 KiB, a missing userId…
              </EmptyState>
            ) : (
              <IngestLog log={log} sources={sources} engineNow={now} openId={openId} onOpen={(id) => go({ refusal: id }, true)} canLoadOlder={olderCursor !== null} loadingOlder={loadingOlder} onLoadOlder={() => void loadOlder()} />
            )}
          </Panel>
        </Group>
      </Panel>
    </Group>
  );
}
