import { memo, useEffect, useRef } from 'react';
import { useRowHeight } from '../../stores/density';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { CaptureRecord } from '../../../../main/contract/receiver/receiver';
import { destinationOwner } from '../../../../main/contract/destinations';
import { formatCount, formatRowTime } from '../../lib/format';
import { VerdictBadge } from '../../ui/VerdictBadge';


/** What answered a capture, short: `500`, `never`, `reset`, `404 (unknown endpoint)`. */
export function answerOf(c: CaptureRecord): string {
  if (c.step.clientClosedAfterMs != null) return 'no answer';
  if (!c.matched) return '404 (unknown endpoint)';
  if (c.step.action !== 'respond') return c.step.action;
  return `${c.step.status ?? ''}${c.step.delayMs ? ` after ${c.step.delayMs} ms` : ''}`;
}

/** What became of the request in words: `answered 200 after 6000 ms`, or that its client left before the answer. */
export function outcomeOf(c: CaptureRecord): string {
  const closed = c.step.clientClosedAfterMs;
  return closed != null ? `no answer: the client closed the connection after ${formatCount(closed)} ms` : `answered ${answerOf(c)}`;
}

/**
 * A forgery hookbench check sent on purpose (from one of its own destinations, or directly), found invalid or
 * missing: the endpoint is right, and nothing needs changing. Null for anything else.
 */
export function checkForgery(c: CaptureRecord): string | null {
  const verdict = c.signature?.verdict;
  if (verdict !== 'invalid' && verdict !== 'missing') return null;
  // Sent directly (a body changed after signing, a signature of other bytes, the diagnosis' probes), or through
  // one of the check's own destinations (another secret, or none).
  const direct = c.sentBy === 'check';
  const name = c.attempt?.destinationName;
  if (!direct && (!name || destinationOwner(name) !== 'check')) return null;
  const how = verdict === 'missing' ? 'without X-Signature' : direct ? 'signed wrongly' : 'with another secret';
  return `hookbench check sent this ${how} on purpose: nothing needs changing (right to find it ${verdict})`;
}

/**
 * The row's second line: the check's forgery said to be one (`forgery`, checkForgery's), the diagnosis of a bad
 * signature, else the script step when it says more than the answer.
 */
function whyOf(c: CaptureRecord, forgery: string | null): string {
  const verdict = c.signature?.verdict;
  // An endpoint that refuses invalid signatures answered it itself, before its script: say so first.
  const refused = c.matched && c.step.index === null ? 'refused: ' : '';
  if (forgery) return `${refused}${forgery}`;
  if (verdict === 'invalid' && c.signature?.diagnosis) return `${refused}${c.signature.diagnosis.explanation}`;
  if (verdict === 'missing') return `${refused}no X-Signature header`;
  if (c.step.label && c.step.label !== answerOf(c)) return c.step.label;
  if (verdict === 'valid') return 'X-Signature matches the body';
  return c.signature ? '' : 'no secret on this endpoint: signatures are not checked';
}

/** The captured requests, newest first, virtualised: two lines each (request and answer, then why). */
export function CaptureList({ captures, selectedId, engineNow, onSelect, onOpenMessage }: { captures: CaptureRecord[]; selectedId: number | null; engineNow: number; onSelect(id: number): void; onOpenMessage(id: number): void }) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const rowHeight = useRowHeight('capture');
  const virtualizer = useVirtualizer({ count: captures.length, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 10 });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);
  return (
    <div ref={scrollRef} className="relative min-h-0 flex-1 overflow-y-auto">
      <ul aria-label="Captured requests" style={{ height: virtualizer.getTotalSize() }} className="relative w-full">
        {virtualizer.getVirtualItems().map((item) => {
          const c = captures[item.index]!;
          return <CaptureRow key={c.id} capture={c} top={item.start} selected={c.id === selectedId} engineNow={engineNow} senderId={c.attempt?.messageRef ?? null} onSelect={onSelect} onOpenMessage={onOpenMessage} />;
        })}
      </ul>
    </div>
  );
}

interface RowProps {
  capture: CaptureRecord;
  top: number;
  selected: boolean;
  engineNow: number;
  senderId: number | null;
  onSelect(id: number): void;
  onOpenMessage(id: number): void;
}

const CaptureRow = memo(function CaptureRow({ capture: c, top, selected, engineNow, senderId, onSelect, onOpenMessage }: RowProps) {
  const rowHeight = useRowHeight('capture');
  const verdict = c.signature?.verdict ?? null;
  const forgery = checkForgery(c);
  const why = whyOf(c, forgery);
  return (
    <li style={{ height: rowHeight, transform: `translateY(${top}px)` }} className={`absolute top-0 left-0 flex w-full items-stretch border-b border-line/60 text-xs ${selected ? 'bg-selected' : 'hover:bg-hover'}`}>
      {/* The button spans the row: its second line (the diagnosis) runs under the sender link too, so that it is cut later at 1024 px. */}
      <button
        type="button"
        aria-pressed={selected}
        aria-label={`Capture ${c.id}: ${c.method} ${c.path}, ${outcomeOf(c)}${verdict ? `, signature ${verdict}` : ''}`}
        onClick={() => onSelect(c.id)}
        className="flex min-w-0 flex-1 flex-col justify-center gap-0.5 px-3 text-left"
      >
        <span className="flex h-5 min-w-0 items-center gap-2.5 pr-25">
          {/* Engine time, as the attempts': after a jump and a reset, the list (in order of arrival) shows the jumps. */}
          <span className="tabular w-16 shrink-0 font-mono text-muted" title="When it arrived, in engine time (time travel moves it)">{formatRowTime(c.arrivedAt, engineNow)}</span>
          <span className="min-w-0 flex-1 truncate font-mono">
            <span className="font-semibold text-accent">{c.method}</span> {c.path}
            {c.listener === 'https' && <span className="text-faint"> (https)</span>}
          </span>
          <span className="w-24 shrink-0 truncate font-mono text-muted">→ {answerOf(c)}</span>
          <span className="w-14 shrink-0">{verdict ? <VerdictBadge verdict={verdict} /> : <span className="text-faint">no check</span>}</span>
        </span>
        {/* A forgery the check sent on purpose is no fault: said calmly, as the attempt's verdict says it. */}
        {why && <span title={why} className={`truncate pl-[4.625rem] ${verdict === 'invalid' && !forgery ? 'text-err' : 'text-faint'}`}>{why}</span>}
      </button>
      {/* Over the button's first line, laid out like its two lines, so that the link sits level with the verdict. */}
      <div className="pointer-events-none absolute inset-y-0 right-0 flex w-28 flex-col items-end justify-center gap-0.5 pr-3 whitespace-nowrap">
        <span className="pointer-events-auto flex h-5 max-w-full items-center">
          {senderId !== null ? (
            <a href={`#/live/${senderId}`} onClick={(e) => (e.preventDefault(), onOpenMessage(senderId))} aria-label={`message #${senderId}, the sender of capture ${c.id}`} className="font-mono text-accent hover:underline">
              message #{senderId}
            </a>
          ) : c.sentBy === 'check' ? (
            <span className="truncate font-mono text-faint" title="Sent by hookbench check directly, not through the engine: what no destination can send (forgeries, probes), a redelivery, the burst">
              by check
            </span>
          ) : (
            <span className="truncate font-mono text-faint" title="Not sent by this workbench's engine (curl, another program, hookbench receive)">
              not from engine
            </span>
          )}
        </span>
        {why && <span aria-hidden className="invisible">·</span>}
      </div>
    </li>
  );
});
