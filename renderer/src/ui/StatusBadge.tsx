import type { AttemptOutcome, DeliveryStatus } from '../../../main/contract/deliveries';
import type { MessageStatus } from '../../../main/contract/messages';
import { OUTCOME_TONE, STATUS_TONE, TONE_CLASS } from '../lib/status';

export function StatusBadge({ status, className = '' }: { status: MessageStatus | DeliveryStatus; className?: string }) {
  return (
    <span className={`inline-flex h-5 items-center rounded px-1.5 font-mono text-[11px] font-medium ${TONE_CLASS[STATUS_TONE[status]].soft} ${className}`}>
      {status}
    </span>
  );
}

export function OutcomeBadge({ outcome }: { outcome: AttemptOutcome }) {
  return <span className={`inline-flex h-5 items-center rounded px-1.5 font-mono text-[11px] font-medium ${TONE_CLASS[OUTCOME_TONE[outcome]].soft}`}>{outcome}</span>;
}

/** Beside a `timeout` that Fast-forward unanswered attempts ended early (docs/behaviour.md §5). */
export function FastForwardedBadge() {
  return (
    <span
      title="Fast-forwarded: ended after 1 s of a clock jump without response headers, not after the full timeout"
      className="inline-flex h-5 shrink-0 items-center rounded border border-dashed border-warn/60 px-1.5 font-mono text-[11px] font-medium text-warn"
    >
      fast-forwarded
    </span>
  );
}
