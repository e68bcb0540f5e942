import { useState } from 'react';
import { LoaderCircle, X } from 'lucide-react';
import { CompareDialog } from '../compare/CompareDialog';
import { useDetail } from '../../stores/detail';
import { useRouter } from '../../stores/router';
import { StatusBadge } from '../../ui/StatusBadge';
import { EmptyState } from '../../ui/EmptyState';
import { AttemptDetail } from './AttemptDetail';
import { BodyCard } from './BodyCard';
import { bodyLabel } from './bodyLabel';
import { DeliveryCard } from './DeliveryCard';
import { MessageActions } from './MessageActions';
import { MessageFacts } from './MessageFacts';
import { WhyPanel } from './WhyPanel';
import { VisibleText } from '../../ui/VisibleText';

/** The selected message: facts, actions, each destination's timeline, then the body or one attempt. */
export function DetailPane({ onClose }: { onClose(): void }) {
  const { detail, loading, missing } = useDetail();
  const attemptId = useRouter((s) => s.route.attemptId);
  const message = detail?.message;
  const attempt = attemptId === null ? undefined : detail?.attempts.find((a) => a.id === attemptId);
  const deliveryOf = (id: number) => detail?.deliveries.find((d) => d.id === id);
  // Why? stays open from message to message: it is a way of reading the detail.
  const [whyOpen, setWhyOpen] = useState(false);
  const receiverVerdicts = new Map((detail?.receiverChecks ?? []).map((c) => [c.attemptId, c.verdict] as const));
  return (
    <section aria-label="Message details" className="flex h-full flex-col">
      <header className="flex h-10 shrink-0 items-center gap-2 border-b border-line bg-panel px-3">
        {message ? (
          <>
            <span className="font-mono text-xs text-muted">{message.type}</span>
            <h2 className="min-w-0 truncate text-[13px] font-semibold" title={message.event ?? nameOf(message.call) ?? message.userId ?? message.messageId}>
              <VisibleText text={message.event ?? nameOf(message.call) ?? message.userId ?? message.messageId} />
            </h2>
            <StatusBadge status={message.status} />
          </>
        ) : (
          <h2 className="text-[13px] font-semibold text-muted">Message</h2>
        )}
        <button type="button" aria-label="Close details" title="Close (Esc)" onClick={onClose} className="ml-auto flex size-7 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg">
          <X aria-hidden className="size-4" />
        </button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {!detail && loading && (
          <div className="flex h-32 items-center justify-center text-faint" role="status" aria-label="Loading">
            <LoaderCircle aria-hidden className="size-5 animate-spin" />
          </div>
        )}
        {!detail && missing && <EmptyState icon={<X />} title="This message cannot be shown">{missing}</EmptyState>}
        {detail && (
          <div className="flex flex-col gap-3 p-3">
            <MessageFacts detail={detail} />
            <MessageActions detail={detail} whyOpen={whyOpen} onWhy={() => setWhyOpen(!whyOpen)} />
            {whyOpen && <WhyPanel detail={detail} />}
            {detail.deliveries.length === 0 && (
              <p className="rounded-lg border border-dashed border-line p-3 text-xs text-muted">
                No destination received this message{detail.message.statusReason ? `: ${detail.message.statusReason}` : '.'}
              </p>
            )}
            {detail.deliveries.map((d) => (
              <DeliveryCard key={d.id} delivery={d} attempts={detail.attempts.filter((a) => a.deliveryId === d.id)} selectedAttemptId={attemptId} receiverVerdicts={receiverVerdicts} />
            ))}
            {attempt ? (
              <AttemptDetail
                detail={detail}
                attempt={attempt}
                body={detail.message.body}
                destinationName={deliveryOf(attempt.deliveryId)?.destinationName ?? 'destination'}
                destinationId={deliveryOf(attempt.deliveryId)?.destinationId ?? ''}
              />
            ) : <BodyCard body={detail.message.body} call={detail.message.call} label={bodyLabel(detail)} />}
          </div>
        )}
      </div>
      <CompareDialog />
    </section>
  );
}

function nameOf(call: Record<string, unknown>): string | null {
  return typeof call['name'] === 'string' ? call['name'] : null;
}
