/** The mock receiver's input schemas: endpoint names, secrets and response scripts, as the API and config files give them. */
import { z } from 'zod';
import { utf8Length } from '../message/messageBody.js';
import { RECEIVER_LIMITS, type ResponseScript, type ScriptStep, STEP_ACTIONS } from './models.js';
import { httpHeadersSchema } from '../schemas.js';
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

const stepObjectSchema = z
  .strictObject(
    {
      action: z.enum(STEP_ACTIONS, { error: `must be one of ${STEP_ACTIONS.join(', ')}` }).default('respond'),
      status: z
        .number({ error: 'must be an HTTP status code from 200 to 599' })
        .int('must be an HTTP status code from 200 to 599')
        .min(200, 'must be an HTTP status code from 200 to 599')
        .max(599, 'must be an HTTP status code from 200 to 599')
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
        .int('must be a whole number of milliseconds')
        .min(0)
        .max(RECEIVER_LIMITS.delayMs, `must be at most ${RECEIVER_LIMITS.delayMs} ms (10 minutes)`)
        .default(0),
      retryAfter: retryAfterSchema.nullable().default(null),
    },
    {
      error: (issue) =>
        issue.code !== 'invalid_type'
          ? undefined
          : typeof issue.input === 'string'
            ? `"${issue.input}" is not a step: give a status code (200-599), never, reset or close`
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
    .max(RECEIVER_LIMITS.steps, `at most ${RECEIVER_LIMITS.steps} steps`),
  after: z.enum(['repeat-last', 'cycle'], { error: 'must be repeat-last or cycle' }).default('repeat-last'),
});

const failureRateSchema = z.strictObject({
  mode: z.literal('failureRate'),
  rate: z.number({ error: wrongType('must be a number from 0 to 1 (0.3 = 30 % of requests fail)') }).min(0).max(1),
  seed: z.number().int('must be a whole number').min(0).max(2 ** 31 - 1).default(1),
  success: scriptStepSchema.default(() => respondStep(200)),
  failure: scriptStepSchema.default(() => respondStep(500)),
});

/**
 * The forms a script may take as input: `"500,500,200"`, `404`, `"never"`, a step object (a fixed
 * response), `{steps: [...]}` (a sequence), `{mode: "failureRate", rate, seed}`.
 */
function scriptShorthand(value: unknown): unknown {
  if (typeof value === 'number') return { mode: 'sequence', steps: [value] };
  if (typeof value === 'string') return { mode: 'sequence', steps: value.split(',').map((s) => s.trim()) };
  if (Array.isArray(value)) return { mode: 'sequence', steps: value };
  if (typeof value === 'object' && value !== null && !('mode' in value)) {
    if ('steps' in value) return { mode: 'sequence', ...value };
    if ('rate' in value) return { mode: 'failureRate', ...value };
    // Anything else is one fixed step; a misspelt key is then reported as an unknown field of that step.
    return { mode: 'sequence', steps: [value] };
  }
  return value;
}

export const responseScriptSchema = z.preprocess(
  scriptShorthand,
  z.discriminatedUnion('mode', [sequenceSchema, failureRateSchema], {
    error: 'must be a status code, a list like "500,500,200", a step object, {steps: [...]} or {mode: "failureRate", rate, seed}',
  }),
);

/** Without a script an endpoint answers 200 with an empty body. */
export function defaultScript(): ResponseScript {
  return { mode: 'sequence', steps: [respondStep(200)], after: 'repeat-last' };
}

const nameSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(RECEIVER_LIMITS.nameLength, `must be at most ${RECEIVER_LIMITS.nameLength} characters`)
  .regex(RECEIVER_NAME, 'must start with a letter or digit and use only letters, digits, ".", "_" and "-" (it is a URL path segment)');

const secretSchema = z
  .string({ error: 'must be a string (or null for no signature check)' })
  .min(1, 'must not be empty (omit it or use null for no signature check)')
  .max(RECEIVER_LIMITS.secretLength);

const refuseSchema = z.boolean({ error: 'must be true or false' });

/** Without a secret there is nothing to check a signature against: the refusal would refuse every request. */
export const REFUSE_NEEDS_SECRET = 'needs a secret to check signatures against: give the endpoint a secret, or leave refuseInvalidSignatures off';

export const receiverInputSchema = z
  .strictObject({
    name: nameSchema,
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
  name: nameSchema.optional(),
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
