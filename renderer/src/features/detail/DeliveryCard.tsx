import { pastWindowWords } from '../../../../main/contract/message/deliveryWords';
import type { AttemptRecord, DeliveryRecord } from '../../../../main/contract/deliveries';
import type { SignatureVerdict } from '../../../../main/contract/receiver/receiver';
import { DEFAULT_RETRY_POLICY, destinationOwner } from '../../../../main/contract/destinations';
import { formatCountdown, formatSpan } from '../../lib/format';
import { awaitsWebhook, futureAttempts, retryAfterMs } from '../../lib/retryLadder';
import { useNow } from '../../lib/useNow';
import { findDestination, useCatalog } from '../../stores/catalog';
import { engineNow, useEngine } from '../../stores/engine';
import { Card } from '../../ui/Card';
import { StatusBadge } from '../../ui/StatusBadge';
import { deliveredDespite, deliveryCount, notRetried } from './deliveryWords';
import { Timeline } from './Timeline';
import { VisibleText } from '../../ui/VisibleText';

/** One destination's delivery: its status, then a timeline per webhook (past attempts and ghosts). */
export function DeliveryCard({
  delivery,
  attempts,
  selectedAttemptId,
  receiverVerdicts,
}: {
  delivery: DeliveryRecord;
  attempts: AttemptRecord[];
  selectedAttemptId: number | null;
  receiverVerdicts?: ReadonlyMap<number, SignatureVerdict | null>;
}) {
  const destination = useCatalog((s) => findDestination(s, delivery.destinationId));
  const clock = useEngine((s) => s.clock);
  const paused = useEngine((s) => s.paused);
  const now = engineNow(clock, useNow(1000));
  const policy = destination?.retry ?? DEFAULT_RETRY_POLICY;
  const last = [...attempts].sort((a, b) => b.attemptNumber - a.attemptNumber)[0];
  const retryAfter = retryAfterMs(last?.responseHeaders ?? null);
  // A destination that is off (or has no webhook URL) holds its deliveries: no attempt is due until it is turned on.
  const waitingNow = delivery.status === 'queued' || delivery.status === 'retrying';
  const held = waitingNow && destination !== undefined && (!destination.enabled || destination.webhooks.length === 0);
  // 'hookbench send' keeps its destination out of Destinations, so the user cannot turn it on there: a send does.
  const keptBySend = destinationOwner(delivery.destinationName) === 'send';
  const ghosts = held ? [] : futureAttempts(delivery, policy, retryAfter, now);

  // Webhooks by index: the configured URL (it may say receiver:<name>) and the URL attempts went to.
  const indexes = [...new Set([...attempts.map((a) => a.webhookIndex), ...(destination?.webhooks.map((_, i) => i) ?? [])])].sort((a, b) => a - b);
  const webhooks = indexes.map((index) => {
    const own = attempts.filter((a) => a.webhookIndex === index).sort((a, b) => a.attemptNumber - b.attemptNumber);
    const configured = destination?.webhooks[index]?.url;
    const sentTo = own[own.length - 1]?.url;
    const waiting = delivery.status === 'queued' || delivery.status === 'retrying';
    const sending = delivery.status === 'delivering';
    const pending = (waiting || sending) && awaitsWebhook(delivery.pendingUrls, indexes.length, [sentTo, configured]);
    // A round out now: its attempt is not recorded until it ends, and the timeline says so rather than "No attempt yet".
    return { index, configured, sentTo, attempts: own, pending, ghosts: pending && waiting ? ghosts : [], inFlight: pending && sending ? delivery.attempts + 1 : null };
  });

  const despite = deliveredDespite(delivery, attempts);
  const leftOut = notRetried(delivery, webhooks.map((w) => ({ index: w.index, pending: w.pending, last: w.attempts.at(-1) })));
  // Counted as the card's count is: with several webhooks what did not come is a round.
  const pastWindow = delivery.status === 'failed' ? pastWindowWords(delivery, webhooks.length > 1) : null;

  return (
    <Card
      heading="name"
      name={delivery.destinationName}
      title={<VisibleText text={delivery.destinationName} />}
      aside={
        <>
          <span className="text-xs text-muted">{deliveryCount(delivery, attempts.length, webhooks.length)}</span>
          <StatusBadge status={delivery.status} />
        </>
      }
    >
      <div className="flex flex-col gap-3 p-3">
        {held && (
          <p className="text-xs text-warn">
            Held: <VisibleText text={delivery.destinationName} /> {destination.webhooks.length === 0 ? 'has no webhook URL; give it one and turn it on' : 'is off'}. {keptBySend ? 'Nothing is sent until the next hookbench send turns it on.' : 'Nothing is sent until it is turned on.'}
          </p>
        )}
        {/* A first attempt held by the pause: "queued" alone reads as if it were about to be sent. */}
        {!held && paused && delivery.status === 'queued' && <p className="text-xs text-warn">Forwarding is paused: the first attempt waits until you resume it.</p>}
        {despite && <p className="text-xs text-muted">{despite}</p>}
        {leftOut && <p className="text-xs text-muted">{leftOut}</p>}
        {!held && (delivery.reason || (delivery.nextAttemptAt !== null && delivery.status === 'retrying')) && (
          <p className="text-xs text-muted">
            {delivery.reason && <span className={delivery.status === 'failed' ? 'text-err' : ''}>{delivery.reason}. </span>}
            {pastWindow && <span>{`${pastWindow.charAt(0).toUpperCase()}${pastWindow.slice(1)}.`} </span>}
            {delivery.nextAttemptAt !== null && delivery.status === 'retrying' && (
              <span>
                Next attempt <span className="tabular font-mono text-warn">{formatCountdown(delivery.nextAttemptAt, now)}</span>
                {retryAfter !== null && <> (the endpoint asked for Retry-After {formatSpan(retryAfter)})</>}, retrying for up to {formatSpan(policy.windowMs)} after the first attempt.
                {/* A retry due while paused waits: "due now" alone reads as if it were being played. */}
                {paused && <> Forwarding is paused: no attempt is made until you resume it.</>}
              </span>
            )}
          </p>
        )}
        {webhooks.map((w) => (
          <Timeline
            key={w.index}
            deliveryId={delivery.id}
            webhookIndex={w.index}
            scope={webhooks.length > 1 ? `${delivery.destinationName}, webhook ${w.index + 1}` : delivery.destinationName}
            url={w.sentTo ?? w.configured ?? `webhook ${w.index + 1}`}
            configuredUrl={w.configured}
            attempts={w.attempts}
            ghosts={w.ghosts}
            inFlight={w.inFlight}
            now={now}
            selectedAttemptId={selectedAttemptId}
            receiverVerdicts={receiverVerdicts}
          />
        ))}
      </div>
    </Card>
  );
}
