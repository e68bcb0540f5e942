import { useMemo } from 'react';
import { CircleCheck, CircleMinus, CirclePause, LoaderCircle } from 'lucide-react';
import type { Destination } from '../../../../main/contract/destinations';
import { formatCount, plural } from '../../lib/format';
import { signBody, utf8, webCryptoMissing } from '../../lib/signature';
import { useAsyncValue } from '../../lib/useAsyncValue';
import { useCatalog } from '../../stores/catalog';
import { useCompose } from '../../stores/compose';
import { engineNow, useEngine } from '../../stores/engine';
import { secretKey, useSecrets } from '../../stores/secrets';
import { CodeView } from '../../ui/CodeView';
import { CopyButton } from '../../ui/CopyButton';
import { previewBody, previewRoutes, type RoutePreview } from './preview';

/**
 * The exact bytes Send would deliver for the current form, and for each destination whether it would
 * receive them (with their X-Signature) or why not. Signatures need the secret: each is computed only when
 * asked ("Show signature"), with Web Crypto.
 */
export function ComposePreview() {
  const { type, call, source, destinations: chosen } = useCompose();
  const { destinations, sources } = useCatalog();
  const clock = useEngine((s) => s.clock);
  // The time of the last edit, not a ticking one: the bytes stay put while the form does.
  const body = useMemo(() => previewBody(type, call, engineNow(clock)), [type, call]);
  const bytes = useMemo(() => (body.ok ? utf8.encode(body.json) : null), [body]);
  const routes = useMemo(
    () => previewRoutes({ type, event: body.ok ? body.event : null, integrations: call['integrations'], source: sources.find((s) => s.name === source) ?? null, chosen }, destinations),
    [type, body, call, sources, source, chosen, destinations],
  );
  const receiving = routes.filter((r) => r.receives);

  return (
    <section aria-label="Preview" className="flex h-full min-h-0 flex-col">
      <div className="flex h-8 shrink-0 items-center justify-between gap-2 border-b border-line px-3">
        <h2 className="text-xs font-semibold tracking-wide text-muted uppercase">Preview</h2>
        <span className="truncate text-[11px] text-faint">messageId and timestamp are filled in when it is sent</span>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {!body.ok ? (
          <p className="px-3 py-2 text-xs text-err">Nothing to preview: {body.error.message}</p>
        ) : (
          <>
            <div className="flex items-center gap-2 px-3 pt-2 pb-1 text-xs">
              <span className="font-medium">Body</span>
              <span className="text-muted">{formatCount(bytes!.length)} bytes, exactly as they would be sent and signed</span>
              <span className="ml-auto">
                <CopyButton text={body.json} label="Copy body bytes" showLabel={false} />
              </span>
            </div>
            {/* Wrapped between JSON members only, never inside a value ("user-7" stays whole): CodeView's
                wrap="tokens". Its width is the pane's, whatever its longest member. */}
            <div className="mx-3 overflow-hidden rounded-md border border-line [contain:inline-size]">
              <CodeView value={body.json} label="Body bytes" language="json" maxHeight="7.5rem" wrap="tokens" />
            </div>
            {(body.filledMessageId || body.filledTimestamp) && (
              <p className="mx-3 mt-1 text-[11px] text-faint">
                Shown with {[body.filledMessageId && 'a sample messageId', body.filledTimestamp && 'the engine time now'].filter(Boolean).join(' and ')}: the engine fills{' '}
                {body.filledMessageId && body.filledTimestamp ? 'both' : 'it'} in when the call arrives, so the bytes sent (and their signatures) differ there.
              </p>
            )}
            <h3 className="mt-3 px-3 text-xs font-medium">
              {destinations.length === 0 ? 'No destination yet' : `${receiving.length} of ${plural(destinations.length, 'destination')} would receive it`}
            </h3>
            <ul aria-label="Where it would go" className="flex flex-col px-3 pt-1 pb-3">
              {routes.map((r) => (
                <RouteRow key={r.destination.id} route={r} bytes={bytes!} />
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

function RouteRow({ route, bytes }: { route: RoutePreview; bytes: Uint8Array }) {
  const { destination, receives, held, reason } = route;
  const Icon = !receives ? CircleMinus : held ? CirclePause : CircleCheck;
  return (
    <li aria-label={`${destination.name}: ${receives ? (held ? 'held' : 'receives it') : `not sent, ${reason}`}`} className="flex min-w-0 items-start gap-2 border-b border-line/60 py-1.5 text-xs last:border-b-0">
      <Icon aria-hidden className={`mt-px size-3.5 shrink-0 ${!receives ? 'text-faint' : held ? 'text-warn' : 'text-ok'}`} />
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className={`truncate ${receives ? 'font-medium text-fg' : 'text-muted'}`}>{destination.name}</span>
        {reason && <span className={receives ? 'text-warn' : 'text-faint'}>{reason}</span>}
        {receives && <SignatureLine destination={destination} bytes={bytes} />}
      </div>
    </li>
  );
}

function SignatureLine({ destination, bytes }: { destination: Destination; bytes: Uint8Array }) {
  const secret = useSecrets((s) => s.values[secretKey('destination', destination.id)]);
  const loading = useSecrets((s) => s.loading[secretKey('destination', destination.id)] ?? false);
  const reveal = useSecrets((s) => s.reveal);
  const cryptoMissing = webCryptoMissing();
  const signature = useAsyncValue(() => (typeof secret === 'string' && !cryptoMissing ? signBody(secret, bytes) : null), [secret, bytes, cryptoMissing]);
  if (destination.sharedSecret === null) return <span className="text-faint">unsigned: no shared secret, no X-Signature</span>;
  if (cryptoMissing) return <span className="text-faint">signed with {destination.sharedSecret} (cannot be computed on this page)</span>;
  if (typeof secret !== 'string') {
    return (
      <span className="flex flex-wrap items-center gap-x-1.5 text-muted">
        X-Signature signed with <code className="rounded bg-panel-2 px-1 font-mono">{destination.sharedSecret}</code>
        <button
          type="button"
          disabled={loading}
          aria-busy={loading || undefined}
          onClick={() => void reveal('destination', destination.id)}
          aria-label={`Show signature for ${destination.name}`}
          title="Fetch the secret (it stays masked) and compute the X-Signature here"
          className="inline-flex h-5 items-center gap-1 rounded px-1 font-medium text-accent hover:bg-hover disabled:opacity-60"
        >
          {loading && <LoaderCircle aria-hidden className="size-3 animate-spin" />}
          show signature
        </button>
      </span>
    );
  }
  return (
    <span className="flex min-w-0 gap-1.5 text-muted">
      <span className="shrink-0">X-Signature</span>
      <code aria-label={`X-Signature for ${destination.name}`} className="font-mono break-all text-fg">
        {signature.state === 'done' ? signature.value : '…'}
      </code>
    </span>
  );
}
