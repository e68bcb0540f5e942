import { useMemo, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { FlaskConical, Send } from 'lucide-react';
import { MESSAGE_SHAPES, MESSAGE_TYPES, type MessageType } from '../../../../main/contract/message/messageShapes';
import { api } from '../../api/instance';
import { summarize } from '../../api/summaries';
import { useCompose } from '../../stores/compose';
import { useLive } from '../../stores/live';
import { useRouter } from '../../stores/router';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { JsonEditor } from '../../ui/JsonEditor';
import { Select } from '../../ui/Select';
import { callBytes, formKeyOfServerField, validateCall } from '../../lib/composeModel';
import { ComposePreview } from './ComposePreview';
import { IntegrationsEditor } from './IntegrationsEditor';
import { RoutePicker } from './RoutePicker';
import { withModifier } from '../../lib/platform';
import { ShapeForm } from './ShapeForm';
import { SizeMeter } from './SizeMeter';

function FormSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3">
      <h2 className="text-[11px] font-semibold tracking-wide text-faint uppercase">{title}</h2>
      {children}
    </section>
  );
}


/** Compose any of the seven calls in a form or as raw JSON (kept in sync), check it, and send it. */
export function ComposeView() {
  const { type, call, rawText, rawError, objectTexts, source, destinations, setType, setRaw, loadExample, setServerError } = useCompose();
  const navigate = useRouter((s) => s.navigate);
  const [sending, setSending] = useState(false);
  const problems = useMemo(() => validateCall(type, call), [type, call]);
  const objectErrors = Object.values(objectTexts).some((t) => t.error);
  const blocked = problems.length > 0 || rawError !== null || objectErrors;

  const send = async () => {
    if (blocked || sending) return;
    setSending(true);
    try {
      const result = await api().call('sendMessage', { type, call, strict: true, ...(source ? { source } : {}), ...(destinations.length ? { destinations } : {}) }, { quiet: true });
      if (!result.ok) {
        const key = formKeyOfServerField(type, result.error.field);
        if (key) setServerError(key, result.error.message);
        useToasts.getState().push({ tone: 'error', title: 'Send message failed', message: result.error.message, ...(result.error.field ? { field: result.error.field } : {}) });
        return;
      }
      const { message, deliveries } = result.value;
      useLive.getState().addNew(summarize(message, deliveries));
      // Said in Live, where the message opens: back in Compose it would cover the next preview.
      navigate({ view: 'live', messageId: message.id });
      useToasts.getState().push({
        tone: 'success',
        title: `${type} sent`,
        message: deliveries.length ? `To ${deliveries.map((d) => d.destinationName).join(', ')}.` : `Routed nowhere: ${message.statusReason ?? 'filtered'}.`,
      });
    } finally {
      setSending(false);
    }
  };

  useHotkeys('mod+enter', () => void send(), { enableOnFormTags: true, enableOnContentEditable: true, preventDefault: true }, [send]);

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-10 shrink-0 items-center gap-3 border-b border-line bg-panel px-3">
        <Select label="Type" value={type} onChange={(v) => setType(v as MessageType)} options={MESSAGE_TYPES} />
        <span className="hidden truncate text-xs text-muted lg:inline">{MESSAGE_SHAPES[type].summary}</span>
        <Button variant="ghost" icon={<FlaskConical aria-hidden className="size-3.5" />} onClick={loadExample} title={`Fill the form with an example ${type} call`}>
          Load example
        </Button>
        <div className="ml-auto flex items-center gap-3">
          <SizeMeter bytes={callBytes(call)} />
          <Button variant="primary" size="md" icon={<Send aria-hidden className="size-3.5" />} busy={sending} disabled={blocked} onClick={() => void send()} title={blocked ? 'Fix the problems named below first' : `Send (${withModifier('Enter')})`} aria-keyshortcuts="Control+Enter Meta+Enter">
            Send
          </Button>
        </div>
      </div>
      {blocked && (
        <div role="status" aria-label="Problems" className="border-b border-line bg-err-soft px-3 py-1.5 text-xs text-err">
          {rawError ? `Raw JSON: ${rawError}` : objectErrors ? 'Fix the JSON of the highlighted field.' : problems.map((p) => p.message).join(' · ')}
        </div>
      )}
      <div className="grid min-h-0 flex-1 grid-cols-1 overflow-y-auto lg:grid-cols-[minmax(0,1.1fr)_minmax(0,1fr)] lg:overflow-hidden">
        <form aria-label={`${type} call`} onSubmit={(e) => (e.preventDefault(), void send())} className="flex min-h-0 flex-col gap-5 overflow-y-auto p-4">
          <FormSection title="Call">
            <ShapeForm type={type} problems={problems} />
          </FormSection>
          <FormSection title="Routing">
            <RoutePicker />
          </FormSection>
          <FormSection title="Integrations">
            <IntegrationsEditor />
          </FormSection>
        </form>
        <div className="flex min-h-0 flex-col border-l border-line bg-panel lg:grid lg:grid-rows-[minmax(0,0.8fr)_minmax(0,1.2fr)]">
          <section aria-label="Raw JSON" className="flex min-h-0 flex-col">
            <div className="flex h-8 shrink-0 items-center justify-between border-b border-line px-3">
              <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">Raw JSON</h2>
              <span className="text-[11px] text-faint">Edits here update the form, and back</span>
            </div>
            <div className="min-h-64 flex-1 p-2 lg:min-h-0">
              <JsonEditor label="Raw JSON" value={rawText} onChange={setRaw} invalid={rawError !== null} fill />
            </div>
          </section>
          <div className="min-h-0 border-t border-line">
            <ComposePreview />
          </div>
        </div>
      </div>
    </div>
  );
}
