import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import type { Source } from '../../../../main/contract/sources';
import { secretKey, useSecrets } from '../../stores/secrets';
import { CodeView } from '../../ui/CodeView';
import { CopyButton } from '../../ui/CopyButton';
import { Segmented } from '../../ui/Segmented';
import { SDK_LABELS, sdkSnippet, SDKS, type Sdk } from './sdkSnippets';
import { clearWriteKey } from './SourceDetail';

/** Where the snippets point when the workbench does not say (a face without an ingestion listener). */
export const DEFAULT_INGEST_URL = 'http://127.0.0.1:4400';

/**
 * Code for each SDK, pointed at this workbench with the source's write key. The key shows masked until
 * "Show write key"; Copy always copies the snippet with the key in clear.
 */
export function SdkSnippets({ source, ingestUrl, sdk, onSdk }: { source: Source; ingestUrl: string | null; sdk: Sdk; onSdk(sdk: Sdk): void }) {
  const [shown, setShown] = useState(false);
  const clear = useSecrets((s) => s.values[secretKey('source', source.id)]);
  const reveal = useSecrets((s) => s.reveal);
  const url = ingestUrl ?? DEFAULT_INGEST_URL;
  const displayed = sdkSnippet(sdk, { ingestUrl: url, writeKey: shown && typeof clear === 'string' ? clear : source.writeKey });
  const name = SDK_LABELS[sdk];
  const toggle = async () => {
    if (shown) return setShown(false);
    if ((await reveal('source', source.id)) !== undefined) setShown(true);
  };
  return (
    <section aria-label="SDK snippets" className="flex h-full min-h-0 flex-col">
      <div className="flex h-10 shrink-0 items-center gap-2 border-b border-line px-3 whitespace-nowrap">
        <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">Send events</h2>
        <span className="min-w-0 truncate text-[11px] text-faint">
          to <span className="font-mono">{url}</span> as <span className="font-mono">{source.name}</span>
        </span>
        <div className="ml-auto flex items-center gap-1">
          <button
            type="button"
            onClick={() => void toggle()}
            aria-pressed={shown}
            className="flex h-7 items-center gap-1 rounded-md px-1.5 text-[11px] text-muted hover:bg-hover hover:text-fg"
            title={shown ? 'Show the write key masked' : 'Show the write key in clear in the snippet'}
          >
            {shown ? <EyeOff aria-hidden className="size-3.5" /> : <Eye aria-hidden className="size-3.5" />}
            {shown ? 'Hide write key' : 'Show write key'}
          </button>
          <CopyButton text={async () => sdkSnippet(sdk, { ingestUrl: url, writeKey: await clearWriteKey(source) })} label={`Copy ${name} snippet`} showLabel={false} />
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2 px-3 py-1.5">
        <Segmented<Sdk> label="SDK" value={sdk} onChange={onSdk} options={SDKS.map((s) => ({ value: s, label: SDK_LABELS[s] }))} />
      </div>
      {ingestUrl === null && (
        <p role="note" className="mx-3 mb-1.5 rounded-md bg-warn-soft px-2 py-1 text-[11px] text-warn">
          This window has no ingestion listener of its own; the snippets use the default {DEFAULT_INGEST_URL} of <span className="font-mono">hookbench serve</span>.
        </p>
      )}
      <div className="min-h-0 flex-1 overflow-auto border-t border-line">
        <CodeView value={displayed} label={`${name} snippet`} language="text" maxHeight="none" />
      </div>
    </section>
  );
}
