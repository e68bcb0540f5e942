import { useEffect, useId, useMemo, useState } from 'react';
import { utf8 } from '../../lib/signature';
import { useAsyncValue } from '../../lib/useAsyncValue';
import { ByteDiff } from '../../ui/ByteDiff';
import { JsonEditor } from '../../ui/JsonEditor';
import { VerdictBadge } from '../../ui/VerdictBadge';
import { checkServerSignature } from './check';
import { formatCount } from '../../lib/format';

interface CheckProps {
  bytes: Uint8Array;
  body: string;
  /** undefined: not fetched yet; null: no secret. */
  secret: string | null | undefined;
  fetchSecret(): Promise<unknown>;
}

/**
 * "Your server's signature" (and optionally the body it saw) → the diagnosis `hookbench verify` gives, and a
 * byte diff of the two bodies. Checking needs the secret: typing a signature fetches it (it stays masked).
 */
export function SignatureCheck({ bytes, body, secret, fetchSecret }: CheckProps) {
  const [given, setGiven] = useState('');
  const [saw, setSaw] = useState('');
  const inputId = useId();
  const helpId = useId();
  const wantsCheck = given.trim() !== '';
  useEffect(() => {
    if (wantsCheck && secret === undefined) void fetchSecret();
  }, [wantsCheck, secret, fetchSecret]);
  const sawBytes = useMemo(() => (saw === '' ? null : utf8.encode(saw)), [saw]);
  const check = useAsyncValue(
    () => (wantsCheck && typeof secret === 'string' ? checkServerSignature({ secret, sent: bytes, given, saw: sawBytes }) : null),
    [wantsCheck, secret, bytes, given, sawBytes],
  );

  return (
    <div className="flex flex-col gap-2 border-t border-line px-3 py-2.5">
      <h4 className="text-xs font-semibold">Check your server’s signature</h4>
      <div className="flex flex-col gap-1">
        <label htmlFor={inputId} className="text-xs text-muted">
          Your server's signature
        </label>
        <input
          id={inputId}
          value={given}
          onChange={(e) => setGiven(e.target.value)}
          aria-describedby={helpId}
          spellCheck={false}
          autoComplete="off"
          placeholder="the X-Signature your server computed, e.g. 6c70110e…"
          className="h-7 w-full min-w-0 rounded-md border border-line bg-panel px-2 font-mono text-xs focus-visible:border-accent"
        />
        <p id={helpId} className="text-[11px] text-faint">
          Checked against the bytes sent; a mismatch is explained (re-serialised JSON, a newline, SHA-256, base64, a prefix, the secret).
        </p>
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-xs text-muted">
          Body your server saw <span className="text-faint">(optional: paste it for a byte diff)</span>
        </span>
        <JsonEditor label="Body your server saw" value={saw} onChange={setSaw} placeholder="the raw body your server hashed" minHeight="2.25rem" maxHeight="6rem" />
      </div>
      {wantsCheck && (
        <div role="status" aria-label="Diagnosis" className="flex flex-col gap-1 rounded-md border border-line bg-panel-2 px-2.5 py-2 text-xs">
          {secret === null ? (
            <span className="text-muted">The destination has no shared secret now: there is nothing to check against.</span>
          ) : check.state === 'done' ? (
            <div className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-x-2 gap-y-1">
              <VerdictBadge verdict={check.value.diagnosis.matches ? 'valid' : 'invalid'} />
              <span className="text-fg">{check.value.headline}</span>
              {check.value.bodyNote && <p className="col-start-2 text-muted">{check.value.bodyNote}</p>}
              {!check.value.diagnosis.matches && (
                <div className="col-start-2 flex min-w-0 gap-2 text-muted">
                  <span className="shrink-0">expected</span>
                  <code className="inline-block max-w-full overflow-x-auto align-bottom font-mono whitespace-nowrap text-fg">{check.value.diagnosis.expected}</code>
                </div>
              )}
            </div>
          ) : check.state === 'error' ? (
            <span className="text-err">Could not check: {check.message}</span>
          ) : (
            <span className="text-faint">Checking…</span>
          )}
        </div>
      )}
      {sawBytes && <BodyDiffSection sent={body} saw={saw} sentBytes={bytes.length} sawBytes={sawBytes.length} />}
    </div>
  );
}

function BodyDiffSection({ sent, saw, sentBytes, sawBytes }: { sent: string; saw: string; sentBytes: number; sawBytes: number }) {
  const same = sent === saw;
  return (
    <section aria-label="Byte diff" className="flex flex-col gap-1">
      <div className="flex items-baseline gap-2 text-xs">
        <h4 className="shrink-0 font-semibold">Byte diff</h4>
        <span className="text-faint">
          {same
            ? `identical: ${formatCount(sentBytes)} bytes`
            : `sent ${formatCount(sentBytes)} bytes, your server saw ${formatCount(sawBytes)}; removed is struck through, added is highlighted, spaces show as dots`}
        </span>
      </div>
      {!same && (
        <div className="overflow-hidden rounded-md border border-line">
          <ByteDiff original={sent} changed={saw} label="Byte diff of the body sent and the body your server saw" />
        </div>
      )}
    </section>
  );
}
