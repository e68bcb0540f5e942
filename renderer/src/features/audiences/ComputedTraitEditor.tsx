import { useId, useState, type FormEvent } from 'react';
import { snakeCase, type ComputedTrait, type JsonValue } from '../../../../main/contract/audiences';
import type { ApiError } from '../../../../main/contract/result';
import { readTypedJson } from '../../../../main/contract/jsonText';
import { api } from '../../api/instance';
import { useCatalog } from '../../stores/catalog';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import { useAudiences } from './audiencesStore';
import { NowhereNote, useNowhere } from './NowhereNote';

/** The values as the text box holds them: a JSON object, userId → value (null: no value). */
function parseValues(text: string): { ok: true; values: Record<string, JsonValue> } | { ok: false; message: string } {
  // Read as the API reads it: a key given twice or a 16-digit number is refused, not silently changed.
  const read = readTypedJson(text);
  if (!read.ok) return { ok: false, message: `values: ${read.message}` };
  const parsed = read.value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, message: 'values: must be a JSON object, {"userId": value, ...}' };
  return { ok: true, values: parsed as Record<string, JsonValue> };
}

/** A new computed trait (source, name, values) or an existing one's values; each user gets `<key>: value`. */
export function ComputedTraitEditor({ trait, onCreated }: { trait: ComputedTrait | null; onCreated?(id: string): void }) {
  const sources = useCatalog((s) => s.sources);
  const [source, setSource] = useState(trait?.sourceId ?? sources[0]?.id ?? '');
  // The hint beside Create must not promise identify calls the note above says go nowhere.
  const nowhere = useNowhere(source);
  const [name, setName] = useState('');
  const [text, setText] = useState(trait ? JSON.stringify(trait.values, null, 2) : '{\n  "user-1": 120.5\n}');
  const [error, setError] = useState<ApiError | { field: 'values'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const valuesId = useId();
  const key = name.trim() ? snakeCase(name.trim()) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const values = parseValues(text);
    if (!values.ok) return setError({ field: 'values', message: values.message });
    setBusy(true);
    if (trait) {
      const result = await api().call('updateComputedTrait', { id: trait.id, values: values.values }, { quiet: true });
      setBusy(false);
      if (!result.ok) return setError(result.error);
      await useAudiences.getState().load();
      return;
    }
    const result = await api().call('createComputedTrait', { source, name, values: values.values }, { quiet: true });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    useAudiences.getState().recordSync(result.value.computedTrait.id, { at: result.value.computedTrait.syncedAt, calls: result.value.sync.calls, how: 'created' });
    await useAudiences.getState().load();
    onCreated?.(result.value.computedTrait.id);
  };
  const valuesError = error && error.field?.startsWith('values') ? error.message : null;
  const nameError = error && !valuesError ? error.message : null;

  return (
    <form aria-label={trait ? `Values of ${trait.name}` : 'New computed trait'} onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
      {!trait && (
        <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2">
          <TextField label="Name" value={name} onChange={setName} mono={false} placeholder="Lifetime Value" error={nameError} help={key === null ? 'Each user is sent an identify with this name, snake_cased, as a trait.' : key.ok ? <>Sends the trait <code className="font-mono text-fg">{key.value}</code></> : key.error.message} />
          <div className="pt-5">
            <Select label="Source" value={source} onChange={setSource} options={sources.map((s) => ({ value: s.id, label: s.name }))} />
          </div>
        </div>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={valuesId} className="text-xs text-muted">
          Values <span className="text-faint">(JSON: userId → value; null or left out: no value, sent null once)</span>
        </label>
        <textarea id={valuesId} value={text} onChange={(e) => setText(e.target.value)} rows={6} spellCheck={false} aria-invalid={valuesError ? true : undefined} className={`rounded-md border bg-panel px-2 py-1 font-mono text-xs ${valuesError ? 'border-err' : 'border-line focus-visible:border-accent'}`} />
        {valuesError && <p className="text-[11px] text-err">{valuesError}</p>}
      </div>
      {trait && nameError && <p className="text-xs text-err">{nameError}</p>}
      {!trait && <NowhereNote sourceId={source} when="create" />}
      <div className="flex items-center gap-2">
        <Button type="submit" variant="primary" busy={busy} disabled={!source} title={source ? undefined : 'Choose its source first'}>
          {trait ? 'Save' : 'Create computed trait'}
        </Button>
        <span className="text-[11px] text-faint">{trait ? 'Takes effect at the next Sync.' : nowhere ? 'Creating it counts each user as told their value at once, though nothing is sent.' : 'Creating it sends each user their value at once.'}</span>
      </div>
    </form>
  );
}
