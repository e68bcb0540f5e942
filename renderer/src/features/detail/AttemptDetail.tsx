import { useEffect, useRef } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Button } from '../../ui/Button';
import { isFastForwarded, type AttemptRecord } from '../../../../main/contract/deliveries';
import type { MessageDetail } from '../../../../main/contract/messages';
import { CompareAttemptButton } from '../compare/CompareButtons';
import { toCurl } from '../../lib/curl';
import { failureReason, retryFate } from '../../lib/failureReason';
import { findDestination, useCatalog } from '../../stores/catalog';
import { formatDuration, formatTimestamp } from '../../lib/format';
import { useRouter } from '../../stores/router';
import { Card } from '../../ui/Card';
import { CopyButton } from '../../ui/CopyButton';
import { FastForwardedBadge, OutcomeBadge } from '../../ui/StatusBadge';
import { ReceiverVerdict } from '../signature/ReceiverVerdict';
import { VerdictBadge } from '../../ui/VerdictBadge';
import { SignaturePanel } from '../signature/SignaturePanel';
import { BodyModeSwitch, BodyView, useBodyMode } from './BodyView';
import { HeadersTable } from './HeadersTable';
import { focusAttemptButton } from '../../lib/focusAttempt';

/** One attempt: the exact request, the response, the timings, and why it failed in plain words. */
export function AttemptDetail({ detail, attempt, body, destinationName, destinationId }: { detail: MessageDetail; attempt: AttemptRecord; body: string; destinationName: string; destinationId: string }) {
  const navigate = useRouter((s) => s.navigate);
  const [requestMode, setRequestMode] = useBodyMode();
  const destination = useCatalog((s) => findDestination(s, destinationId));
  const held = destination !== undefined && (!destination.enabled || destination.webhooks.length === 0);
  const reason = failureReason(attempt, retryFate(attempt, detail.attempts, detail.deliveries.find((d) => d.id === attempt.deliveryId), held));
  const receiverCheck = detail.receiverChecks?.find((c) => c.attemptId === attempt.id) ?? null;
  const sent = attempt.outcome !== 'tls_error';
  const curl = () => toCurl({ method: 'POST', url: attempt.url, headers: attempt.requestHeaders, body });
  // Opening an attempt brings it into view (it sits below the timelines).
  const ref = useRef<HTMLElement | null>(null);
  useEffect(() => {
    // Braces: Chromium's scrollIntoView returns a promise, and an effect may return only a cleanup.
    ref.current?.scrollIntoView({ block: 'start' });
  }, [attempt.id]);
  return (
    <section ref={ref} data-attempt-detail aria-label={`Attempt ${attempt.attemptNumber}`} className="flex scroll-mt-3 flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <div className="flex min-w-0 items-center gap-2">
          <h3 className="min-w-0 flex-1 truncate text-[13px] font-semibold" title={`Attempt ${attempt.attemptNumber} · ${destinationName} · webhook ${attempt.webhookIndex + 1}`}>
            Attempt {attempt.attemptNumber}{' '}
            <span className="font-normal text-muted">
              · {destinationName} · webhook {attempt.webhookIndex + 1}
            </span>
          </h3>
          {isFastForwarded(attempt) && <FastForwardedBadge />}
          <OutcomeBadge outcome={attempt.outcome} />
          {/* A green `success` alone would read as "all good" above a refused signature. */}
          {receiverCheck?.verdict && receiverCheck.verdict !== 'valid' && <VerdictBadge verdict={receiverCheck.verdict} labelled />}
        </div>
        {/* The actions get their own row: beside the title they squeezed it onto several lines at 1024 px. */}
        <div className="flex flex-wrap items-center gap-1">
          <Button variant="ghost" icon={<ArrowLeft aria-hidden className="size-3.5" />} aria-label="Close attempt" title="Back to the message body (Esc)" onClick={() => (focusAttemptButton(attempt.id), navigate({ attemptId: null }))}>
            Message
          </Button>
          <span className="mx-1 h-4 w-px bg-line" aria-hidden />
          <CompareAttemptButton detail={detail} attemptId={attempt.id} />
          <CopyButton text={curl} label="Copy as cURL" />
        </div>
      </div>

      {reason && (
        <p role="note" aria-label="Why it failed" className="rounded-lg border border-err/30 bg-err-soft px-3 py-2 text-xs text-fg">
          {reason}
        </p>
      )}
      {receiverCheck && <ReceiverVerdict check={receiverCheck} statusCode={attempt.statusCode} />}

      <Card title="Request" aside={sent ? <BodyModeSwitch mode={requestMode} onChange={setRequestMode} /> : undefined}>
        <div className="flex min-w-0 items-center gap-2 border-b border-line px-3 py-2 font-mono text-xs">
          <span className="font-semibold text-accent">POST</span>
          <span className="truncate" title={attempt.url}>
            {attempt.url}
          </span>
        </div>
        {sent ? (
          <>
            <HeadersTable headers={attempt.requestHeaders} label="Request headers" />
            <div className="border-t border-line">
              <BodyView text={body} mode={requestMode} label="Request body" />
            </div>
          </>
        ) : (
          <p className="px-3 py-2 text-xs text-muted">Nothing was sent: the TLS handshake was refused before any request.</p>
        )}
      </Card>

      <ResponseCard attempt={attempt} />

      <SignaturePanel attempt={attempt} body={body} destinationId={destinationId} receiverCheck={receiverCheck} />

      <Card title="Timings">
        <dl className="grid grid-cols-[9rem_minmax(0,1fr)] gap-x-3 gap-y-1 px-3 py-2 text-xs">
          <dt className="text-muted">Started (engine time)</dt>
          <dd className="tabular font-mono">{formatTimestamp(attempt.startedAt)}</dd>
          <dt className="text-muted">Finished</dt>
          <dd className="tabular font-mono">{formatTimestamp(attempt.finishedAt)}</dd>
          <dt className="text-muted">{attempt.outcome === 'timeout' ? 'Gave up after' : 'Response headers after'}</dt>
          <dd className="tabular font-mono">{formatDuration(attempt.durationMs)}</dd>
          <dt className="text-muted">{sent ? 'Signature sent' : 'Signature (unsent)'}</dt>
          <dd className="truncate font-mono">{attempt.signature ?? <span className="text-faint">none (no shared secret)</span>}</dd>
        </dl>
      </Card>
    </section>
  );
}

/** What came back: the status, headers and body (the first 64 KiB), or why nothing did. */
function ResponseCard({ attempt }: { attempt: AttemptRecord }) {
  const [mode, setMode] = useBodyMode();
  return (
    <Card title="Response" aside={attempt.responseBody ? <BodyModeSwitch mode={mode} onChange={setMode} /> : undefined}>
      {attempt.statusCode !== null ? (
        <>
          <div className="border-b border-line px-3 py-2 font-mono text-xs">
            HTTP <span className="font-semibold">{attempt.statusCode}</span>
          </div>
          {attempt.responseHeaders && <HeadersTable headers={attempt.responseHeaders} label="Response headers" />}
          {attempt.responseBody ? (
            <div className="border-t border-line">
              <BodyView text={attempt.responseBody} mode={mode} label="Response body" />
              {attempt.responseTruncated && <p className="border-t border-line px-3 py-1.5 text-xs text-faint">Only the first 64 KiB of the response body is kept.</p>}
            </div>
          ) : (
            <p className="border-t border-line px-3 py-2 text-xs text-faint">Empty body.</p>
          )}
        </>
      ) : (
        <p className="px-3 py-2 text-xs text-muted">No response{attempt.error ? `: ${attempt.error}` : ''}.</p>
      )}
    </Card>
  );
}
