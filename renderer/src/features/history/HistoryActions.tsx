import { useState } from 'react';
import { Ban, Download, RotateCcw, Send, Upload } from 'lucide-react';
import { EXPORT_FORMATS, type ExportFormat } from '../../../../main/contract/api';
import { api } from '../../api/instance';
import { exportFileName, saveText } from '../../lib/download';
import { formatCount, plural } from '../../lib/format';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { DropPanel } from '../../ui/DropPanel';
import { Segmented } from '../../ui/Segmented';
import { BULK_ACTIONS, EXPORT_BOUNDS, exportLeftOut, summariseBulk, type BulkAction } from './bulk';
import { useHistory } from './historyStore';
import type { HistoryFilter } from '../../lib/historyQuery';
import { ImportPanel } from './ImportPanel';
import { SavedFilters } from './SavedFilters';
import type { FilterQuery } from '../../lib/historyQuery';

const FORMAT_LABEL: Record<ExportFormat, string> = { json: 'JSON lines', har: 'HAR', curl: 'cURL' };
const BULK_LABEL: Record<BulkAction, string> = { retry: 'Retry', cancel: 'Cancel', replay: 'Replay' };

/** The bar over the list: what is loaded and selected, the actions on the selection, export, import, saved filters. */
export function HistoryActions({ filter, query, onApplyQuery }: { filter: HistoryFilter; query: FilterQuery; onApplyQuery(query: FilterQuery): void }) {
  const { rows, nextCursor, searching, selected, selectAll, clearSelection, loaded } = useHistory();
  const [busy, setBusy] = useState<BulkAction | null>(null);
  const ids = [...selected].sort((a, b) => b - a);
  const allLoaded = rows.length > 0 && rows.every((r) => selected.has(r.id));

  const run = async (action: BulkAction) => {
    setBusy(action);
    const results = [];
    for (const id of ids) {
      const result =
        action === 'retry'
          ? await api().call('retryNow', { id }, { quiet: true })
          : action === 'cancel'
            ? await api().call('cancelMessage', { id }, { quiet: true })
            : await api().call('replayMessage', { id }, { quiet: true });
      results.push({ id, result });
    }
    setBusy(null);
    const summary = summariseBulk(action, results);
    useToasts.getState().push(summary);
    // Replays are new messages: show them if they match.
    if (action === 'replay') useHistory.getState().show(useHistory.getState().filter, { force: true });
  };

  return (
    <div className="flex min-h-10 shrink-0 flex-wrap items-center gap-x-2 gap-y-1 border-b border-line bg-panel-2/60 px-3 py-1.5 whitespace-nowrap">
      <span className="tabular text-xs text-muted" aria-live="polite">
        {selected.size > 0 ? (
          <span className="font-medium text-fg">{formatCount(selected.size)} selected</span>
        ) : loaded ? (
          `${plural(rows.length, 'message')}${searching ? ' found so far · searching' : nextCursor ? ' loaded · scroll for more' : ''}`
        ) : (
          'Loading…'
        )}
      </span>
      {selected.size > 0 ? (
        <Button variant="ghost" onClick={clearSelection}>
          Clear selection
        </Button>
      ) : (
        <Button variant="ghost" disabled={rows.length === 0 || allLoaded} onClick={selectAll} title={rows.length === 0 ? (loaded ? 'No message to select: none matches this filter' : 'Wait: the messages are loading') : 'Select every message loaded so far'}>
          Select all loaded
        </Button>
      )}
      <div className="h-4 w-px bg-line" aria-hidden />
      {(Object.keys(BULK_ACTIONS) as BulkAction[]).map((action) => {
        // Named for the selection ("Retry selected"): beside an open message, its own Retry now, Cancel and
        // Replay are other buttons. The words stay short, the bar already says "2 selected".
        const blocked = busy !== null ? `Wait: the selection is being ${BULK_ACTIONS[busy].verb}` : selected.size === 0 ? 'Select messages first: tick their boxes (x toggles the row under the cursor)' : null;
        return (
          <Button
            key={action}
            disabled={blocked !== null}
            busy={busy === action}
            icon={action === 'retry' ? <RotateCcw aria-hidden className="size-3.5" /> : action === 'cancel' ? <Ban aria-hidden className="size-3.5" /> : <Send aria-hidden className="size-3.5" />}
            onClick={() => void run(action)}
            aria-label={`${BULK_LABEL[action]} selected`}
            title={blocked ?? (action === 'retry' ? 'Retry now: waiting or failed deliveries are attempted at once' : action === 'cancel' ? 'Cancel waiting and in-flight deliveries' : 'Send the same bodies again as new messages')}
          >
            {BULK_LABEL[action]}
          </Button>
        );
      })}
      <div className="ml-auto flex items-center gap-2">
        <SavedFilters query={query} onApply={onApplyQuery} />
        <DropPanel
          label="Export"
          icon={<Download aria-hidden className="size-3.5" />}
          align="right"
          disabled={!loaded || rows.length === 0}
          title={!loaded ? 'Wait: the messages are loading' : rows.length === 0 ? 'Nothing to export: no message matches this filter' : undefined}
        >
          {(close) => <ExportForm ids={ids} filter={filter} onDone={close} />}
        </DropPanel>
        <DropPanel label="Import" icon={<Upload aria-hidden className="size-3.5" />} align="right" width={360}>
          {(close) => <ImportPanel onDone={close} />}
        </DropPanel>
      </div>
    </div>
  );
}

function ExportForm({ ids, filter, onDone }: { ids: number[]; filter: HistoryFilter; onDone(): void }) {
  const [format, setFormat] = useState<ExportFormat>('har');
  const [includeSecrets, setIncludeSecrets] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = ids.length ? `the ${plural(ids.length, 'selected message')}` : `the messages matching this filter (${EXPORT_BOUNDS})`;
  const go = async () => {
    setBusy(true);
    setError(null);
    const result = await api().call('exportMessages', { ...(ids.length ? { ids } : { filter }), format, includeSecrets }, { quiet: true });
    if (!result.ok) {
      setBusy(false);
      return setError(result.error.message);
    }
    const { text, mimeType, fileExtension, messages, notSent, truncatedBy } = result.value;
    // A file with no message in it is not an export: say why instead of saving it (as `hookbench export` does).
    if (messages === 0) {
      const chosen = ids.length ? 'selected' : 'matching';
      setBusy(false);
      return setError(
        notSent > 0
          ? `${notSent === 1 ? `The ${chosen} message was` : `${truncatedBy ? 'The newest' : 'All'} ${formatCount(notSent)} ${chosen} messages were`} never sent, and ${FORMAT_LABEL[format]} lists attempts: nothing to download (JSON lines holds every message)`
          : 'No message matches this filter: nothing to download',
      );
    }
    try {
      const saved = await saveText(exportFileName(fileExtension), text, mimeType);
      setBusy(false);
      if (saved.saved === 'cancelled') return;
      useToasts.getState().push({
        tone: 'success',
        title: `Exported ${plural(messages, 'message')} as ${FORMAT_LABEL[format]}`,
        message: `${saved.saved === 'dialog' ? `Saved to ${saved.path}.` : 'Downloaded.'}${notSent ? ` ${plural(notSent, 'message')} never sent ${notSent === 1 ? 'is' : 'are'} not in it: ${FORMAT_LABEL[format]} lists attempts (JSON lines holds every message).` : ''}${truncatedBy ? ` ${exportLeftOut(truncatedBy)}` : ''}${includeSecrets ? ' It contains secrets.' : ''}`,
      });
      onDone();
    } catch (e) {
      setBusy(false);
      setError(`could not save the file: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <div className="flex flex-col gap-3 text-xs">
      <p className="text-muted">Exports {what}, with their deliveries and attempts.</p>
      <div className="flex items-center gap-2">
        <span className="text-muted">Format</span>
        <Segmented<ExportFormat> label="Format" value={format} onChange={setFormat} options={EXPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABEL[f] }))} />
      </div>
      <p className="text-[11px] text-faint">
        {format === 'json' ? 'JSON lines: one message a line, as the API answers it; Import reads it back.' : format === 'har' ? 'HAR 1.2: one entry per attempt, for browser dev tools and HAR viewers; Import reads it back.' : 'A shell script: one curl command per attempt, sending the same bytes and signature again.'}
      </p>
      <label className="flex items-start gap-2">
        <input type="checkbox" checked={includeSecrets} onChange={(e) => setIncludeSecrets(e.target.checked)} className="mt-px size-3.5 shrink-0 accent-[var(--accent)]" />
        <span className="flex flex-col">
          <span>Include secrets</span>
          <span className="text-[11px] text-faint">Otherwise shared secrets, write keys and credential headers are replaced by &lt;redacted&gt;.</span>
        </span>
      </label>
      {error && (
        <p role="alert" className="text-err">
          {error}
        </p>
      )}
      <div className="flex justify-end">
        <Button variant="primary" busy={busy} icon={<Download aria-hidden className="size-3.5" />} onClick={() => void go()}>
          Download {FORMAT_LABEL[format]}
        </Button>
      </div>
    </div>
  );
}
