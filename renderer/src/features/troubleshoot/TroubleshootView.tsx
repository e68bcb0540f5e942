import { useCallback, useState } from 'react';
import { ArrowRight, CircleCheck, CircleDashed, CircleX, LoaderCircle, RefreshCw, Stethoscope, TriangleAlert } from 'lucide-react';
import { DIAGNOSTIC_SECTIONS, RULE_NAMES, SECTION_TITLES, type CheckState, type DiagnosticCheck, type Diagnostics, type Evidence } from '../../../../main/contract/diagnostics';
import { api } from '../../api/instance';
import { useRefresh } from '../../api/useRefresh';
import { formatRowTime, plural } from '../../lib/format';
import { Button } from '../../ui/Button';
import { CopyButton } from '../../ui/CopyButton';
import { EmptyState } from '../../ui/EmptyState';
import { byUrgency, countStates, evidenceHash, groupBySubject } from './evidence';

/** After pushed events, the checklist is computed again at most this often. */
const REFRESH_AFTER_EVENTS_MS = 1500;
/** Some checks change with time alone (the retry backlog falling due). */
const POLL_MS = 15_000;

const STATE: Record<CheckState, { icon: React.ReactNode; word: string; className: string }> = {
  problem: { icon: <CircleX aria-hidden className="size-4" />, word: 'Problem', className: 'text-err' },
  warning: { icon: <TriangleAlert aria-hidden className="size-4" />, word: 'Warning', className: 'text-warn' },
  ok: { icon: <CircleCheck aria-hidden className="size-4" />, word: 'OK', className: 'text-ok' },
  idle: { icon: <CircleDashed aria-hidden className="size-4" />, word: 'Nothing to check yet', className: 'text-faint' },
};

const SECTION_HELP: Record<(typeof DIAGNOSTIC_SECTIONS)[number], string> = {
  'no-events': 'Is a write key in use, have calls arrived, were requests refused, and where must an SDK send?',
  'not-delivered': 'Per destination: enabled, connected, filtered, its receiver, TLS, signatures.',
  slow: 'Timeouts, Retry-After answers, the retry backlog and a paused engine.',
};

/**
 * Troubleshoot: the spec's troubleshooting rules as a live checklist (getDiagnostics computes it from the
 * newest data; this screen shows it and links each finding to its evidence).
 */
export function TroubleshootView() {
  const [data, setData] = useState<Diagnostics | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    setBusy(true);
    const result = await api().call('getDiagnostics', {}, { quiet: true });
    setBusy(false);
    if (result.ok) {
      setData(result.value);
      setError(null);
    } else setError(result.error.message);
  }, []);
  useRefresh('diagnostics', load, { everyMs: POLL_MS, afterEventsMs: REFRESH_AFTER_EVENTS_MS });

  const counts = data ? countStates(data.checks) : null;
  return (
    <div className="flex h-full flex-col">
      <header className="flex h-10 shrink-0 items-center gap-3 border-b border-line bg-panel px-4 whitespace-nowrap">
        <h1 className="text-[13px] font-semibold">Troubleshoot</h1>
        {counts && (
          <p className="flex items-center gap-3 text-xs" aria-label="Summary">
            <span className={counts.problem ? 'text-err' : 'text-muted'}>{counts.problem} {counts.problem === 1 ? 'problem' : 'problems'}</span>
            <span className={counts.warning ? 'text-warn' : 'text-muted'}>{counts.warning} {counts.warning === 1 ? 'warning' : 'warnings'}</span>
            <span className="text-muted">{counts.ok} passed</span>
          </p>
        )}
        <div className="ml-auto flex items-center gap-3">
          {data && (
            <span className="truncate text-[11px] text-faint" title={`Looks at the newest ${plural(data.window.messages, 'message')}, ${plural(data.window.attempts, 'attempt')}, ${plural(data.window.refusals, 'refused request')} and ${plural(data.window.captures, 'capture')}`}>
              Checked {formatRowTime(data.checkedAt, data.checkedAt)} · updates as messages arrive
            </span>
          )}
          <Button icon={busy ? <LoaderCircle aria-hidden className="size-3.5 animate-spin" /> : <RefreshCw aria-hidden className="size-3.5" />} onClick={() => void load()}>
            Check again
          </Button>
        </div>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {error && !data && (
          <EmptyState icon={<TriangleAlert />} title="The checklist could not be computed" action={<Button onClick={() => void load()}>Try again</Button>}>
            {error}
          </EmptyState>
        )}
        {!data && !error && (
          <div className="flex h-32 items-center justify-center text-faint" role="status" aria-label="Checking">
            <LoaderCircle aria-hidden className="size-5 animate-spin" />
          </div>
        )}
        {data && (
          <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
            {counts && counts.problem === 0 && counts.warning === 0 && (
              <div className="flex items-center gap-3 rounded-lg border border-ok/30 bg-ok-soft px-4 py-3 text-[13px]">
                <Stethoscope aria-hidden className="size-5 text-ok" />
                <span>Nothing looks wrong. When a message does not arrive where you expect, this page names the rule that stopped it and links to the evidence.</span>
              </div>
            )}
            {DIAGNOSTIC_SECTIONS.map((section) => (
              <Section key={section} title={SECTION_TITLES[section]} help={SECTION_HELP[section]} checks={byUrgency(data.checks.filter((c) => c.section === section))} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

function Section({ title, help, checks }: { title: string; help: string; checks: DiagnosticCheck[] }) {
  const counts = countStates(checks);
  const groups = groupBySubject(checks);
  return (
    <section aria-label={title} className="rounded-lg border border-line bg-panel">
      <div className="flex items-baseline gap-3 border-b border-line px-4 py-2.5">
        <h2 className="shrink-0 text-[13px] font-semibold">{title}</h2>
        <p className="min-w-0 flex-1 truncate text-xs text-faint" title={help}>
          {help}
        </p>
        <span className={`shrink-0 text-xs ${counts.problem ? 'text-err' : counts.warning ? 'text-warn' : 'text-ok'}`}>
          {counts.problem ? `${counts.problem} to fix` : counts.warning ? `${counts.warning} to look at` : 'all clear'}
        </span>
      </div>
      <ul aria-label={title} className="divide-y divide-line">
        {groups.map((g) =>
          g.subject === null ? (
            g.checks.map((c) => <CheckItem key={c.id} check={c} />)
          ) : (
            <SubjectGroup key={g.subject} subject={g.subject} checks={g.checks} />
          ),
        )}
      </ul>
    </section>
  );
}

/** One source or destination: what needs attention in full, what passed as a line of names. */
function SubjectGroup({ subject, checks }: { subject: string; checks: DiagnosticCheck[] }) {
  const open = checks.filter((c) => c.state === 'problem' || c.state === 'warning');
  const passed = checks.filter((c) => c.state === 'ok' || c.state === 'idle');
  const worst = open[0]?.state ?? (passed.every((c) => c.state === 'idle') ? 'idle' : 'ok');
  return (
    <li aria-label={subject} className="flex flex-col gap-2 px-4 py-2.5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className={`shrink-0 ${STATE[worst].className}`} title={STATE[worst].word}>
          {STATE[worst].icon}
        </span>
        <h3 className="text-[13px] font-semibold">{subject}</h3>
        {passed.map((c) => (
          <span key={c.id} title={`${c.title}. ${c.detail}`} className="inline-flex items-center gap-1 text-xs text-muted">
            <span className={STATE[c.state].className}>{c.state === 'ok' ? <CircleCheck aria-hidden className="size-3" /> : <CircleDashed aria-hidden className="size-3" />}</span>
            <span>{c.state === 'ok' ? RULE_NAMES[c.rule] ?? c.rule : c.title}</span>
          </span>
        ))}
      </div>
      {open.length > 0 && (
        <ul className="flex flex-col gap-2 border-l border-line pl-5">
          {open.map((c) => (
            <CheckItem key={c.id} check={c} nested />
          ))}
        </ul>
      )}
    </li>
  );
}

function CheckItem({ check, nested = false }: { check: DiagnosticCheck; nested?: boolean }) {
  const s = STATE[check.state];
  const quiet = check.state === 'ok' || check.state === 'idle';
  return (
    <li aria-label={`${s.word}: ${check.title}`} className={`flex gap-3 ${nested ? '' : 'px-4 py-2.5'}`}>
      <span className={`mt-px shrink-0 ${s.className}`} title={s.word}>
        {s.icon}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className={`text-[13px] ${quiet ? 'text-muted' : 'font-medium text-fg'}`}>{check.title}</p>
        {(!quiet || check.evidence.some((e) => e.kind === 'url')) && <p className="text-xs break-words text-muted">{check.detail}</p>}
        {check.evidence.length > 0 && (
          <div className="flex flex-wrap items-center gap-1.5">
            {check.evidence.map((e, i) => (
              <EvidenceLink key={i} evidence={e} finding={check.title} />
            ))}
          </div>
        )}
      </div>
    </li>
  );
}

/** `finding`: the check it is evidence of, in its name: one message or destination can be the evidence of several. */
function EvidenceLink({ evidence, finding }: { evidence: Evidence; finding: string }) {
  if (evidence.kind === 'url') {
    return (
      <span className="flex items-center gap-1 rounded-md border border-line bg-panel-2 pl-2 text-xs">
        <code className="font-mono">{evidence.url}</code>
        <CopyButton text={evidence.url} label={`Copy ${evidence.label}`} showLabel={false} />
      </span>
    );
  }
  const href = evidenceHash(evidence);
  // Every evidence link opens a screen of this app: an arrow, not the external-link icon (nothing leaves it).
  return (
    <a href={href ?? undefined} aria-label={`${evidence.label}, evidence of: ${finding}`} className="inline-flex max-w-full items-center gap-1 rounded-md border border-line px-2 py-0.5 text-xs text-accent hover:bg-hover">
      <span className="truncate">{evidence.label}</span>
      <ArrowRight aria-hidden className="size-3 shrink-0 opacity-60" />
    </a>
  );
}
