import { useState, type ReactNode } from 'react';
import { Check, Save, Webhook } from 'lucide-react';
import { api } from '../../api/instance';
import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { remember } from './actions';
import { checkDestinationForm, shownErrors, type DestinationForm, type ServerProblem } from './destinationForm';
import { FormCrumb, NotSaved, placeError, useDirtyForm, useLeftFields } from './formFrame';
import { FieldNote, SecretField, SourcesPicker, WebhookHeaders, WebhookUrls } from './fields';
import { freeName, webhooksInput, type WebhookRow } from './model';

/**
 * Guided setup, in the order of the spec: the catalog (Webhooks) → sources → webhook URLs (up to five) →
 * static headers per URL (up to five each) → a shared secret (or generate one) → on. Save creates it with
 * createDestination (and the mock receiver's endpoint the quick-pick asked for).
 */
export function DestinationSetup() {
  const { sources, receivers, destinations } = useCatalog();
  const navigate = useRouter((s) => s.navigate);
  const [picked, setPicked] = useState(false);
  const [name, setName] = useState(() => freeName('Webhooks', destinations.map((d) => d.name)));
  const [sourceIds, setSourceIds] = useState<string[]>(() => (sources.length === 1 ? [sources[0]!.id] : []));
  const [rows, setRows] = useState<WebhookRow[]>([{ url: '', headers: [] }]);
  const [secret, setSecret] = useState('');
  // Off until the user turns it on: the switch never moves by itself, and shows what Save will do.
  const [enabled, setEnabled] = useState(false);
  const [newReceiver, setNewReceiver] = useState<string | null>(null);
  const [server, setServer] = useState<ServerProblem[]>([]);
  const { touched, touchAll, onBlur } = useLeftFields();
  const { edit, cancel, onCrumbClick, discardDialog } = useDirtyForm('The new destination');
  const [busy, setBusy] = useState(false);

  const form: DestinationForm = { name, sources: sourceIds, rows, secret, enabled };
  // Checked as createDestination checks it (its schema), every problem at once.
  const { input, problems } = checkDestinationForm('create', form);
  const webhooks = webhooksInput(rows);
  const enableBlocked = webhooks.length === 0;
  const shown = shownErrors(problems, touched, server, form);

  const createSource = async () => {
    const created = await api().call('createSource', { name: freeName('my-app', sources.map((s) => s.name)).replace(' ', '-'), kind: 'server' });
    if (!created.ok) return;
    await useCatalog.getState().load();
    setSourceIds((ids) => [...ids, created.value.id]);
  };

  const save = async () => {
    setServer([]);
    if (Object.keys(problems).length > 0) return touchAll();
    setBusy(true);
    try {
      if (newReceiver && webhooks.some((w) => w.url === `receiver:${newReceiver}`)) {
        const created = await api().call('createReceiver', { name: newReceiver, secret: input.sharedSecret ?? null, script: 200 }, { quiet: true });
        if (!created.ok) return placeError('createReceiver', { ...created.error, field: 'webhooks' }, 'create', form, setServer);
        setNewReceiver(null);
        void useCatalog.getState().load();
      }
      const result = await api().call('createDestination', input, { quiet: true });
      if (!result.ok) return placeError('createDestination', result.error, 'create', form, setServer);
      remember(result.value);
      useToasts.getState().push({ tone: 'success', title: `${result.value.name} created`, message: result.value.enabled
          ? 'It forwards its sources’ messages from now on. Send a test event from the list to see one delivered.'
          : result.value.webhooks.length === 0
            ? 'It is off: give it a webhook URL, then turn it on in the list.'
            : 'It is off: turn it on in the list when you are ready.',
      });
      navigate({ view: 'destinations', sub: [] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-label="New destination"
      onSubmit={(e) => (e.preventDefault(), void save())}
      onBlur={onBlur}
      className="flex h-full flex-col bg-bg"
    >
      <FormCrumb onCrumbClick={onCrumbClick}>
        <h2 className="text-[13px] font-semibold">New destination</h2>
      </FormCrumb>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <ol className="mx-auto flex max-w-3xl flex-col gap-3 p-4">
          <Step n={1} title="Catalog" done={picked} help="Hookbench emulates one destination type: the Webhooks destination.">
            <CatalogChoice picked={picked} onPick={() => setPicked(true)} />
            {picked && <TextField className="mt-3 max-w-sm" label="Name" mono={false} value={name} onChange={edit(setName)} data-slot="name" error={shown['name'] ?? null} help="How lists and integrations objects name it (integrations: { “Name”: false } skips it)." />}
          </Step>
          {picked && (
            <>
              <Step n={2} title="Sources" done={sourceIds.length > 0}>
                <SourcesPicker sources={sources} selected={sourceIds} onChange={edit(setSourceIds)} error={shown['sources']} onCreate={() => void createSource()} />
              </Step>
              <Step n={3} title="Webhook URLs" done={webhooks.length > 0 && !Object.keys(problems).some((slot) => slot.startsWith('webhooks'))} help="Up to five. A message is delivered once any one of them answers 2xx.">
                <WebhookUrls rows={rows} onChange={edit(setRows)} errors={shown} receivers={receivers} newReceiver={newReceiver} onNewReceiver={setNewReceiver} />
              </Step>
              <Step n={4} title="Headers" optional help="Static headers sent with every request to that URL, up to five per URL.">
                <WebhookHeaders rows={rows} onChange={edit(setRows)} errors={shown} />
              </Step>
              <Step n={5} title="Shared secret" optional done={secret !== ''}>
                <SecretField value={secret} onChange={edit(setSecret)} error={shown['sharedSecret']} />
              </Step>
              <Step n={6} title="Turn it on" done={enabled && !enableBlocked}>
                <EnableField enabled={enabled} onChange={edit(setEnabled)} blocked={enableBlocked} error={shown['enabled']} />
              </Step>
            </>
          )}
        </ol>
      </div>
      <div className="flex min-h-12 shrink-0 items-center gap-2 border-t border-line bg-panel px-4 py-1.5">
        <SetupButtons picked={picked} busy={busy} onCancel={cancel} />
        <NotSaved server={server} touched={touched} shown={shown} />
      </div>
      {discardDialog}
    </form>
  );
}

/** Save (once Webhooks is picked) and Cancel, under the steps. */
function SetupButtons({ picked, busy, onCancel }: { picked: boolean; busy: boolean; onCancel(): void }) {
  return (
    <>
      <Button type="submit" variant="primary" size="md" icon={<Save aria-hidden className="size-3.5" />} busy={busy} disabled={!picked} title={picked ? undefined : 'Pick Webhooks in the catalog first'}>
        Save
      </Button>
      <Button variant="ghost" size="md" onClick={onCancel}>
        Cancel
      </Button>
      {!picked && <span className="text-xs text-faint">Pick Webhooks in the catalog to begin.</span>}
    </>
  );
}

/** The catalog: one destination type, Webhooks, picked to begin. */
function CatalogChoice({ picked, onPick }: { picked: boolean; onPick(): void }) {
  return (
    <div role="radiogroup" aria-label="Catalog" className="grid grid-cols-[repeat(auto-fill,minmax(15rem,1fr))] gap-2">
      <button
        type="button"
        role="radio"
        aria-checked={picked}
        onClick={onPick}
        className={`flex items-start gap-2.5 rounded-lg border p-3 text-left ${picked ? 'border-accent bg-accent-soft' : 'border-line bg-panel hover:border-line-strong'}`}
      >
        <Webhook aria-hidden className="mt-0.5 size-5 shrink-0 text-accent" />
        <span className="flex flex-col gap-0.5">
          <span className="text-[13px] font-semibold">Webhooks</span>
          <span className="text-[11px] text-muted">Each message as a signed JSON POST to up to 5 URLs, retried for up to 4 hours.</span>
        </span>
      </button>
    </div>
  );
}

/** The last step's switch, and what Save will do with it; `blocked`: no webhook URL yet. */
function EnableField({ enabled, onChange, blocked, error }: { enabled: boolean; onChange(enabled: boolean): void; blocked: boolean; error: string | undefined }) {
  return (
    <>
      <div className="flex items-center gap-2" data-slot="enabled">
        {/* Disabled only while off: once on, the user can always turn it off again. */}
        <Switch checked={enabled} onChange={onChange} label="Enabled" showLabel disabled={!enabled && blocked} title={!enabled && blocked ? 'Give a webhook URL first' : undefined} />
        <span className="text-xs text-muted">
          {enabled
            ? blocked
              ? 'On, but it has no webhook URL yet: give one, or turn it off, to save.'
              : 'Saved on: it starts forwarding as soon as it is saved.'
            : blocked
              ? 'Off. It can be turned on once it has a webhook URL.'
              : 'Saved off: it receives nothing from its sources until you turn it on.'}
        </span>
      </div>
      <FieldNote error={enabled && blocked ? undefined : error} />
    </>
  );
}

function Step({ n, title, help, optional = false, done = false, children }: { n: number; title: string; help?: string; optional?: boolean; done?: boolean; children: ReactNode }) {
  return (
    <li aria-label={`Step ${n}: ${title}`} className="rounded-lg border border-line bg-panel">
      <div className="flex items-center gap-2 px-3 pt-2.5">
        <span className={`flex size-5 shrink-0 items-center justify-center rounded-full text-[11px] font-semibold ${done ? 'bg-ok text-white' : 'bg-panel-2 text-muted'}`} aria-hidden>
          {done ? <Check className="size-3" /> : n}
        </span>
        <h3 className="text-[13px] font-semibold">{title}</h3>
        {optional && <span className="text-[11px] text-faint">optional</span>}
        {help && <span className="min-w-0 truncate text-[11px] text-faint" title={help}>· {help}</span>}
      </div>
      <div className="px-3 pt-2 pb-3 pl-10">{children}</div>
    </li>
  );
}
