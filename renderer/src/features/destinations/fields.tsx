/** Form parts the guided setup and the editor share: sources, webhook URLs, headers, the shared secret. */
import { useId, type ReactNode } from 'react';
import { Inbox, KeyRound, Plus, X } from 'lucide-react';
import type { Source } from '../../../../main/contract/sources';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { generateSecret } from '../../lib/randomSecret';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { freeName, headerLimitReason, MAX_HEADERS, MAX_WEBHOOKS, webhookLimitReason, type HeaderRow, type WebhookRow } from './model';

export type Errors = Record<string, string>;

/** A small line under a field group: an error (red) or a limit/help (grey). */
export function FieldNote({ id, error, children }: { id?: string; error?: string | undefined; children?: ReactNode }) {
  if (error) return <p id={id} role="alert" className="text-[11px] whitespace-pre-line wrap-anywhere text-err">{error}</p>;
  return children ? <p id={id} className="text-[11px] text-faint">{children}</p> : null;
}

/** `off`: the destination is off, and the messages of its sources pass it by (no delivery is made for it). */
export function SourcesPicker({ sources, selected, onChange, error, onCreate, off = false }: { sources: Source[]; selected: string[]; onChange(ids: string[]): void; error?: string | undefined; onCreate?(): void; off?: boolean }) {
  const noteId = useId();
  if (sources.length === 0) {
    return (
      <div className="flex flex-col gap-2">
        <p className="text-xs text-muted">No source yet. A source is what SDKs send with (its write key); without one, only messages sent to this destination directly (Compose, a test event) reach it.</p>
        {onCreate && (
          <div>
            <Button icon={<Plus aria-hidden className="size-3.5" />} onClick={onCreate}>
              Create source my-app
            </Button>
          </div>
        )}
        <FieldNote id={noteId} error={error} />
      </div>
    );
  }
  const toggle = (id: string, on: boolean) => onChange(on ? [...selected, id] : selected.filter((s) => s !== id));
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={noteId} data-slot="sources">
      <legend className="sr-only">Sources</legend>
      <div className="flex flex-wrap gap-1.5">
        {sources.map((s) => {
          const on = selected.includes(s.id);
          return (
            <label key={s.id} className={`flex h-7 cursor-pointer items-center gap-1.5 rounded-md border px-2 text-xs ${on ? 'border-accent bg-accent-soft text-fg' : 'border-line text-muted hover:bg-hover'}`}>
              <input type="checkbox" checked={on} onChange={(e) => toggle(s.id, e.target.checked)} className="accent-(--accent)" />
              <span className="font-medium">{s.name}</span>
              <span className="text-[11px] text-faint">{s.kind}</span>
            </label>
          );
        })}
      </div>
      <FieldNote id={noteId} error={error}>
        {selected.length
          ? `Messages from ${selected.length === 1 ? 'this source' : 'these sources'} are forwarded to it${off ? ' while it is on. It is off: they pass it by.' : '.'}`
          : 'None picked: only messages sent to it directly reach it.'}
      </FieldNote>
    </fieldset>
  );
}

/** The webhook URLs, with the mock receiver's endpoints one click away. */
export function WebhookUrls({
  rows,
  onChange,
  errors,
  receivers,
  newReceiver,
  onNewReceiver,
}: {
  rows: WebhookRow[];
  onChange(rows: WebhookRow[]): void;
  errors: Errors;
  receivers: ReceiverEndpoint[];
  /** A receiver endpoint to create on Save (the quick-pick's "new endpoint"), or null. */
  newReceiver: string | null;
  onNewReceiver(name: string | null): void;
}) {
  const addReason = webhookLimitReason(rows.length);
  const setUrl = (i: number, url: string) => onChange(rows.map((r, j) => (j === i ? { ...r, url } : r)));
  const remove = (i: number) => {
    const gone = rows[i]?.url;
    const next = rows.filter((_, j) => j !== i);
    onChange(next.length ? next : [{ url: '', headers: [] }]);
    if (newReceiver && gone === `receiver:${newReceiver}`) onNewReceiver(null);
  };
  /** Fills the first empty URL, else adds one. */
  const pick = (url: string) => {
    const empty = rows.findIndex((r) => r.url.trim() === '');
    if (empty >= 0) setUrl(empty, url);
    else if (rows.length < MAX_WEBHOOKS) onChange([...rows, { url, headers: [] }]);
  };
  const full = rows.every((r) => r.url.trim() !== '') && rows.length >= MAX_WEBHOOKS;
  return (
    <div className="flex flex-col gap-2">
      {rows.map((row, i) => (
        <div key={i} className="flex items-start gap-1.5">
          <span className="tabular mt-1.5 w-4 shrink-0 text-right font-mono text-[11px] text-faint">{i + 1}</span>
          <TextField
            className="flex-1"
            label={`Webhook ${i + 1} URL`}
            value={row.url}
            onChange={(v) => setUrl(i, v)}
            placeholder="https://example.com/hooks/analytics  or  receiver:<name>"
            data-slot={`webhooks[${i}].url`}
            error={errors[`webhooks[${i}].url`] ?? null}
          />
          <button
            type="button"
            aria-label={`Remove webhook ${i + 1}`}
            title={rows.length === 1 && row.url === '' && row.headers.length === 0 ? 'Nothing to remove: the only webhook is empty' : 'Remove this URL'}
            onClick={() => remove(i)}
            disabled={rows.length === 1 && row.url === '' && row.headers.length === 0}
            className="mt-5 flex size-7 shrink-0 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg disabled:opacity-30"
          >
            <X aria-hidden className="size-3.5" />
          </button>
        </div>
      ))}
      <div className="flex flex-wrap items-center gap-2 pl-5.5">
        <Button icon={<Plus aria-hidden className="size-3.5" />} disabled={addReason !== null} title={addReason ?? 'Another URL: a message is delivered once any one of them succeeds'} onClick={() => onChange([...rows, { url: '', headers: [] }])}>
          Add webhook
        </Button>
        <span className={`tabular text-[11px] ${addReason ? 'font-medium text-warn' : 'text-faint'}`} aria-live="polite">
          {rows.length} of {MAX_WEBHOOKS}
          {addReason ? ': the limit. Remove one to add another.' : ''}
        </span>
      </div>
      <FieldNote error={errors['webhooks']} />
      <ReceiverQuickPick receivers={receivers} rows={rows} full={full} newReceiver={newReceiver} onPick={pick} onNewReceiver={onNewReceiver} />
    </div>
  );
}

/** The mock receiver's endpoints as one-click URLs, and a new endpoint made on Save. */
function ReceiverQuickPick({ receivers, rows, full, newReceiver, onPick, onNewReceiver }: {
  receivers: ReceiverEndpoint[];
  rows: WebhookRow[];
  /** Every URL is taken: nothing more can be picked. */
  full: boolean;
  newReceiver: string | null;
  onPick(url: string): void;
  onNewReceiver(name: string | null): void;
}) {
  const fresh = newReceiver ?? freeName('inbox', receivers.map((r) => r.name)).replace(' ', '-');
  return (
    <div className="mt-1 flex flex-wrap items-center gap-1.5 rounded-md border border-dashed border-line px-2 py-1.5 pl-5.5" role="group" aria-label="Mock receiver quick-pick">
      <Inbox aria-hidden className="size-3.5 text-faint" />
      <span className="text-[11px] text-muted">Mock receiver:</span>
      {receivers.map((r) => {
        const url = `receiver:${r.name}`;
        const used = rows.some((row) => row.url.trim() === url);
        return (
          <button
            key={r.name}
            type="button"
            disabled={used || full}
            onClick={() => onPick(url)}
            title={used ? 'Already one of the URLs' : full ? `All ${MAX_WEBHOOKS} URLs are taken` : `Deliver to the mock receiver's endpoint ${r.name}${r.secret ? ' (it checks signatures)' : ''}`}
            className="h-6 rounded border border-line bg-panel px-1.5 font-mono text-[11px] text-fg hover:border-accent disabled:opacity-45"
          >
            {url}
          </button>
        );
      })}
      {newReceiver === null ? (
        <button
          type="button"
          disabled={full}
          onClick={() => {
            onNewReceiver(fresh);
            onPick(`receiver:${fresh}`);
          }}
          title="A new endpoint of the mock receiver that answers 200 and checks this destination's shared secret; created when you save"
          className="flex h-6 items-center gap-1 rounded border border-dashed border-line px-1.5 text-[11px] text-muted hover:border-accent hover:text-fg disabled:opacity-45"
        >
          <Plus aria-hidden className="size-3" />
          {receivers.length ? 'New endpoint' : `Create endpoint receiver:${fresh}`}
        </button>
      ) : (
        <span className="text-[11px] text-faint">receiver:{newReceiver} is created on Save (answers 200, checks the secret)</span>
      )}
    </div>
  );
}

/** Static headers of each webhook (up to five each). */
export function WebhookHeaders({ rows, onChange, errors }: { rows: WebhookRow[]; onChange(rows: WebhookRow[]): void; errors: Errors }) {
  const setHeaders = (i: number, headers: WebhookRow['headers']) => onChange(rows.map((r, j) => (j === i ? { ...r, headers } : r)));
  const baseId = useId();
  return (
    <div className="flex flex-col gap-3">
      {rows.map((row, i) => {
        const reason = headerLimitReason(row.headers.length);
        const error = errors[`webhooks[${i}].headers`];
        const noteId = `${baseId}-${i}`;
        // The problem is said once, under the row's headers; the headers it names point at it (all of
        // them when it names none, such as one header too many).
        // A header without a name is named by its place (`Webhook 1 header 2 name: …`).
        const named = (h: HeaderRow, k: number) => error?.split('\n').some((line) => line.startsWith(h.name.trim() === '' ? `Webhook ${i + 1} header ${k + 1} name: ` : `Webhook ${i + 1} header ${h.name.trim()}: `)) ?? false;
        const anyNamed = row.headers.some(named);
        const invalid = (h: HeaderRow, k: number) => (error && (!anyNamed || named(h, k)) ? { 'aria-invalid': true, 'aria-describedby': noteId } : {});
        return (
          <fieldset key={i} className="flex flex-col gap-1.5">
            <legend className="mb-1 flex min-w-0 items-center gap-1.5 text-xs text-muted">
              <span>Webhook {i + 1}</span>
              <span className="truncate font-mono text-[11px] text-faint">{row.url || '(no URL yet)'}</span>
            </legend>
            {row.headers.map((h, k) => (
              <div key={k} className="flex items-start gap-1.5">
                <TextField className="w-44" label={`Webhook ${i + 1} header ${k + 1} name`} value={h.name} placeholder="Header-Name" data-slot={`webhooks[${i}].headers`} {...invalid(h, k)} onChange={(name) => setHeaders(i, row.headers.map((x, m) => (m === k ? { ...x, name } : x)))} />
                <TextField className="flex-1" label={`Webhook ${i + 1} header ${k + 1} value`} value={h.value} placeholder="value" data-slot={`webhooks[${i}].headers`} {...invalid(h, k)} onChange={(value) => setHeaders(i, row.headers.map((x, m) => (m === k ? { ...x, value } : x)))} />
                <button
                  type="button"
                  aria-label={`Remove webhook ${i + 1} header ${k + 1}`}
                  onClick={() => setHeaders(i, row.headers.filter((_, m) => m !== k))}
                  className="mt-5 flex size-7 shrink-0 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg"
                >
                  <X aria-hidden className="size-3.5" />
                </button>
              </div>
            ))}
            <div className="flex items-center gap-2">
              <Button
                icon={<Plus aria-hidden className="size-3.5" />}
                aria-label={rows.length > 1 ? `Add header to webhook ${i + 1}` : 'Add header'}
                disabled={reason !== null}
                title={reason ?? 'A static header sent with every request to this URL'}
                onClick={() => setHeaders(i, [...row.headers, { name: '', value: '' }])}
              >
                Add header
              </Button>
              <span className={`tabular text-[11px] ${reason ? 'font-medium text-warn' : 'text-faint'}`}>
                {row.headers.length} of {MAX_HEADERS}
                {reason ? ': the limit' : ''}
              </span>
            </div>
            <FieldNote id={noteId} error={error} />
          </fieldset>
        );
      })}
      <p className="text-[11px] text-faint">Host, User-Agent, Content-Type, X-Signature and Proxy-* are set by Hookbench and cannot be configured. Values must be Latin-1 text.</p>
    </div>
  );
}

/** The shared secret: typed, generated, or (in the editor) the stored one, masked until `reveal` (RevealSecretButton) shows it. */
export function SecretField({ value, onChange, error, reveal }: { value: string; onChange(value: string): void; error?: string | undefined; reveal?: ReactNode }) {
  return (
    <TextField
      label="Shared secret"
      value={value}
      onChange={onChange}
      placeholder="none: requests are sent unsigned"
      data-slot="sharedSecret"
      error={error ?? null}
      help={
        <>
          Each request then carries <code className="font-mono">X-Signature</code>: the lowercase hex HMAC-SHA1 of the exact body bytes with this secret.
        </>
      }
      after={
        <>
          {reveal}
          <Button icon={<KeyRound aria-hidden className="size-3.5" />} onClick={() => onChange(generateSecret())} title="A random 128-bit secret (Web Crypto), 32 hex characters">
            Generate
          </Button>
        </>
      }
    />
  );
}
