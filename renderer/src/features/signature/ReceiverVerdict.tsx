import { useState } from 'react';
import { ArrowRight, CircleCheck, CircleX, KeyRound, TriangleAlert } from 'lucide-react';
import type { ReceiverCheck, SecretMismatch } from '../../../../main/contract/receiver/receiver';
import { api } from '../../api/instance';
import { findDestination, useCatalog } from '../../stores/catalog';
import { useDetail } from '../../stores/detail';
import { formatHash, parseHash } from '../../stores/router';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

/** `destination 'X' …` as a sentence. */
function sentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

function captureHash(check: ReceiverCheck): string {
  return formatHash({ ...parseHash(''), view: 'receiver', receiver: check.receiver, captureId: check.receiver === null ? null : check.captureId });
}

/** The verdict's element id: where focus goes once Use one secret has removed its button. */
const verdictId = (attemptId: number) => `receiver-verdict-${attemptId}`;

/**
 * The other side of an attempt to the mock receiver: what the receiver made of the request (its
 * X-Signature verdict), why, and the capture to open. An HTTP 200 from the receiver says nothing about the
 * signature: this does. When the two secrets differ it says so, shows each one's fingerprint (never the
 * secret) and offers to make them one.
 */
/** `statusCode`: what the endpoint answered the attempt (a 401 is its refusal of the signature, when it refuses invalid ones). */
export function ReceiverVerdict({ check, statusCode = null }: { check: ReceiverCheck; statusCode?: number | null }) {
  const tone = check.verdict === null ? 'muted' : check.verdict === 'valid' ? 'ok' : check.verdict === 'invalid' ? 'err' : 'warn';
  const frame = { ok: 'border-ok/30 bg-ok-soft', err: 'border-err/30 bg-err-soft', warn: 'border-warn/30 bg-warn-soft', muted: 'border-line bg-panel-2' }[tone];
  const icon =
    check.verdict === 'valid' ? (
      <CircleCheck aria-hidden className="mt-px size-4 shrink-0 text-ok" />
    ) : check.verdict === 'invalid' ? (
      <CircleX aria-hidden className="mt-px size-4 shrink-0 text-err" />
    ) : check.verdict === 'missing' ? (
      <TriangleAlert aria-hidden className="mt-px size-4 shrink-0 text-warn" />
    ) : (
      <KeyRound aria-hidden className="mt-px size-4 shrink-0 text-faint" />
    );
  const name = check.receiver ?? 'the receiver';
  const headline =
    check.verdict === null
      ? `Receiver endpoint '${name}' checks no signature (it has no secret).`
      : check.verdict === 'valid'
        ? `Receiver endpoint '${name}' checked X-Signature: valid.`
        : check.verdict === 'invalid'
          ? `Receiver endpoint '${name}' found X-Signature invalid${answeredAnyway(statusCode)}.`
          : `Receiver endpoint '${name}' found no X-Signature${answeredAnyway(statusCode)}.`;
  return (
    <section id={verdictId(check.attemptId)} tabIndex={-1} aria-label="Receiver's verdict" className={`flex gap-2.5 rounded-lg border px-3 py-2 text-xs ${frame}`}>
      {icon}
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {/* The headline says the verdict; a badge beside it only repeated the word. */}
          <span className="font-medium text-fg">{headline}</span>
          <a href={captureHash(check)} className="ml-auto inline-flex items-center gap-1 text-accent hover:underline">
            Open capture {check.captureId}
            <ArrowRight aria-hidden className="size-3" />
          </a>
        </div>
        {check.explanation && <p className="text-fg">{sentence(check.explanation)}</p>}
        {check.secrets && <Fingerprints secrets={check.secrets} unsigned={check.verdict === 'missing'} />}
        {check.secrets?.fixable && <UseOneSecret secrets={check.secrets} attemptId={check.attemptId} />}
      </div>
    </section>
  );
}

/** A 2xx to a bad signature is the script answering it anyway; a 401 is the refusal a correct receiver makes. */
function answeredAnyway(statusCode: number | null): string {
  if (statusCode === 401) return ' and refused it (401)';
  return statusCode !== null && statusCode >= 200 && statusCode < 300 ? `, but answered ${statusCode} as its script says` : '';
}

function Fingerprints({ secrets, unsigned }: { secrets: SecretMismatch; unsigned: boolean }) {
  const show = (fp: string | null, none: string) => (fp ? <code className="font-mono text-fg">{fp}</code> : <span className="text-faint">{none}</span>);
  return (
    <dl aria-label="Secret fingerprints" className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-muted">
      <dt>Destination ‘{secrets.destinationName}’ signs with</dt>
      <dd>{show(secrets.destinationFingerprint, unsigned ? 'no secret' : 'a secret changed since this attempt')}</dd>
      <dt>Receiver ‘{secrets.receiver}’ checks with</dt>
      <dd>{show(secrets.receiverFingerprint, 'a secret changed since this request')}</dd>
      <dd className="col-span-2 text-[11px] text-faint">Fingerprints: the first 8 hex digits of each secret’s SHA-256. Equal secrets have equal fingerprints; neither reveals its secret.</dd>
    </dl>
  );
}

/** The fix in one click, after a confirmation: the receiver endpoint takes the destination's secret (or the other way round when the destination has none). */
function UseOneSecret({ secrets, attemptId }: { secrets: SecretMismatch; attemptId: number }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // The server's rule: the endpoint takes the destination's secret, unless the destination has none.
  const toDestination = useCatalog((s) => findDestination(s, secrets.destinationId)?.sharedSecret === null);
  const what = toDestination
    ? `Destination ‘${secrets.destinationName}’ gets the secret of receiver endpoint ‘${secrets.receiver}’, and signs every attempt with it from now on.`
    : `Receiver endpoint ‘${secrets.receiver}’ gets the shared secret of destination ‘${secrets.destinationName}’, and checks every request with it from now on.`;
  const apply = async () => {
    setBusy(true);
    const result = await api().call('useOneSecret', { destinationId: secrets.destinationId, receiver: secrets.receiver });
    setBusy(false);
    if (!result.ok) return;
    setConfirming(false);
    useToasts.getState().push({ tone: 'success', title: 'One secret for both', message: `Destination ‘${secrets.destinationName}’ and receiver endpoint ‘${secrets.receiver}’ now share the secret with fingerprint ${result.value.fingerprint}.` });
    await Promise.all([useCatalog.getState().load(), useDetail.getState().reload()]);
    // Read again, the two secrets are one and this button is gone: focus goes to the verdict it changed, not to the page.
    document.getElementById(verdictId(attemptId))?.focus();
  };
  return (
    <div>
      <Button icon={<KeyRound aria-hidden className="size-3.5" />} onClick={() => setConfirming(true)}>
        Use one secret for both
      </Button>
      {confirming && <ConfirmOneSecret text={what} busy={busy} onCancel={() => setConfirming(false)} onConfirm={apply} />}
    </div>
  );
}

function ConfirmOneSecret({ text, busy, onCancel, onConfirm }: { text: string; busy: boolean; onCancel(): void; onConfirm(): Promise<void> }) {
  return (
    <ConfirmDialog
      id="one-secret"
      title="Use one secret for both?"
      text={`${text} Requests already captured keep their verdict; send or replay a message to check again.`}
      width="w-[30rem]"
      safeLabel="Cancel"
      onSafe={onCancel}
      confirm={
        <Button size="md" variant="primary" busy={busy} onClick={() => void onConfirm()}>
          Use one secret
        </Button>
      }
    />
  );
}
