/**
 * Input schemas, validated once at the edge (API, config file, CLI). Every error names the field path,
 * the rule and, where one applies, the limit.
 */
import { z } from 'zod';
import { CONFIG_LIMITS, LIMITS, MESSAGE_TYPES } from './message/messageShapes.js';
import { DEFAULT_RETRY_POLICY, DEFAULT_TIMEOUT_MS } from './destinations.js';
import { SOURCE_KINDS } from './sources.js';
import { urlAuthority } from './message/urls.js';
import { wrongType } from './zodWords.js';

export { combineErrors, eachProblem, formatPath, issueToError, issuesToErrors, keysAt, MORE_PROBLEMS, parseWith, suggestKey, withOthers } from './schemaErrors.js';

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A header name given a second time, with how it was first written: the schema's words, and the destination form's. */
export const headerGivenTwice = (name: string, first: string): string => `header "${name}" is given twice (first as "${first}"; names are case-insensitive)`;

/** A string of at most `max` characters; the error names the limit and the length given (zodWords.ts). */
const maxChars = (max: number) => z.string({ error: wrongType('must be a string') }).max(max);

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
  return z.record(z.string(), z.string()).meta({ maxProperties: options.max }).superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > options.max) {
      ctx.addIssue({
        code: 'custom',
        message: `at most ${options.max} headers per ${options.per} (got ${names.length})`,
        params: { limit: options.max },
      });
    }
    const seen = new Map<string, string>();
    for (const name of names) {
      if (name.length > CONFIG_LIMITS.headerNameChars) {
        ctx.addIssue({ code: 'custom', path: [name.slice(0, 40)], message: `header name must be at most ${CONFIG_LIMITS.headerNameChars} characters (got ${name.length.toLocaleString('en-US')})`, params: { limit: CONFIG_LIMITS.headerNameChars } });
        continue;
      }
      if (!HEADER_NAME.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a valid HTTP header name` });
        continue;
      }
      const refused = options.forbidden(name);
      if (refused) ctx.addIssue({ code: 'custom', path: [name], message: refused });
      const first = seen.get(name.toLowerCase());
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: headerGivenTwice(name, first) });
      } else seen.set(name.toLowerCase(), name);
      const value = headers[name] ?? '';
      if (value.length > CONFIG_LIMITS.headerValueChars) {
        ctx.addIssue({ code: 'custom', path: [name], message: `header value must be at most ${CONFIG_LIMITS.headerValueChars.toLocaleString('en-US')} characters (got ${value.length.toLocaleString('en-US')})`, params: { limit: CONFIG_LIMITS.headerValueChars } });
      } else if (/[\r\n\0]/.test(value)) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'header values may not contain CR, LF or NUL' });
      } else {
        const problem = headerValueProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      }
    }
  });
}

/**
 * How answers show a secret (main/domain/secrets.ts): `s3••••`. A masked value passes the input schemas, so
 * that a form can send back what it was given (the handlers put the stored value back); one that is still
 * masked when a destination is saved is refused there (registry/registry.ts).
 */
export const SECRET_MASK = '••••';

/** What HTTP/1.1 can carry in a header value (RFC 9110 field-vchar, SP, HTAB, obs-text): Node and undici refuse the rest. */
const UNSENDABLE_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Why a header value can never be sent, or null: a character outside Latin-1 or a control character would
 * make every attempt fail as `network_error` (docs/behaviour.md §2). Names the character, never the value
 * (it may be a credential).
 */
export function headerValueProblem(given: string): string | null {
  const value = given.includes(SECRET_MASK) ? given.split(SECRET_MASK).join('') : given;
  const found = UNSENDABLE_IN_HEADER.exec(value);
  if (!found) return null;
  const cp = value.codePointAt(found.index) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  if (cp < 0x20 || cp === 0x7f) return `control character ${hex} at position ${found.index} cannot be sent in an HTTP header value`;
  const shown = cp >= 0xd800 && cp <= 0xdfff ? 'a lone surrogate' : `"${String.fromCodePoint(cp)}"`;
  return `${shown} (${hex}) at position ${found.index} cannot be sent: HTTP header values carry only Latin-1 characters`;
}

const headersSchema = httpHeadersSchema({ max: LIMITS.headersPerWebhook, per: 'webhook', forbidden: reservedHeaderReason });

/** In a config file, a webhook may name a receiver of the mock receiver: `receiver:<name>` or `receiver+tls:<name>`. */
export const RECEIVER_REF = /^receiver(\+tls)?:([A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;
const httpUrl = z.url({ protocol: /^https?$/ });

const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;
/** Characters RFC 3986 never allows in a URL as they are (the WHATWG parser encodes them silently). */
const URL_UNSAFE = /[ "<>\\^`{|}]/;
const percentEncoded = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
const CONTROL_NAMES: Record<string, string> = { '\r': 'CR', '\n': 'LF', '\t': 'tab', '\0': 'NUL' };

/** `must not contain control characters (LF at position 23)`, or null. */
export function controlCharacterProblem(value: string): string | null {
  const found = CONTROL_CHARACTER.exec(value);
  if (!found) return null;
  const c = found[0];
  const name = CONTROL_NAMES[c] ?? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `must not contain control characters (${name} at position ${found.index})`;
}

/**
 * Why a webhook URL can never work, or null (docs/behaviour.md §2). WHATWG parsing would silently drop CR,
 * LF and tabs and read `http:///hook` as the host `hook`, so these are checked on the text as given.
 */
const NOT_A_WEBHOOK_URL = 'must be an absolute http:// or https:// URL (or receiver:<name>)';

/**
 * What a URL without http:// or https:// was instead, so that among several (`--to a --to b`) the user sees
 * which: another scheme by its name, a host without a scheme with the URL it most likely meant. Credentials
 * are never echoed.
 */
function notAWebhookUrl(url: string): string {
  const pasted = urlAmongWords(url);
  if (pasted) return `${NOT_A_WEBHOOK_URL}; ${pasted}`;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1];
  if (scheme) return `${NOT_A_WEBHOOK_URL}; got ${scheme.toLowerCase()}:// instead`;
  // http:/x, http//x, http:x and //x name the host after a scheme written wrong: prefixing http:// would make it worse.
  const slip = /^(?:(https?)(?::\/?|\/\/|:)|\/\/)(?!\/)([^/\s@]+)(.*)$/i.exec(url);
  if (slip && !url.includes('@') && !/\s/.test(url)) {
    const meant = `${(slip[1] ?? 'http').toLowerCase()}://${slip[2]}${slip[3]}`.slice(0, 80);
    return `${NOT_A_WEBHOOK_URL}; got ${JSON.stringify(url.slice(0, 80))}, its scheme written wrong: did you mean ${meant}?`;
  }
  if (url.startsWith('/')) return `${NOT_A_WEBHOOK_URL}; got a path without a host (${JSON.stringify(url.slice(0, 80))})`;
  if (url !== '' && !url.includes('@') && !/\s/.test(url)) return `${NOT_A_WEBHOOK_URL}; got ${JSON.stringify(url.slice(0, 80))}, without a scheme: did you mean http://${url.slice(0, 80)}?`;
  return NOT_A_WEBHOOK_URL;
}

/**
 * A URL pasted with words around it (a whole cURL command, `POST https://…` from a log): what it was and the
 * URL to give instead. The words are never echoed (a cURL command carries `-u` and Authorization headers),
 * nor the URL when it has credentials in it.
 */
function urlAmongWords(text: string): string | null {
  if (!/\s/.test(text.trim())) return null;
  const found = /(?:^|[\s'"=])(https?:\/\/[^\s'"]+)/i.exec(text)?.[1];
  const curl = /^\s*curl\s/i.test(text);
  if (!found && !curl) return null;
  const urls = text.match(/(?:^|[\s'"=])https?:\/\//gi)?.length ?? 0;
  if (!curl && urls > 1) return `got ${urls} URLs: give each as a webhook of its own`;
  const what = curl ? 'got a cURL command' : 'got words around a URL';
  const give = found && !urlAuthority(found)?.userinfo ? `give only its URL (${found.slice(0, 200)})` : 'give only its URL';
  const headers = curl && /\s(-H|--header)\s/.test(text) ? '; its -H headers are static headers of the webhook' : '';
  return `${what}: ${give}${headers}`;
}

function webhookUrlProblem(url: string): string | null {
  if (RECEIVER_REF.test(url)) return null;
  const authority = urlAuthority(url);
  if (!authority) return notAWebhookUrl(url);
  if (authority.host === '' || authority.host.startsWith(':')) return 'has no host: write it as http://host[:port]/path';
  // A URL with words after it (`https://… -H 'X-Env: dev'`, a second URL) parses as one; its space is no typo to encode.
  const trailing = /^\S+\s+(-|https?:\/\/)/i.test(url) ? urlAmongWords(url) : null;
  if (trailing) return `${NOT_A_WEBHOOK_URL}; ${trailing}`;
  // WHATWG parsing would percent-encode these on the way out: what is stored and shown would not be what is requested.
  const unsafe = URL_UNSAFE.exec(url);
  if (unsafe) return `${unsafe[0] === ' ' ? 'a space' : JSON.stringify(unsafe[0])} at position ${unsafe.index} is not allowed in a URL: write it percent-encoded (${percentEncoded(unsafe[0])})`;
  if (!httpUrl.safeParse(url).success) return NOT_A_WEBHOOK_URL;
  if (authority.userinfo !== null) {
    try {
      for (const part of authority.userinfo.split(':')) decodeURIComponent(part);
    } catch {
      return 'the user name or password in it has an invalid percent-escape (write % as %25)';
    }
  }
  return null;
}

const webhookUrlOrReceiver = maxChars(CONFIG_LIMITS.urlChars)
  .superRefine((v, ctx) => {
    const problem = controlCharacterProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, continue: false });
  })
  .trim()
  .superRefine((v, ctx) => {
    const problem = webhookUrlProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const positiveMs = (max: number) => z.number().int('must be a whole number of milliseconds').min(1).max(max);

export const retryPolicyInputSchema = z.strictObject({
  schedule: z.array(positiveMs(7 * 24 * 3_600_000)).min(1).max(100).optional(),
  windowMs: z.number().int().min(0).max(CONFIG_LIMITS.retryWindowMs).optional(),
  jitter: z.number().min(0).max(1).optional(),
  /** `null` removes the cap (in a patch): only the window bounds the retries then. */
  maxAttempts: z.number().int().min(1).max(CONFIG_LIMITS.maxAttempts).nullable().optional(),
});

const filtersSchema = z.strictObject({
  allowEvents: z.array(maxChars(CONFIG_LIMITS.eventNameChars).min(1)).max(1000).default([]),
  blockEvents: z.array(maxChars(CONFIG_LIMITS.eventNameChars).min(1)).max(1000).default([]),
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
      message: `at most ${LIMITS.webhooksPerDestination} webhooks (got ${webhooks.length})`,
      params: { limit: LIMITS.webhooksPerDestination },
    });
  }
}

/** Destination schemas over a URL schema: plain http(s) for the API, or also receiver refs in a config file. */
function destinationSchemas(url: z.ZodType<string>) {
  const webhook = z.strictObject({ url, headers: headersSchema.default({}) });
  /** Everything a destination may say; `url` is shorthand for one webhook. */
  const fields = {
    name: z.string().trim().min(1, 'must not be empty').max(CONFIG_LIMITS.nameChars, { error: (issue) => `must be at most ${CONFIG_LIMITS.nameChars} characters (got ${(issue.input as string).length})` }),
    enabled: z.boolean(),
    sources: z.array(maxChars(CONFIG_LIMITS.nameChars).min(1)).max(100),
    sharedSecret: z.string().min(1, 'must not be empty (omit it or use null for no signing)').max(1024).nullable(),
    url,
    // The limit is checked with the url shorthand (checkWebhooks); the JSON Schema editors read says it too.
    webhooks: z.array(webhook).meta({ maxItems: LIMITS.webhooksPerDestination }),
    caFile: maxChars(CONFIG_LIMITS.pathChars).min(1).nullable(),
    timeoutMs: positiveMs(CONFIG_LIMITS.timeoutMs),
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
  const patchShape = {
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
  };
  const patch = z.strictObject(patchShape).superRefine(checkWebhooks);
  /**
   * As in a config file: a patch that names the destination. One strict object (an intersection with a
   * plain object would let unknown keys through: `"secret"` for `"sharedSecret"` left a destination unsigned).
   */
  const named = z.strictObject({ ...patchShape, name: fields.name }).superRefine(checkWebhooks);
  return { webhook, input, patch, named };
}

// A webhook may name a receiver of the mock receiver (`receiver:<name>`): it is resolved at attempt time,
// so the destination keeps working when the receiver's port changes.
const apiDestination = destinationSchemas(webhookUrlOrReceiver);
export const webhookInputSchema = apiDestination.webhook;
export const destinationInputSchema = apiDestination.input;
export const destinationPatchSchema = apiDestination.patch;
/** As in a config file: a patch that names the destination. */
export const configDestinationSchema = apiDestination.named;

export type DestinationInput = z.input<typeof destinationInputSchema>;
export type DestinationPatch = z.input<typeof destinationPatchSchema>;

/** A source's write key: what createSource takes, and what updateSource's key must be once a masked one sent back is resolved. */
export const writeKeySchema = z
  .string()
  .min(1, { abort: true })
  .max(200)
  .regex(/^[\x21-\x7e]+$/, { error: (issue) => `must be printable ASCII without spaces (${firstNonAscii(String(issue.input))})` });

/** The first character a write key may not hold and its place, never the key (it is a credential): `a space at position 2`. */
function firstNonAscii(key: string): string {
  const found = /[^\x21-\x7e]/u.exec(key);
  if (!found) return '';
  const c = found[0];
  const hex = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = c === ' ' ? 'a space' : /[\p{L}\p{N}\p{P}\p{S}]/u.test(c) ? `"${c}" (${hex})` : hex;
  return `${shown} at position ${found.index}`;
}

export const sourceInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  kind: z.enum(SOURCE_KINDS),
  writeKey: writeKeySchema.optional(),
});
export type SourceInput = z.input<typeof sourceInputSchema>;

/** Random bytes in a generated write key. */
export const WRITE_KEY_BYTES = 12;
/**
 * A generated write key, `wk_` + lowercase hex of `WRITE_KEY_BYTES` random bytes: what createSource makes
 * when given none, and what the UI's Regenerate sends (random bytes from node:crypto or Web Crypto).
 */
export function writeKeyOf(bytes: Uint8Array): string {
  if (bytes.length !== WRITE_KEY_BYTES) throw new RangeError(`a write key takes ${WRITE_KEY_BYTES} random bytes (got ${bytes.length})`);
  return `wk_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export const sendMessageInputSchema = z.strictObject({
  type: z.enum(MESSAGE_TYPES),
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
/** sendMessage's input as its schema gives it (defaults filled), what intake takes. */
export type SendMessageParsed = z.output<typeof sendMessageInputSchema>;

export function resolveRetryPolicy(input: z.infer<typeof retryPolicyInputSchema> | undefined) {
  return {
    schedule: input?.schedule ?? [...DEFAULT_RETRY_POLICY.schedule],
    windowMs: input?.windowMs ?? DEFAULT_RETRY_POLICY.windowMs,
    jitter: input?.jitter ?? DEFAULT_RETRY_POLICY.jitter,
    ...(input?.maxAttempts !== undefined && input.maxAttempts !== null ? { maxAttempts: input.maxAttempts } : {}),
  };
}
