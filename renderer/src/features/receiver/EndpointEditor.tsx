import { useEffect, useId, useRef, useState } from 'react';
import { RotateCcw, Save, Trash2 } from 'lucide-react';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { defaultScript, receiverNameSchema } from '../../../../main/contract/receiver/receiver';
import { useCatalog } from '../../stores/catalog';
import { Button } from '../../ui/Button';
import { RevealSecretButton, useSecretDraft } from '../../ui/SecretDraft';
import { TextField } from '../../ui/TextField';
import { EndpointFacts } from './EndpointFacts';
import { ScriptFields } from './ScriptFields';
import { formOfScript, placeWords, scriptOfForm, type FormField, type ScriptForm } from './scriptForm';
import { useEndpointCommands } from './useEndpointCommands';

/**
 * One endpoint's settings (or a new one's, `endpoint` null): its secret, whether it refuses invalid
 * signatures, and its script, saved with createReceiver/updateReceiver. The secret starts masked; it is sent
 * only when changed.
 */
export function EndpointEditor({ endpoint, onDone }: { endpoint: ReceiverEndpoint | null; onDone?(): void }) {
  const initial = formOfScript(endpoint?.script ?? defaultScript());
  const [form, setForm] = useState<ScriptForm>(initial.form);
  const [name, setName] = useState('');
  const secret = useSecretDraft('receiver', endpoint?.name ?? null, endpoint?.secret ?? null);
  const [refuse, setRefuse] = useState(endpoint?.refuseInvalidSignatures ?? false);
  const [error, setError] = useState<{ field: FormField; message: string } | null>(null);
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const { busy, save: send, rewind, remove } = useEndpointCommands(endpoint, onDone);

  const hasSecret = secret.value.trim() !== '';
  // Shown at once rather than on Save: clearing the secret of a ticked box is the only way to get here.
  const refuseError = refuse && !hasSecret ? 'Needs a secret to check signatures against: give one above, or untick this.' : null;

  const save = async () => {
    const nameProblem = endpoint ? null : nameError(name);
    setNameProblem(nameProblem);
    const script = scriptOfForm(form);
    if (!script.ok) return setError({ field: script.field, message: script.message });
    setError(null);
    if (refuseError || nameProblem) return;
    await send({ name, script: script.script, refuseInvalidSignatures: refuse, secret: secret.dirty ? (hasSecret ? secret.value : null) : undefined });
  };

  return (
    <form aria-label={endpoint ? `Endpoint ${endpoint.name}` : 'New endpoint'} onSubmit={(e) => (e.preventDefault(), void save())} className="flex flex-col gap-3">
      {endpoint ? <EndpointFacts endpoint={endpoint} /> : <TextField label="Name" value={name} onChange={setName} placeholder="orders" help="It answers at /r/<name> (letters, digits, . _ -)." error={nameProblem} required />}
      <TextField
        label="Secret"
        value={secret.value}
        onChange={secret.change}
        placeholder="none: signatures are not checked"
        help="With a secret, each request's X-Signature is checked: valid, invalid (with the diagnosis) or missing."
        after={secret.revealable ? <RevealSecretButton draft={secret} /> : undefined}
      />
      <RefuseSignatures refuse={refuse} onChange={setRefuse} hasSecret={hasSecret} error={refuseError} />
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
        {endpoint && <span className="text-[11px] text-faint">{placeWords(endpoint)}</span>}
        {endpoint && !confirmDelete && (
          <Button ref={deleteButton} variant="danger" className="ml-auto" icon={<Trash2 aria-hidden className="size-3.5" />} disabled={busy !== null} onClick={() => setConfirmDelete(true)}>
            Delete endpoint
          </Button>
        )}
      </div>
      {endpoint && confirmDelete && (
        <DeleteEndpoint
          endpoint={endpoint}
          busy={busy}
          onDelete={() => void remove()}
          onKeep={() => {
            setConfirmDelete(false);
            // The button that asked comes back: focus returns to it, not to the page.
            requestAnimationFrame(() => deleteButton.current?.focus());
          }}
        />
      )}
    </form>
  );
}

/** A new endpoint's name checked as the server checks it, kept exactly as typed (a space around it is refused, not trimmed). */
export function nameError(name: string): string | null {
  const parsed = receiverNameSchema.safeParse(name);
  return parsed.success ? null : `Name: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
}

/** The box that makes the endpoint answer 401 to a bad signature: it needs a secret to be ticked. */
function RefuseSignatures({ refuse, onChange, hasSecret, error }: { refuse: boolean; onChange(refuse: boolean): void; hasSecret: boolean; error: string | null }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={`flex items-center gap-2 self-start text-xs ${!refuse && !hasSecret ? 'text-faint' : 'text-fg'}`}>
        <input
          id={id}
          type="checkbox"
          checked={refuse}
          // Off and without a secret it cannot be turned on; on, it can always be turned off.
          disabled={!refuse && !hasSecret}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`}
          className="size-3.5 shrink-0 accent-(--accent) disabled:cursor-not-allowed"
        />
        Refuse invalid signatures
      </label>
      <p id={`${id}-help`} className="pl-5.5 text-[11px] text-faint">
        Answer 401 to an invalid or missing X-Signature instead of the script{!refuse && !hasSecret ? '; needs a secret.' : '.'}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="pl-5.5 text-[11px] text-err">
          {error}
        </p>
      )}
    </div>
  );
}

/** The confirmation under the form, naming the destinations whose webhooks point at the endpoint. */
function DeleteEndpoint({ endpoint, busy, onDelete, onKeep }: { endpoint: ReceiverEndpoint; busy: string | null; onDelete(): void; onKeep(): void }) {
  const destinations = useCatalog((s) => s.destinations);
  // Destinations whose webhooks name this endpoint (receiver:<name> or receiver+tls:<name>).
  const users = destinations.filter((d) => d.webhooks.some((w) => /^receiver(\+tls)?:/.test(w.url) && w.url.slice(w.url.indexOf(':') + 1) === endpoint.name));
  // Focus moves into the question (on its safe answer), and Escape answers it the safe way.
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div
      ref={(e) => e?.scrollIntoView({ block: 'nearest' })}
      role="dialog"
      aria-label={`Delete ${endpoint.name}?`}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onKeep();
      }}
      className="flex flex-col gap-2 rounded-lg border border-err/40 bg-err-soft p-3 text-xs"
    >
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
        <Button variant="confirm-danger" busy={busy === 'delete'} disabled={busy !== null} onClick={onDelete}>
          Delete
        </Button>
        <Button ref={keep} variant="ghost" onClick={onKeep}>
          Keep it
        </Button>
      </div>
    </div>
  );
}
