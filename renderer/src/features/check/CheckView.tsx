import { useEffect } from 'react';
import { History, ShieldCheck } from 'lucide-react';
import { summaryLine, type CheckRunSummary } from '../../../../main/contract/check/check';
import { formatRowTime } from '../../lib/format';
import { useEngine } from '../../stores/engine';
import { useCheck } from '../../stores/check';
import { useRouter } from '../../stores/router';
import { EmptyState } from '../../ui/EmptyState';
import { CheckForm } from './CheckForm';
import { REAL_TIME_NOTE, Report, summaryTone } from './CheckReport';

/**
 * Check: the conformance battery against the user's own receiver (runCheck). The form starts a run; the
 * report fills in as each check's verdict arrives, grouped by area; previous runs can be opened again.
 */
export function CheckView() {
  const sub = useRouter((s) => s.route.sub);
  const navigate = useRouter((s) => s.navigate);
  const { run, runs, runsLoaded, loadRuns, open, error } = useCheck();
  // Opened from Check endpoint, the form is filled in already: the empty state says what is left to do.
  const filled = useCheck((s) => s.form.url.trim() !== '');
  const routeRun = sub[0] && /^\d+$/.test(sub[0]) ? Number(sub[0]) : null;

  useEffect(() => {
    if (!runsLoaded) void loadRuns();
  }, [runsLoaded, loadRuns]);
  useEffect(() => {
    if (routeRun !== null && useCheck.getState().run?.id !== routeRun) void open(routeRun);
  }, [routeRun, open]);

  return (
    <div className="flex h-full flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-line bg-panel px-4 whitespace-nowrap">
        <h1 className="text-[13px] font-semibold">Check</h1>
        <span className="truncate text-xs text-faint">Your webhook receiver against what the Webhooks destination sends</span>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto grid max-w-6xl items-start gap-4 p-4 lg:grid-cols-[minmax(0,1fr)_13rem] xl:grid-cols-[minmax(0,1fr)_15rem]">
          <div className="flex min-w-0 flex-col gap-4">
            <CheckForm onStarted={(id) => navigate({ view: 'check', sub: [String(id)] })} />
            {error && (
              <p role="alert" className="rounded-md border border-err/30 bg-err-soft px-3 py-2 text-xs text-err">
                {error}
              </p>
            )}
            {run ? (
              <Report run={run} />
            ) : (
              <EmptyState icon={<ShieldCheck />} title="No report yet">
                {filled ? 'Press' : "Give your receiver's URL and the destination's secret, then"} <strong>Run checks</strong>: every shape the destination sends, forged signatures, timing, a redelivery and a burst, each with its requests and responses.
              </EmptyState>
            )}
          </div>
          <PreviousRuns runs={runs} shown={run?.id ?? null} onOpen={(id) => navigate({ view: 'check', sub: [String(id)] })} />
        </div>
      </div>
    </div>
  );
}

function PreviousRuns({ runs, shown, onOpen }: { runs: CheckRunSummary[]; shown: number | null; onOpen(id: number): void }) {
  const offset = useEngine((s) => s.clock?.offsetMs ?? 0) !== 0;
  return (
    <section aria-label="Previous runs" className="rounded-lg border border-line bg-panel">
      <h2 className="flex items-center gap-1.5 border-b border-line px-3 py-2 text-xs font-semibold tracking-wide text-muted uppercase">
        <History aria-hidden className="size-3.5" /> Previous runs
      </h2>
      {runs.length === 0 ? (
        <p className="px-3 py-2 text-xs text-faint">No runs yet.</p>
      ) : (
        <ul className="flex max-h-[32rem] flex-col overflow-y-auto p-1">
          {runs.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                aria-current={r.id === shown ? 'true' : undefined}
                aria-label={`Run #${r.id}: ${r.url}`}
                onClick={() => onOpen(r.id)}
                className={`flex w-full flex-col gap-0.5 rounded-md px-2 py-1.5 text-left ${r.id === shown ? 'bg-selected' : 'hover:bg-hover'}`}
              >
                <span className="truncate font-mono text-[11px]" title={r.url}>
                  {r.url}
                </span>
                <span className="tabular flex items-center gap-1.5 text-[11px] text-faint" title={offset ? REAL_TIME_NOTE : undefined}>
                  #{r.id} · {formatRowTime(Date.parse(r.startedAt), Date.now())}
                  {offset ? ' real time' : ''}
                </span>
                <span className={`text-[11px] ${summaryTone(r)}`}>
                  {r.status === 'unreachable' ? 'unreachable' : r.status === 'running' ? `running · ${summaryLine(r.summary)}` : summaryLine(r.summary)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
