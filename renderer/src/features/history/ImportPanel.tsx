import { useId, useState } from 'react';
import { FileUp } from 'lucide-react';
import { IMPORT_LIMITS } from '../../../../main/contract/apiLimits';
import { invalidUtf8Words, scanInvalidUtf8 } from '../../../../main/contract/utf8Text';
import { api } from '../../api/instance';
import { formatBytes, formatCount, plural } from '../../lib/format';
import { useCatalog } from '../../stores/catalog';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { useEngine } from '../../stores/engine';
import { useHistory } from './historyStore';
import { whatHappens } from './importWords';

/**
 * Import a JSON lines or HAR export: its messages are sent again (importMessages), through their original
 * source or destinations where those exist here, or through a source chosen here. The file is read in the
 * browser (or through the desktop app's open dialog) and checked against the import's size limit first.
 */
export function ImportPanel({ onDone }: { onDone(): void }) {
  const sources = useCatalog((s) => s.sources);
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [source, setSource] = useState('');
  const [keepMessageIds, setKeepMessageIds] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const bridge = window.hookbench;

  // A file refused leaves none chosen: Import must not go on with the one chosen before it.
  const refuse = (message: string) => {
    setFile(null);
    setError(message);
  };
  const take = (name: string, text: string) => {
    setError(null);
    if (text.length > IMPORT_LIMITS.textChars) {
      return refuse(`${name}: ${formatCount(text.length)} characters is more than the ${formatCount(IMPORT_LIMITS.textChars)} one import takes; export fewer messages`);
    }
    setFile({ name, text });
  };
  const pickInBrowser = async (list: FileList | null) => {
    const chosen = list?.[0];
    if (!chosen) return;
    // Characters are at most bytes: a file this large cannot fit.
    if (chosen.size > IMPORT_LIMITS.textChars * 4) return refuse(`${chosen.name}: ${formatBytes(chosen.size)} is more than one import takes (${formatCount(IMPORT_LIMITS.textChars)} characters); export fewer messages`);
    // File.text() would replace a byte that is not UTF-8 with U+FFFD and import that: the bytes are checked first.
    const bytes = new Uint8Array(await chosen.arrayBuffer());
    const bad = scanInvalidUtf8(bytes);
    if (bad >= 0) return refuse(`${chosen.name}: ${invalidUtf8Words(bytes, bad)}`);
    // A byte-order mark is kept, as the CLI keeps it, for the import to name.
    take(chosen.name, new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));
  };
  const pickInDesktop = async () => {
    try {
      const chosen = await bridge!.openFile({ purpose: 'import', title: 'Import a Hookbench export (JSON lines or HAR)' });
      if (chosen?.text !== undefined) take(chosen.path.split(/[\\/]/).pop() ?? chosen.path, chosen.text);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const go = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    const result = await api().call('importMessages', { text: file.text, ...(source ? { source } : {}), ...(keepMessageIds ? { keepMessageIds } : {}) }, { quiet: true });
    setBusy(false);
    // `text: line 2: …` names the API's field (also in a `source` error about a line); here the text is the file chosen.
    if (!result.ok) return setError(result.error.message.replace(/^text: /, `${file.name}: `));
    const n = result.value.imported.length;
    useToasts.getState().push({ tone: 'success', title: `Imported ${plural(n, 'message')}`, message: `From ${file.name} (${result.value.format === 'har' ? 'HAR' : 'JSON lines'}); ${whatHappens(result.value.imported, useEngine.getState().paused)}.` });
    useHistory.getState().show(useHistory.getState().filter, { force: true });
    onDone();
  };

  return (
    <div className="flex flex-col gap-3 text-xs">
      <p className="text-muted">Send the messages of a JSON lines or HAR export again (at most {formatCount(IMPORT_LIMITS.messages)} messages). Each gets a new message ID unless you keep them.</p>
      {bridge ? (
        <Button icon={<FileUp aria-hidden className="size-3.5" />} onClick={() => void pickInDesktop()}>
          {file ? file.name : 'Choose an export file…'}
        </Button>
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor={inputId} className="text-muted">
            Export file
          </label>
          <input id={inputId} type="file" accept=".har,.json,.jsonl,.ndjson,application/json" onChange={(e) => void pickInBrowser(e.target.files)} className="text-xs file:mr-2 file:rounded-md file:border file:border-line file:bg-panel file:px-2 file:py-1 file:text-xs file:text-fg" />
        </div>
      )}
      <Select
        label="Route through"
        value={source}
        onChange={setSource}
        options={[{ value: '', label: 'original source or destinations' }, ...sources.map((s) => ({ value: s.id, label: `source ${s.name}` }))]}
      />
      <label className="flex items-start gap-2">
        <input type="checkbox" checked={keepMessageIds} onChange={(e) => setKeepMessageIds(e.target.checked)} className="mt-px size-3.5 shrink-0 accent-[var(--accent)]" />
        <span className="flex flex-col">
          <span>Keep message IDs</span>
          <span className="text-[11px] text-faint">Receivers that de-duplicate will drop the copies.</span>
        </span>
      </label>
      {error && (
        <p role="alert" className="break-words text-err">
          {error}
        </p>
      )}
      <div className="flex justify-end">
        <Button variant="primary" busy={busy} disabled={!file} title={file ? undefined : 'Choose an export file first'} onClick={() => void go()}>
          Import{file ? ` ${file.name}` : ''}
        </Button>
      </div>
    </div>
  );
}
