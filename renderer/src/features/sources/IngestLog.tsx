import { memo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { IngestRefusal, Source } from '../../../../main/contract/sources';
import { formatBytes, formatCount, formatRowTime, formatTimestamp } from '../../lib/format';
import { Button } from '../../ui/Button';

/** The reason in one line: the message, with the field and the limit when the refusal names them. */
export function refusalFacts(r: IngestRefusal): string[] {
  const facts: string[] = [];
  if (r.field) facts.push(`field ${r.field}`);
  if (r.limit !== null) facts.push(`limit ${formatCount(r.limit)}`);
  if (r.bodyBytes !== null) facts.push(formatBytes(r.bodyBytes));
  if (r.clientIp) facts.push(`from ${r.clientIp}`);
  return facts;
}

/**
 * Refused requests, newest first, virtualised: time, status and code, route and source, then the reason
 * with its field and limit. A row opens the body's preview (the first 4 KiB, write keys shown by their
 * edges only).
 */
export function IngestLog({ log, sources, engineNow, openId, onOpen, canLoadOlder, loadingOlder, onLoadOlder }: { log: IngestRefusal[]; sources: Source[]; engineNow: number; openId: number | null; onOpen(id: number | null): void; canLoadOlder: boolean; loadingOlder: boolean; onLoadOlder(): void }) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({ count: log.length, getScrollElement: () => scrollRef.current, estimateSize: () => 46, overscan: 8, getItemKey: (i) => log[i]!.id });
  const nameOf = (id: string | null) => (id === null ? null : (sources.find((s) => s.id === id)?.name ?? 'deleted source'));
  return (
    <div ref={scrollRef} className="relative min-h-0 flex-1 overflow-y-auto">
      <ul aria-label="Ingest log" style={{ height: virtualizer.getTotalSize() }} className="relative w-full">
        {virtualizer.getVirtualItems().map((item) => {
          const r = log[item.index]!;
          return (
            <li key={item.key} data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }} className="absolute top-0 left-0 w-full border-b border-line/60">
              <RefusalRow refusal={r} source={nameOf(r.sourceId)} engineNow={engineNow} open={r.id === openId} onToggle={() => onOpen(r.id === openId ? null : r.id)} />
            </li>
          );
        })}
      </ul>
      {canLoadOlder && (
        <div className="flex justify-center p-2">
          <Button busy={loadingOlder} onClick={onLoadOlder}>
            Load older refusals
          </Button>
        </div>
      )}
    </div>
  );
}

const RefusalRow = memo(function RefusalRow({ refusal: r, source, engineNow, open, onToggle }: { refusal: IngestRefusal; source: string | null; engineNow: number; open: boolean; onToggle(): void }) {
  const facts = refusalFacts(r);
  return (
    <div className={open ? 'bg-selected/60' : ''}>
      <button
        type="button"
        aria-expanded={open}
        aria-label={`Refusal ${r.id}: ${r.httpStatus} ${r.code}, ${r.message}`}
        onClick={onToggle}
        className="flex w-full min-w-0 flex-col gap-0.5 px-3 py-1.5 text-left text-xs hover:bg-hover"
      >
        <span className="flex min-w-0 items-center gap-2.5">
          {open ? <ChevronDown aria-hidden className="size-3.5 shrink-0 text-faint" /> : <ChevronRight aria-hidden className="size-3.5 shrink-0 text-faint" />}
          <span className="tabular w-16 shrink-0 font-mono text-muted">{formatRowTime(r.receivedAt, engineNow)}</span>
          <span className="shrink-0 rounded bg-err-soft px-1.5 font-mono text-[11px] font-medium text-err">
            {r.httpStatus} {r.code}
          </span>
          <span className="min-w-0 flex-1 truncate font-mono text-muted">
            {r.route}
            {source !== null ? <span className="text-fg"> · {source}</span> : <span className="text-faint"> · no source</span>}
          </span>
        </span>
        <span className="truncate pl-[5.75rem] text-fg">{r.message}</span>
        {facts.length > 0 && <span className="truncate pl-[5.75rem] text-[11px] text-faint">{facts.join(' · ')}</span>}
      </button>
      {open && (
        <div className="px-3 pb-2 pl-[6.5rem] text-xs">
          <p className="mb-1 text-[11px] text-faint">
            {formatTimestamp(r.receivedAt)}
            {r.index !== null && ` · call ${r.index} of the batch`}
            {r.bodyPreview !== null && r.bodyBytes !== null && r.bodyBytes > 4096 && ' · the first 4 KiB'}
          </p>
          {r.bodyPreview !== null ? (
            <pre aria-label={`Body of refusal ${r.id}`} className="max-h-48 overflow-auto rounded-md border border-line bg-panel-2 p-2 font-mono text-[11px] break-all whitespace-pre-wrap">
              {r.bodyPreview}
            </pre>
          ) : (
            <p className="text-faint">No body was kept (refused before it was read).</p>
          )}
        </div>
      )}
    </div>
  );
});
