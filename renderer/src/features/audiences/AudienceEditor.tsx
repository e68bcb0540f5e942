import { useId, useMemo, useState, type FormEvent } from 'react';
import { snakeCase, type Audience, type AudiencePreview } from '../../../../main/contract/audiences';
import type { ApiError } from '../../../../main/contract/result';
import { eachProblem } from '../../../../main/contract/schemaErrors';
import { api } from '../../api/instance';
import { formatCount, plural } from '../../lib/format';
import { useCatalog } from '../../stores/catalog';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import { useAudiences } from './audiencesStore';
import { NowhereNote, useNowhere } from './NowhereNote';
import { RuleEditor } from './RuleEditor';
import { fromRule, isUntouched, ownerOf, parseMembers, toRule, type EditGroup } from './ruleModel';
import { usePreview, type PreviewState } from './usePreview';

/** How many matching users the preview lists by name. */
const SHOWN_MATCHES = 24;

/**
 * A new audience (source, name, members, rule) or an existing one's members and rule. The snake_case trait
 * key shows as the name is typed (the contract's snakeCase, the engine's rule); who the definition holds
 * now is previewed (previewAudience) before anything is saved or sent.
 */
/** `savedPreview`: who the saved definition holds now, read with the audience's detail (shown while the form is untouched). */
export function AudienceEditor({ audience, onCreated, savedPreview = null }: { audience: Audience | null; onCreated?(id: string): void; savedPreview?: AudiencePreview | null }) {
  const sources = useCatalog((s) => s.sources);
  const [source, setSource] = useState(audience?.sourceId ?? sources[0]?.id ?? '');
  const [name, setName] = useState('');
  const [membersText, setMembersText] = useState((audience?.members ?? []).join('\n'));
  const [root, setRoot] = useState<EditGroup>(() => fromRule(audience?.rule ?? null));
  // Every problem the server named, each under its field; one goes as soon as its field is edited.
  const [problems, setProblems] = useState<ApiError[]>([]);
  const setError = (e: ApiError | null) => setProblems(e ? eachProblem(e) : []);
  const clear = (prefix: string) => setProblems((all) => all.filter((p) => !(p.field ?? 'name').startsWith(prefix)));
  const [busy, setBusy] = useState(false);
  const membersId = useId();
  // The hint beside Create must not promise identify calls the note above says go nowhere.
  const nowhere = useNowhere(source);

  const members = useMemo(() => parseMembers(membersText), [membersText]);
  const rule = useMemo(() => toRule(root), [root]);
  const savedDefinition = useMemo(() => (audience ? JSON.stringify([audience.members, toRule(fromRule(audience.rule))]) : null), [audience]);
  const untouched = savedDefinition !== null && savedDefinition === JSON.stringify([members, rule]) && savedPreview !== null;
  const own = usePreview(untouched ? null : source || null, members, rule);
  const preview: PreviewState = untouched ? { state: 'done', value: savedPreview } : own;
  const key = audience ? { ok: true as const, value: audience.traitKey } : name.trim() ? snakeCase(name.trim()) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    if (audience) {
      const result = await api().call('updateAudience', { id: audience.id, patch: { members: members.length ? members : null, rule } }, { quiet: true });
      setBusy(false);
      if (!result.ok) return setError(result.error);
      await useAudiences.getState().load();
      return;
    }
    const result = await api().call('createAudience', { source, name, ...(members.length ? { members } : {}), ...(rule ? { rule } : {}) }, { quiet: true });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    useAudiences.getState().recordSync(result.value.audience.id, { at: result.value.audience.syncedAt, calls: result.value.sync.calls, how: 'created' });
    await useAudiences.getState().load();
    onCreated?.(result.value.audience.id);
  };

  const fieldError = (field: string) => problems.find((p) => (p.field ?? 'name') === field)?.message ?? null;
  const saved = problems.find((p) => p.field?.startsWith('rule'));
  const previewProblem = preview.state === 'error' && preview.error.field?.startsWith('rule') ? { field: preview.error.field, message: eachProblem(preview.error)[0]!.message } : null;
  // A condition just added has nothing to judge yet: the preview waits for it without calling it wrong.
  const waitingFor = previewProblem ? ownerOf(root, previewProblem.field) : null;
  const unfinished = waitingFor && isUntouched(waitingFor.node) ? waitingFor : null;
  const ruleError = saved ? { field: saved.field!, message: saved.message } : unfinished ? null : previewProblem;
  const otherError = problems.filter((p) => !(p.field ?? 'name').startsWith('rule') && !['name', 'source', 'members'].includes(p.field ?? 'name')).map((p) => p.message).join('; ') || null;

  return (
    <form aria-label={audience ? `Definition of ${audience.name}` : 'New audience'} onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
      {!audience && (
        <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2">
          <TextField
            label="Name"
            value={name}
            onChange={(v) => (setName(v), clear('name'))}
            mono={false}
            placeholder="Big Spenders (EU) 2026"
            error={fieldError('name')}
            help={key === null ? 'Each member is sent an identify with this name, snake_cased, as a trait.' : key.ok ? <>Sends the trait <code className="font-mono text-fg">{key.value}</code></> : key.error.message}
          />
          <div className="pt-5">
            <Select label="Source" value={source} onChange={setSource} options={sources.map((s) => ({ value: s.id, label: s.name }))} />
          </div>
        </div>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={membersId} className="text-xs text-muted">
          Explicit members <span className="text-faint">(user IDs, one a line or comma-separated)</span>
        </label>
        <textarea id={membersId} value={membersText} onChange={(e) => (setMembersText(e.target.value), clear('members'))} rows={2} spellCheck={false} aria-invalid={fieldError('members') ? true : undefined} className={`min-h-12 rounded-md border bg-panel px-2 py-1 font-mono text-xs ${fieldError('members') ? 'border-err' : 'border-line focus-visible:border-accent'}`} />
        {fieldError('members') && <p className="text-[11px] text-err">{fieldError('members')}</p>}
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-xs text-muted">Rule over the traits the source’s identify calls reported</span>
        <RuleEditor value={root} onChange={(next) => (setRoot(next), clear('rule'))} traits={preview.state === 'done' ? preview.value.traits : []} error={ruleError} />
      </div>
      <div role="status" aria-label="Matches now" className="rounded-md border border-line bg-panel-2/60 px-2.5 py-2 text-xs">
        {preview.state === 'done' ? (
          <>
            <p>
              <span className="font-semibold">{plural(preview.value.total, 'user')}</span> would belong now
              <span className="text-muted"> ({plural(preview.value.users, 'user')} of this source have traits)</span>
            </p>
            {preview.value.members.length > 0 && (
              <p className="mt-1 font-mono text-[11px] break-words text-muted">
                {preview.value.members.slice(0, SHOWN_MATCHES).join(', ')}
                {preview.value.total > SHOWN_MATCHES && ` and ${formatCount(preview.value.total - SHOWN_MATCHES)} more`}
              </p>
            )}
          </>
        ) : unfinished ? (
          <p className="text-muted">Give the new condition a trait to see who matches.</p>
        ) : preview.state === 'error' ? (
          <p className="text-err">{preview.error.message}</p>
        ) : (
          <p className="text-faint">{source ? 'Checking who matches…' : 'Pick a source.'}</p>
        )}
      </div>
      {otherError && <p className="text-xs text-err">{otherError}</p>}
      {!audience && <NowhereNote sourceId={source} when="create" />}
      <div className="flex items-center gap-2">
        <Button type="submit" variant="primary" busy={busy} disabled={!source} title={source ? undefined : 'Choose its source first'}>
          {audience ? 'Save' : 'Create audience'}
        </Button>
        <span className="text-[11px] text-faint">{audience ? 'Takes effect at the next Sync.' : nowhere ? 'Creating it counts every member as told at once, though nothing is sent.' : 'Creating it sends an identify to every member at once.'}</span>
      </div>
    </form>
  );
}
