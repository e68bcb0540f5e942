import { useMemo, useState } from 'react';
import type { Destination, EventFilters } from '../../../../main/contract/destinations';
import { api } from '../../api/instance';
import { formatDurationInput } from '../../lib/duration';
import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { useToasts } from '../../stores/toasts';
import { RevealSecretButton, useSecretDraft } from '../../ui/SecretDraft';
import { TextField } from '../../ui/TextField';
import { deleteDestination, remember } from './actions';
import { DeleteDialog } from './DeleteDialog';
import { CaFileField, EditFooter, EditHeader, Section } from './DestinationEditParts';
import { DestinationTimeline } from './DestinationTimeline';
import { checkDestinationForm, shownErrors, type DeliveryForm, type DestinationForm, type ServerProblem } from './destinationForm';
import { placeError, useDirtyForm, useLeftFields } from './formFrame';
import { SecretField, SourcesPicker, WebhookHeaders, WebhookUrls } from './fields';
import { FilterFields } from './FilterFields';
import { eventList, webhookRows, webhooksInput, type WebhookRow } from './model';
import { RetryFields } from './RetryFields';

function deliveryForm(d: Destination): DeliveryForm {
  return {
    timeout: formatDurationInput(d.timeoutMs),
    schedule: d.retry.schedule.map(formatDurationInput).join(', '),
    window: formatDurationInput(d.retry.windowMs),
    jitter: String(d.retry.jitter),
    maxAttempts: d.retry.maxAttempts === undefined ? '' : String(d.retry.maxAttempts),
  };
}

/** The editor's fields, from the destination as saved, and the form they make. */
function useEditFields(d: Destination) {
  const [name, setName] = useState(d.name);
  const [sourceIds, setSourceIds] = useState(d.sourceIds);
  const [rows, setRows] = useState<WebhookRow[]>(() => webhookRows(d));
  const secret = useSecretDraft('destination', d.id, d.sharedSecret);
  const [delivery, setDelivery] = useState<DeliveryForm>(() => deliveryForm(d));
  const [allow, setAllow] = useState(d.filters.allowEvents.join('\n'));
  const [block, setBlock] = useState(d.filters.blockEvents.join('\n'));
  const [caFile, setCaFile] = useState(d.caFile ?? '');
  const form: DestinationForm = { name, sources: sourceIds, rows, enabled: d.enabled, delivery, filters: { allow, block }, caFile, ...(secret.dirty ? { secret: secret.value } : {}) };
  const filters: EventFilters = useMemo(() => ({ allowEvents: eventList(allow), blockEvents: eventList(block) }), [allow, block]);
  return { name, setName, sourceIds, setSourceIds, rows, setRows, secret, delivery, setDelivery, allow, setAllow, block, setBlock, caFile, setCaFile, form, filters };
}

/** One destination: everything it has, a preview of its retry ladder and of what its filters drop; Save sends one patch. */
export function DestinationEdit({ destination: d }: { destination: Destination }) {
  const sources = useCatalog((s) => s.sources);
  const receivers = useCatalog((s) => s.receivers);
  const navigate = useRouter((s) => s.navigate);

  const { name, setName, sourceIds, setSourceIds, rows, setRows, secret, delivery, setDelivery, allow, setAllow, block, setBlock, caFile, setCaFile, form, filters } = useEditFields(d);
  const [newReceiver, setNewReceiver] = useState<string | null>(null);
  const [server, setServer] = useState<ServerProblem[]>([]);
  const { touched, touchAll, onBlur } = useLeftFields();
  // Edited since it was opened or last saved: leaving asks first.
  const { setDirty, edit, cancel, onCrumbClick, discardDialog } = useDirtyForm(d.name);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Checked as updateDestination checks its patch (its schema), every problem at once and in the fields' units.
  const { input: patch, problems, policy } = checkDestinationForm('update', form);
  const shown = shownErrors(problems, touched, server, form);

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

  return (
    <form
      aria-label={`Destination ${d.name}`}
      onSubmit={(e) => (e.preventDefault(), void save())}
      onBlur={onBlur}
      className="flex h-full flex-col bg-bg"
    >
      <EditHeader destination={d} onCrumbClick={onCrumbClick} onDelete={() => setConfirming(true)} />
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
                <SourcesPicker sources={sources} selected={sourceIds} onChange={edit(setSourceIds)} error={shown['sources']} off={!d.enabled} />
              </div>
            </Section>
            <Section title="Webhooks">
              <WebhookUrls rows={rows} onChange={edit(setRows)} errors={shown} receivers={receivers} newReceiver={newReceiver} onNewReceiver={setNewReceiver} />
            </Section>
            <Section title="Headers" defaultOpen={rows.some((r) => r.headers.length > 0)}>
              <WebhookHeaders rows={rows} onChange={edit(setRows)} errors={shown} />
            </Section>
            <Section title="Signing">
              <SecretField value={secret.value} onChange={edit(secret.change)} error={shown['sharedSecret']} reveal={<RevealSecretButton draft={secret} />} />
            </Section>
          </div>
          <div className="flex flex-col gap-3">
            <Section title="Timeout and retries">
              <RetryFields form={delivery} onChange={(change) => (setDelivery((f) => ({ ...f, ...change })), setDirty(true))} errors={shown} policy={policy} webhooks={webhooksInput(rows).length} />
            </Section>
            <Section title="Event filters">
              <FilterFields allow={allow} block={block} onChange={(p) => (p.allow !== undefined && setAllow(p.allow), p.block !== undefined && setBlock(p.block), setDirty(true))} errors={shown} destination={d} filters={filters} />
            </Section>
            <Section title="TLS">
              <CaFileField value={caFile} onChange={edit(setCaFile)} error={shown['caFile'] ?? null} />
            </Section>
          </div>
        </div>
      </div>
      <EditFooter busy={busy} onBack={cancel} server={server} touched={touched} shown={shown} />
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
