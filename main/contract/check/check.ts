/**
 * Checking the user's own webhook receiver (docs/check.md): the battery's shapes, the user-defined scenarios
 * file, and what runCheck / getCheckRun / listCheckRuns answer. Pure: the renderer and the CLI import it.
 * The built-in battery and user scenarios share one runner (main/check/), so a scenario here is what both
 * are written as.
 */
import { z } from 'zod';
import { callNestingError } from '../message/jsonDepth.js';
import { MESSAGE_TYPES } from '../message/messageShapes.js';
import type { AttemptOutcome } from '../models.js';
import type { SignatureMistake } from '../receiver/signatureDiagnosis.js';
import { headerValueProblem, webhookInputSchema } from '../schemas.js';

/** The areas of the battery, in the order a report lists them; `custom` holds user scenarios that name none. */
export const CHECK_AREAS = ['shapes', 'signature', 'time', 'redelivery', 'burst', 'status', 'transport', 'content-type', 'capacity', 'custom'] as const;
export type CheckArea = (typeof CHECK_AREAS)[number];

export const CHECK_VERDICTS = ['pass', 'warn', 'fail'] as const;
export type CheckVerdict = (typeof CHECK_VERDICTS)[number];

/** How a scenario's request is signed: as the destination does, not at all, or one of the forgeries. */
export const SIGN_MODES = ['valid', 'none', 'wrong-secret', 'tampered', 'pretty-printed', 'uppercase-hex'] as const;
export type SignMode = (typeof SIGN_MODES)[number];

export const CHECK_LIMITS = {
  /** `--burst N` and `burst` of runCheck. */
  maxBurst: 500,
  defaultBurst: 50,
  scenarios: 200,
  /** A scenario's request is sent at most this many times (one after another). */
  maxRepeat: 10,
  /** Evidence keeps at most this much of each request and response body (the rest is marked truncated). */
  evidenceBodyChars: 8_192,
  /** `only` lists at most this many IDs. */
  onlyIds: 200,
  /** `--capacity SECONDS` and runCheck's `capacity.seconds`. */
  maxCapacitySeconds: 300,
  /** `--expect-rate N` and `capacity.expectRate`: deliveries per second. */
  maxExpectRate: 1_000_000,
} as const;

/** The capacity area's one check (only when capacity is asked for). */
export const CAPACITY_CHECK_ID = 'capacity.sustained-rate';

/** Deliveries a capacity run keeps in flight: the destination's connections per origin (docs/behaviour.md §2). */
export const CAPACITY_CONCURRENCY = 16;

export const capacityInputSchema = z.strictObject({
  seconds: z
    .number({ error: `must be a number of seconds (1 to ${CHECK_LIMITS.maxCapacitySeconds})` })
    .int(`must be a whole number of seconds (1 to ${CHECK_LIMITS.maxCapacitySeconds})`)
    .min(1, `must be at least 1 second (at most ${CHECK_LIMITS.maxCapacitySeconds})`)
    .max(CHECK_LIMITS.maxCapacitySeconds, `must be at most ${CHECK_LIMITS.maxCapacitySeconds} seconds`),
  /** With it, a verdict: fail below this many deliveries per second (or with errors, or p99 past the timeout), warn under twice it. */
  expectRate: z
    .number({ error: 'must be a number (deliveries per second)' })
    .positive('must be more than 0 deliveries per second')
    .max(CHECK_LIMITS.maxExpectRate, `must be at most ${CHECK_LIMITS.maxExpectRate} deliveries per second`)
    .nullable()
    .optional(),
});
export type CapacityInput = z.input<typeof capacityInputSchema>;

/** A check ID: lower-case words joined by `.` or `-` (`signature.wrong-secret`, `my.order-created`). */
export const CHECK_ID = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$/;

const checkId = z
  .string({ error: 'must be a string (a check ID such as shapes.track)' })
  .min(1)
  .max(100)
  .regex(CHECK_ID, { error: 'must be lower-case words joined by "." or "-" (e.g. my.order-created)' });

const statusExpectation = z.union([
  z.number({ error: 'must be a status code (200) or a class ("2xx")' }).int().min(100).max(599),
  z.enum(['1xx', '2xx', '3xx', '4xx', '5xx'], { error: 'must be a status code (200) or a class: 2xx, 3xx, 4xx or 5xx' }),
]);

/** One user-defined case (docs/check.md, "Scenarios"); the JSON Schema in schema/ is generated from this. */
export const checkScenarioSchema = z.strictObject({
  id: checkId,
  title: z.string({ error: 'must be a string (one line saying what the check proves)' }).min(1).max(200),
  area: z.enum(CHECK_AREAS, { error: `must be one of ${CHECK_AREAS.join(', ')}` }).default('custom'),
  /** A message as the Webhooks destination builds it: a type plus the call's fields (userId, event, properties, ...). */
  message: z
    .strictObject({
      type: z.enum(MESSAGE_TYPES, { error: `must be one of ${MESSAGE_TYPES.join(', ')}` }),
      call: z.record(z.string(), z.unknown()).default({}),
    })
    .optional(),
  /** Or the exact body to send, as a JSON value (serialised once) or a string (sent as its UTF-8 bytes). */
  body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  /** Extra request headers (the destination's rules: HTTP tokens, no Content-Type, X-Signature, ...). */
  headers: webhookInputSchema.shape.headers.optional(),
  /** Replace the Content-Type header (content negotiation checks); the destination itself always sends application/json. */
  contentType: z
    .string({ error: 'must be a string (a Content-Type header value)' })
    .min(1)
    .max(200)
    .superRefine((value, ctx) => {
      const problem = headerValueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  sign: z.enum(SIGN_MODES, { error: `must be one of ${SIGN_MODES.join(', ')}` }).default('valid'),
  /** Send the very same bytes this many times, one after another (redelivery). */
  repeat: z.number().int().min(1).max(CHECK_LIMITS.maxRepeat).default(1),
  expect: z
    .strictObject({
      status: statusExpectation.optional(),
      maxLatencyMs: z.number().int().min(1).max(60_000).optional(),
      header: z.strictObject({ name: z.string().min(1).max(256), contains: z.string().max(1000).optional() }).optional(),
      bodyContains: z.string().min(1).max(1000).optional(),
    })
    .default({ status: '2xx' }),
});
export type CheckScenario = z.output<typeof checkScenarioSchema>;
export type CheckScenarioInput = z.input<typeof checkScenarioSchema>;

export const checkScenarioFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    scenarios: z.array(checkScenarioSchema).min(1).max(CHECK_LIMITS.scenarios),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.scenarios.forEach((s, i) => {
      // A scenario's call or body nests as deep as a call may (64 levels), as the typed API's calls: the runner serialises it.
      const tooDeep = s.message ? callNestingError(s.message.call, '') : typeof s.body === 'object' ? callNestingError(s.body, '') : null;
      if (tooDeep) ctx.addIssue({ code: 'custom', path: ['scenarios', i, s.message ? 'message' : 'body', ...(s.message ? ['call'] : []), tooDeep.field!], message: tooDeep.message.replace(/^[^:]*: /, ''), params: { limit: tooDeep.limit } });
      if (s.message && s.body !== undefined) ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'body'], message: 'give either message or body, not both' });
      if (!s.message && s.body === undefined) ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'message'], message: 'give a message ({type, call}) or a body' });
      const first = seen.get(s.id);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'id'], message: `"${s.id}" is already the ID of scenarios[${first}]` });
      else seen.set(s.id, i);
    });
  });
export type CheckScenarioFile = z.output<typeof checkScenarioFileSchema>;

/** The signing modes that forge a signature from the shared secret: without one, they would send unsigned requests and prove nothing. */
export const SIGN_MODES_NEEDING_SECRET: readonly SignMode[] = ['wrong-secret', 'tampered', 'pretty-printed', 'uppercase-hex'];

export const runCheckInputSchema = z.strictObject({
  url: webhookInputSchema.shape.url,
  /** The destination's shared secret; without one, the signature area is one warning. */
  secret: z.string().min(1, 'must not be empty (omit it or use null: requests are then unsigned)').max(1024).nullable().optional(),
  headers: webhookInputSchema.shape.headers.optional(),
  /** Run only these check IDs (as `hookbench check --list` prints them, or a scenario's). */
  only: z.array(checkId).min(1).max(CHECK_LIMITS.onlyIds).optional(),
  burst: z
    .number({ error: 'must be a number (concurrent deliveries)' })
    .int('must be a whole number')
    .min(1)
    .max(CHECK_LIMITS.maxBurst, { error: `must be at most ${CHECK_LIMITS.maxBurst} concurrent deliveries` })
    .optional(),
  /** User-defined scenarios (the scenarios file's content), run after the built-in battery. */
  scenarios: checkScenarioFileSchema.optional(),
  /** Extra trusted CA certificates (PEM file), as a destination's caFile. */
  caFile: z.string().min(1).max(4096).nullable().optional(),
  /** Measure how many deliveries per second the receiver sustains, for this many seconds, after the checks (docs/check.md, "Capacity"). */
  capacity: capacityInputSchema.nullable().optional(),
  /** Answer when the run has finished (the CLI); by default runCheck answers at once and events follow. */
  wait: z.boolean().optional(),
}).superRefine((input, ctx) => {
  if (input.secret) return;
  input.scenarios?.scenarios.forEach((s, i) => {
    if (!SIGN_MODES_NEEDING_SECRET.includes(s.sign)) return;
    ctx.addIssue({
      code: 'custom',
      path: ['scenarios', 'scenarios', i, 'sign'],
      message: `"${s.sign}" forges a signature from the shared secret, and none was given: give the secret, or sign "none" for an unsigned request`,
    });
  });
});
export type RunCheckInput = z.input<typeof runCheckInputSchema>;

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
 * Why the receiver refuses valid signatures, found by probing it with the same call signed the mistaken ways
 * (`verify`'s vocabulary): the mistake whose probe it accepted, or `unknown` when it accepted none. Null when
 * valid requests were accepted (or no secret was given).
 */
export interface CheckDiagnosis {
  mistake: SignatureMistake;
  /** One line: what the receiver does wrong (or that no known mistake explains the refusal). */
  title: string;
  /** What to change in the receiver (plain text). */
  fix: string;
}

/** The label of every diagnosis probe in a check's evidence starts so (`probe: HMAC-SHA256 (hex)`). */
export const PROBE_PREFIX = 'probe: ';

/** How the detail of a check that failed only because valid signatures are refused ends (it points at the diagnosis). */
export const SEE_DIAGNOSIS = 'the receiver rejects valid signatures, see the diagnosis';

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
  /** Failed deliveries by kind (`HTTP 503`, `ECONNRESET`, `tls_error`, …), timeouts apart. */
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

export const listCheckRunsInputSchema = z.strictObject({
  url: z.string().min(1).max(8_192).optional(),
  cursor: z.string().max(100).nullable().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});
export type ListCheckRunsInput = z.input<typeof listCheckRunsInputSchema>;

export const getCheckRunInputSchema = z.strictObject({
  id: z.number({ error: 'must be a number (a check run id)' }).int('must be a whole number').positive('must be positive').max(Number.MAX_SAFE_INTEGER),
});

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

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(:\d+)?$/i;

/**
 * A URL typed without its scheme (`localhost:3000/hook`, `hooks.example.com/in`) as it was surely meant:
 * http:// on this machine, https:// elsewhere. Null when the text has a scheme or does not look like a host.
 * (`localhost:3000/x` parses as a URL whose scheme is `localhost:`, so the schema's message alone misleads.)
 */
export function urlWithScheme(text: string): string | null {
  const t = text.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t) || /^receiver(\+tls)?:/i.test(t)) return null;
  const host = /^([^/?#\s]+)([/?#].*)?$/.exec(t)?.[1];
  if (!host || !/^(\[[0-9a-f:]+\]|[a-z0-9.-]+)(:\d+)?$/i.test(host) || !/[.:\]]|^localhost$/i.test(host)) return null;
  return `${LOCAL_HOST.test(host) ? 'http' : 'https'}://${t}`;
}

/** The JSON Schema of a `--scenarios` file (schema/check-scenarios.schema.json is generated from it: `npm run schema`). */
export function checkScenariosJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(checkScenarioFileSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Hookbench check scenarios',
    description:
      'User-defined cases for `hookbench check <url> --scenarios FILE` (and runCheck\'s `scenarios`): each sends a message built as the Webhooks destination builds it (or an exact body), signed or forged, and checks the answer. IDs must not repeat nor reuse a built-in check\'s.',
  };
}
