import { useEffect, useRef, useState } from 'react';
import { GitCompareArrows, X } from 'lucide-react';
import { attemptLabel, comparableBodies, diffFacts, diffHeaders, latencyDelta, type ComparedAttempt } from '../../lib/compare';
import { formatDuration } from '../../lib/format';
import { useCompare } from './compareStore';
import { Card } from '../../ui/Card';
import { Select } from '../../ui/Select';
import { OutcomeBadge } from '../../ui/StatusBadge';
import { COMPARE_COLUMNS, DiffTable } from './DiffTable';
import { SideBySideDiff } from './SideBySideDiff';

/** Two attempts side by side: facts, latency, request and response headers and bodies. Esc closes. */
export function CompareDialog() {
  const open = useCompare((s) => s.open);
  const close = useCompare((s) => s.close);
  const choose = useCompare((s) => s.choose);
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const [raw, setRaw] = useState(false);
  const panel = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      previous?.focus();
    };
  }, [open, close]);
  if (!open) return null;
  const { left, right, candidates } = open;
  // All of one message: the message's name would only repeat in every option (and push the rest out of sight).
  const oneMessage = candidates.every((c) => c.attempt.messageId === candidates[0]!.attempt.messageId);
  const options = candidates.map((c) => ({ value: String(c.attempt.id), label: oneMessage ? attemptLabel(c).split(' · ').slice(1).join(' · ') : attemptLabel(c) }));
  const [leftBody, rightBody] = comparableBodies(left.body, right.body, raw);
  const leftResponse = left.attempt.responseBody ?? '';
  const rightResponse = right.attempt.responseBody ?? '';
  const [leftResp, rightResp] = comparableBodies(leftResponse, rightResponse, raw);
  return (
    <div className="fixed inset-0 z-40 flex items-stretch justify-center bg-black/40 p-4" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div ref={panel} tabIndex={-1} role="dialog" aria-modal="true" aria-label="Compare attempts" className="flex w-full max-w-[1400px] flex-col overflow-hidden rounded-xl border border-line bg-bg shadow-2xl outline-none">
        <header className="flex h-11 shrink-0 items-center gap-3 border-b border-line bg-panel px-4">
          <GitCompareArrows aria-hidden className="size-4 text-accent" />
          <h2 className="text-[13px] font-semibold">Compare attempts</h2>
          <label className="ml-auto flex items-center gap-1.5 text-xs text-muted">
            <input type="checkbox" checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} className="accent-[var(--accent)]" />
            Only differences
          </label>
          <label className="flex items-center gap-1.5 text-xs text-muted" title="Compare the bytes as sent, without pretty-printing JSON">
            <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} className="accent-[var(--accent)]" />
            Raw bytes
          </label>
          <button type="button" aria-label="Close compare" title="Close (Esc)" onClick={close} className="flex size-7 items-center justify-center rounded-md text-faint hover:bg-hover hover:text-fg">
            <X aria-hidden className="size-4" />
          </button>
        </header>
        {/* The pickers sit over the tables' left and right columns (same grid), so each side reads down. */}
        <div className="shrink-0 border-b border-line bg-panel px-4 py-2">
          <div className={`grid ${COMPARE_COLUMNS} items-end px-px`}>
            <p className="px-3 pb-1.5 text-xs text-muted">
              <span className="hidden xl:inline">Pick either side</span>
            </p>
            <Side label="Left attempt" value={left} options={options} onChange={(id) => choose('left', id)} />
            <Side label="Right attempt" value={right} options={options} onChange={(id) => choose('right', id)} />
          </div>
        </div>
        <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-4">
          <p role="note" aria-label="Latency" className="rounded-lg border border-line bg-panel px-3 py-2 text-xs">
            {latencyNote(left.attempt.durationMs, right.attempt.durationMs)}
          </p>
          <Card title="Summary">
            <DiffTable rows={diffFacts(left, right)} label="Summary compared" onlyDifferences={onlyDifferences} />
          </Card>
          <Card title="Request headers">
            <DiffTable rows={diffHeaders(left.attempt.requestHeaders, right.attempt.requestHeaders)} label="Request headers compared" onlyDifferences={onlyDifferences} />
          </Card>
          <Card title="Request body">
            <BodyDiff left={leftBody} right={rightBody} sameBytes={left.body === right.body} bytes={byteLength(left.body)} label="Request bodies compared" />
          </Card>
          <Card title="Response headers">
            <DiffTable rows={diffHeaders(left.attempt.responseHeaders, right.attempt.responseHeaders)} label="Response headers compared" onlyDifferences={onlyDifferences} />
          </Card>
          <Card title="Response body">
            {left.attempt.responseBody === null && right.attempt.responseBody === null ? (
              <p className="px-3 py-2 text-xs text-faint">Neither attempt got a response body.</p>
            ) : (
              <BodyDiff left={leftResp} right={rightResp} sameBytes={leftResponse === rightResponse} bytes={byteLength(leftResponse)} label="Response bodies compared" />
            )}
          </Card>
        </div>
      </div>
    </div>
  );
}

/** "Latency: left 50 ms, right 1.20 s: the right one is 1.15 s slower." */
function latencyNote(leftMs: number, rightMs: number): string {
  const delta = latencyDelta(leftMs, rightMs);
  if (delta === 'same latency') return `Latency: both took ${formatDuration(leftMs)}.`;
  return `Latency: left ${formatDuration(leftMs)}, right ${formatDuration(rightMs)}: the right one is ${delta}.`;
}

function Side({ label, value, options, onChange }: { label: string; value: ComparedAttempt; options: { value: string; label: string }[]; onChange(id: number): void }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 px-3">
      <div className="flex items-center gap-2 text-xs">
        <span className="text-muted">{label}</span>
        <OutcomeBadge outcome={value.attempt.outcome} />
        <span className="font-mono text-muted">{value.attempt.statusCode === null ? 'no response' : `HTTP ${value.attempt.statusCode}`}</span>
      </div>
      <Select label={label} labelHidden value={String(value.attempt.id)} onChange={(v) => onChange(Number(v))} options={options} className="min-w-0 [&>div]:min-w-0 [&>div]:flex-1 [&_select]:w-full" />
    </div>
  );
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

function BodyDiff({ left, right, sameBytes, bytes, label }: { left: string; right: string; sameBytes: boolean; bytes: number; label: string }) {
  if (sameBytes) {
    return (
      <p className="px-3 py-2 text-xs text-muted">
        Byte-identical: {bytes === 0 ? 'both empty' : `${bytes} bytes on each side`}.
      </p>
    );
  }
  const isJson = left.trimStart().startsWith('{') && right.trimStart().startsWith('{');
  return <SideBySideDiff left={left} right={right} label={label} language={isJson ? 'json' : 'text'} />;
}
