/**
 * The local mock receiver: named endpoints at `<receiverUrl>/r/<name>`, each answering by a
 * response script, and every request captured. Types and input schemas only; shared with the renderer.
 */
import { z } from 'zod';
import { utf8Length } from './messageBody.js';
import { httpHeadersSchema } from './schemas.js';

/** docs/behaviour.md §10: `hookbench serve --receiver-port 4410 --receiver-tls-port 4443`, `hookbench receive --port 4410`. */
export const DEFAULT_RECEIVER_PORT = 4410;
export const DEFAULT_RECEIVER_TLS_PORT = 4443;

export const RECEIVER_LIMITS = {
  nameLength: 64,
  steps: 100,
  headersPerStep: 20,
  /** A scripted response body, UTF-8 bytes. */
  responseBodyBytes: 65_536,
  /** Ten minutes: longer than any timeout worth testing. */
  delayMs: 600_000,
  /** A week, in seconds. */
  retryAfterSeconds: 604_800,
  secretLength: 1024,
  /** Bytes of a request body kept in a capture; the rest is counted (and signed over) but not stored. */
  captureBodyBytes: 1_048_576,
} as const;

/**
 * What a step does: answer (after `delayMs`), never answer (the connection stays open until the client
 * gives up), reset the connection (TCP RST), or close it without a response (FIN).
 */
export const STEP_ACTIONS = ['respond', 'never', 'reset', 'close'] as const;
export type StepAction = (typeof STEP_ACTIONS)[number];

export interface ScriptStep {
  action: StepAction;
  /** HTTP status, for `respond`. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Real milliseconds to wait before acting (the engine's timeout is real time too). */
  delayMs: number;
  /** Sent as Retry-After: delay-seconds, or an HTTP date. */
  retryAfter: number | string | null;
}

/**
 * `sequence`: request n (counted from when the script was set) gets steps[n]; past the end the last step
 * repeats (`repeat-last`) or the sequence starts over (`cycle`). A fixed response is a one-step sequence.
 * `failureRate`: each request fails with probability `rate`, decided by `seed` and the request's number,
 * so a run is reproducible.
 */
export type ResponseScript =
  | { mode: 'sequence'; steps: ScriptStep[]; after: 'repeat-last' | 'cycle' }
  | { mode: 'failureRate'; rate: number; seed: number; success: ScriptStep; failure: ScriptStep };

export interface ReceiverEndpoint {
  /** URL-safe: the endpoint answers at `<receiverUrl>/r/<name>`. */
  name: string;
  /** When set, every request's X-Signature is checked (docs/behaviour.md §2). */
  secret: string | null;
  script: ResponseScript;
  /** Requests answered under the current script: the next request is number `answered + 1`. */
  answered: number;
  /** Its URLs while the receiver listens (null when that listener is not running). */
  url: string | null;
  tlsUrl: string | null;
  createdAt: number;
  updatedAt: number;
}

export const SIGNATURE_VERDICTS = ['valid', 'invalid', 'missing'] as const;
export type SignatureVerdict = (typeof SIGNATURE_VERDICTS)[number];

export interface SignatureCheck {
  verdict: SignatureVerdict;
  /** The X-Signature received (null when missing). */
  given: string | null;
  /** The correct X-Signature for the endpoint's secret and the received bytes. */
  expected: string;
  /** When invalid: the mistakes that explain it (signatureDiagnosis names) and one sentence. */
  diagnosis: { mistakes: string[]; explanation: string } | null;
}

/** Which step of the script answered a request, and what it did. */
export interface CaptureStep {
  /** steps[index] of a sequence; 0 (success) or 1 (failure) of a failure rate; null for an unknown endpoint. */
  index: number | null;
  /** The request's number under the current script, from 1; null for an unknown endpoint. */
  request: number | null;
  /** `step 2 of 3: 500`, `failure (rate 0.3): 503, Retry-After 30`, `unknown endpoint: 404`. */
  label: string;
  action: StepAction;
  /** The status answered, null when the step sends none. */
  status: number | null;
  delayMs: number;
}

/** Bytes travel as base64 plus a text copy when they are valid UTF-8 (docs/behaviour.md §10). */
export interface CapturedBody {
  base64: string;
  text: string | null;
}

export interface CaptureRecord {
  id: number;
  /** The endpoint that answered, or the name an unknown `/r/<name>` path gave (null for other paths). */
  receiver: string | null;
  /** False when no endpoint matched: answered 404 with the list of endpoints. */
  matched: boolean;
  listener: 'http' | 'https';
  method: string;
  /** The request target as received, query string included. */
  path: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Names as sent, in order, repeats kept. */
  rawHeaders: [string, string][];
  body: CapturedBody;
  /** Bytes received. */
  bodySize: number;
  /** Only the first RECEIVER_LIMITS.captureBodyBytes are kept. */
  bodyTruncated: boolean;
  /** Engine time of arrival, ms since the epoch. */
  arrivedAt: number;
  remoteAddress: string | null;
  step: CaptureStep;
  /** Null when the endpoint has no secret. */
  signature: SignatureCheck | null;
  /** `messageId` of the JSON body, which links the capture to the engine's message. */
  messageId: string | null;
  /**
   * The engine's attempt that sent this request, when the core that sent it runs this receiver: the engine
   * tells the receiver each round it sends to a receiver URL, and the request with those exact body bytes
   * at that URL is that attempt. Null for anything else (curl, another program, `hookbench receive`).
   */
  attempt: CaptureAttempt | null;
}

export interface CaptureAttempt {
  /** Hookbench's own id of the message (MessageRecord.id). */
  messageRef: number;
  deliveryId: number;
  attemptNumber: number;
  webhookIndex: number;
}

/**
 * The other side of an attempt to the mock receiver (getMessage's `receiverChecks`): what the receiver
 * made of the request the attempt sent, with the capture to open.
 */
export interface ReceiverCheck {
  attemptId: number;
  captureId: number;
  /** The endpoint that answered. */
  receiver: string | null;
  /** The receiver's X-Signature verdict; null when the endpoint has no secret (it checks nothing). */
  verdict: SignatureVerdict | null;
  /** Why it is invalid or missing, in one sentence; null when valid or unchecked. */
  explanation: string | null;
  /** The signature diagnosis' mistakes (signatureDiagnosis names), empty when none. */
  mistakes: string[];
  /** Set when the two sides use different secrets (or the destination none): what differs, and the fix. */
  secrets: SecretMismatch | null;
}

/**
 * The destination and the receiver endpoint sign and check with different secrets. Fingerprints are the
 * first 8 hex digits of SHA-256 of a secret: enough to tell two apart, nothing of the secret itself.
 */
export interface SecretMismatch {
  destinationId: string;
  destinationName: string;
  receiver: string;
  /** The fingerprint of the secret the attempt was signed with; null when unsigned or changed since. */
  destinationFingerprint: string | null;
  /** The fingerprint of the secret the receiver checked with; null when it changed since. */
  receiverFingerprint: string | null;
  /** The two current secrets still differ: useOneSecret would make them one. */
  fixable: boolean;
}

/**
 * A page of captures. The receiver keeps its newest captures only: `limit` is how many at most (10,000 by
 * default), `pruned` how many older ones were removed to keep within it since the data dir began
 * (clearCaptures does not count).
 */
export interface CapturePage {
  items: CaptureRecord[];
  nextCursor: string | null;
  limit: number;
  pruned: number;
}

export interface ListCapturesInput {
  receiver?: string;
  messageId?: string;
  cursor?: string | null;
  limit?: number;
}

// ---------------------------------------------------------------- input schemas

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
  rate: z.number({ error: 'must be a number from 0 to 1 (0.3 = 30 % of requests fail)' }).min(0).max(1),
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

// ---------------------------------------------------------------- words (the CLI, the captures, the UI)

/** `500`, `503, Retry-After 30`, `200 after 6000 ms`, `never answer`, `reset the connection`. */
export function describeStep(step: ScriptStep): string {
  const after = step.delayMs > 0 ? ` after ${step.delayMs} ms` : '';
  switch (step.action) {
    case 'never':
      return 'never answer';
    case 'reset':
      return `reset the connection${after}`;
    case 'close':
      return `close without a response${after}`;
    case 'respond':
      return `${step.status}${step.retryAfter !== null ? `, Retry-After ${step.retryAfter}` : ''}${after}`;
  }
}

/** One line for a whole script: `500, 500, 200 (then the last step repeats)`. */
export function describeScript(script: ResponseScript): string {
  if (script.mode === 'failureRate') {
    const percent = Math.round(script.rate * 1000) / 10;
    return `${percent} % of requests fail (seed ${script.seed}) with ${describeStep(script.failure)}, the rest get ${describeStep(script.success)}`;
  }
  if (script.steps.length === 1) return `always ${describeStep(script.steps[0]!)}`;
  const then = script.after === 'cycle' ? 'then from the start again' : 'then the last step repeats';
  return `${script.steps.map(describeStep).join(', ')} (${then})`;
}

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

export const receiverInputSchema = z.strictObject({
  name: nameSchema,
  secret: secretSchema.nullable().default(null),
  script: responseScriptSchema.default(defaultScript),
});

/** A patch: every field optional; `secret: null` turns the signature check off. */
export const receiverPatchSchema = z.strictObject({
  name: nameSchema.optional(),
  secret: secretSchema.nullable().optional(),
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

/** `receiver:<name>` (the HTTP listener) or `receiver+tls:<name>` (the HTTPS one), as a webhook URL. */
export function parseReceiverRef(url: string): { name: string; tls: boolean } | null {
  const m = /^receiver(\+tls)?:(.*)$/.exec(url.trim());
  if (!m) return null;
  return { name: m[2]!.trim(), tls: m[1] !== undefined };
}

// Compile-time checks that the schemas produce the model types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _stepMatches: Same<z.output<typeof stepObjectSchema>, ScriptStep> = true;
const _scriptMatches: Same<z.output<typeof responseScriptSchema>, ResponseScript> = true;
void _stepMatches;
void _scriptMatches;
