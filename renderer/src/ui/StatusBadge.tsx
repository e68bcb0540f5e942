import type { AttemptOutcome, DeliveryStatus, MessageStatus } from '../../../main/contract/models';
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
