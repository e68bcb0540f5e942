import { useId, useState } from 'react';
import { Eye, EyeOff, RotateCcw, Save, Trash2 } from 'lucide-react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { defaultScript } from '../../../../main/contract/receiver/receiver';
import { api } from '../../api/instance';
import { plural } from '../../lib/format';
import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { useSecrets } from '../../stores/secrets';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { EndpointFacts } from './EndpointFacts';
import { ScriptFields } from './ScriptFields';
import { formOfScript, scriptOfForm, type FormField, type ScriptForm } from './scriptForm';

/** Puts an endpoint as the server answered it into the catalog (created or updated). */
function remember(endpoint: ReceiverEndpoint): void {
  useCatalog.setState((s) => ({ receivers: [...s.receivers.filter((r) => r.name !== endpoint.name), endpoint].sort((a, b) => a.name.localeCompare(b.name)) }));
  useSecrets.getState().forget('receiver', endpoint.name);
}

/**
 * One endpoint's settings (or a new one's, `endpoint` null): its secret, whether it refuses invalid
 * signatures, and its script, saved with createReceiver/updateReceiver. The secret starts masked; it is sent
 * only when changed.
 */
export function EndpointEditor({ endpoint, onDone }: { endpoint: ReceiverEndpoint | null; onDone?(): void }) {
  const initial = formOfScript(endpoint?.script ?? defaultScript());
  const [form, setForm] = useState<ScriptForm>(initial.form);
  const [name, setName] = useState('');
  const [secret, setSecret] = useState(endpoint?.secret ?? '');
  const [secretDirty, setSecretDirty] = useState(false);
  const [secretShown, setSecretShown] = useState(false);
  const [refuse, setRefuse] = useState(endpoint?.refuseInvalidSignatures ?? false);
  const refuseId = useId();
  const [error, setError] = useState<{ field: FormField; message: string } | null>(null);
  const [busy, setBusy] = useState<'save' | 'rewind' | 'delete' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const destinations = useCatalog((s) => s.destinations);
  const navigate = useRouter((s) => s.navigate);
  const reveal = useSecrets((s) => s.reveal);

  const toggleSecret = async () => {
    if (!endpoint || secretDirty) return;
    if (secretShown) {
      setSecret(endpoint.secret ?? '');
      return setSecretShown(false);
    }
    const clear = await reveal('receiver', endpoint.name);
    if (clear === undefined) return;
    setSecret(clear ?? '');
    setSecretShown(true);
  };

  const hasSecret = secret.trim() !== '';
  // Shown at once rather than on Save: clearing the secret of a ticked box is the only way to get here.
  const refuseError = refuse && !hasSecret ? 'Needs a secret to check signatures against: give one above, or untick this.' : null;

  const save = async () => {
    const script = scriptOfForm(form);
    if (!script.ok) return setError({ field: script.field, message: script.message });
    if (refuseError) return;
    setError(null);
    setBusy('save');
    try {
      const secretValue = hasSecret ? secret : null;
      if (endpoint) {
        const result = await api().call('updateReceiver', { name: endpoint.name, patch: { script: script.script, refuseInvalidSignatures: refuse, ...(secretDirty ? { secret: secretValue } : {}) } });
        if (!result.ok) return;
        remember(result.value);
        useToasts.getState().push({ tone: 'success', title: `${endpoint.name} saved`, message: 'The new script starts at its first step.' });
      } else {
        const result = await api().call('createReceiver', { name: name.trim(), secret: secretValue, refuseInvalidSignatures: refuse, script: script.script });
        if (!result.ok) return;
        remember(result.value);
        navigate({ view: 'receiver', receiver: result.value.name });
        onDone?.();
      }
    } finally {
      setBusy(null);
    }
  };

  const rewind = async () => {
    if (!endpoint) return;
    setBusy('rewind');
    const result = await api().call('updateReceiver', { name: endpoint.name, patch: { rewind: true } });
    setBusy(null);
    if (result.ok) remember(result.value);
  };

  const remove = async () => {
    if (!endpoint) return;
    setBusy('delete');
    const result = await api().call('deleteReceiver', { name: endpoint.name });
    setBusy(null);
    if (!result.ok) return;
    useCatalog.setState((s) => ({ receivers: s.receivers.filter((r) => r.name !== endpoint.name) }));
    useToasts.getState().push({ tone: 'info', title: `${endpoint.name} deleted`, message: 'Its captured requests are kept until you clear them.' });
    navigate({ view: 'receiver', receiver: null });
  };
  // Destinations whose webhooks name this endpoint (receiver:<name> or receiver+tls:<name>).
  const users = endpoint ? destinations.filter((d) => d.webhooks.some((w) => /^receiver(\+tls)?:/.test(w.url) && w.url.slice(w.url.indexOf(':') + 1) === endpoint.name)) : [];

  return (
    <form aria-label={endpoint ? `Endpoint ${endpoint.name}` : 'New endpoint'} onSubmit={(e) => (e.preventDefault(), void save())} className="flex flex-col gap-3">
      {endpoint ? <EndpointFacts endpoint={endpoint} /> : <TextField label="Name" value={name} onChange={setName} placeholder="orders" help="It answers at /r/<name> (letters, digits, . _ -)." required />}
      <TextField
        label="Secret"
        value={secret}
        onChange={(v) => {
          setSecret(v);
          setSecretDirty(true);
        }}
        placeholder="none: signatures are not checked"
        help="With a secret, each request's X-Signature is checked: valid, invalid (with the diagnosis) or missing."
        after={
          endpoint?.secret && !secretDirty ? (
            <button
              type="button"
              onClick={() => void toggleSecret()}
              aria-label={secretShown ? 'Hide secret' : 'Reveal secret'}
              title={secretShown ? 'Hide' : 'Reveal (asks the workbench for the secret in clear)'}
              className="flex size-7 shrink-0 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg"
            >
              {secretShown ? <EyeOff aria-hidden className="size-3.5" /> : <Eye aria-hidden className="size-3.5" />}
            </button>
          ) : undefined
        }
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={refuseId} className={`flex items-center gap-2 self-start text-xs ${!refuse && !hasSecret ? 'text-faint' : 'text-fg'}`}>
          <input
            id={refuseId}
            type="checkbox"
            checked={refuse}
            // Off and without a secret it cannot be turned on; on, it can always be turned off.
            disabled={!refuse && !hasSecret}
            onChange={(e) => setRefuse(e.target.checked)}
            aria-invalid={refuseError ? true : undefined}
            aria-describedby={`${refuseId}-help${refuseError ? ` ${refuseId}-error` : ''}`}
            className="size-3.5 shrink-0 accent-(--accent) disabled:cursor-not-allowed"
          />
          Refuse invalid signatures
        </label>
        <p id={`${refuseId}-help`} className="pl-5.5 text-[11px] text-faint">
          Answer 401 to an invalid or missing X-Signature instead of the script{!refuse && !hasSecret ? '; needs a secret.' : '.'}
        </p>
        {refuseError && (
          <p id={`${refuseId}-error`} role="alert" className="pl-5.5 text-[11px] text-err">
            {refuseError}
          </p>
        )}
      </div>
      {initial.beyond && <p className="rounded-md border border-warn/40 bg-warn-soft px-2 py-1.5 text-[11px] text-fg">{initial.beyond}</p>}
      <ScriptFields form={form} onChange={(patch) => setForm((f) => ({ ...f, ...patch }))} error={error} />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" icon={<Save aria-hidden className="size-3.5" />} busy={busy === 'save'} disabled={busy !== null || refuseError !== null}>
          {endpoint ? 'Save' : 'Create endpoint'}
        </Button>
        {endpoint ? (
          <Button icon={<RotateCcw aria-hidden className="size-3.5" />} busy={busy === 'rewind'} disabled={busy !== null} onClick={() => void rewind()} title="Answer the next request with the first step again">
            Start over
          </Button>
        ) : (
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        )}
        {endpoint && <span className="text-[11px] text-faint">{plural(endpoint.answered, 'request')} answered under this script; the next is #{endpoint.answered + 1}.</span>}
        {endpoint && !confirmDelete && (
          <Button variant="danger" className="ml-auto" icon={<Trash2 aria-hidden className="size-3.5" />} disabled={busy !== null} onClick={() => setConfirmDelete(true)}>
            Delete endpoint
          </Button>
        )}
      </div>
      {endpoint && confirmDelete && (
        <div ref={(e) => e?.scrollIntoView({ block: 'nearest' })} role="dialog" aria-label={`Delete ${endpoint.name}?`} className="flex flex-col gap-2 rounded-lg border border-err/40 bg-err-soft p-3 text-xs">
          <p className="font-semibold">Delete the endpoint {endpoint.name}?</p>
          <p>
            It stops answering at /r/{endpoint.name}; its captured requests are kept until you clear them.
            {users.length > 0 && (
              <>
                {' '}
                {users.length === 1 ? 'The destination' : 'The destinations'} <strong>{users.map((d) => d.name).join(', ')}</strong> {users.length === 1 ? 'points' : 'point'} at it: {users.length === 1 ? 'its' : 'their'} next attempts fail until an endpoint named {endpoint.name} exists again.
              </>
            )}
          </p>
          <div className="flex gap-2">
            <Button variant="confirm-danger" busy={busy === 'delete'} disabled={busy !== null} onClick={() => void remove()}>
              Delete
            </Button>
            <Button variant="ghost" onClick={() => setConfirmDelete(false)}>
              Keep it
            </Button>
          </div>
        </div>
      )}
    </form>
  );
}
