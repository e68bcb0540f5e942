import { useState } from 'react';
import { ChevronDown, ChevronRight, CircleCheck, CircleX, LoaderCircle, Square, TriangleAlert } from 'lucide-react';
import { PROBE_PREFIX, summaryLine, type CheckResult, type CheckRun, type CheckRunSummary, type CheckVerdict } from '../../../../main/contract/check/check';
import { CHECK_AREAS, type CheckArea } from '../../../../main/contract/check/checkInputs';
import { formatRowTime } from '../../lib/format';
import { useCheck } from '../../stores/check';
import { useEngine } from '../../stores/engine';
import { Button } from '../../ui/Button';
import { CapacityCard } from './CapacityCard';
import { CheckEvidence } from './CheckEvidence';
import { DiagnosisCard } from './DiagnosisCard';
import { FixSnippets } from './FixSnippets';

const AREA_TITLES: Record<CheckArea, string> = {
  shapes: 'Shapes',
  signature: 'Signature',
  time: 'Time',
  redelivery: 'Redelivery',
  burst: 'Burst',
  status: 'Status semantics',
  transport: 'Transport',
  'content-type': 'Content type',
  capacity: 'Capacity',
  custom: 'Your scenarios',
};

const AREA_HELP: Record<CheckArea, string> = {
  shapes: 'Every message shape the Webhooks destination sends gets a 2xx.',
  signature: 'X-Signature is verified over the raw bytes; forged requests (wrong, missing or tampered) are refused with a 4xx.',
  time: 'Answers within 1 s; the destination gives up after 5 s and retries.',
  redelivery: 'The same message delivered twice gets a 2xx both times.',
  burst: 'Concurrent deliveries get no 5xx, reset or timeout.',
  status: 'How the destination treats your status codes.',
  transport: 'https the destination trusts, or http on this machine.',
  'content-type': 'application/json without a charset is accepted.',
  capacity: 'How many deliveries per second it sustains, sent as the destination sends them (16 at once).',
  custom: 'Your own scenarios.',
};

const VERDICT: Record<CheckVerdict, { word: string; icon: React.ReactNode; className: string }> = {
  pass: { word: 'Passed', icon: <CircleCheck aria-hidden className="size-4" />, className: 'text-ok' },
  warn: { word: 'Warning', icon: <TriangleAlert aria-hidden className="size-4" />, className: 'text-warn' },
  fail: { word: 'Failed', icon: <CircleX aria-hidden className="size-4" />, className: 'text-err' },
};

/**
 * The colour of a run's summary line. Green only for a run that checked something and nothing failed or warned: a run
 * that could not reach its URL, or ended before any verdict, proved nothing (never a success, as the CLI's exit says).
 */
export function summaryTone(run: Pick<CheckRunSummary, 'status' | 'summary'>): string {
  const { passed, failed, warnings } = run.summary;
  if (run.status === 'unreachable' || failed) return 'text-err';
  if (warnings) return 'text-warn';
  if (run.status === 'running') return 'text-muted';
  return passed === 0 ? 'text-warn' : 'text-ok';
}

/** A run's report: its summary line, the diagnosis when there is one, then each area's checks and the capacity card. */
/** Why a check's times are real ones while the attempts and captures it links to show engine time. */
export const REAL_TIME_NOTE = 'Real time: a check measures the network as it is now, whatever the engine clock says. The attempts and captures it links to show engine time, which time travel has moved.';

export function Report({ run }: { run: CheckRun }) {
  // A check measures the network now: with the engine clock moved, its times are said to be real ones.
  const offset = useEngine((s) => s.clock?.offsetMs ?? 0) !== 0;
  const running = run.status === 'running';
  const stopping = useCheck((s) => s.stopping === run.id);
  const done = run.summary.passed + run.summary.failed + run.summary.warnings;
  const fixed = new Set(run.fixedSinceLastRun);
  // Capacity has a card of its own, with its chart.
  const areas = CHECK_AREAS.filter((a) => a !== 'capacity' && run.checks.some((c) => c.area === a));
  const capacityCheck = run.checks.find((c) => c.area === 'capacity');
  return (
    <section aria-label="Report" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-line bg-panel px-3 py-2.5">
        <h2 className="min-w-0 truncate font-mono text-[13px] font-semibold" title={run.url}>
          {run.url}
        </h2>
        <span className="tabular text-[11px] text-faint" title={offset ? REAL_TIME_NOTE : undefined}>
          Run #{run.id} · {formatRowTime(Date.parse(run.startedAt), Date.now())}
          {offset ? ' real time' : ''}
        </span>
        <p aria-label="Summary" aria-live="polite" className="ml-auto flex items-center gap-2 text-xs font-medium">
          {running && <LoaderCircle aria-hidden className="size-3.5 animate-spin text-muted" />}
          {running && <span className="text-muted">{done} of {run.total} checks ·</span>}
          <span className={summaryTone(run)}>{summaryLine(run.summary)}</span>
        </p>
        {running && (
          <Button icon={<Square aria-hidden className="size-3" />} busy={stopping} disabled={stopping} onClick={() => void useCheck.getState().stop(run.id)} title="Send nothing more: the check in progress gets no verdict, the report keeps the ones that finished">
            {stopping ? 'Stopping…' : 'Stop run'}
          </Button>
        )}
        {run.status === 'unreachable' && <p className="w-full text-xs text-err">Nothing was checked: {run.error ?? 'the URL cannot be reached'}</p>}
        {run.status === 'finished' && run.error && (
          <p role="status" aria-label="Run ended early" className="w-full text-xs text-warn">
            {run.error.charAt(0).toUpperCase() + run.error.slice(1)}.
          </p>
        )}
        <SinceLastRun run={run} />
      </div>
      {run.diagnosis && <DiagnosisCard diagnosis={run.diagnosis} probes={run.checks.flatMap((c) => c.evidence.filter((ex) => ex.label.startsWith(PROBE_PREFIX)))} />}
      {areas.map((area) => (
        <AreaCard key={area} area={area} checks={run.checks.filter((c) => c.area === area)} fixed={fixed} />
      ))}
      {run.options.capacity && (
        <CapacityCard run={run}>
          {capacityCheck && (
            <ul aria-label="Capacity" className="rounded-md border border-line">
              <CheckItem check={capacityCheck} fixed={fixed.has(capacityCheck.id) || capacityCheck.change === 'fixed'} />
            </ul>
          )}
        </CapacityCard>
      )}
      {running && areas.length === 0 && !run.options.capacity && (
        <div className="flex h-20 items-center justify-center gap-2 text-xs text-faint" role="status">
          <LoaderCircle aria-hidden className="size-4 animate-spin" /> Sending the first requests…
        </div>
      )}
    </section>
  );
}

/**
 * What changed against the previous run of the same URL, said once for the run: a second run after a fix (or
 * after a regression) answers "what changed?" here, not only in badges spread over folded areas.
 */
function SinceLastRun({ run }: { run: CheckRun }) {
  const compared = run.status === 'finished' && run.previousRunId !== null ? run.checks.filter((c) => c.change !== null) : [];
  if (compared.length === 0) return null;
  const ids = (change: CheckResult['change']) => run.checks.filter((c) => c.change === change).map((c) => c.id);
  const broken = ids('broken');
  const changed = ids('changed');
  const same = compared.every((c) => c.change === 'same');
  return (
    <div aria-label="Since last run" className="flex w-full flex-col gap-0.5 text-xs">
      <p className="text-muted">
        Compared with{' '}
        <a className="text-accent hover:underline" href={`#/check/${run.previousRunId}`}>
          run #{run.previousRunId}
        </a>
        , the last run of this URL{same ? ': every verdict is the same.' : ':'}
      </p>
      {run.fixedSinceLastRun.length > 0 && (
        <p className="text-ok">
          Fixed since last run: <span className="font-mono">{run.fixedSinceLastRun.join(', ')}</span>
        </p>
      )}
      {broken.length > 0 && (
        <p className="text-err">
          Broken since last run: <span className="font-mono">{broken.join(', ')}</span>
        </p>
      )}
      {changed.length > 0 && (
        <p className="text-muted">
          Still not passing, verdict changed: <span className="font-mono">{changed.join(', ')}</span>
        </p>
      )}
    </div>
  );
}

/** An area where everything passed starts folded, so what failed is on the first screen; one click opens it. */
function AreaCard({ area, checks, fixed }: { area: CheckArea; checks: CheckResult[]; fixed: Set<string> }) {
  const failed = checks.filter((c) => c.verdict === 'fail').length;
  const warned = checks.filter((c) => c.verdict === 'warn').length;
  const [toggled, setToggled] = useState<boolean | null>(null);
  const open = toggled ?? failed + warned > 0;
  const title = AREA_TITLES[area];
  return (
    <section aria-label={title} className="rounded-lg border border-line bg-panel">
      <button type="button" aria-expanded={open} onClick={() => setToggled(!open)} className={`flex w-full items-baseline gap-2 px-3 py-2 text-left hover:bg-hover ${open ? 'border-b border-line' : ''}`}>
        <span className="self-center text-faint">{open ? <ChevronDown aria-hidden className="size-3.5" /> : <ChevronRight aria-hidden className="size-3.5" />}</span>
        <h3 className="shrink-0 text-[13px] font-semibold">{title}</h3>
        <span className="min-w-0 flex-1 truncate text-xs text-faint" title={AREA_HELP[area]}>
          {AREA_HELP[area]}
        </span>
        <span className={`shrink-0 text-xs ${failed ? 'text-err' : warned ? 'text-warn' : 'text-ok'}`}>
          {failed ? `${failed} failed` : warned ? `${warned} ${warned === 1 ? 'warning' : 'warnings'}` : checks.length === 1 ? 'passed' : `all ${checks.length} passed`}
        </span>
      </button>
      {open && (
        <ul aria-label={title} className="divide-y divide-line">
          {checks.map((c) => (
            <CheckItem key={c.id} check={c} fixed={fixed.has(c.id) || c.change === 'fixed'} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CheckItem({ check, fixed }: { check: CheckResult; fixed: boolean }) {
  const [open, setOpen] = useState(false);
  const v = VERDICT[check.verdict];
  return (
    <li aria-label={`${v.word}: ${check.title}`}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex w-full items-start gap-2 px-3 py-2 text-left hover:bg-hover">
        {open ? <ChevronDown aria-hidden className="mt-0.5 size-3.5 shrink-0 text-faint" /> : <ChevronRight aria-hidden className="mt-0.5 size-3.5 shrink-0 text-faint" />}
        <span className={`shrink-0 ${v.className}`} title={v.word}>
          {v.icon}
        </span>
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex flex-wrap items-baseline gap-x-2">
            <span className="text-[13px]">{check.title}</span>
            <code className="font-mono text-[11px] text-faint">{check.id}</code>
            {fixed && <span className="rounded bg-ok-soft px-1.5 text-[11px] font-medium text-ok">fixed since last run</span>}
            {check.change === 'broken' && <span className="rounded bg-err-soft px-1.5 text-[11px] font-medium text-err">broken since last run</span>}
            {/* Between fail and warn: the previous verdict is the other one. */}
            {check.change === 'changed' && (
              <span className="rounded bg-hover px-1.5 text-[11px] font-medium text-muted">{check.verdict === 'warn' ? 'failed last run' : 'a warning last run'}</span>
            )}
          </span>
          {check.verdict !== 'pass' && <span className="text-xs text-muted">{check.detail}</span>}
        </span>
      </button>
      {open && (
        <div className="flex flex-col gap-3 border-t border-line bg-bg px-3 py-3 pl-9">
          {check.verdict === 'pass' && <p className="text-xs text-muted">{check.detail}</p>}
          <CheckEvidence evidence={check.evidence} />
          {check.fix && (
            <div className="flex flex-col gap-2 rounded-md border border-line bg-panel">
              <div className="px-3 pt-2">
                <h4 className="text-xs font-semibold">How to fix</h4>
                <p className="mt-1 text-xs">{check.fix}</p>
              </div>
              <FixSnippets checkId={check.id} fix={check.fix} />
            </div>
          )}
        </div>
      )}
    </li>
  );
}
