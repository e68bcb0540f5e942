/**
 * Input schemas, validated once at the edge (API, config file, CLI). Every error names the field path,
 * the rule and, where one applies, the limit.
 */
import { z } from 'zod';
import { LIMITS, MESSAGE_TYPES } from './messageShapes.js';
import { DEFAULT_RETRY_POLICY, DEFAULT_TIMEOUT_MS, SOURCE_KINDS } from './models.js';
import type { ApiError, Result } from './result.js';

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers the engine owns (docs/behaviour.md §2); a webhook may not set them. */
export const RESERVED_HEADERS = [
  'content-type',
  'content-length',
  'host',
  'user-agent',
  'x-signature',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
] as const;

export function reservedHeaderReason(name: string): string | null {
  const lower = name.toLowerCase();
  if ((RESERVED_HEADERS as readonly string[]).includes(lower) || lower.startsWith('proxy-')) {
    return `header "${name}" is set by Hookbench and cannot be configured`;
  }
  return null;
}

/**
 * Static HTTP headers as a name → value object: valid token names, no CR/LF/NUL in values, no name twice
 * (case-insensitively), at most `max`, and none that `forbidden` refuses (its reason is the message).
 */
export function httpHeadersSchema(options: { max: number; per: string; forbidden: (name: string) => string | null }) {
  return z.record(z.string(), z.string()).superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > options.max) {
      ctx.addIssue({
        code: 'custom',
        message: `at most ${options.max} headers per ${options.per} (got ${names.length})`,
        params: { limit: options.max },
      });
    }
    const seen = new Set<string>();
    for (const name of names) {
      if (!HEADER_NAME.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a valid HTTP header name` });
        continue;
      }
      const refused = options.forbidden(name);
      if (refused) ctx.addIssue({ code: 'custom', path: [name], message: refused });
      if (seen.has(name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: [name], message: `header "${name}" is given twice (names are case-insensitive)` });
      }
      seen.add(name.toLowerCase());
      if (/[\r\n\0]/.test(headers[name] ?? '')) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'header values may not contain CR, LF or NUL' });
      }
    }
  });
}

const headersSchema = httpHeadersSchema({ max: LIMITS.headersPerWebhook, per: 'webhook', forbidden: reservedHeaderReason });

/** In a config file, a webhook may name a receiver of the mock receiver: `receiver:<name>` or `receiver+tls:<name>`. */
export const RECEIVER_REF = /^receiver(\+tls)?:([A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;
const httpUrl = z.url({ protocol: /^https?$/ });
const webhookUrlOrReceiver = z
  .string({ error: 'must be a string' })
  .trim()
  .refine((v) => RECEIVER_REF.test(v) || httpUrl.safeParse(v).success, 'must be an absolute http:// or https:// URL (or receiver:<name>)');

const positiveMs = (max: number) => z.number().int('must be a whole number of milliseconds').min(1).max(max);

export const retryPolicyInputSchema = z.strictObject({
  schedule: z.array(positiveMs(7 * 24 * 3_600_000)).min(1).max(100).optional(),
  windowMs: z.number().int().min(0).max(30 * 24 * 3_600_000).optional(),
  jitter: z.number().min(0).max(1).optional(),
  maxAttempts: z.number().int().min(1).max(1000).optional(),
});

const filtersSchema = z.strictObject({
  allowEvents: z.array(z.string().min(1)).max(1000).default([]),
  blockEvents: z.array(z.string().min(1)).max(1000).default([]),
});

function checkWebhooks(
  value: { webhooks?: unknown[] | undefined; url?: string | undefined; enabled?: boolean | undefined },
  ctx: z.RefinementCtx,
): void {
  if (value.url !== undefined && value.webhooks !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either url or webhooks, not both' });
  }
  const webhooks = value.webhooks ?? [];
  if (webhooks.length > LIMITS.webhooksPerDestination) {
    ctx.addIssue({
      code: 'custom',
      path: ['webhooks', LIMITS.webhooksPerDestination],
      message: `at most ${LIMITS.webhooksPerDestination} webhooks`,
      params: { limit: LIMITS.webhooksPerDestination },
    });
  }
}

/** Destination schemas over a URL schema: plain http(s) for the API, or also receiver refs in a config file. */
function destinationSchemas(url: z.ZodType<string>) {
  const webhook = z.strictObject({ url, headers: headersSchema.default({}) });
  /** Everything a destination may say; `url` is shorthand for one webhook. */
  const fields = {
    name: z.string().trim().min(1, 'must not be empty').max(100),
    enabled: z.boolean(),
    sources: z.array(z.string().min(1)).max(100),
    sharedSecret: z.string().min(1, 'must not be empty (omit it or use null for no signing)').max(1024).nullable(),
    url,
    webhooks: z.array(webhook),
    caFile: z.string().min(1).nullable(),
    timeoutMs: positiveMs(120_000),
    retry: retryPolicyInputSchema,
    filters: filtersSchema,
  };
  const input = z
    .strictObject({
      ...fields,
      enabled: fields.enabled.default(false),
      sources: fields.sources.default([]),
      sharedSecret: fields.sharedSecret.optional(),
      url: fields.url.optional(),
      webhooks: fields.webhooks.optional(),
      caFile: fields.caFile.optional(),
      timeoutMs: fields.timeoutMs.default(DEFAULT_TIMEOUT_MS),
      retry: fields.retry.default({}),
      filters: filtersSchema.default({ allowEvents: [], blockEvents: [] }),
    })
    .superRefine(checkWebhooks);
  /** A patch: every field optional, `null` clears a nullable one. */
  const patch = z
    .strictObject({
      name: fields.name.optional(),
      enabled: fields.enabled.optional(),
      sources: fields.sources.optional(),
      sharedSecret: fields.sharedSecret.optional(),
      url: fields.url.optional(),
      webhooks: fields.webhooks.optional(),
      caFile: fields.caFile.optional(),
      timeoutMs: fields.timeoutMs.optional(),
      retry: fields.retry.optional(),
      filters: filtersSchema.optional(),
    })
    .superRefine(checkWebhooks);
  return { webhook, input, patch };
}

// A webhook may name a receiver of the mock receiver (`receiver:<name>`): it is resolved at attempt time,
// so the destination keeps working when the receiver's port changes.
const apiDestination = destinationSchemas(webhookUrlOrReceiver);
export const webhookInputSchema = apiDestination.webhook;
export const destinationInputSchema = apiDestination.input;
export const destinationPatchSchema = apiDestination.patch;
/** As in a config file: a patch that names the destination. */
export const configDestinationSchema = apiDestination.patch.and(
  z.object({ name: z.string().trim().min(1, 'must not be empty').max(100) }),
);

export type DestinationInput = z.input<typeof destinationInputSchema>;
export type DestinationPatch = z.input<typeof destinationPatchSchema>;

export const sourceInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  kind: z.enum(SOURCE_KINDS),
  writeKey: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
});
export type SourceInput = z.input<typeof sourceInputSchema>;

export const sendMessageInputSchema = z.strictObject({
  type: z.enum(MESSAGE_TYPES, { error: `must be one of ${MESSAGE_TYPES.join(', ')}` }),
  /** The call itself: userId, event, properties, ... (docs/behaviour.md §1). */
  call: z.record(z.string(), z.unknown()).default({}),
  /** Route through this source's connected destinations. */
  source: z.string().min(1).optional(),
  /** Or send to these destinations (ids or names) directly, as the composer does. */
  destinations: z.array(z.string().min(1)).max(100).optional(),
  /** Reject keys the type does not know (catches `userid` typos); ingestion of real SDK traffic is lenient. */
  strict: z.boolean().default(false),
});
export type SendMessageInput = z.input<typeof sendMessageInputSchema>;

export function resolveRetryPolicy(input: z.infer<typeof retryPolicyInputSchema> | undefined) {
  return {
    schedule: input?.schedule ?? [...DEFAULT_RETRY_POLICY.schedule],
    windowMs: input?.windowMs ?? DEFAULT_RETRY_POLICY.windowMs,
    jitter: input?.jitter ?? DEFAULT_RETRY_POLICY.jitter,
    ...(input?.maxAttempts !== undefined ? { maxAttempts: input.maxAttempts } : {}),
  };
}

/** `webhooks[0].headers.X-Env` */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Validate `input` with `schema`; on failure the first issue becomes an ApiError naming its field. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): Result<z.infer<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: issueToError(parsed.error.issues, prefix) };
}

export function issueToError(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): ApiError {
  const issue = issues[0];
  if (!issue) return { code: 'invalid_input', message: 'invalid input' };
  const field = formatPath([...prefix, ...issue.path]);
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') message = `unknown field(s): ${issue.keys.join(', ')}`;
  const error: ApiError = {
    code: 'invalid_input',
    message: field ? `${field}: ${message}` : message,
  };
  if (field) error.field = field;
  const limit = limitOf(issue);
  if (limit !== undefined) error.limit = limit;
  const more = issues.length - 1;
  if (more > 0) error.message += ` (and ${more} more problem${more > 1 ? 's' : ''})`;
  return error;
}

function limitOf(issue: z.core.$ZodIssue): number | undefined {
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    const bound = issue.code === 'too_big' ? issue.maximum : issue.minimum;
    return typeof bound === 'number' ? bound : Number(bound);
  }
  if (issue.code === 'custom' && issue.params && typeof issue.params['limit'] === 'number') return issue.params['limit'];
  return undefined;
}
