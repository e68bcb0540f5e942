/**
 * `hookbench check <url>` (SPEC §10, docs/check.md): the battery and any scenarios against the user's
 * receiver, through a running serve on the data dir when there is one (the run is then kept in its history
 * and compared with the previous one), else an in-process core on a throw-away data dir.
 * Exit 0 nothing failed (warnings allowed), 1 a check failed, 2 usage errors or an unreachable URL.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  checkReport,
  checkScenarioFileSchema,
  PROBE_PREFIX,
  runCheckInputSchema,
  SEE_DIAGNOSIS,
  summaryLine,
  urlWithScheme,
  type CheckDiagnosis,
  type CheckExchange,
  type CheckResult,
  type CheckRun,
  type CheckScenarioFile,
  type RunCheckInput,
} from '../../contract/check/check.js';
import { err, type Result } from '../../contract/result.js';
import { parseWith } from '../../contract/schemas.js';
import { PREFLIGHT_ID } from '../../check/battery.js';
import { listChecks, planChecks } from '../../check/checkService.js';
import { RAW_BYTES_ID } from '../../check/diagnosis.js';
import { junitXml } from '../../check/junit.js';
import { maskUrl } from '../../domain/secrets.js';
import type { CheckTiming } from '../../check/sender.js';
import { createCore } from '../../app/createCore.js';
import { EXIT, runCommand, UsageError, type CliIO } from '../io.js';
import { caretSnippet, parseJsonText } from '../../domain/jsonText.js';
import { callApi, findLiveServe } from '../remote.js';
import { parseHeaderArg } from './send/sendInput.js';

export interface CheckOptions {
  secret?: string | undefined;
  header?: string[] | undefined;
  json?: boolean | undefined;
  junit?: string | undefined;
  only?: string | undefined;
  burst?: number | undefined;
  scenarios?: string | undefined;
  list?: boolean | undefined;
  dataDir?: string | undefined;
}

export interface CheckDeps {
  /** Where the throw-away data dir is made (tests). */
  tmpRoot?: string;
  /** The timeout and "slow" threshold of a standalone run (tests shorten them). */
  timing?: Partial<CheckTiming>;
}

const FLAG_OF: Record<string, string> = { url: '<url>', secret: '--secret', headers: '--header', only: '--only', burst: '--burst', scenarios: '--scenarios' };

function readScenarios(file: string): CheckScenarioFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`--scenarios: cannot read ${file} (${code === 'ENOENT' ? 'no such file' : (code ?? String(e))})`);
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const p = parsed.error;
    throw new UsageError(`--scenarios ${file}: not JSON: ${p.problem} at line ${p.line}, column ${p.column}\n${caretSnippet(text, p)}`);
  }
  const checked = parseWith(checkScenarioFileSchema, parsed.value);
  if (!checked.ok) throw new UsageError(`--scenarios ${file}: ${checked.error.message}`);
  return checked.value;
}

function headersOf(raws: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of raws) {
    const [name, value] = parseHeaderArg(raw);
    headers[name] = value;
  }
  return headers;
}

export async function runCheckCommand(url: string | undefined, options: CheckOptions, io: CliIO, deps: CheckDeps = {}): Promise<number> {
  return runCommand(io, 'check', async () => {
    const scenarios = options.scenarios !== undefined ? readScenarios(options.scenarios) : undefined;
    if (options.list) {
      for (const c of listChecks(scenarios)) io.stdout(`${c.id.padEnd(32)} ${c.area.padEnd(13)} ${c.title}\n`);
      return EXIT.ok;
    }
    if (url === undefined) throw new UsageError('give the URL of the receiver to check: hookbench check <url> (or --list for the check IDs)');
    const suggested = urlWithScheme(url);
    if (suggested) throw new UsageError(`<url>: "${url}" has no scheme (http:// or https://): did you mean ${suggested}?`);
    const input: RunCheckInput = {
      url,
      ...(options.secret !== undefined ? { secret: options.secret } : {}),
      ...(options.header?.length ? { headers: headersOf(options.header) } : {}),
      ...(options.only !== undefined ? { only: options.only.split(',').map((id) => id.trim()).filter(Boolean) } : {}),
      ...(options.burst !== undefined ? { burst: options.burst } : {}),
      ...(scenarios ? { scenarios } : {}),
      wait: true,
    };
    const valid = parseWith(runCheckInputSchema, input);
    if (!valid.ok) throw new UsageError(withFlag(valid.error.message, valid.error.field));
    // A human report prints each check as it finishes (a late answer takes seconds); JSON waits for the end.
    // The diagnosis comes first: the checks that may set it off (they run first) are held until it is known.
    const printed = new Set<string>();
    const deciding = decidingChecks(valid.value);
    const held: CheckResult[] = [];
    let started = false;
    let diagnosed = false;
    const live = options.json
      ? undefined
      : (c: CheckResult, diagnosis: CheckDiagnosis | null) => {
          if (!started) io.stdout(`Checking ${maskUrl(url)}\n`);
          started = true;
          held.push(c);
          deciding.delete(c.id);
          if (diagnosis && !diagnosed) {
            diagnosed = true;
            printDiagnosis(diagnosis, held, io);
          }
          if (deciding.size > 0) return;
          for (const h of held.splice(0)) {
            printed.add(h.id);
            printCheck(h, io);
          }
        };
    const run = await execute(input, options.dataDir, deps, live);
    if (!run.ok) throw new UsageError(withFlag(run.error.message, run.error.field));
    for (const h of held.splice(0)) {
      if (run.value.diagnosis && !diagnosed) {
        diagnosed = true;
        printDiagnosis(run.value.diagnosis, run.value.checks, io);
      }
      printed.add(h.id);
      printCheck(h, io);
    }
    return report(run.value, options, io, printed, diagnosed);
  });
}

function withFlag(message: string, field: string | undefined): string {
  const root = field?.split(/[.[]/)[0];
  const flag = root ? FLAG_OF[root] : undefined;
  return flag && !message.includes(flag) ? `${message} (${flag})` : message;
}

/**
 * The checks whose verdict may set off the diagnosis: the valid request and signature.raw-bytes, which run
 * first (else the run's first check, whose valid request would). Empty for a plan that cannot be made.
 */
function decidingChecks(input: { secret?: string | null | undefined; only?: string[] | undefined; scenarios?: CheckScenarioFile | undefined }): Set<string> {
  const plan = planChecks({ secret: input.secret ?? null, only: input.only, scenarios: input.scenarios });
  if (!plan.ok || plan.value.length === 0 || !input.secret) return new Set();
  const ids = plan.value.map((c) => c.id).filter((id) => id === PREFLIGHT_ID || id === RAW_BYTES_ID);
  return new Set(ids.length > 0 ? ids : [plan.value[0]!.id]);
}

/** Through the serve on the data dir when one runs, else in-process on a throw-away data dir. */
async function execute(input: RunCheckInput, dataDirFlag: string | undefined, deps: CheckDeps, onCheck?: (check: CheckResult, diagnosis: CheckDiagnosis | null) => void): Promise<Result<CheckRun>> {
  const live = findLiveServe(dataDirFlag);
  if (live) return callApi<CheckRun>(live.info, 'runCheck', input);
  const dataDir = mkdtempSync(join(deps.tmpRoot ?? tmpdir(), 'hookbench-check-'));
  try {
    const core = createCore({ dataDir, autoStart: false, forwarder: 'inline', ...(deps.timing ? { checkTiming: deps.timing } : {}) });
    const off = onCheck ? core.onEvent((e) => e.type === 'checkFinished' && onCheck(e.check, e.diagnosis)) : () => undefined;
    try {
      return await core.checks.runCheck(input);
    } finally {
      off();
      await core.close();
    }
  } catch (e) {
    return err({ code: 'internal', message: `the check could not run: ${e instanceof Error ? e.message : String(e)}` });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const MARK = { pass: '✓', fail: '✗', warn: '!' } as const;

const isProbe = (ex: CheckExchange): boolean => ex.label.startsWith(PROBE_PREFIX);

function printExchange(ex: CheckExchange, io: CliIO): void {
  const answer = ex.statusCode !== null ? `HTTP ${ex.statusCode}` : (ex.error ?? ex.outcome);
  io.stdout(`    ${ex.label}: POST ${ex.request.url} → ${answer} in ${Math.round(ex.durationMs)} ms${ex.attempt ? ` (message #${ex.attempt.messageId})` : ''}\n`);
  // A probe's signature is wrong on purpose, as its label says: verify's reading of it would only repeat that.
  if (ex.signature) io.stdout(`      X-Signature ${ex.signature.sent ?? '(none)'}${isProbe(ex) ? '' : `: ${ex.signature.explanation}`}\n`);
  const body = ex.response?.body.trim();
  if (body) io.stdout(`      response: ${body.length > 200 ? `${body.slice(0, 200)}…` : body}\n`);
}

/** The root cause, above the checks: what the receiver does wrong, the probe it accepted, the fix. */
function printDiagnosis(d: CheckDiagnosis, checks: readonly CheckResult[], io: CliIO): void {
  const probes = checks.flatMap((c) => c.evidence.filter(isProbe));
  const accepted = probes.find((ex) => ex.statusCode !== null && ex.statusCode >= 200 && ex.statusCode < 300);
  io.stdout(`Diagnosis (${d.mistake}): ${d.title}\n`);
  if (accepted) printExchange(accepted, io);
  else if (probes.length > 0) io.stdout(`    no probe was accepted: ${probes.length} sent (--json lists each)\n`);
  io.stdout(`    fix: ${d.fix}\n`);
}

function printCheck(c: CheckResult, io: CliIO): void {
  const change = c.change === 'fixed' ? ' (fixed since last run)' : c.change === 'broken' ? ' (passed last run)' : '';
  io.stdout(`${c.verdict === 'warn' ? '! warn' : MARK[c.verdict]} ${c.id}: ${c.title}${change}\n`);
  if (c.verdict === 'pass') return;
  io.stdout(`    ${c.detail}\n`);
  // A check refused only for its signature has the diagnosis above as its evidence; the probes are in the
  // evidence too, and the diagnosis shows the one that matters.
  if (c.verdict === 'fail' && !c.detail.includes(SEE_DIAGNOSIS)) {
    for (const ex of c.evidence.filter((ex) => !isProbe(ex)).slice(0, 3)) printExchange(ex, io);
  }
  if (c.fix) io.stdout(`    fix: ${c.fix}\n`);
}

/** `printed`: the checks already printed as they finished (a standalone run); `diagnosed`: the diagnosis too. */
function report(run: CheckRun, options: CheckOptions, io: CliIO, printed: ReadonlySet<string>, diagnosed: boolean): number {
  if (run.status === 'unreachable') {
    io.stderr(`hookbench check: ${run.error ?? `cannot reach ${run.url}`} (nothing was checked)\n`);
    if (options.json) io.stdout(`${JSON.stringify(checkReport(run), null, 2)}\n`);
    return EXIT.usage;
  }
  if (options.junit) {
    const file = resolve(options.junit);
    try {
      writeFileSync(file, junitXml(run, hostname() || 'localhost'));
    } catch (e) {
      io.stderr(`hookbench check: --junit: cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})\n`);
      return EXIT.usage;
    }
  }
  if (options.json) {
    io.stdout(`${JSON.stringify(checkReport(run), null, 2)}\n`);
  } else {
    if (printed.size === 0) io.stdout(`Checking ${run.url}\n`);
    if (run.diagnosis && !diagnosed) printDiagnosis(run.diagnosis, run.checks, io);
    for (const c of run.checks) if (!printed.has(c.id)) printCheck(c, io);
    if (run.error) io.stdout(`${run.error}\n`);
    io.stdout(`${summaryLine(run.summary)}\n`);
  }
  return run.summary.failed > 0 ? EXIT.failed : EXIT.ok;
}

