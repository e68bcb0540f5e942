import { useEffect, useId, useRef, useState } from 'react';
import { Ban, CircleHelp, Repeat, RotateCw } from 'lucide-react';
import type { DeliveryStatus } from '../../../../main/contract/deliveries';
import { listWords } from '../../../../main/contract/message/deliveryWords';
import type { MessageDetail } from '../../../../main/contract/messages';
import { api } from '../../api/instance';
import { summarize } from '../../api/summaries';
import { plural } from '../../lib/format';
import { useDetail } from '../../stores/detail';
import { useLive } from '../../stores/live';
import { useRouter } from '../../stores/router';
import { useToasts } from '../../stores/toasts';
import { Button } from '../../ui/Button';
import { CompareWebhooksButton } from '../compare/CompareButtons';

const BUSY_WORDS = { retry: 'retrying now', cancel: 'cancelling', replay: 'replaying' } as const;

/** What the deliveries' states are: `its delivery is delivered`, `its deliveries are 1 delivered and 1 cancelled`. */
function describeStates(statuses: readonly DeliveryStatus[]): string {
  const counts = new Map<DeliveryStatus, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  if (counts.size === 1) return statuses.length === 1 ? `its delivery is ${statuses[0]}` : `every delivery is ${statuses[0]}`;
  const parts = [...counts].map(([status, n]) => `${n} ${status}`);
  return `its deliveries are ${listWords(parts)}`;
}

/** Retry now, Cancel, Replay (optionally keeping the messageId). */
export function MessageActions({ detail, whyOpen = false, onWhy }: { detail: MessageDetail; whyOpen?: boolean; onWhy?: () => void }) {
  const [busy, setBusy] = useState<'retry' | 'cancel' | 'replay' | null>(null);
  const [keepMessageId, setKeepMessageId] = useState(false);
  const navigate = useRouter((s) => s.navigate);
  const checkboxId = useId();
  const id = detail.message.id;
  const statuses = detail.deliveries.map((d) => d.status);
  const canRetry = statuses.some((s) => s === 'retrying' || s === 'failed' || s === 'queued');
  const canCancel = statuses.some((s) => s === 'retrying' || s === 'queued' || s === 'delivering');
  // A disabled action says why, in the words of the deliveries' states.
  const states = statuses.length ? describeStates(statuses) : null;
  const waitFor = busy && `Wait: ${BUSY_WORDS[busy]}`;
  // A check run's own message: the check sends it again, not these actions (its destinations are off between runs).
  const checkOwn = detail.message.origin === 'check' ? "A check run's own message: run the check again (Check screen) to send it again" : null;
  const retryBlocked = waitFor || checkOwn || (canRetry ? null : states ? `Nothing to retry: ${states}. Only a waiting or failed delivery can be retried (Replay sends it again).` : 'Nothing to retry: no destination received this message (Replay sends it again).');
  const cancelBlocked = waitFor || (canCancel ? null : states ? `Nothing to cancel: ${states}. Only a waiting or in-flight delivery can be cancelled.` : 'Nothing to cancel: no destination received this message.');
  const replayBlocked = waitFor || checkOwn;

  const groupRef = useRef<HTMLDivElement>(null);
  // The button an action was started from (by keyboard or pointer): disabled while it runs, and often after
  // (a cancelled message has nothing more to cancel), it drops the focus to the page. After every render once
  // the action is done (the detail may be read again more than once, by this action and by events), focus goes
  // back to it or, when it is disabled, to the next control that can take it, until the user moves focus on.
  const startedFrom = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const from = startedFrom.current;
    const group = groupRef.current;
    if (busy !== null || !from || !group) return;
    const active = document.activeElement;
    const disabled = (from as HTMLButtonElement).disabled;
    if (active === from && !disabled) return;
    if (active !== null && active !== document.body && active !== from) {
      startedFrom.current = null;
      return;
    }
    const controls = [...group.querySelectorAll<HTMLElement>('button, input')].filter((el) => !(el as HTMLButtonElement).disabled);
    const after = controls.find((el) => from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    const to = controls.includes(from) ? from : (after ?? controls.at(-1));
    to?.focus();
    if (to !== from) startedFrom.current = null;
  });

  const run = async (action: 'retry' | 'cancel' | 'replay') => {
    const active = document.activeElement;
    startedFrom.current = active instanceof HTMLElement && groupRef.current?.contains(active) ? active : null;
    setBusy(action);
    try {
      if (action === 'retry') {
        const result = await api().call('retryNow', { id });
        if (result.ok) useToasts.getState().push({ tone: 'success', title: 'Retrying now', message: `${plural(result.value.deliveries.length, 'delivery', 'deliveries')} sent again.` });
      } else if (action === 'cancel') {
        const result = await api().call('cancelMessage', { id });
        if (result.ok) useToasts.getState().push({ tone: 'info', title: 'Cancelled', message: `${plural(result.value.deliveries.length, 'delivery', 'deliveries')} will not be retried.` });
      } else {
        const result = await api().call('replayMessage', { id, keepMessageId });
        if (result.ok) {
          // The new message's screen takes the focus, not this button.
          startedFrom.current = null;
          useLive.getState().addNew(summarize(result.value.message, result.value.deliveries));
          navigate({ view: 'live', messageId: result.value.message.id });
        }
      }
    } finally {
      setBusy(null);
      void useDetail.getState().reload();
    }
  };

  return (
    <div ref={groupRef} role="group" aria-label="Actions" className="flex flex-wrap items-center gap-2">
      <Button icon={<RotateCw aria-hidden className="size-3.5" />} busy={busy === 'retry'} disabled={retryBlocked !== null} onClick={() => void run('retry')} title={retryBlocked ?? 'Send the next attempt now (r)'}>
        Retry now
      </Button>
      <Button variant="danger" icon={<Ban aria-hidden className="size-3.5" />} busy={busy === 'cancel'} disabled={cancelBlocked !== null} onClick={() => void run('cancel')} title={cancelBlocked ?? 'Stop retrying'}>
        Cancel
      </Button>
      <div className="flex items-center rounded-md border border-line">
        <Button variant="ghost" className="rounded-r-none" icon={<Repeat aria-hidden className="size-3.5" />} busy={busy === 'replay'} disabled={replayBlocked !== null} onClick={() => void run('replay')} title={replayBlocked ?? 'Send it again as a new message'}>
          Replay
        </Button>
        <label htmlFor={checkboxId} className="flex h-7 items-center gap-1.5 border-l border-line px-2 text-xs text-muted">
          <input id={checkboxId} type="checkbox" checked={keepMessageId} onChange={(e) => setKeepMessageId(e.target.checked)} className="accent-[var(--accent)]" />
          keep messageId
        </label>
      </div>
      <CompareWebhooksButton detail={detail} />
      {onWhy && (
        <Button icon={<CircleHelp aria-hidden className="size-3.5" />} aria-expanded={whyOpen} onClick={onWhy} title="Per destination: why it was or was not delivered">
          Why?
        </Button>
      )}
    </div>
  );
}
