import { useMemo, useState, type ReactNode } from 'react';
import { FolderOpen, RotateCcw, Save, Send, ShieldCheck, Trash2 } from 'lucide-react';
import type { Destination, EventFilters } from '../../../../main/contract/models';
import { parseReceiverRef } from '../../../../main/contract/receiver/receiver';
import { api } from '../../api/instance';
import { formatDurationInput } from '../../lib/duration';
import { formatAgo } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { useCatalog } from '../../stores/catalog';
import { openCheck } from '../../stores/check';
import { engineNow, useEngine } from '../../stores/engine';
import { useRouter } from '../../stores/router';
import { useSecrets } from '../../stores/secrets';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { StatusBadge } from '../../ui/StatusBadge';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { deleteDestination, remember, sendTestEvent, setEnabled } from './actions';
import { DeleteDialog } from './DeleteDialog';
import { DestinationTimeline } from './DestinationTimeline';
import { checkDestinationForm, shownErrors, type DeliveryForm, type DestinationForm, type ServerProblem } from './destinationForm';
import { FormCrumb, NotSaved, placeError, useDirtyForm, useLeftFields } from './formFrame';
import { SecretField, SourcesPicker, WebhookHeaders, WebhookUrls } from './fields';
import { FilterFields } from './FilterFields';
import { eventList, webhookRows, webhooksInput, type WebhookRow } from './model';
import { RetryFields } from './RetryFields';
import { useDestinationStats } from './useDestinationStats';

function deliveryForm(d: Destination): DeliveryForm {
  return {
    timeout: formatDurationInput(d.timeoutMs),
    schedule: d.retry.schedule.map(formatDurationInput).join(', '),
    window: formatDurationInput(d.retry.windowMs),
    jitter: String(d.retry.jitter),
    maxAttempts: d.retry.maxAttempts === undefined ? '' : String(d.retry.maxAttempts),
  };
}

/** One destination: everything it has, a preview of its retry ladder and of what its filters drop; Save sends one patch. */
export function DestinationEdit({ destination: d }: { destination: Destination }) {
  const sources = useCatalog((s) => s.sources);
  const receivers = useCatalog((s) => s.receivers);
  const navigate = useRouter((s) => s.navigate);
  const reveal = useSecrets((s) => s.reveal);
  const stats = useDestinationStats()?.get(d.id) ?? null;
  const now = engineNow(useEngine((s) => s.clock), useNow(1000));

  const [name, setName] = useState(d.name);
  const [sourceIds, setSourceIds] = useState(d.sourceIds);
  const [rows, setRows] = useState<WebhookRow[]>(() => webhookRows(d));
  const [secret, setSecret] = useState(d.sharedSecret ?? '');
  const [secretDirty, setSecretDirty] = useState(false);
  const [secretShown, setSecretShown] = useState(false);
  const [delivery, setDelivery] = useState<DeliveryForm>(() => deliveryForm(d));
  const [allow, setAllow] = useState(d.filters.allowEvents.join('\n'));
  const [block, setBlock] = useState(d.filters.blockEvents.join('\n'));
  const [caFile, setCaFile] = useState(d.caFile ?? '');
  const [newReceiver, setNewReceiver] = useState<string | null>(null);
  const [server, setServer] = useState<ServerProblem[]>([]);
  const { touched, touchAll, onBlur } = useLeftFields();
  // Edited since it was opened or last saved: leaving asks first.
  const { setDirty, edit, cancel, onCrumbClick, discardDialog } = useDirtyForm(d.name);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const form: DestinationForm = { name, sources: sourceIds, rows, enabled: d.enabled, delivery, filters: { allow, block }, caFile, ...(secretDirty ? { secret } : {}) };
  // Checked as updateDestination checks its patch (its schema), every problem at once and in the fields' units.
  const { input: patch, problems, policy } = checkDestinationForm('update', form);
  const shown = shownErrors(problems, touched, server, form);

  const filters: EventFilters = useMemo(() => ({ allowEvents: eventList(allow), blockEvents: eventList(block) }), [allow, block]);
  const bridge = typeof window !== 'undefined' ? window.hookbench : undefined;

  const toggleSecret = async () => {
    if (secretShown) {
      setSecret(d.sharedSecret ?? '');
      return setSecretShown(false);
    }
    const clear = await reveal('destination', d.id);
    if (clear === undefined) return;
    setSecret(clear ?? '');
    setSecretShown(true);
  };

  /** Check opens with the saved first webhook URL (a receiver ref as its URL) and the secret in clear; a masked URL is flagged there. */
  const checkEndpoint = async () => {
    const first = d.webhooks[0]?.url ?? '';
    const ref = parseReceiverRef(first);
    const endpoint = ref ? receivers.find((r) => r.name === ref.name) : undefined;
    const url = ref ? ((ref.tls ? endpoint?.tlsUrl : endpoint?.url) ?? '') : first;
    const clear = d.sharedSecret === null ? null : await reveal('destination', d.id);
    const notes = [`From destination ${d.name}${d.webhooks.length > 1 ? `: the first of its ${d.webhooks.length} webhook URLs` : ''}.`];
    if (ref && url === '') notes.push(`receiver:${ref.name} is not listening: give a URL.`);
    if (clear === undefined) notes.push('Its secret could not be fetched: type it.');
    openCheck({ url, secret: clear ?? '', note: notes.join(' ') });
  };

  const save = async () => {
    setServer([]);
    if (Object.keys(problems).length > 0) return touchAll();
    setBusy(true);
    try {
      const webhooks = webhooksInput(rows);
      if (newReceiver && webhooks.some((w) => w.url === `receiver:${newReceiver}`)) {
        const created = await api().call('createReceiver', { name: newReceiver, secret: patch.sharedSecret ?? null, script: 200 }, { quiet: true });
        if (!created.ok) return placeError('createReceiver', { ...created.error, field: 'webhooks' }, 'update', form, setServer);
        setNewReceiver(null);
        void useCatalog.getState().load();
      }
      const result = await api().call('updateDestination', { id: d.id, patch }, { quiet: true });
      if (!result.ok) return placeError('updateDestination', result.error, 'update', form, setServer);
      remember(result.value);
      setDirty(false);
      useToasts.getState().push({ tone: 'success', title: `${result.value.name} saved`, message: 'New messages and the next retries use these settings.' });
    } finally {
      setBusy(false);
    }
  };

  const browse = async () => {
    const chosen = await bridge?.openFile({ purpose: 'caFile', title: 'Choose a CA certificate (PEM)' });
    if (chosen) setCaFile(chosen.path);
  };

  return (
    <form
      aria-label={`Destination ${d.name}`}
      onSubmit={(e) => (e.preventDefault(), void save())}
      onBlur={onBlur}
      className="flex h-full flex-col bg-bg"
    >
      <FormCrumb onCrumbClick={onCrumbClick}>
        <h2 className="min-w-0 truncate text-[13px] font-semibold">{d.name}</h2>
        <Switch checked={d.enabled} label="Enabled" showLabel disabled={!d.enabled && d.webhooks.length === 0} title={d.webhooks.length === 0 ? 'Add a webhook URL and save first' : undefined} onChange={(next) => void setEnabled(d, next)} />
        {stats?.last && (
          <span className="hidden min-w-0 items-center gap-1.5 text-[11px] text-muted lg:flex">
            last delivery <StatusBadge status={stats.last.status} /> {formatAgo(stats.last.at, now)}
            {stats.failureRate !== null && <> · {Math.round(stats.failureRate * 100)}% failed of {stats.delivered + stats.failed}</>}
          </span>
        )}
        <div className="ml-auto flex items-center gap-1.5">
          <Button icon={<Send aria-hidden className="size-3.5" />} onClick={() => void sendTestEvent(d)} title="A test track to this destination, opened in Live">
            Send test event
          </Button>
          <Button icon={<ShieldCheck aria-hidden className="size-3.5" />} onClick={() => void checkEndpoint()} title="Run the conformance checks against this destination's first webhook URL, signed with its secret">
            Check endpoint
          </Button>
          <Button variant="danger" icon={<Trash2 aria-hidden className="size-3.5" />} onClick={() => setConfirming(true)}>
            Delete
          </Button>
        </div>
      </FormCrumb>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto grid max-w-6xl grid-cols-[repeat(auto-fit,minmax(26rem,1fr))] items-start gap-3 p-3">
          <div className="col-span-full">
            <DestinationTimeline destination={d} />
          </div>
          <div className="flex flex-col gap-3">
            <Section title="Connection">
              <TextField label="Name" mono={false} value={name} onChange={edit(setName)} data-slot="name" error={shown['name'] ?? null} />
              <div className="flex flex-col gap-1">
                <span className="text-xs text-muted">Sources</span>
                <SourcesPicker sources={sources} selected={sourceIds} onChange={edit(setSourceIds)} error={shown['sources']} />
              </div>
            </Section>
            <Section title="Webhooks">
              <WebhookUrls rows={rows} onChange={edit(setRows)} errors={shown} receivers={receivers} newReceiver={newReceiver} onNewReceiver={setNewReceiver} />
            </Section>
            <Section title="Headers" defaultOpen={rows.some((r) => r.headers.length > 0)}>
              <WebhookHeaders rows={rows} onChange={edit(setRows)} errors={shown} />
            </Section>
            <Section title="Signing">
              <SecretField
                value={secret}
                onChange={(v) => {
                  setSecret(v);
                  setSecretDirty(true);
                  setDirty(true);
                }}
                error={shown['sharedSecret']}
                reveal={d.sharedSecret !== null && !secretDirty}
                shown={secretShown}
                onReveal={() => void toggleSecret()}
              />
            </Section>
          </div>
          <div className="flex flex-col gap-3">
            <Section title="Timeout and retries">
              <RetryFields form={delivery} onChange={(change) => (setDelivery((f) => ({ ...f, ...change })), setDirty(true))} errors={shown} policy={policy} />
            </Section>
            <Section title="Event filters">
              <FilterFields allow={allow} block={block} onChange={(p) => (p.allow !== undefined && setAllow(p.allow), p.block !== undefined && setBlock(p.block), setDirty(true))} errors={shown} destination={d} filters={filters} />
            </Section>
            <Section title="TLS">
              <TextField
                label="CA file"
                value={caFile}
                onChange={edit(setCaFile)}
                placeholder="/path/to/rootCA.pem"
                data-slot="caFile"
                error={shown['caFile'] ?? null}
                help={bridge ? 'Extra CA certificates (PEM) to trust, e.g. a mkcert root. Self-signed HTTPS is refused without one.' : 'A path on the machine running Hookbench to extra CA certificates (PEM) to trust, e.g. a mkcert root. Self-signed HTTPS is refused without one.'}
                after={
                  bridge ? (
                    <Button icon={<FolderOpen aria-hidden className="size-3.5" />} onClick={() => void browse()}>
                      Browse…
                    </Button>
                  ) : undefined
                }
              />
            </Section>
          </div>
        </div>
      </div>
      <div className="flex min-h-12 shrink-0 items-center gap-2 border-t border-line bg-panel px-4 py-1.5">
        <Button type="submit" variant="primary" size="md" icon={<Save aria-hidden className="size-3.5" />} busy={busy}>
          Save
        </Button>
        <Button size="md" variant="ghost" icon={<RotateCcw aria-hidden className="size-3.5" />} onClick={cancel}>
          Back to the list
        </Button>
        <NotSaved server={server} touched={touched} shown={shown} />
      </div>
      {discardDialog}
      {confirming && (
        <DeleteDialog
          destination={d}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            if (await deleteDestination(d)) navigate({ view: 'destinations', sub: [] });
            else setConfirming(false);
          }}
        />
      )}
    </form>
  );
}

function Section({ title, children, defaultOpen = true }: { title: string; children: ReactNode; defaultOpen?: boolean }) {
  return (
    <Card title={title} name={title} defaultOpen={defaultOpen}>
      <div className="flex flex-col gap-3 p-3">{children}</div>
    </Card>
  );
}
