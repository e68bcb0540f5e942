import { GitCompareArrows } from 'lucide-react';
import type { MessageDetail } from '../../../../main/contract/messages';
import { attemptLabel, comparableAttempts, latestPerWebhook, type ComparedAttempt } from '../../lib/compare';
import { useCompare } from './compareStore';
import { Button } from '../../ui/Button';

/**
 * On an attempt: pick it for Compare, or, when another attempt is picked (of this message or another),
 * compare the two. The picked attempt survives moving to another message.
 */
export function CompareAttemptButton({ detail, attemptId }: { detail: MessageDetail; attemptId: number }) {
  const pinned = useCompare((s) => s.pinned);
  const pin = useCompare((s) => s.pin);
  const show = useCompare((s) => s.show);
  const candidates = comparableAttempts(detail);
  const self = candidates.find((c) => c.attempt.id === attemptId);
  if (!self) return null;
  const icon = <GitCompareArrows aria-hidden className="size-3.5" />;
  if (pinned && pinned.attempt.id === attemptId) {
    return (
      <Button variant="ghost" icon={icon} aria-pressed onClick={() => pin(null)} title="Picked: open another attempt and compare it with this one. Click to unpick.">
        Picked for compare
      </Button>
    );
  }
  if (pinned) {
    return (
      <Button icon={icon} onClick={() => show(pinned, self, withPinned(candidates, pinned))} title={`Compare with ${attemptLabel(pinned)}`}>
        Compare with picked attempt
      </Button>
    );
  }
  return (
    <Button variant="ghost" icon={icon} onClick={() => pin(self)} title="Pick this attempt, then open another one (of this message or another) to compare them side by side">
      Pick for compare
    </Button>
  );
}

/** On a message delivered to two webhooks or more: their latest attempts side by side in one click. */
export function CompareWebhooksButton({ detail }: { detail: MessageDetail }) {
  const show = useCompare((s) => s.show);
  const pinned = useCompare((s) => s.pinned);
  const latest = latestPerWebhook(detail);
  if (latest.length < 2) return null;
  return (
    <Button
      variant="ghost"
      icon={<GitCompareArrows aria-hidden className="size-3.5" />}
      onClick={() => show(latest[1]!, latest[0]!, withPinned(comparableAttempts(detail), pinned))}
      title="The latest attempt of each webhook, side by side: headers, status, body and latency"
    >
      Compare webhooks
    </Button>
  );
}

function withPinned(candidates: ComparedAttempt[], pinned: ComparedAttempt | null): ComparedAttempt[] {
  return pinned && !candidates.some((c) => c.attempt.id === pinned.attempt.id) ? [pinned, ...candidates] : candidates;
}
