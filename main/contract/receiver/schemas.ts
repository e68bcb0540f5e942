/** The mock receiver's input schemas: endpoint names, secrets and response scripts, as the API and config files give them. */
import { z } from 'zod';
import { utf8Length } from '../message/messageBody.js';
import { RECEIVER_LIMITS, type ResponseScript, type ScriptStep, STEP_ACTIONS } from './models.js';
import { httpHeadersSchema, keysAt, suggestKey } from '../schemas.js';
import { wrongType } from '../zodWords.js';

/** Framing headers Node computes for every response: a script may not set them. */
const FRAMING_HEADERS = ['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer'];

export const RECEIVER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const stepHeadersSchema = httpHeadersSchema({
  max: RECEIVER_LIMITS.headersPerStep,
  per: 'step',
  forbidden: (name) => (FRAMING_HEADERS.includes(name.toLowerCase()) ? `header "${name}" is set by the HTTP server and cannot be scripted` : null),
});

/** Delay-seconds (a number or a string of digits) or an HTTP date. */
const retryAfterSchema = z.unknown().transform((value, ctx): number | string => {
  const seconds = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof seconds === 'number') {
    if (!Number.isInteger(seconds) || seconds < 0) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number of seconds, at least 0 (got ${seconds})` });
    } else if (seconds > RECEIVER_LIMITS.retryAfterSeconds) {
      ctx.addIssue({
        code: 'custom',
        message: `must be at most ${RECEIVER_LIMITS.retryAfterSeconds} seconds (a week; got ${seconds})`,
        params: { limit: RECEIVER_LIMITS.retryAfterSeconds },
      });
    }
    return seconds;
  }
  if (typeof seconds === 'string' && seconds.trim() !== '' && !Number.isNaN(Date.parse(seconds))) return seconds.trim();
  ctx.addIssue({ code: 'custom', message: `must be seconds (a whole number) or an HTTP date (got ${JSON.stringify(value)})` });
  return z.NEVER;
});

/** The value a rule refused, as the user wrote it: a number as it is, anything else as JSON. */
function gotValue(input: unknown): string {
  return typeof input === 'number' ? String(input) : (JSON.stringify(input)?.slice(0, 80) ?? String(input));
}

const statusWords = (issue: { input?: unknown }) => `must be an HTTP status code from 200 to 599 (got ${gotValue(issue.input)})`;

const stepObjectSchema = z
  .strictObject(
    {
      action: z.enum(STEP_ACTIONS).default('respond'),
      status: z
        .number({ error: statusWords })
        .int({ error: statusWords })
        .min(200, { error: statusWords })
        .max(599, { error: statusWords })
        .default(200),
      headers: stepHeadersSchema.default({}),
      body: z
        .string()
        .refine((b) => utf8Length(b) <= RECEIVER_LIMITS.responseBodyBytes, {
          message: `must be at most ${RECEIVER_LIMITS.responseBodyBytes} bytes`,
          params: { limit: RECEIVER_LIMITS.responseBodyBytes },
        })
        .default(''),
      delayMs: z
        .number()
        .int({ error: (issue) => `must be a whole number of milliseconds (got ${gotValue(issue.input)})` })
        .min(0)
        .max(RECEIVER_LIMITS.delayMs, { error: (issue) => `must be at most ${RECEIVER_LIMITS.delayMs} ms (10 minutes; got ${gotValue(issue.input)})` })
        .default(0),
      retryAfter: retryAfterSchema.nullable().default(null),
    },
    {
      error: (issue) =>
        issue.code !== 'invalid_type'
          ? undefined
          : typeof issue.input === 'string'
            ? `${JSON.stringify(issue.input)} is not a step: give a status code (200-599), never, reset or close`
            : 'must be a status code, never, reset, close, or a step object {status, headers, body, delayMs, retryAfter, action}',
    },
  )
  .superRefine((step, ctx) => {
    if (step.retryAfter !== null && Object.keys(step.headers).some((h) => h.toLowerCase() === 'retry-after')) {
      ctx.addIssue({ code: 'custom', path: ['retryAfter'], message: 'give Retry-After either as retryAfter or in headers, not both' });
    }
    if (step.action === 'never' && step.delayMs > 0) {
      ctx.addIssue({ code: 'custom', path: ['delayMs'], message: 'a step that never answers has no delay' });
    }
  });

/** `500` → `{status: 500}`; `"never"` → `{action: "never"}`; `"503"` → `{status: 503}`. */
function stepShorthand(value: unknown): unknown {
  if (typeof value === 'number') return { status: value };
  if (typeof value === 'string') {
    const token = value.trim().toLowerCase();
    if (/^\d+$/.test(token)) return { status: Number(token) };
    if ((STEP_ACTIONS as readonly string[]).includes(token)) return { action: token };
    return value; // refused below with a clear message
  }
  return value;
}

export const scriptStepSchema = z.preprocess(stepShorthand, stepObjectSchema);

/** A plain answer with this status, no headers, an empty body, no delay. */
export function respondStep(status: number): ScriptStep {
  return { action: 'respond', status, headers: {}, body: '', delayMs: 0, retryAfter: null };
}

const sequenceSchema = z.strictObject({
  mode: z.literal('sequence'),
  steps: z
    .array(scriptStepSchema)
    .min(1, 'give at least one step')
    .max(RECEIVER_LIMITS.steps, { error: (issue) => `at most ${RECEIVER_LIMITS.steps} steps (got ${Array.isArray(issue.input) ? issue.input.length : '?'})` }),
  after: z.enum(['repeat-last', 'cycle']).default('repeat-last'),
});

const failureRateSchema = z.strictObject({
  mode: z.literal('failureRate'),
  rate: z.number({ error: wrongType('must be a number from 0 to 1 (0.3 = 30 % of requests fail)') }).min(0).max(1),
  seed: z.number().int('must be a whole number').min(0).max(2 ** 31 - 1).default(1),
  success: scriptStepSchema.default(() => respondStep(200)),
  failure: scriptStepSchema.default(() => respondStep(500)),
});

/**
 * `500 500 200` or `500;200`, one item of a list that is steps written apart another way than with commas: those
 * steps, so that the refusal says how to write them rather than that the codes are wrong. Null for anything else.
 */
export function stepsApart(token: string): string[] | null {
  const apart = token.trim().split(/[\s;|]+/);
  return apart.length > 1 && apart.every((a) => scriptStepSchema.safeParse(a).success) ? apart : null;
}

/**
 * A problem with item `index` of a comma-separated list of steps (`"500,,200"`, `--respond`, the Responses
 * field), numbered from 1 as a person counts: `item 2 is empty: give …`, `item 2 ("soon") is not a step: …`,
 * `item 1 ("0"): must be an HTTP status code …`.
 */
export function listItemWords(index: number, token: string, message: string): string {
  const quoted = JSON.stringify(token);
  const n = index + 1;
  const apart = stepsApart(token);
  if (apart) return `item ${n} (${quoted}) holds ${apart.length} responses: separate them with commas (${apart.join(', ')})`;
  if (message.startsWith(`${quoted} is not a step`)) {
    return token === '' ? `item ${n} is empty${message.slice(`${quoted} is not a step`.length)}` : `item ${n} (${quoted})${message.slice(quoted.length)}`;
  }
  return `item ${n} (${quoted}): ${message}`;
}

/**
 * The forms a script may take as input: `"500,500,200"`, `404`, `"never"`, a step object (a fixed
 * response), `{steps: [...]}` (a sequence), `{mode: "failureRate", rate, seed}`.
 */
function scriptShorthand(value: unknown): { script: unknown; where: (path: readonly PropertyKey[], message: string) => { path: PropertyKey[]; message: string } } {
  const as = (path: readonly PropertyKey[], message: string) => ({ path: [...path], message });
  // A problem inside a shorthand is named where the user wrote it, not in the sequence it stands for.
  const dropSteps = (keep: number) => (path: readonly PropertyKey[], message: string) => ({ path: path[0] === 'steps' ? path.slice(keep) : [...path], message });
  if (typeof value === 'number') return { script: { mode: 'sequence', steps: [value] }, where: (_path, message) => ({ path: [], message }) };
  if (typeof value === 'string') {
    const tokens = value.split(',').map((s) => s.trim());
    return {
      script: { mode: 'sequence', steps: tokens },
      // `"500,,200"` is one string: its item is named by number, as `--respond` names it.
      where: (path, message) =>
        path[0] === 'steps' && typeof path[1] === 'number' ? { path: [], message: listItemWords(path[1], tokens[path[1]] ?? '', message) } : { path: path[0] === 'steps' ? [] : [...path], message },
    };
  }
  if (Array.isArray(value)) return { script: { mode: 'sequence', steps: value }, where: dropSteps(1) };
  if (typeof value === 'object' && value !== null && !('mode' in value)) {
    if ('steps' in value) return { script: { mode: 'sequence', ...value }, where: as };
    if ('rate' in value) return { script: { mode: 'failureRate', ...value }, where: as };
    // Anything else is one fixed step; a misspelt key is then reported as an unknown field of that step.
    return { script: { mode: 'sequence', steps: [value] }, where: dropSteps(2) };
  }
  return { script: value, where: as };
}

const scriptUnionSchema = z.discriminatedUnion('mode', [sequenceSchema, failureRateSchema], {
  error: 'must be a status code, a list like "500,500,200", a step object, {steps: [...]} or {mode: "failureRate", rate, seed}',
});

export const responseScriptSchema = z.preprocess((value, ctx) => {
  const { script, where } = scriptShorthand(value);
  const checked = scriptUnionSchema.safeParse(script);
  // Its problems reported here, at the paths the user wrote, stop the pipe before the union reports them again.
  if (checked.success) return script;
  for (const issue of checked.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // Moved, an unknown key would be looked up where the shorthand has no keys: its "did you mean" is found here.
      const known = keysAt(scriptUnionSchema, issue.path);
      for (const key of issue.keys) {
        const hint = suggestKey(key, known);
        ctx.addIssue({ code: 'custom', ...where([...issue.path, key], `unknown field${hint ? ` (did you mean "${hint}"?)` : ''}`) });
      }
    } else ctx.addIssue({ ...issue, ...where(issue.path, issue.message) } as Parameters<typeof ctx.addIssue>[0]);
  }
  return script;
}, scriptUnionSchema);

/** Without a script an endpoint answers 200 with an empty body. */
export function defaultScript(): ResponseScript {
  return { mode: 'sequence', steps: [respondStep(200)], after: 'repeat-last' };
}

/**
 * An endpoint's name, exactly as given: a space around it is refused, not trimmed away (the endpoint would answer
 * at a name other than the one typed).
 */
export const receiverNameSchema = z
  .string({ error: wrongType('must be a string') })
  .min(1, 'must not be empty')
  .max(RECEIVER_LIMITS.nameLength, `must be at most ${RECEIVER_LIMITS.nameLength} characters`)
  .regex(RECEIVER_NAME, {
    error: (issue) => {
      const name = typeof issue.input === 'string' ? issue.input : '';
      return name !== name.trim()
        ? `must not begin or end with a space (got ${JSON.stringify(name)})`
        : `must start with a letter or digit and use only letters, digits, ".", "_" and "-" (it is a URL path segment; got ${JSON.stringify(name)})`;
    },
  });

const secretSchema = z
  .string({ error: wrongType('must be a string (or null for no signature check)') })
  .min(1, 'must not be empty (omit it or use null for no signature check)')
  .max(RECEIVER_LIMITS.secretLength);

const refuseSchema = z.boolean({ error: wrongType('must be true or false') });

/** Without a secret there is nothing to check a signature against: the refusal would refuse every request. */
export const REFUSE_NEEDS_SECRET = 'needs a secret to check signatures against: give the endpoint a secret, or leave refuseInvalidSignatures off';

export const receiverInputSchema = z
  .strictObject({
    name: receiverNameSchema,
    secret: secretSchema.nullable().default(null),
    /** 401 with a JSON error for an invalid or missing X-Signature, before the script answers. */
    refuseInvalidSignatures: refuseSchema.default(false),
    script: responseScriptSchema.default(defaultScript),
  })
  .superRefine((r, ctx) => {
    if (r.refuseInvalidSignatures && r.secret === null) ctx.addIssue({ code: 'custom', path: ['refuseInvalidSignatures'], message: REFUSE_NEEDS_SECRET });
  });

/**
 * A patch: every field optional; `secret: null` turns the signature check off. Whether the endpoint ends up
 * refusing invalid signatures without a secret depends on its current state, so the service checks that.
 */
export const receiverPatchSchema = z.strictObject({
  name: receiverNameSchema.optional(),
  secret: secretSchema.nullable().optional(),
  refuseInvalidSignatures: refuseSchema.optional(),
  /** A new script starts at its first step. */
  script: responseScriptSchema.optional(),
  /** Start the current script over from its first step. */
  rewind: z.boolean().optional(),
});

export type ReceiverInput = z.input<typeof receiverInputSchema>;
export type ReceiverPatch = z.input<typeof receiverPatchSchema>;
export type ResponseScriptInput = z.input<typeof responseScriptSchema>;

/** Config files: `receivers: [...]`, matched by name (docs/behaviour.md §10). */
export const receiversConfigSchema = z.array(receiverInputSchema);

// Compile-time checks that the schemas produce the model types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _stepMatches: Same<z.output<typeof stepObjectSchema>, ScriptStep> = true;
const _scriptMatches: Same<z.output<typeof responseScriptSchema>, ResponseScript> = true;
void _stepMatches;
void _scriptMatches;
