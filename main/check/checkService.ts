/**
 * runCheck / getCheckRun / listCheckRuns: runs the battery and user scenarios against a URL, one check at a
 * time, announcing each verdict as it comes (checkRunStarted, checkFinished, checkRunFinished) and keeping
 * the run in the history database, compared check by check with the previous run of the same URL.
 */
import type { Dispatcher } from 'undici';
import {
  summarise,
  type CheckChange,
  type CheckListing,
  type CheckResult,
  type CheckRun,
  type CheckRunSummary,
  type CheckVerdict,
} from '../contract/check/check.js';
import { runCheckInputSchema, CAPACITY_CHECK_ID, CHECK_LIMITS, type ListCheckRunsInput, type RunCheckInput } from '../contract/check/checkInputs.js';
import type { EngineEvent } from '../contract/events.js';
import type { Page } from '../contract/messages.js';
import { err, ok, type Result } from '../contract/result.js';
import { maskHeaders, maskUrl } from '../domain/secrets.js';
import type { CheckRunStore } from './checkRunStore.js';
import { absolutePath, caFileProblem } from '../platform/boundedFile.js';
import { notFound, pageArgs, toPage } from '../platform/paging.js';
import { BATTERY, PREFLIGHT_ID } from './battery.js';
import { rawBytesBody } from './signatureChecks.js';
import { CAPACITY_TITLE, capacityCheck, judgeCapacity, measureCapacity } from './capacity.js';
import { Diagnoser } from './diagnosis.js';
import { EngineRoute, type EnginePort } from './engineRoute.js';
import { otherSecret, runOne, scenarioCheck, ScenarioError, type Check, type CheckContext } from './runner.js';
import { createCheckSender, DEFAULT_CHECK_TIMING, type CheckSender, type CheckTiming } from './sender.js';

/** Network errors that mean no connection could be made at all (a reset or a closed socket had one). */
const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ENOTCONN|ECONNABORTED|connect ETIMEDOUT/;

export interface CheckServiceOptions {
  runs: CheckRunStore;
  emit: (event: EngineEvent) => void;
  /** The destination's timeout and the "slow" threshold; tests shorten them. */
  timing?: Partial<CheckTiming> | undefined;
  /** Replaces the connection pools (tests, proxies), as the core's own option does. */
  dispatcher?: Dispatcher | undefined;
  /** Real time (ms since the epoch): a check measures the network now, whatever the engine clock says. */
  now?: () => number;
  /** The core, to send what the destination can send through the engine (attempt records to link). */
  engine?: EnginePort | undefined;
  /** The workbench's mock receiver endpoint a URL names, if any (receiverService.endpointForUrl). */
  mockEndpoint?: ((url: string) => { name: string; refuseInvalidSignatures: boolean; hasSecret: boolean } | null) | undefined;
  /** The check is about to send these bytes to this URL directly: the workbench's own endpoint captures them as the check's. */
  expectDirect?: ((url: string, body: Uint8Array) => (() => void) | null) | undefined;
  /** The capacity run is about to send these bytes to this URL: the workbench's own endpoint answers them without keeping captures. */
  expectLoad?: ((url: string, body: Uint8Array) => (() => void) | null) | undefined;
  /** A URL as the engine contacts it now: `receiver:<name>` is the mock receiver endpoint's address (receiverService.resolveWebhookUrl). */
  resolveUrl?: ((url: string) => Result<string>) | undefined;
}

/**
 * The checks of a run, in order, after `only` and the scenarios. Capacity, when asked for, runs last (its load
 * never slows another check's answers) whatever `only` says: asking for it is explicit.
 */
export function planChecks(input: {
  secret: string | null;
  only?: readonly string[] | undefined;
  scenarios?: { scenarios: Parameters<typeof scenarioCheck>[0][] } | undefined;
  capacity?: { expectRate?: number | null | undefined } | null | undefined;
}): Result<Check[]> {
  const capacity = input.capacity ? [capacityCheck(input.capacity.expectRate ?? null)] : [];
  const rest = planBattery({ ...input, only: input.only?.filter((id) => id !== CAPACITY_CHECK_ID) });
  if (!rest.ok) return rest;
  const capacityAt = input.only?.indexOf(CAPACITY_CHECK_ID) ?? -1;
  if (capacityAt >= 0 && !input.capacity) {
    return err({ code: 'invalid_input', field: `only[${capacityAt}]`, message: `only[${capacityAt}]: ${CAPACITY_CHECK_ID} runs only when capacity is asked for (hookbench check --capacity SECONDS)` });
  }
  // `only` naming nothing but capacity runs capacity alone.
  const onlyCapacity = input.only !== undefined && input.only.every((id) => id === CAPACITY_CHECK_ID);
  return ok([...(onlyCapacity ? [] : rest.value), ...capacity]);
}

function planBattery(input: { secret: string | null; only?: readonly string[] | undefined; scenarios?: { scenarios: Parameters<typeof scenarioCheck>[0][] } | undefined }): Result<Check[]> {
  const ctx = { secret: input.secret } as CheckContext;
  const user = (input.scenarios?.scenarios ?? []).map(scenarioCheck);
  const builtinIds = new Set(BATTERY.map((c) => c.id));
  for (const [i, c] of user.entries()) {
    if (builtinIds.has(c.id)) return err({ code: 'invalid_input', field: `scenarios.scenarios[${i}].id`, message: `scenarios.scenarios[${i}].id: "${c.id}" is a built-in check's ID; choose another` });
  }
  const all = [...BATTERY.filter((c) => !c.applies || c.applies(ctx)), ...user];
  // The time checks read every exchange of the run: they stay last.
  all.sort((a, b) => Number(a.area === 'time') - Number(b.area === 'time'));
  if (!input.only || input.only.length === 0) return ok(all);
  const known = new Set([...BATTERY.map((c) => c.id), ...user.map((c) => c.id)]);
  for (const [i, id] of input.only.entries()) {
    if (!known.has(id)) return err({ code: 'invalid_input', field: `only[${i}]`, message: `only[${i}]: no check has the ID "${id}" (hookbench check --list prints them)` });
  }
  const wanted = new Set(input.only);
  return ok(all.filter((c) => wanted.has(c.id)));
}

/** Every check ID the battery has, with the scenarios' (hookbench check --list). */
export function listChecks(scenarios?: { scenarios: Parameters<typeof scenarioCheck>[0][] }): CheckListing[] {
  return [...BATTERY, ...(scenarios?.scenarios ?? []).map(scenarioCheck), { ...capacityCheck(null), title: `${CAPACITY_TITLE} (only with --capacity)` }].map((c) => ({ id: c.id, title: c.title, area: c.area }));
}

function changeOf(previous: CheckVerdict | undefined, now: CheckVerdict): CheckChange | null {
  if (previous === undefined) return null;
  if (previous === now) return 'same';
  if (now === 'pass') return 'fixed';
  if (previous === 'pass') return 'broken';
  return 'changed';
}

export class CheckService {
  private sender: CheckSender | null = null;
  private readonly timing: CheckTiming;
  private readonly running = new Set<Promise<void>>();
  private readonly now: () => number;
  private closed = false;
  /** One run at a time uses the engine's check destinations; a run beside it sends directly. */
  private engineInUse = false;
  /** The runs in progress, each with what stops it (stopCheckRun). */
  private readonly stops = new Map<number, AbortController>();
  /** The run measuring capacity now: two at once would share the receiver, and each would measure about half. */
  private measuring: number | null = null;

  constructor(private readonly options: CheckServiceOptions) {
    this.timing = { ...DEFAULT_CHECK_TIMING, ...options.timing };
    this.now = options.now ?? Date.now;
    // A run cut short by a stop never finishes by itself.
    options.runs.abandonRunning(this.now());
  }

  async runCheck(raw: RunCheckInput): Promise<Result<CheckRun>> {
    if (this.closed) return err({ code: 'conflict', message: 'runCheck: Hookbench is stopping' });
    const parsedInput = runCheckInputSchema.parse(raw);
    // The CA file is read as the connection pools read it (bounded, a regular file, PEM), and kept by its absolute path.
    if (parsedInput.caFile) {
      const problem = caFileProblem(parsedInput.caFile);
      if (problem) return err({ code: 'invalid_input', field: 'caFile', message: `caFile: ${problem}` });
    }
    // Every request of the run goes to one address: a `receiver:<name>` URL is its endpoint's, as the engine resolves it.
    const resolved = this.options.resolveUrl?.(parsedInput.url) ?? ok(parsedInput.url);
    if (!resolved.ok) return err({ code: resolved.error.code, field: 'url', message: `url: ${parsedInput.url}: ${resolved.error.message}` });
    const located = { ...parsedInput, url: resolved.value };
    const input = located.caFile ? { ...located, caFile: absolutePath(located.caFile).path } : located;
    const secret = input.secret ?? null;
    const planned = planChecks({ secret, only: input.only, scenarios: input.scenarios, capacity: input.capacity });
    if (!planned.ok) return planned;
    const checks = planned.value;
    const options: CheckRunSummary['options'] = {
      secretGiven: secret !== null,
      headers: maskHeaders(input.headers ?? {}),
      only: input.only ?? null,
      burst: input.burst ?? CHECK_LIMITS.defaultBurst,
      scenarios: input.scenarios?.scenarios.length ?? 0,
      caFile: input.caFile ?? null,
      capacity: input.capacity ? { seconds: input.capacity.seconds, expectRate: input.capacity.expectRate ?? null } : null,
    };
    const runs = this.options.runs;
    if (input.capacity && this.measuring !== null) {
      return err({ code: 'conflict', field: 'capacity', message: `capacity: check run #${this.measuring} measures capacity and is still running; two at once would share the receiver and each would measure about half of what it sustains. Wait for it or stop it, then run again` });
    }
    // A URL's password is a secret: the run keeps (and compares by) the URL with it masked.
    const id = runs.insert({ url: maskUrl(input.url), startedAt: this.now(), total: checks.length, options });
    const started = runs.get(id)!;
    this.options.emit({ type: 'checkRunStarted', run: summaryOf(started) });
    const previous = started.previousRunId !== null ? runs.get(started.previousRunId) : null;
    const ctx: RunContext = {
      url: input.url,
      secret,
      headers: input.headers ?? {},
      caFile: input.caFile ?? null,
      burst: options.burst,
      timing: this.timing,
      exchanges: [],
      concurrentExchanges: new Set(),
      engine: null,
      mockEndpoint: this.options.mockEndpoint?.(input.url) ?? null,
      expectDirect: this.options.expectDirect ?? null,
      expectLoad: this.options.expectLoad ?? null,
      capacity: options.capacity,
    };
    if (this.options.engine && !this.engineInUse) {
      this.engineInUse = true;
      ctx.engine = new EngineRoute(this.options.engine, {
        url: input.url,
        headers: input.headers ?? {},
        secret,
        otherSecret: secret === null ? null : otherSecret(secret),
        caFile: input.caFile ?? null,
        timeoutMs: this.timing.timeoutMs,
      });
    }
    const stop = new AbortController();
    this.stops.set(id, stop);
    if (input.capacity) this.measuring = id;
    const done = this.play(id, checks, ctx, previous, stop.signal).finally(() => {
      if (ctx.engine) {
        ctx.engine.end();
        this.engineInUse = false;
      }
    });
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
    if (!input.wait) return ok(started);
    await done;
    return ok(runs.get(id)!);
  }

  /**
   * Stops a run in progress: nothing more is sent (a request already out is answered or times out), the check
   * in progress gets no verdict, and the run finishes with what it has, its `error` saying it was stopped.
   * Answers the run as it is now; checkRunFinished follows.
   */
  stopCheckRun(input: { id: number }): Result<CheckRunSummary> {
    const run = this.options.runs.get(input.id);
    if (!run) return notFound('check run', input.id);
    const stop = this.stops.get(input.id);
    if (!stop) return err({ code: 'conflict', field: 'id', message: `id: check run #${input.id} is not running (it ${run.status === 'unreachable' ? 'found the URL unreachable' : 'finished'} at ${run.finishedAt ?? 'an earlier stop'})` });
    stop.abort();
    return ok(summaryOf(run));
  }

  private async play(id: number, checks: Check[], ctx: RunContext, previous: CheckRun | null, stopSignal: AbortSignal): Promise<void> {
    const runs = this.options.runs;
    const results: CheckResult[] = [];
    const before = new Map(previous?.checks.map((c) => [c.id, c.verdict]) ?? []);
    this.sender ??= createCheckSender({ timeoutMs: this.timing.timeoutMs, dispatcher: this.options.dispatcher });
    const stopped = () => this.closed || stopSignal.aborted;
    const sender = stoppable(this.sender, stopped);
    // The check in progress when the run was stopped: it has no verdict, and the run's error names it.
    let cutShort: string | null = null;
    const diagnoser = new Diagnoser(ctx, sender, () => Buffer.from(rawBytesBody(), 'utf8'));
    // Nothing else is worth sending when the first valid request cannot reach the URL at all.
    const ordered = [...checks.filter((c) => c.id === PREFLIGHT_ID), ...checks.filter((c) => c.id !== PREFLIGHT_ID)];
    let unreachable: string | null = null;
    let tlsRefused = false;
    try {
      for (const check of ordered) {
        if (stopped()) break;
        // A refused certificate fails every request the same way: only the transport check says it, with the fix.
        if (tlsRefused && check.area !== 'transport') continue;
        if (check.id === CAPACITY_CHECK_ID && ctx.capacity) {
          const measured = await this.measure(id, check, sender, ctx, ctx.capacity, stopped);
          if (stopSignal.aborted) {
            cutShort = check.id;
            break;
          }
          // Capacity alone, to a URL that cannot be reached at all: as unreachable as a first valid request would say.
          if (measured.unreachable !== null && results.length === 0) {
            unreachable = measured.unreachable;
            break;
          }
          const result = { ...measured.result, change: changeOf(before.get(check.id), measured.result.verdict) };
          results.push(result);
          runs.setChecks(id, results);
          this.options.emit({ type: 'checkFinished', runId: id, check: result, summary: summarise(results), diagnosis: diagnoser.diagnosis });
          continue;
        }
        let result: CheckResult;
        try {
          const { exchanges, judgement: own } = await runOne(check, sender, ctx);
          ctx.exchanges.push(...exchanges);
          if (check.concurrent) for (const ex of exchanges) ctx.concurrentExchanges.add(ex);
          if (check.id === PREFLIGHT_ID || (results.length === 0 && exchanges.length > 0)) {
            const first = exchanges[0];
            if (first?.outcome === 'network_error' && UNREACHABLE.test(first.error ?? '')) {
              unreachable = `cannot reach ${maskUrl(ctx.url)}: ${first.error ?? 'network error'}`;
              break;
            }
            // A port that answers plain http to TLS fails every request the same way too.
            if (first?.outcome === 'tls_error' || /ERR_SSL_WRONG_VERSION_NUMBER/.test(first?.error ?? '')) {
              tlsRefused = true;
              if (check.area !== 'transport' && ordered.some((c) => c.area === 'transport')) continue;
            }
          }
          // Probes go after the check's own requests, in its evidence; they are not the run's requests (time.latency).
          const diagnosed = diagnoser.diagnosis;
          const probes = await diagnoser.consider(check.id, exchanges);
          if (diagnoser.diagnosis !== diagnosed) runs.setDiagnosis(id, diagnoser.diagnosis);
          const judgement = diagnoser.explain(check.id, exchanges, own);
          result = {
            id: check.id,
            title: check.title,
            area: check.area,
            verdict: judgement.verdict,
            detail: judgement.detail,
            evidence: [...trimEvidence(check, exchanges, judgement.verdict), ...probes],
            fix: judgement.verdict === 'pass' ? null : (judgement.fix ?? null),
            change: null,
          };
        } catch (e) {
          // A check that could not run is a failure of the run, never a silent gap in it.
          const detail = e instanceof ScenarioError ? e.message : `the check could not run: ${e instanceof Error ? e.message : String(e)}`;
          if (!(e instanceof ScenarioError)) console.error(`hookbench: check ${check.id} could not run`, e);
          result = { id: check.id, title: check.title, area: check.area, verdict: 'fail', detail, evidence: [], fix: null, change: null };
        }
        // Its requests after the stop were never sent: a verdict on them would be untrue.
        if (stopSignal.aborted) {
          cutShort = check.id;
          break;
        }
        result.change = changeOf(before.get(result.id), result.verdict);
        results.push(result);
        runs.setChecks(id, results);
        this.options.emit({ type: 'checkFinished', runId: id, check: result, summary: summarise(results), diagnosis: diagnoser.diagnosis });
      }
      const why = unreachable ?? (this.closed ? 'interrupted: Hookbench stopped during the run' : stopSignal.aborted ? stoppedText(results.length, checks.length, cutShort) : null);
      runs.finish(id, unreachable ? 'unreachable' : 'finished', why, this.now(), results.length);
    } catch (e) {
      runs.finish(id, 'finished', `internal error: ${e instanceof Error ? e.message : String(e)}`, this.now(), results.length);
      console.error('hookbench: a check run failed', e);
    }
    // Released before it is announced: whoever hears it may stop nothing more and measure again.
    this.stops.delete(id);
    if (this.measuring === id) this.measuring = null;
    this.options.emit({ type: 'checkRunFinished', run: summaryOf(runs.get(id)!) });
  }

  /**
   * The capacity measurement: its figures are stored with the run and announced once a second
   * (checkCapacityMeasured), then judged. A failure to run it is the check's failure, as for any check.
   */
  private async measure(id: number, check: Check, sender: CheckSender, ctx: RunContext, asked: { seconds: number; expectRate: number | null }, stopped: () => boolean): Promise<{ result: CheckResult; unreachable: string | null }> {
    const runs = this.options.runs;
    try {
      const measured = await measureCapacity({
        sender,
        ctx,
        seconds: asked.seconds,
        expectRate: asked.expectRate,
        stopped,
        onSecond: (capacity) => {
          runs.setCapacity(id, capacity);
          this.options.emit({ type: 'checkCapacityMeasured', runId: id, capacity });
        },
      });
      const unreachable = measured.unreachableError !== null && UNREACHABLE.test(measured.unreachableError) ? `cannot reach ${maskUrl(ctx.url)}: ${measured.unreachableError}` : null;
      const judgement = judgeCapacity(measured.capacity);
      const result: CheckResult = { id: check.id, title: check.title, area: check.area, verdict: judgement.verdict, detail: judgement.detail, evidence: measured.evidence, fix: judgement.verdict === 'pass' ? null : (judgement.fix ?? null), change: null };
      return { result, unreachable };
    } catch (e) {
      console.error(`hookbench: check ${check.id} could not run`, e);
      return { result: { id: check.id, title: check.title, area: check.area, verdict: 'fail', detail: `the check could not run: ${e instanceof Error ? e.message : String(e)}`, evidence: [], fix: null, change: null }, unreachable: null };
    }
  }

  getCheckRun(input: { id: number }): Result<CheckRun> {
    const run = this.options.runs.get(input.id);
    return run ? ok(run) : notFound('check run', input.id);
  }

  listCheckRuns(input: ListCheckRunsInput): Result<Page<CheckRunSummary>> {
    const args = pageArgs(input);
    if (!args.ok) return args;
    return ok(toPage(this.options.runs.list({ url: input.url, beforeId: args.value.beforeId, limit: args.value.limit }), args.value.limit));
  }

  /** Stops after the check in progress; runs end marked interrupted. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running]);
    await this.sender?.close();
    this.sender = null;
  }
}

/** What a stopped run's `error` says: how far it got, and the check it cut short. */
function stoppedText(ran: number, planned: number, cutShort: string | null): string {
  return `stopped before the end: ${ran} of ${planned} checks ran${cutShort ? `; ${cutShort} was cut short and has no verdict` : ''}`;
}

/** The run's sender: once the run is stopped, a request not yet sent is not sent (its check gets no verdict). */
function stoppable(sender: CheckSender, stopped: () => boolean): CheckSender {
  return {
    send: (request) =>
      stopped()
        ? Promise.resolve({ outcome: 'network_error', retryable: false, permanentReason: null, statusCode: null, error: 'not sent: the check run was stopped', retryAfterMs: null, durationMs: 0, requestHeaders: '{}', signature: null, responseHeaders: null, responseBody: null, responseTruncated: false })
        : sender.send(request),
    close: () => sender.close(),
  };
}

/** A burst keeps the evidence that matters: its failures (a few) or its first exchange. */
function trimEvidence(check: Check, exchanges: CheckResult['evidence'], verdict: CheckVerdict): CheckResult['evidence'] {
  if (!check.concurrent) return exchanges;
  const notOk = exchanges.filter((ex) => ex.outcome !== 'success');
  return (verdict === 'pass' || notOk.length === 0 ? exchanges.slice(0, 1) : notOk).slice(0, 5);
}

function summaryOf(run: CheckRun): CheckRunSummary {
  const { checks: _checks, fixedSinceLastRun: _fixed, diagnosis: _diagnosis, capacity: _capacity, ...summary } = run;
  return summary;
}

/** A run's context, with what the run adds to as it goes. */
type RunContext = CheckContext & {
  exchanges: CheckContext['exchanges'][number][];
  concurrentExchanges: Set<CheckContext['exchanges'][number]>;
  /** Capacity asked for (the run's options), else null. */
  capacity: { seconds: number; expectRate: number | null } | null;
};
