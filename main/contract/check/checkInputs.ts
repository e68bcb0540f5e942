/**
 * What a check of the user's own webhook receiver is asked (docs/check.md): the battery's areas, signing modes
 * and limits, the user-defined scenarios file, and the inputs of runCheck / getCheckRun / listCheckRuns. Pure:
 * the renderer and the CLI import it. The built-in battery and user scenarios share one runner (main/check/),
 * so a scenario here is what both are written as.
 */
import { z } from 'zod';
import { callNestingError } from '../message/jsonDepth.js';
import { describeValue } from '../message/messageBody.js';
import { MESSAGE_TYPES } from '../message/messageShapes.js';
import { headerValueProblem, webhookInputSchema } from '../schemas.js';
import { wrongType } from '../zodWords.js';

/** The areas of the battery, in the order a report lists them; `custom` holds user scenarios that name none. */
export const CHECK_AREAS = ['shapes', 'signature', 'time', 'redelivery', 'burst', 'status', 'transport', 'content-type', 'capacity', 'custom'] as const;
export type CheckArea = (typeof CHECK_AREAS)[number];

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

/** ` (got 1.5)`, ` (got the string "5")`: the value given, for a capacity field's message. */
const got = (input: unknown): string => (input === undefined ? '' : ` (got ${typeof input === 'number' ? input.toLocaleString('en-US', { maximumFractionDigits: 20 }) : describeValue(input)})`);

export const capacityInputSchema = z.strictObject({
  seconds: z
    .number({ error: (issue) => (issue.code !== 'invalid_type' || issue.input === undefined ? undefined : `must be a number of seconds (1 to ${CHECK_LIMITS.maxCapacitySeconds})${got(issue.input)}`) })
    .int({ error: (issue) => `must be a whole number of seconds (1 to ${CHECK_LIMITS.maxCapacitySeconds})${got(issue.input)}` })
    .min(1, { error: (issue) => `must be at least 1 second (at most ${CHECK_LIMITS.maxCapacitySeconds})${got(issue.input)}` })
    .max(CHECK_LIMITS.maxCapacitySeconds, { error: (issue) => `must be at most ${CHECK_LIMITS.maxCapacitySeconds} seconds${got(issue.input)}` }),
  /** With it, a verdict: fail below this many deliveries per second (or with errors, or p99 past the timeout), warn under twice it. */
  expectRate: z
    .number({ error: (issue) => (issue.code !== 'invalid_type' || issue.input === undefined ? undefined : `must be a number (deliveries per second)${got(issue.input)}`) })
    .positive({ error: (issue) => `must be more than 0 deliveries per second${got(issue.input)}` })
    .max(CHECK_LIMITS.maxExpectRate, { error: (issue) => `must be at most ${CHECK_LIMITS.maxExpectRate.toLocaleString('en-US')} deliveries per second${got(issue.input)}` })
    .nullable()
    .optional(),
});
export type CapacityInput = z.input<typeof capacityInputSchema>;

/** A check ID: lower-case words joined by `.` or `-` (`signature.wrong-secret`, `my.order-created`). */
export const CHECK_ID = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$/;

const checkId = z
  .string({ error: wrongType('must be a string (a check ID such as shapes.track)') })
  .min(1)
  .max(100)
  .regex(CHECK_ID, { error: 'must be lower-case words joined by "." or "-" (e.g. my.order-created)' });

const statusExpectation = z.union([
  z.number({ error: wrongType('must be a status code (200) or a class ("2xx")') }).int().min(100).max(599),
  z.enum(['1xx', '2xx', '3xx', '4xx', '5xx'], { error: 'must be a status code (200) or a class: 2xx, 3xx, 4xx or 5xx' }),
]);

/** One user-defined case (docs/check.md, "Scenarios"); the JSON Schema in schema/ is generated from this. */
export const checkScenarioSchema = z.strictObject({
  id: checkId,
  title: z.string({ error: wrongType('must be a string (one line saying what the check proves)') }).min(1).max(200),
  area: z.enum(CHECK_AREAS).default('custom'),
  /** A message as the Webhooks destination builds it: a type plus the call's fields (userId, event, properties, ...). */
  message: z
    .strictObject({
      type: z.enum(MESSAGE_TYPES),
      call: z.record(z.string(), z.unknown()).default({}),
    })
    .optional(),
  /** Or the exact body to send, as a JSON value (serialised once) or a string (sent as its UTF-8 bytes). */
  body: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  /** Extra request headers (the destination's rules: HTTP tokens, no Content-Type, X-Signature, ...). */
  headers: webhookInputSchema.shape.headers.optional(),
  /** Replace the Content-Type header (content negotiation checks); the destination itself always sends application/json. */
  contentType: z
    .string({ error: wrongType('must be a string (a Content-Type header value)') })
    .min(1)
    .max(200)
    .superRefine((value, ctx) => {
      const problem = headerValueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  sign: z.enum(SIGN_MODES).default('valid'),
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
    .number({ error: wrongType('must be a number (concurrent deliveries)') })
    .int('must be a whole number')
    .min(1, 'must be at least 1 concurrent delivery')
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

export const listCheckRunsInputSchema = z.strictObject({
  url: z.string().min(1).max(8_192).optional(),
  cursor: z.string().max(100).nullable().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});
export type ListCheckRunsInput = z.input<typeof listCheckRunsInputSchema>;

export const getCheckRunInputSchema = z.strictObject({
  id: z.number({ error: wrongType('must be a number (a check run id)') }).int({ error: (issue) => `must be a whole number (got ${String(issue.input)})` }).positive().max(Number.MAX_SAFE_INTEGER),
});

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
