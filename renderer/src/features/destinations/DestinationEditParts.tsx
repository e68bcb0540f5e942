/** The destination editor's frame around its fields: the top line with its actions, the CA file, the Save bar. */
import type { MouseEvent, ReactNode } from 'react';
import { FolderOpen, RotateCcw, Save, Send, ShieldCheck, Trash2 } from 'lucide-react';
import type { Destination } from '../../../../main/contract/destinations';
import { parseReceiverRef } from '../../../../main/contract/receiver/receiver';
import { formatAgo } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { useCatalog } from '../../stores/catalog';
import { openCheck } from '../../stores/check';
import { engineNow, useEngine } from '../../stores/engine';
import { useSecrets } from '../../stores/secrets';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { StatusBadge } from '../../ui/StatusBadge';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { sendTestEvent, setEnabled } from './actions';
import type { ServerProblem } from './destinationForm';
import type { Errors } from './fields';
import { FormCrumb, NotSaved } from './formFrame';
import { useDestinationStats } from './useDestinationStats';

/** "Destinations / <name>", the Enabled switch, how its last delivery went, and what can be done to it as saved. */
export function EditHeader({ destination: d, onCrumbClick, onDelete }: { destination: Destination; onCrumbClick(e: MouseEvent): void; onDelete(): void }) {
  const receivers = useCatalog((s) => s.receivers);
  const reveal = useSecrets((s) => s.reveal);
  const stats = useDestinationStats()?.get(d.id) ?? null;
  const now = engineNow(useEngine((s) => s.clock), useNow(1000));

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

  return (
    <FormCrumb onCrumbClick={onCrumbClick}>
      <h2 className="min-w-0 truncate text-[13px] font-semibold" title={d.name}>
        {d.name}
      </h2>
      <Switch checked={d.enabled} label="Enabled" showLabel disabled={!d.enabled && d.webhooks.length === 0} title={d.webhooks.length === 0 ? 'Add a webhook URL and save first' : undefined} onChange={(next) => void setEnabled(d, next)} />
      {/* From 1280 px: at 1024 it took the name's room ('Orders se…') and broke onto two lines; the list says it too. */}
      {stats?.last && (
        <span className="hidden min-w-0 items-center gap-1.5 text-[11px] whitespace-nowrap text-muted xl:flex">
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
        <Button variant="danger" icon={<Trash2 aria-hidden className="size-3.5" />} onClick={onDelete}>
          Delete
        </Button>
      </div>
    </FormCrumb>
  );
}

/** caFile: a Browse… button where the desktop bridge can open a file, else a path typed on the serving machine. */
export function CaFileField({ value, onChange, error }: { value: string; onChange(value: string): void; error: string | null }) {
  const bridge = typeof window !== 'undefined' ? window.hookbench : undefined;
  const browse = async () => {
    const chosen = await bridge?.openFile({ purpose: 'caFile', title: 'Choose a CA certificate (PEM)' });
    if (chosen) onChange(chosen.path);
  };
  return (
    <TextField
      label="CA file"
      value={value}
      onChange={onChange}
      placeholder="/path/to/rootCA.pem"
      data-slot="caFile"
      error={error}
      help={bridge ? 'Extra CA certificates (PEM) to trust, e.g. a mkcert root. Self-signed HTTPS is refused without one.' : 'A path on the machine running Hookbench to extra CA certificates (PEM) to trust, e.g. a mkcert root. Self-signed HTTPS is refused without one.'}
      after={
        bridge ? (
          <Button icon={<FolderOpen aria-hidden className="size-3.5" />} onClick={() => void browse()}>
            Browse…
          </Button>
        ) : undefined
      }
    />
  );
}

/** The bar under the form: Save, Back to the list, and why the last Save was refused. */
export function EditFooter({ busy, onBack, server, touched, shown }: { busy: boolean; onBack(): void; server: ServerProblem[]; touched: ReadonlySet<string> | 'all'; shown: Errors }) {
  return (
    <div className="flex min-h-12 shrink-0 items-center gap-2 border-t border-line bg-panel px-4 py-1.5">
      <Button type="submit" variant="primary" size="md" icon={<Save aria-hidden className="size-3.5" />} busy={busy}>
        Save
      </Button>
      <Button size="md" variant="ghost" icon={<RotateCcw aria-hidden className="size-3.5" />} onClick={onBack}>
        Back to the list
      </Button>
      <NotSaved server={server} touched={touched} shown={shown} />
    </div>
  );
}

export function Section({ title, children, defaultOpen = true }: { title: string; children: ReactNode; defaultOpen?: boolean }) {
  return (
    <Card title={title} name={title} defaultOpen={defaultOpen}>
      <div className="flex flex-col gap-3 p-3">{children}</div>
    </Card>
  );
}
