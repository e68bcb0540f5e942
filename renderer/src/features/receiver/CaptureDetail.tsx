import { useEffect, useState } from 'react';
import { X } from 'lucide-react';
import type { AttemptRecord } from '../../../../main/contract/deliveries';
import type { CaptureAttempt, CaptureRecord } from '../../../../main/contract/receiver/receiver';
import { api } from '../../api/instance';
import { formatCount, formatTimestamp } from '../../lib/format';
import { useAsyncValue } from '../../lib/useAsyncValue';
import { useLive } from '../../stores/live';
import { useRouter } from '../../stores/router';
import { Card } from '../../ui/Card';
import { VerdictBadge } from '../../ui/VerdictBadge';
import { BodyModeSwitch, BodyView, useBodyMode } from '../detail/BodyView';
import { HeadersTable } from '../detail/HeadersTable';
import { answerOf, checkForgery, outcomeOf } from './CaptureList';

/** The attempt a capture's recorded link names (the engine told the receiver which attempt sent those bytes). */
export function attemptFor(attempts: readonly AttemptRecord[], link: CaptureAttempt): AttemptRecord | null {
  return attempts.find((a) => a.deliveryId === link.deliveryId && a.attemptNumber === link.attemptNumber && a.webhookIndex === link.webhookIndex) ?? null;
}

/** Which message and attempt sent this capture: the link the engine recorded, never a guess. */
function SentBy({ capture }: { capture: CaptureRecord }) {
  const navigate = useRouter((s) => s.navigate);
  const sent = capture.attempt;
  // The attempt is recorded after the answer: look again when the message's row changes.
  const row = useLive((s) => (sent === null ? undefined : s.rows.find((r) => r.id === sent.messageRef)));
  const link = useAsyncValue(async () => {
    if (sent === null) return null;
    const detail = await api().call('getMessage', { id: sent.messageRef }, { quiet: true });
    if (!detail.ok) return { id: sent.messageRef, gone: true, attempt: null, destination: null };
    const attempt = attemptFor(detail.value.attempts, sent);
    return { id: sent.messageRef, gone: false, attempt, destination: detail.value.deliveries.find((d) => d.id === sent.deliveryId)?.destinationName ?? null };
  }, [sent?.messageRef, sent?.deliveryId, sent?.attemptNumber, sent?.webhookIndex, row?.attempts, row?.status]);
  if (sent === null) return <span className="text-faint">not sent by this workbench&rsquo;s engine (curl, another program, hookbench receive)</span>;
  if (link.state !== 'done' || !link.value) return <span className="text-faint">{link.state === 'error' ? link.message : 'looking it up…'}</span>;
  const { id, gone, attempt, destination } = link.value;
  if (gone) return <span className="text-faint">message #{id}, removed since (retention or a deletion)</span>;
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-x-1.5">
      <a href={`#/live/${id}`} onClick={(e) => (e.preventDefault(), navigate({ view: 'live', messageId: id }))} className="text-accent hover:underline">
        message #{id}
      </a>
      <span className="text-faint">·</span>
      {attempt ? (
        <a
          href={`#/live/${id}/attempt/${attempt.id}`}
          onClick={(e) => (e.preventDefault(), navigate({ view: 'live', messageId: id, attemptId: attempt.id }))}
          className="text-accent hover:underline"
        >
          attempt {attempt.attemptNumber}
        </a>
      ) : (
        <span className="text-muted">attempt {sent.attemptNumber} (being recorded)</span>
      )}
      {destination && <span className="text-muted">to {destination}</span>}
    </span>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="contents">
      <dt className="py-0.5 text-muted">{label}</dt>
      <dd className="flex min-h-6 min-w-0 items-center gap-1.5 py-0.5">{children}</dd>
    </div>
  );
}

/** One captured request: what arrived, what answered, the signature verdict and which message sent it. */
export function CaptureDetail({ captureId, fromStore, onClose }: { captureId: number; fromStore: CaptureRecord | undefined; onClose(): void }) {
  const [fetched, setFetched] = useState<CaptureRecord | null>(null);
  const [mode, setMode] = useBodyMode();
  useEffect(() => {
    if (fromStore) return;
    let current = true;
    void api()
      .call('getCapture', { id: captureId })
      .then((r) => current && r.ok && setFetched(r.value));
    return () => {
      current = false;
    };
  }, [captureId, fromStore]);
  const c = fromStore ?? (fetched?.id === captureId ? fetched : null);
  if (!c) return <p className="p-3 text-xs text-faint">Loading capture #{captureId}…</p>;
  const sig = c.signature;
  const forgery = checkForgery(c);
  const bodyText = c.body.text;
  return (
    <section aria-label={`Capture ${c.id}`} className="flex h-full min-h-0 flex-col">
      <header className="flex h-9 shrink-0 items-center gap-2 border-b border-line bg-panel px-3">
        <h3 className="min-w-0 truncate font-mono text-xs">
          <span className="font-semibold text-accent">{c.method}</span> {c.path}
        </h3>
        {sig && <VerdictBadge verdict={sig.verdict} />}
        <button type="button" aria-label="Close capture" onClick={onClose} className="ml-auto flex size-7 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg">
          <X aria-hidden className="size-4" />
        </button>
      </header>
      <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-3">
        <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 rounded-lg border border-line bg-panel px-3 py-2 text-xs">
          <Fact label="Arrived">
            <span className="tabular font-mono">{formatTimestamp(c.arrivedAt)}</span>
            <span className="text-faint">engine time</span>
          </Fact>
          <Fact label="From">
            <span className="font-mono">{c.remoteAddress ?? 'unknown'}</span>
            <span className="text-faint">over {c.listener}</span>
          </Fact>
          <Fact label="Answered">
            {c.step.clientClosedAfterMs != null ? (
              <>
                <span className="text-err">{outcomeOf(c)}</span>
                <span className="truncate text-faint" title={`planned answer, not sent: ${c.step.label}`}>planned answer, not sent: {c.step.label}</span>
              </>
            ) : (
              <>
                <span className="font-mono">{answerOf(c)}</span>
                {c.step.label !== answerOf(c) && <span className="truncate text-faint" title={c.step.label}>{c.step.label}</span>}
              </>
            )}
          </Fact>
          <Fact label="Sent by">
            <SentBy capture={c} />
          </Fact>
        </dl>
        <Card name="Signature check" title="Signature check" aside={sig ? <VerdictBadge verdict={sig.verdict} /> : undefined}>
          {sig ? (
            <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-3 px-3 py-2 text-xs">
              <Fact label="X-Signature">
                <code aria-label="Signature received" className="font-mono break-all">{sig.given ?? <span className="text-faint">missing</span>}</code>
              </Fact>
              <Fact label="Expected">
                <code aria-label="Expected signature" className="font-mono break-all">{sig.expected}</code>
              </Fact>
              {(forgery ?? sig.diagnosis) && (
                <Fact label="Diagnosis">
                  <span role="note" aria-label="Diagnosis" className={forgery ? 'text-muted' : 'text-err'}>
                    {forgery ?? sig.diagnosis?.explanation}
                  </span>
                </Fact>
              )}
            </dl>
          ) : (
            <p className="px-3 py-2 text-xs text-muted">This endpoint has no secret, so signatures are not checked. Give it one to see a verdict for each request.</p>
          )}
        </Card>
        <Card title="Request headers">
          <HeadersTable headers={c.rawHeaders} label="Request headers" />
        </Card>
        <Card title={`Body · ${formatCount(c.bodySize)} bytes${c.bodyTruncated ? ' (first 1 MiB kept)' : ''}`} aside={bodyText !== null && bodyText !== '' ? <BodyModeSwitch mode={mode} onChange={setMode} /> : undefined}>
          {bodyText === null ? (
            <p className="px-3 py-2 text-xs text-muted">Not UTF-8 text ({formatCount(c.bodySize)} bytes).</p>
          ) : bodyText === '' ? (
            <p className="px-3 py-2 text-xs text-faint">Empty body.</p>
          ) : (
            <BodyView text={bodyText} mode={mode} label="Captured body" />
          )}
        </Card>
      </div>
    </section>
  );
}
