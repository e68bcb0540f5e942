import { useState, type FormEvent } from 'react';
import { SOURCE_KINDS, type Source, type SourceKind } from '../../../../main/contract/sources';
import { api } from '../../api/instance';
import { useCatalog } from '../../stores/catalog';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';

/** How a refusal names each field: as the form labels it. */
const LABELS = { name: 'Name', writeKey: 'Write key' } as const;

/** Name, kind and an optional write key (generated when left empty); server errors land on their field. */
export function NewSourceForm({ onDone }: { onDone(created: Source | null): void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SourceKind>('server');
  const [writeKey, setWriteKey] = useState('');
  /** The server's refusal, with what its field held then: it shows until that field changes. */
  const [error, setError] = useState<{ field: 'name' | 'writeKey'; message: string; value: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await api().call('createSource', { name, kind, ...(writeKey.trim() ? { writeKey: writeKey.trim() } : {}) }, { quiet: true });
    setBusy(false);
    if (!result.ok) {
      const field = result.error.field === 'writeKey' ? 'writeKey' : 'name';
      // Said as the form labels the field, not by the API's name for it.
      const words = result.error.message.startsWith(`${result.error.field}: `) ? result.error.message.slice(`${result.error.field}: `.length) : result.error.message;
      return setError({ field, message: `${LABELS[field]}: ${words}`, value: field === 'name' ? name : writeKey });
    }
    await useCatalog.getState().load();
    onDone(result.value);
  };
  const on = (field: 'name' | 'writeKey') => (error?.field === field && error.value === (field === 'name' ? name : writeKey) ? error.message : null);
  return (
    <form aria-label="New source" onSubmit={(e) => void submit(e)} className="flex flex-col gap-2">
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-2">
        <TextField label="Name" value={name} onChange={setName} error={on('name')} placeholder="backend" autoFocus />
        <Select label="Kind" value={kind} onChange={(v) => setKind(v as SourceKind)} options={SOURCE_KINDS} className="pb-px" />
      </div>
      <TextField label="Write key (optional)" value={writeKey} onChange={setWriteKey} error={on('writeKey')} placeholder="generated: wk_ + 24 hex digits" help="SDKs send it as Basic auth (the user name) or as writeKey in the body." />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" busy={busy}>
          Create source
        </Button>
        <Button onClick={() => onDone(null)}>Cancel</Button>
      </div>
    </form>
  );
}
