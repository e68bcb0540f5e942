import { useEffect, useState, type FormEvent } from 'react';
import { ChevronDown, ChevronRight, CircleCheck, CircleX, Eye, EyeOff, History, LoaderCircle, Play, ShieldCheck, Stethoscope, TriangleAlert } from 'lucide-react';
import {
  CHECK_AREAS,
  PROBE_PREFIX,
  summaryLine,
  urlWithScheme,
  CHECK_LIMITS,
  type CheckArea,
  type CheckDiagnosis,
  type CheckExchange,
  type CheckResult,
  type CheckRun,
  type CheckRunSummary,
  type CheckVerdict,
} from '../../../../main/contract/check/check';
import { formatRowTime } from '../../lib/format';
import { useCheck } from '../../stores/check';
import { useRouter } from '../../stores/router';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { TextField } from '../../ui/TextField';
import { CapacityCard } from './CapacityCard';
import { CheckEvidence } from './CheckEvidence';
import { FixSnippets } from './FixSnippets';

export const AREA_TITLES: Record<CheckArea, string> = {
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

export const VERDICT: Record<CheckVerdict, { word: string; icon: React.ReactNode; className: string }> = {
  pass: { word: 'Passed', icon: <CircleCheck aria-hidden className="size-4" />, className: 'text-ok' },
  warn: { word: 'Warning', icon: <TriangleAlert aria-hidden className="size-4" />, className: 'text-warn' },
  fail: { word: 'Failed', icon: <CircleX aria-hidden className="size-4" />, className: 'text-err' },
};

const MASK = '••••';

/**
 * Check: the conformance battery against the user's own receiver (runCheck). The form starts a run; the
 * report fills in as each check's verdict arrives, grouped by area; previous runs can be opened again.
 */
export function CheckView() {
  const sub = useRouter((s) => s.route.sub);
  const navigate = useRouter((s) => s.navigate);
  const { run, runs, runsLoaded, loadRuns, open, error } = useCheck();
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
                Give your receiver's URL and the destination's secret, then <strong>Run checks</strong>: every shape the destination sends, forged signatures, timing, a redelivery and a burst, each with its requests and responses.
              </EmptyState>
            )}
          </div>
          <PreviousRuns runs={runs} shown={run?.id ?? null} onOpen={(id) => navigate({ view: 'check', sub: [String(id)] })} />
        </div>
      </div>
    </div>
  );
}

function CheckForm({ onStarted }: { onStarted(id: number): void }) {
  const { form, setForm, start, starting } = useCheck();
  const [secretShown, setSecretShown] = useState(false);
  const masked = form.url.includes(MASK);
  const withScheme = urlWithScheme(form.url);
  const urlError = masked ? `This URL is shown masked (${MASK}): type it in full to check it.` : withScheme ? `No scheme: did you mean ${withScheme}?` : null;
  // A stored run's secret was never kept: run again as it stands, it goes unsigned, and the button says so.
  const unsigned = (form.unsignedRerunOf ?? null) !== null && form.secret === '';
  const capacityError = capacityProblem(form.capacity ?? '', form.expectRate ?? '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (urlError || capacityError.capacity || capacityError.expectRate || form.url.trim() === '') return;
    const id = await start();
    if (id !== null) onStarted(id);
  };
  return (
    <form aria-label="Check an endpoint" onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 rounded-lg border border-line bg-panel p-3">
      {form.note && (
        <p className={`flex items-start gap-1.5 text-xs ${unsigned ? 'text-warn' : 'text-muted'}`}>
          {unsigned && <TriangleAlert aria-hidden className="mt-px size-3.5 shrink-0" />}
          {form.note}
        </p>
      )}
      <div className="grid gap-3 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <TextField label="URL" value={form.url} onChange={(url) => setForm({ url })} placeholder="http://localhost:3000/webhooks" error={urlError} />
        <TextField
          label="Secret"
          type={secretShown ? 'text' : 'password'}
          value={form.secret}
          onChange={(secret) => setForm({ secret })}
          placeholder="none (unsigned)"
          after={
            <Button variant="ghost" aria-label={secretShown ? 'Hide secret' : 'Show secret'} title={secretShown ? 'Hide secret' : 'Show secret'} onClick={() => setSecretShown(!secretShown)} icon={secretShown ? <EyeOff aria-hidden className="size-3.5" /> : <Eye aria-hidden className="size-3.5" />} />
          }
        />
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          className="min-w-64 flex-1"
          label="Only these checks"
          value={form.only}
          onChange={(only) => setForm({ only })}
          placeholder="all (or IDs: signature.wrong-secret, shapes.track)"
        />
        <TextField
          className="w-36"
          label="Capacity (seconds)"
          value={form.capacity ?? ''}
          onChange={(capacity) => setForm({ capacity })}
          placeholder={`off (1 to ${CHECK_LIMITS.maxCapacitySeconds})`}
          inputMode="numeric"
          error={capacityError.capacity}
        />
        <TextField
          className="w-36"
          label="Expected rate (/s)"
          value={form.expectRate ?? ''}
          onChange={(expectRate) => setForm({ expectRate })}
          placeholder="none"
          inputMode="decimal"
          error={capacityError.expectRate}
        />
        <Button type="submit" variant="primary" size="md" busy={starting} disabled={urlError !== null || capacityError.capacity !== null || capacityError.expectRate !== null || form.url.trim() === ''} title={form.url.trim() === '' ? 'Give the URL of your receiver first' : (urlError ?? undefined)} icon={<Play aria-hidden className="size-3.5" />}>
          {unsigned ? 'Run unsigned' : 'Run checks'}
        </Button>
      </div>
    </form>
  );
}

/** What is wrong with the capacity fields, each by its field (null: fine); both empty is no capacity run. */
function capacityProblem(seconds: string, rate: string): { capacity: string | null; expectRate: string | null } {
  const s = seconds.trim();
  const r = rate.trim();
  const max = CHECK_LIMITS.maxCapacitySeconds;
  const capacity = s === '' ? null : /^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= max ? null : `A whole number of seconds from 1 to ${max} (got ${s})`;
  const expectRate = r === '' ? null : s === '' ? 'Give the capacity seconds too: the rate is judged on a capacity run' : /^\d+(\.\d+)?$/.test(r) && Number(r) > 0 && Number(r) <= CHECK_LIMITS.maxExpectRate ? null : `Deliveries per second, more than 0 and at most ${CHECK_LIMITS.maxExpectRate.toLocaleString('en-US')} (got ${r})`;
  return { capacity, expectRate };
}

function Report({ run }: { run: CheckRun }) {
  const running = run.status === 'running';
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
        <span className="tabular text-[11px] text-faint">
          Run #{run.id} · {formatRowTime(Date.parse(run.startedAt), Date.now())}
        </span>
        <p aria-label="Summary" aria-live="polite" className="ml-auto flex items-center gap-2 text-xs font-medium">
          {running && <LoaderCircle aria-hidden className="size-3.5 animate-spin text-muted" />}
          {running && <span className="text-muted">{done} of {run.total} checks ·</span>}
          <span className={run.summary.failed ? 'text-err' : run.summary.warnings ? 'text-warn' : 'text-ok'}>{summaryLine(run.summary)}</span>
        </p>
        {run.status === 'unreachable' && <p className="w-full text-xs text-err">Nothing was checked: {run.error ?? 'the URL cannot be reached'}</p>}
        {run.fixedSinceLastRun.length > 0 && (
          <p className="w-full text-xs text-ok">
            Fixed since last run: <span className="font-mono">{run.fixedSinceLastRun.join(', ')}</span>
          </p>
        )}
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

const acceptedProbe = (ex: CheckExchange) => ex.statusCode !== null && ex.statusCode >= 200 && ex.statusCode < 300;

/**
 * The root cause, above the checks: why the receiver refuses valid signatures, found by probing it with the
 * same request signed the mistaken ways; the probe it accepted (or that it accepted none) and the fix. The
 * fix's code is one click away, so that the checks it explains stay in sight.
 */
function DiagnosisCard({ diagnosis, probes }: { diagnosis: CheckDiagnosis; probes: CheckExchange[] }) {
  const [probesShown, setProbesShown] = useState(false);
  const [codeShown, setCodeShown] = useState(false);
  const accepted = probes.find(acceptedProbe);
  const toggle = (shown: boolean, set: (v: boolean) => void, label: string) => (
    <button type="button" className="inline-flex items-center gap-1 text-xs text-accent hover:underline" aria-expanded={shown} onClick={() => set(!shown)}>
      {shown ? <ChevronDown aria-hidden className="size-3.5" /> : <ChevronRight aria-hidden className="size-3.5" />}
      {label}
    </button>
  );
  return (
    <section aria-label="Diagnosis" className="overflow-hidden rounded-lg border border-err/40 bg-panel">
      <div className="flex items-start gap-2.5 border-b border-err/20 bg-err-soft px-3 py-2.5">
        <Stethoscope aria-hidden className="mt-0.5 size-4 shrink-0 text-err" />
        <div className="flex min-w-0 flex-col gap-1">
          <h3 className="flex flex-wrap items-baseline gap-x-2 text-xs font-semibold tracking-wide text-err uppercase">
            Diagnosis
            <code className="font-mono text-[11px] font-medium tracking-normal normal-case" title="The signature mistake, as hookbench verify names it">
              {diagnosis.mistake}
            </code>
          </h3>
          <p className="text-[13px] font-medium">{diagnosis.title}</p>
        </div>
      </div>
      <div className="flex flex-col gap-2.5 px-3 py-3">
        {accepted ? (
          <>
            <p className="text-xs text-muted">Found by sending the same request again, signed the mistaken ways. The receiver accepted this one:</p>
            {!probesShown && <CheckEvidence evidence={[accepted]} heading={false} />}
          </>
        ) : null}
        {probes.length > (accepted ? 1 : 0) && (
          <div className="flex flex-col gap-1.5">
            {toggle(probesShown, setProbesShown, accepted ? `All ${probes.length} probes sent` : `The ${probes.length} probes it refused (the same request, signed the mistaken ways)`)}
            {probesShown && <CheckEvidence evidence={probes} heading={false} />}
          </div>
        )}
        <div className="flex flex-col gap-1.5 rounded-md border border-line bg-bg px-3 py-2">
          <h4 className="text-xs font-semibold">How to fix</h4>
          <p className="text-xs">{diagnosis.fix}</p>
          {toggle(codeShown, setCodeShown, 'Verifying X-Signature, in Node, Python, Go, Ruby and PHP')}
        </div>
        {codeShown && (
          <div className="overflow-hidden rounded-md border border-line bg-panel">
            <FixSnippets checkId="signature.raw-bytes" />
          </div>
        )}
      </div>
    </section>
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

function PreviousRuns({ runs, shown, onOpen }: { runs: CheckRunSummary[]; shown: number | null; onOpen(id: number): void }) {
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
                <span className="tabular flex items-center gap-1.5 text-[11px] text-faint">
                  #{r.id} · {formatRowTime(Date.parse(r.startedAt), Date.now())}
                </span>
                <span className={`text-[11px] ${r.status === 'unreachable' || r.summary.failed ? 'text-err' : r.summary.warnings ? 'text-warn' : r.status === 'running' ? 'text-muted' : 'text-ok'}`}>
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
