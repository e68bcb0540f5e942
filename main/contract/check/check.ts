/**
 * What a check of the user's own webhook receiver answers (docs/check.md): a run, its checks with the evidence
 * their verdicts rest on, the signature diagnosis and the capacity figures, and the one builder of the
 * `--json` report. Pure: the renderer and the CLI import it. What a check is asked is in checkInputs.ts.
 */
import type { AttemptOutcome } from '../deliveries.js';
import type { SignatureMistake } from '../receiver/signatureDiagnosis.js';
import type { CheckArea } from './checkInputs.js';

export const CHECK_VERDICTS = ['pass', 'warn', 'fail'] as const;
export type CheckVerdict = (typeof CHECK_VERDICTS)[number];

/** One request of a check and what came back: the evidence a verdict rests on. */
export interface CheckExchange {
  /** What this request is in the check: `first delivery`, `forged: signed with another secret`, ... */
  label: string;
  request: {
    method: 'POST';
    url: string;
    /** As the socket carried them (credential-like values masked). */
    headers: Record<string, string>;
    /** The body as UTF-8 text (at most CHECK_LIMITS.evidenceBodyChars). */
    body: string;
    bodyBytes: number;
    bodyTruncated: boolean;
  };
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** `HTTP 500`, `timeout after 5000 ms`, `ECONNREFUSED`, ... (null on success). */
  error: string | null;
  /** Real milliseconds from sending to the response headers (or the failure). */
  durationMs: number;
  response: { headers: Record<string, string>; body: string; bodyTruncated: boolean } | null;
  /**
   * The engine's attempt record this request is, when it went through the engine (getMessage → attempts):
   * what the destination itself can send, in a workbench whose forwarding runs. Null when sent directly.
   */
  attempt: { messageId: number; attemptId: number } | null;
  /** For a signed or forged request: what the signature diagnosis makes of the X-Signature sent. */
  signature: { sent: string | null; expected: string; explanation: string } | null;
}

export interface CheckResult {
  id: string;
  title: string;
  area: CheckArea;
  verdict: CheckVerdict;
  /** One or two sentences: what happened and, for warn/fail, what the real destination does about it. */
  detail: string;
  evidence: CheckExchange[];
  /** How to fix it, when the check did not pass and the battery knows (plain text). */
  fix: string | null;
  /** Compared with the previous run of the same URL (null: the check was not in it, or there is none). */
  change: CheckChange | null;
}

/**
 * Why the receiver refuses the run's valid requests. With a secret: why it refuses valid signatures, found by
 * probing it with the same call signed the mistaken ways (`verify`'s vocabulary): the mistake whose probe it
 * accepted, or `unknown` when it accepted none. Without one: `no-secret`, the receiver refuses the run's
 * unsigned requests with 401 or 403 (it verifies signatures, and the run had nothing to sign with). Null when
 * valid requests were accepted.
 */
export interface CheckDiagnosis {
  mistake: SignatureMistake | 'no-secret';
  /** One line: what the receiver does wrong (or that no known mistake explains the refusal). */
  title: string;
  /** What to change in the receiver, or in the run (plain text). */
  fix: string;
}

/** The label of every diagnosis probe in a check's evidence starts so (`probe: HMAC-SHA256 (hex)`). */
export const PROBE_PREFIX = 'probe: ';

/** How the detail of a check that failed only for the diagnosis' reason ends (it points at the diagnosis). */
export const SEE_DIAGNOSIS = 'see the diagnosis';

/** `fixed`: failed or warned last run, passes now; `broken`: passed last run, fails or warns now. */
export const CHECK_CHANGES = ['fixed', 'broken', 'same', 'changed'] as const;
export type CheckChange = (typeof CHECK_CHANGES)[number];

export interface CheckSummary {
  passed: number;
  failed: number;
  warnings: number;
}

/** `running` while checks are sent; `unreachable`: nothing could be sent to the URL at all (CLI exit 2). */
export const CHECK_RUN_STATUSES = ['running', 'finished', 'unreachable'] as const;
export type CheckRunStatus = (typeof CHECK_RUN_STATUSES)[number];

/** What `hookbench check --json` prints, exactly (docs/check.md, "--json"). Times are ISO 8601, real time. */
export interface CheckReport {
  url: string;
  startedAt: string;
  finishedAt: string | null;
  summary: CheckSummary;
  diagnosis: CheckDiagnosis | null;
  checks: Pick<CheckResult, 'id' | 'title' | 'area' | 'verdict' | 'detail' | 'fix' | 'evidence'>[];
  /** Null when capacity was not asked for. */
  capacity: CapacityReport | null;
}

/** One second of a capacity run: answers that came in that second (the last second also holds those that came after it). */
export interface CapacitySecond {
  /** 1 for the run's first second. */
  second: number;
  /** Deliveries that succeeded (2xx). */
  deliveries: number;
  /** Latency of every answer of the second, in ms; null when none came. */
  p50: number | null;
  p95: number | null;
  /** Deliveries that did not succeed (timeouts included). */
  errors: number;
}

/** What `--json` prints of a capacity run, exactly. */
export interface CapacityReport {
  concurrency: number;
  seconds: number;
  /** Successful deliveries ÷ the time from the first request to the last answer. */
  deliveriesPerSecond: number;
  /** Over every answer (a timeout counts as the timeout); null when nothing was sent. */
  latencyMs: { p50: number | null; p95: number | null; p99: number | null; max: number | null };
  /** Failed deliveries by kind (`HTTP 503`, `ECONNRESET`, `connection closed`, `tls_error`, …), timeouts apart. */
  errors: Record<string, number>;
  timeouts: number;
  series: CapacitySecond[];
}

/** A capacity run as the run keeps it (and checkCapacityMeasured carries it while it runs). */
export interface CheckCapacity extends CapacityReport {
  /** The destination's timeout the run used (the chart's line). */
  timeoutMs: number;
  expectRate: number | null;
  /** False while it runs. */
  finished: boolean;
}

/** The exact `--json` shape of a capacity run. */
export function capacityReport(c: CapacityReport): CapacityReport {
  return { concurrency: c.concurrency, seconds: c.seconds, deliveriesPerSecond: c.deliveriesPerSecond, latencyMs: c.latencyMs, errors: c.errors, timeouts: c.timeouts, series: c.series };
}

/** Some seconds of a capacity run (1-based, inclusive) and the deliveries a second over them. */
export interface CapacityWindow {
  from: number;
  to: number;
  rate: number;
}

/**
 * Throughput that fell by this share or more from the run's first third to its last is called a fall
 * (docs/check.md, "Capacity"): a steady receiver's thirds differ by far less, even on a busy machine.
 */
export const CAPACITY_FALL = 1 / 3;

/**
 * A finished run's rate in its first and last third (docs/check.md, "Capacity"): a receiver that slows
 * down is judged on what it sustains by the end, not on an average its first seconds lift. The final second
 * also holds the answers still out when the time was up, which inflate it, so it is left out; a run of
 * fewer than 3 seconds has no thirds to compare (null).
 */
export function capacityTrend(series: readonly CapacitySecond[]): { first: CapacityWindow; last: CapacityWindow } | null {
  const judged = series.slice(0, -1);
  if (judged.length < 2) return null;
  const size = Math.ceil(judged.length / 3);
  const windowOf = (seconds: readonly CapacitySecond[]): CapacityWindow => ({
    from: seconds[0]!.second,
    to: seconds.at(-1)!.second,
    rate: Math.round((seconds.reduce((sum, s) => sum + s.deliveries, 0) / seconds.length) * 10) / 10,
  });
  return { first: windowOf(judged.slice(0, size)), last: windowOf(judged.slice(-size)) };
}

/** `second 4` or `seconds 7–9`. */
export const windowSeconds = (w: Pick<CapacityWindow, 'from' | 'to'>): string => (w.from === w.to ? `second ${w.from}` : `seconds ${w.from}–${w.to}`);

/** A run as listCheckRuns lists it. */
export interface CheckRunSummary {
  id: number;
  /** As given, with a password in it masked (`https://ada:••••@host/hook`); listCheckRuns' `url` filter uses this form. */
  url: string;
  status: CheckRunStatus;
  /** Why the URL could not be reached, when status is `unreachable`. */
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  summary: CheckSummary;
  /** Checks planned for this run while it runs (the report is complete when summary adds up to it); once finished, the checks it has. */
  total: number;
  /** The previous run of the same URL, which `change` compares with. */
  previousRunId: number | null;
  /** How it was run: everything but the secret (secretGiven says whether there was one). */
  options: {
    secretGiven: boolean;
    headers: Record<string, string>;
    only: string[] | null;
    burst: number;
    scenarios: number;
    caFile: string | null;
    /** Capacity asked for (null: none; a run stored before capacity existed has none either). */
    capacity: { seconds: number; expectRate: number | null } | null;
  };
}

/** getCheckRun, and runCheck with `wait`. */
export interface CheckRun extends CheckRunSummary {
  checks: CheckResult[];
  /** The root cause when valid signatures are refused (what the report shows first); null otherwise. */
  diagnosis: CheckDiagnosis | null;
  /** Checks that failed or warned in the previous run and pass now. */
  fixedSinceLastRun: string[];
  /** The capacity run's figures (so far, while it runs); null when capacity was not asked for. */
  capacity: CheckCapacity | null;
}

/** A check of the battery or a scenario, as `hookbench check --list` prints them. */
export interface CheckListing {
  id: string;
  title: string;
  area: CheckArea;
}

export function summarise(checks: readonly Pick<CheckResult, 'verdict'>[]): CheckSummary {
  let passed = 0;
  let failed = 0;
  let warnings = 0;
  for (const c of checks) {
    if (c.verdict === 'pass') passed++;
    else if (c.verdict === 'fail') failed++;
    else warnings++;
  }
  return { passed, failed, warnings };
}

/** The one builder of the `--json` report from a run (CLI, docs and UI export say the same). */
export function checkReport(run: Pick<CheckRun, 'url' | 'startedAt' | 'finishedAt' | 'summary' | 'diagnosis' | 'checks'> & { capacity?: CapacityReport | null }): CheckReport {
  return {
    url: run.url,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    summary: run.summary,
    diagnosis: run.diagnosis ? { mistake: run.diagnosis.mistake, title: run.diagnosis.title, fix: run.diagnosis.fix } : null,
    checks: run.checks.map((c) => ({ id: c.id, title: c.title, area: c.area, verdict: c.verdict, detail: c.detail, fix: c.fix, evidence: c.evidence })),
    capacity: run.capacity ? capacityReport(run.capacity) : null,
  };
}

/** The closing line of the human report (docs/check.md): `N passed, M failed, K warnings`, with `1 warning` singular. */
export function summaryLine(summary: CheckSummary): string {
  return `${summary.passed} passed, ${summary.failed} failed, ${summary.warnings} ${summary.warnings === 1 ? 'warning' : 'warnings'}`;
}
