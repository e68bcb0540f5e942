/**
 * `hookbench check <url>` (docs/check.md): the battery and any scenarios against the user's
 * receiver, through a running serve on the data dir when there is one (the run is then kept in its history
 * and compared with the previous one), else an in-process core on a throw-away data dir.
 * Exit 0 nothing failed (warnings allowed), 1 a check failed, 2 usage errors or an unreachable URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  checkReport,
  PROBE_PREFIX,
  SEE_DIAGNOSIS,
  summaryLine,
  type CheckCapacity,
  type CheckDiagnosis,
  type CheckExchange,
  type CheckResult,
  type CheckRun,
} from '../../contract/check/check.js';
import {
  checkScenarioFileSchema,
  runCheckInputSchema,
  urlWithScheme,
  type CheckScenarioFile,
  type RunCheckInput,
} from '../../contract/check/checkInputs.js';
import { err, type Result } from '../../contract/result.js';
import { parseWith, RECEIVER_REF } from '../../contract/schemas.js';
import { PREFLIGHT_ID } from '../../check/battery.js';
import { listChecks, planChecks } from '../../check/checkService.js';
import { RAW_BYTES_ID } from '../../check/diagnosis.js';
import { junitXml } from '../../check/junit.js';
import { responseText } from '../../check/responseText.js';
import { maskUrl } from '../../domain/secrets.js';
import type { CheckTiming } from '../../check/sender.js';
import { createCore } from '../../app/createCore.js';
import { EXIT, refusalText, readNamedFile, runCommand, UsageError, utf8Text, type CliIO } from '../io.js';
import { caretSnippet, jsonProblemWhere } from '../../domain/jsonText.js';
import { parseUserJson } from '../../domain/userJson.js';
import { absolutePath, caFileProblem, FILE_LIMITS } from '../../platform/boundedFile.js';
import { checkOutputTarget, FileWriteError, writeOutputFile } from '../../platform/outputFile.js';
import { callApi, findLiveServe } from '../remote.js';
import type { EngineEvent } from '../../contract/events.js';
import { EventStream, untilAborted } from '../events.js';
import type { ServerInfo } from './serve.js';
import { parseHeaderArg } from './send/sendInput.js';

export interface CheckOptions {
  secret?: string | undefined;
  header?: string[] | undefined;
  json?: boolean | undefined;
  junit?: string | undefined;
  only?: string | undefined;
  burst?: number | undefined;
  scenarios?: string | undefined;
  caFile?: string | undefined;
  /** Seconds of capacity measurement (commander checked 1 to 300). */
  capacity?: number | undefined;
  expectRate?: number | undefined;
  list?: boolean | undefined;
  dataDir?: string | undefined;
}

export interface CheckDeps {
  /** Where the throw-away data dir is made (tests). */
  tmpRoot?: string;
  /** The timeout and "slow" threshold of a standalone run (tests shorten them). */
  timing?: Partial<CheckTiming>;
}

const FLAG_OF: Record<string, string> = { url: '<url>', secret: '--secret', headers: '--header', only: '--only', burst: '--burst', scenarios: '--scenarios', caFile: '--ca-file', capacity: '--capacity' };

/** The scenarios file through the one bounded read, UTF-8 decoder and JSON parser every named file goes through. */
function readScenarios(file: string): CheckScenarioFile {
  const text = utf8Text(readNamedFile(file, FILE_LIMITS.scenarios, '--scenarios'), `--scenarios ${file}`);
  const parsed = parseUserJson(text);
  if (!parsed.ok) {
    const p = parsed.error;
    throw new UsageError(`--scenarios ${file}: ${jsonProblemWhere(p)}: ${p.problem}\n${caretSnippet(text, p)}`);
  }
  const checked = parseWith(checkScenarioFileSchema, parsed.value);
  if (!checked.ok) throw new UsageError(`--scenarios ${file}: ${checked.error.message}`);
  return checked.value;
}

/** --junit checked before the run (a battery, or a capacity run, takes a while): its folder, and what is there. */
function junitTarget(file: string): void {
  try {
    checkOutputTarget(resolve(file));
  } catch (e) {
    if (e instanceof FileWriteError) throw new UsageError(`--junit: ${e.message}; nothing was checked`);
    throw e;
  }
}

/** --ca-file as the absolute path serve or the in-process core reads, once it was read here the same bounded way. */
function caFileOf(file: string): string {
  const problem = caFileProblem(file);
  if (problem) throw new UsageError(`--ca-file: ${problem}`);
  return absolutePath(file).path;
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
    // An empty --secret is mostly a variable that is not set (--secret "$WEBHOOK_SECRET"), not a choice.
    if (options.secret === '') throw new UsageError('--secret is empty (is the variable you gave it set?): give the shared secret, or leave --secret out to send unsigned requests');
    const input: RunCheckInput = {
      url,
      ...(options.secret !== undefined ? { secret: options.secret } : {}),
      ...(options.header?.length ? { headers: headersOf(options.header) } : {}),
      ...(options.only !== undefined ? { only: options.only.split(',').map((id) => id.trim()).filter(Boolean) } : {}),
      ...(options.burst !== undefined ? { burst: options.burst } : {}),
      ...(scenarios ? { scenarios } : {}),
      ...(options.caFile !== undefined ? { caFile: caFileOf(options.caFile) } : {}),
      ...(options.capacity !== undefined ? { capacity: { seconds: options.capacity, ...(options.expectRate !== undefined ? { expectRate: options.expectRate } : {}) } } : {}),
      wait: true,
    };
    if (options.expectRate !== undefined && options.capacity === undefined) throw new UsageError('--expect-rate: give --capacity SECONDS too (the rate is judged on a capacity run)');
    const valid = parseWith(runCheckInputSchema, input);
    if (!valid.ok) throw new UsageError(refusalText(valid.error, withFlag));
    if (options.junit) junitTarget(options.junit);
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
    const capacityLine = options.json ? undefined : capacityProgress(io, () => {
      if (!started) io.stdout(`Checking ${maskUrl(url)}\n`);
      started = true;
    });
    const run = await execute(input, options.dataDir, deps, io.signal, live, capacityLine);
    if (!run.ok) throw new UsageError(refusalText(run.error, withFlag));
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

/**
 * Through the serve on the data dir when one runs, else in-process on a throw-away data dir. Ctrl-C
 * (`signal`) stops the run where it runs: the report then has the checks that finished, and says so.
 */
async function execute(
  input: RunCheckInput,
  dataDirFlag: string | undefined,
  deps: CheckDeps,
  signal: AbortSignal | undefined,
  onCheck?: (check: CheckResult, diagnosis: CheckDiagnosis | null) => void,
  onCapacity?: (capacity: CheckCapacity) => void,
): Promise<Result<CheckRun>> {
  const live = findLiveServe(dataDirFlag);
  if (live) return followOnServe(live, input, signal, onCheck, onCapacity);
  // A mock receiver endpoint lives in a running workbench: without one, the name means nothing here.
  const url = typeof input.url === 'string' ? input.url.trim() : '';
  if (RECEIVER_REF.test(url)) {
    return err({ code: 'invalid_input', field: 'url', message: `url: ${url} names an endpoint of a running workbench's mock receiver, and none runs on this data dir: start hookbench serve (or give --data-dir of the one that has it)` });
  }
  const dataDir = mkdtempSync(join(deps.tmpRoot ?? tmpdir(), 'hookbench-check-'));
  try {
    const core = createCore({ dataDir, autoStart: false, forwarder: 'inline', ...(deps.timing ? { checkTiming: deps.timing } : {}) });
    let runId: number | null = null;
    const stop = () => runId !== null && core.checks.stopCheckRun({ id: runId });
    const off = core.onEvent((e) => {
      if (e.type === 'checkRunStarted') {
        runId = e.run.id;
        if (signal?.aborted) stop();
      } else if (e.type === 'checkFinished') onCheck?.(e.check, e.diagnosis);
      else if (e.type === 'checkCapacityMeasured') onCapacity?.(e.capacity);
    });
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await core.checks.runCheck(input);
    } finally {
      signal?.removeEventListener('abort', stop);
      off();
      await core.close();
    }
  } catch (e) {
    return err({ code: 'internal', message: `the check could not run: ${e instanceof Error ? e.message : String(e)}` });
  } finally {
    // A core's background thread may still be writing its WAL files for a moment after close: removal tries again.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

/**
 * A run on a serve: started there and followed on its event socket, each check handed on as it finishes
 * (as an in-process run's events are), read again from the serve when events may have been missed (a
 * reconnect, a frame that dropped some). Ctrl-C stops it there: a run nobody waits for would go on loading
 * the receiver. Resolves once the serve says the run ended.
 */
async function followOnServe(
  live: { info: ServerInfo; dataDir: string },
  input: RunCheckInput,
  signal: AbortSignal | undefined,
  onCheck?: (check: CheckResult, diagnosis: CheckDiagnosis | null) => void,
  onCapacity?: (capacity: CheckCapacity) => void,
): Promise<Result<CheckRun>> {
  let runId: number | null = null;
  let handed = 0;
  let info = live.info;
  const early: EngineEvent[] = [];
  let ended: (run: Result<CheckRun>) => void = () => undefined;
  const end = new Promise<Result<CheckRun>>((resolve) => (ended = resolve));
  const hand = (checks: readonly CheckResult[], diagnosis: CheckDiagnosis | null) => {
    for (const c of checks.slice(handed)) onCheck?.(c, diagnosis);
    handed = Math.max(handed, checks.length);
  };
  const read = async () => {
    if (runId === null) return;
    const run = await callApi<CheckRun>(info, 'getCheckRun', { id: runId });
    if (!run.ok || run.value.status !== 'running') return ended(run);
    hand(run.value.checks, run.value.diagnosis);
  };
  const handle = (e: EngineEvent) => {
    if (e.type === 'checkFinished' && e.runId === runId) {
      // Its place in the run: a check a read already handed on is not handed on again.
      const at = e.summary.passed + e.summary.failed + e.summary.warnings - 1;
      if (at < handed) return;
      // One before it was missed: a read hands on every check so far, this one included.
      if (at > handed) return void read();
      handed = at + 1;
      onCheck?.(e.check, e.diagnosis);
    }
    else if (e.type === 'checkCapacityMeasured' && e.runId === runId) onCapacity?.(e.capacity);
    else if (e.type === 'checkRunFinished' && e.run.id === runId) void read();
  };
  const stream = new EventStream({
    dataDir: live.dataDir,
    info,
    onFrame: (frame) => {
      for (const e of frame.events) {
        if (runId === null) early.push(e);
        else handle(e);
      }
      if (frame.dropped) void read();
    },
    onStatus: (status) => {
      if (status.kind !== 'connected') return;
      info = status.info;
      if (status.again) void read();
    },
  });
  const stop = () => runId !== null && void callApi(info, 'stopCheckRun', { id: runId });
  try {
    if (!(await Promise.race([stream.connected, untilAborted(signal).then(() => false)]))) return err({ code: 'conflict', message: `interrupted before hookbench serve at ${info.url} answered` });
    const started = await callApi<CheckRun>(info, 'runCheck', { ...input, wait: false });
    if (!started.ok) return started;
    runId = started.value.id;
    early.splice(0).forEach(handle);
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
    return await end;
  } finally {
    signal?.removeEventListener('abort', stop);
    stream.stop();
  }
}

const MARK = { pass: '✓', fail: '✗', warn: '!' } as const;

const isProbe = (ex: CheckExchange): boolean => ex.label.startsWith(PROBE_PREFIX);

function printExchange(ex: CheckExchange, io: CliIO): void {
  const answer = ex.statusCode !== null ? `HTTP ${ex.statusCode}` : (ex.error ?? ex.outcome);
  io.stdout(`    ${ex.label}: POST ${ex.request.url} → ${answer} in ${Math.round(ex.durationMs)} ms${ex.attempt ? ` (message #${ex.attempt.messageId})` : ''}\n`);
  // A probe's signature is wrong on purpose, as its label says: verify's reading of it would only repeat that.
  if (ex.signature) io.stdout(`      X-Signature ${ex.signature.sent ?? '(none)'}${isProbe(ex) ? '' : `: ${ex.signature.explanation}`}\n`);
  const body = responseText(ex, 200);
  if (body) io.stdout(`      response: ${body}\n`);
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

/**
 * A capacity run's seconds as they are measured (a run in-process): one line a second, or one every few
 * seconds for a long run (at most about 30 lines).
 */
function capacityProgress(io: CliIO, starting: () => void): (capacity: CheckCapacity) => void {
  let shown = 0;
  return (c) => {
    const every = Math.ceil(c.seconds / 30);
    for (const s of c.series.slice(shown)) {
      shown = s.second;
      if (s.second % every !== 0 && s.second !== c.seconds) continue;
      starting();
      const latency = s.p50 === null ? 'no answer' : `p50 ${Math.round(s.p50)} ms, p95 ${Math.round(s.p95 ?? s.p50)} ms`;
      io.stdout(`  capacity: second ${s.second} of ${c.seconds}: ${s.deliveries} deliveries, ${latency}, ${s.errors} ${s.errors === 1 ? 'error' : 'errors'}\n`);
    }
  };
}

function printCheck(c: CheckResult, io: CliIO): void {
  const change = c.change === 'fixed' ? ' (fixed since last run)' : c.change === 'broken' ? ' (passed last run)' : '';
  io.stdout(`${c.verdict === 'warn' ? '! warn' : MARK[c.verdict]} ${c.id}: ${c.title}${change}\n`);
  // The capacity figures are the point of asking for them, passed or not.
  if (c.verdict === 'pass' && c.area === 'capacity') io.stdout(`    ${c.detail}\n`);
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
    // No report, not even with --json: an empty one would read as a clean run to a script that reads its summary.
    io.stderr(`hookbench check: ${run.error ?? `cannot reach ${run.url}`} (nothing was checked)\n`);
    return EXIT.usage;
  }
  if (options.junit) {
    const file = resolve(options.junit);
    try {
      writeOutputFile(file, junitXml(run, hostname() || 'localhost'), 0o644);
    } catch (e) {
      if (!(e instanceof FileWriteError)) throw e;
      io.stderr(`hookbench check: --junit: ${e.message}\n`);
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
  return run.summary.failed > 0 || !ranEveryCheck(run, io, options.json === true) ? EXIT.failed : EXIT.ok;
}

/**
 * A run that could not run its checks is not a success, whatever its summary counts: one that ended on an
 * error, or ran none at all, exits 1 and says why.
 */
function ranEveryCheck(run: CheckRun, io: CliIO, json: boolean): boolean {
  const ran = run.summary.passed + run.summary.failed + run.summary.warnings;
  if (run.error) {
    // The human report printed it above its closing line already.
    if (json) io.stderr(`hookbench check: the run did not finish: ${run.error}\n`);
    return false;
  }
  if (ran === 0) {
    const why = run.options.only ? ': --only names only checks that do not apply to this run (the signature forgeries and signature.raw-bytes need --secret; signature.unverified runs without one)' : '';
    io.stderr(`hookbench check: no check ran${why}, so nothing was proven\n`);
    return false;
  }
  return true;
}

