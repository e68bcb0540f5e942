import { useEffect, useState } from 'react';
import { ArrowRight, CircleCheck, CircleMinus, CircleX, Clock, LoaderCircle, TriangleAlert } from 'lucide-react';
import type { DestinationExplanation, MessageExplanation, WhyReason } from '../../../../main/contract/diagnostics';
import type { MessageDetail } from '../../../../main/contract/messages';
import { api } from '../../api/instance';
import { Card } from '../../ui/Card';
import { evidenceHash } from '../troubleshoot/evidence';
import { VisibleText } from '../../ui/VisibleText';

const OUTCOME = {
  delivered: { icon: <CircleCheck aria-hidden className="size-4 text-ok" />, word: 'delivered' },
  'not delivered': { icon: <CircleX aria-hidden className="size-4 text-err" />, word: 'not delivered' },
  waiting: { icon: <Clock aria-hidden className="size-4 text-warn" />, word: 'waiting' },
  'not sent to it': { icon: <CircleMinus aria-hidden className="size-4 text-faint" />, word: 'not sent to it' },
} as const;

const REASON_TONE: Record<WhyReason['state'], string> = { problem: 'text-fg', warning: 'text-fg', ok: 'text-muted' };

/** A reason as a sentence: capitalised, except where it starts with a name (a destination's, written as its user wrote it). */
function sentence(text: string, name?: string): string {
  const t = text.trim();
  const first = name !== undefined && t.startsWith(name) ? t.charAt(0) : t.charAt(0).toUpperCase();
  return `${first}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

/**
 * Why? for one message: per destination, why it was or was not delivered (explainMessage: the checklist's
 * rules applied to this message). Computed again whenever the message's detail changes.
 */
export function WhyPanel({ detail }: { detail: MessageDetail }) {
  const [why, setWhy] = useState<MessageExplanation | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void api()
      .call('explainMessage', { id: detail.message.id }, { quiet: true })
      .then((r) => {
        if (!live) return;
        if (r.ok) {
          setWhy(r.value);
          setError(null);
        } else setError(r.error.message);
      });
    return () => {
      live = false;
    };
  }, [detail]);
  return (
    <Card name="Why?" title="Why, per destination">
      {error ? (
        <p className="px-3 py-2 text-xs text-err">{error}</p>
      ) : !why ? (
        <div className="flex h-12 items-center justify-center text-faint" role="status" aria-label="Explaining">
          <LoaderCircle aria-hidden className="size-4 animate-spin" />
        </div>
      ) : why.destinations.length === 0 ? (
        <p className="px-3 py-2 text-xs text-muted">There is no destination{detail.message.statusReason ? `, and the message was ${detail.message.statusReason}` : ''}.</p>
      ) : (
        <ul aria-label="Per destination" className="divide-y divide-line">
          {why.destinations.map((d) => (
            <DestinationWhy key={d.destinationId} d={d} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function DestinationWhy({ d }: { d: DestinationExplanation }) {
  const o = OUTCOME[d.outcome];
  const qualified = d.outcome === 'delivered' && d.reasons.some((r) => r.state === 'warning');
  return (
    <li aria-label={`${d.destinationName}: ${o.word}`} className="flex gap-2.5 px-3 py-2">
      <span className="mt-px shrink-0" title={o.word}>
        {qualified ? <TriangleAlert aria-hidden className="size-4 text-warn" /> : o.icon}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-xs">
        <p>
          <VisibleText text={d.destinationName} className="text-[13px] font-semibold" /> <span className="text-muted">· {o.word}{d.status && d.status !== 'delivered' ? ` (${d.status})` : ''}</span>
        </p>
        {d.reasons.map((r, i) => (
          <div key={i} className="flex flex-col gap-1">
            <p className={`break-words ${REASON_TONE[r.state]}`}>{sentence(r.text, d.destinationName)}</p>
            {r.evidence.length > 0 && (
              <div className="flex flex-wrap gap-1.5">
                {r.evidence.map((e, j) => {
                  const href = evidenceHash(e);
                  return href ? (
                    // Named with its reason: one destination can be the evidence of two reasons.
                    <a key={j} href={href} aria-label={`${e.label}, evidence of: ${sentence(r.text, d.destinationName)}`} className="inline-flex max-w-full items-center gap-1 rounded-md border border-line px-2 py-0.5 text-accent hover:bg-hover">
                      <span className="truncate">{e.label}</span>
                      <ArrowRight aria-hidden className="size-3 shrink-0 opacity-60" />
                    </a>
                  ) : null;
                })}
              </div>
            )}
          </div>
        ))}
      </div>
    </li>
  );
}
