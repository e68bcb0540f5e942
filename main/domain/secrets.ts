/**
 * The one masking rule (docs/behaviour.md §9): what is a secret, and how each face shows one. Every list,
 * get, create and update answer, every pushed event, `show`, `tail`, `send` and the ingest log show secrets
 * masked (`s3••••`, logs `wk_…nd`); exports redact the same things as `<redacted>` (./export/redaction.ts
 * uses the rule below); only `revealSecret` shows one in clear. A masked value sent back unchanged in an
 * update keeps the stored one, so a form can round-trip what it was given.
 */
import { createHash } from 'node:crypto';
import type { AttemptRecord, DeliveryRecord } from '../contract/deliveries.js';
import type { Destination, Webhook } from '../contract/destinations.js';
import type { MessageDetail, MessageRecord } from '../contract/messages.js';
import type { Source } from '../contract/sources.js';
import type { CaptureRecord, ReceiverEndpoint } from '../contract/receiver/receiver.js';
import type { EngineEvent } from '../contract/events.js';
import type { ApiError } from '../contract/result.js';
import { SECRET_MASK } from '../contract/schemas.js';
import { urlAuthority } from '../contract/message/urls.js';

export const MASK = SECRET_MASK;

/**
 * Header and query parameter names whose values are credentials: Authorization, Cookie, X-Api-Key,
 * X-Session-Id, access_key, write_key, ... (any case, matched anywhere in the name).
 */
const CREDENTIAL_NAME = /authorization|cookie|token|secret|passw|api[-_]?key|access[-_]?key|write[-_]?key|session|credential|^x-auth/i;
/** Query parameters that are credentials by these exact names: Google's `key`, Azure Functions' `code`, an Azure SAS `sig`. */
const CREDENTIAL_PARAM = /^(key|code|sig)$/i;

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

export function isCredentialParam(name: string): boolean {
  return CREDENTIAL_NAME.test(name) || CREDENTIAL_PARAM.test(name);
}

/** The header rule has always been this one; the old name stays for the call sites that use it. */
export const isSensitiveHeader = isCredentialName;

/** `s3cret` → `s3••••`; short values show nothing of themselves. */
export function maskSecret(value: string): string;
export function maskSecret(value: string | null): string | null;
export function maskSecret(value: string | null): string | null {
  if (value === null) return null;
  return value.length >= 6 ? `${value.slice(0, 2)}${MASK}` : MASK;
}

/**
 * A secret's fingerprint: the first 8 hex digits of its SHA-256. Two different secrets almost surely show
 * different fingerprints, and nothing of the secret can be read from one (unlike `wh••••`, which two
 * secrets starting alike share).
 */
export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 8);
}

/**
 * How logs show a write key (docs/behaviour.md §9 Logs): its first three and last two characters,
 * `wk_…nd`; nothing of a short one.
 */
export function maskKeyEdges(key: string): string {
  return key.length <= 6 ? '***' : `${key.slice(0, 3)}…${key.slice(-2)}`;
}

/**
 * Members of a call that hold credentials: a write key however it is spelled (`writeKey`, `WriteKey`,
 * `write_key`, `write-key`) and `authorization`, compared without case, `-` and `_`. Other members of a
 * call are the user's data and are shown as received.
 */
export function isCredentialMember(name: string): boolean {
  const plain = name.toLowerCase().replace(/[-_]/g, '');
  return plain === 'writekey' || plain === 'authorization';
}

/**
 * A string member in JSON text: its name as written (escapes and all), then its value up to the closing quote
 * or the end of the text (a preview may stop inside it).
 */
const STRING_MEMBER = /("((?:[^"\\]|\\.)*)"\s*:\s*")((?:[^"\\]|\\.)*\\?)("|$)/g;

/** A member name as JSON text spells it, decoded (`"write\u004bey"` is `writeKey`); as written if it is not valid. */
function decodeName(written: string): string {
  if (!written.includes('\\')) return written;
  try {
    return JSON.parse(`"${written}"`) as string;
  } catch {
    return written;
  }
}

/**
 * JSON text (possibly cut short, possibly not JSON at all) with the values of its credential members
 * (`isCredentialMember`, however the name is escaped) shown as their edges (`wk_…nd`): the ingest log's body preview.
 */
export function redactJsonCredentials(text: string): string {
  return text.replace(STRING_MEMBER, (all, head: string, name: string, value: string, tail: string) =>
    isCredentialMember(decodeName(name)) ? `${head}${maskKeyEdges(value)}${tail}` : all,
  );
}

/** A call (any depth) with the string values of its credential members masked: `getMessage`'s `call`. */
export function maskCall<T>(value: T): T {
  if (Array.isArray(value)) {
    const items = value.map(maskCall);
    return (items.some((v, i) => v !== value[i]) ? items : value) as T;
  }
  if (!value || typeof value !== 'object') return value;
  let out: Record<string, unknown> | null = null;
  for (const [name, v] of Object.entries(value)) {
    const masked = typeof v === 'string' ? (isCredentialMember(name) ? maskSecret(v) : v) : maskCall(v);
    if (masked === v) continue;
    out ??= { ...(value as Record<string, unknown>) };
    out[name] = masked;
  }
  return (out ?? value) as T;
}

export function isMasked(value: string): boolean {
  return value.includes(MASK);
}

/**
 * A masked value where nothing stored can be restored from it (docs/behaviour.md §9): kept, it would be sent or
 * signed with as it is. `what` names what was wanted: a secret, or a value of a webhook (its URL, a header).
 */
export function maskedValueError(field: string, what: 'secret' | 'value' = 'secret'): ApiError {
  return { code: 'invalid_input', field, message: `${field}: this is a masked value (${MASK}), not a secret; send the ${what} itself` };
}

/** How a URL's credentials are shown: its password, a user name without password, a credential parameter's value. */
export interface UrlMaskForm {
  password(value: string): string;
  user(value: string): string;
  param(value: string): string;
}

/** Answers' form: `user:••••`, `to••••@`, `api_key=ab••••`. */
const ANSWER_FORM: UrlMaskForm = { password: () => MASK, user: (v) => maskSecret(v), param: (v) => maskSecret(v) };

/**
 * A URL with its credentials hidden, the rest as written: the password of its user info, or the user name
 * when there is no password (it is sent as Basic auth, docs/behaviour.md §2), and the value of every query
 * parameter whose name is a credential (`isCredentialParam`, the name percent-decoded).
 * `https://user:pass@host/x?api_key=abcdef&page=2` → `https://user:••••@host/x?api_key=ab••••&page=2`.
 */
export function maskUrl(url: string): string {
  return hideUrlCredentials(url, ANSWER_FORM);
}

function hideUserinfo(userinfo: string, form: UrlMaskForm): string {
  const colon = userinfo.indexOf(':');
  return colon < 0 ? form.user(userinfo) : `${userinfo.slice(0, colon)}:${form.password(userinfo.slice(colon + 1))}`;
}

/** `maskUrl` in a face's own form (exports: `<redacted>`). */
export function hideUrlCredentials(url: string, form: UrlMaskForm): string {
  let out = url;
  const authority = urlAuthority(url);
  if (authority && authority.userinfo !== null) {
    const start = url.indexOf('://') + 3;
    out = `${url.slice(0, start)}${hideUserinfo(authority.userinfo, form)}${url.slice(start + authority.userinfo.length)}`;
  }
  const q = out.indexOf('?');
  if (q < 0) return out;
  const hash = out.indexOf('#', q);
  const query = out.slice(q + 1, hash < 0 ? undefined : hash);
  const params = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq > 0 && isCredentialParam(decodeParam(pair.slice(0, eq))) ? `${pair.slice(0, eq + 1)}${form.param(pair.slice(eq + 1))}` : pair;
  });
  return `${out.slice(0, q + 1)}${params.join('&')}${hash < 0 ? '' : out.slice(hash)}`;
}

function decodeParam(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * In an update, a URL sent back with parts still masked: each masked part that is exactly the mask of the
 * stored URL's same part (the password or user name; a parameter of the same name, in order) gets the stored
 * value back, so a user may edit the path and keep `api_key=ab••••`. What is still masked after this is refused
 * by the caller.
 */
export function unmaskUrl(given: string, stored: string): string {
  if (given === maskUrl(stored)) return stored;
  if (!isMasked(given)) return given;
  let out = given;
  const was = urlAuthority(stored);
  const now = urlAuthority(given);
  if (was?.userinfo != null && now?.userinfo != null && isMasked(now.userinfo) && now.userinfo === hideUserinfo(was.userinfo, ANSWER_FORM)) {
    const start = given.indexOf('://') + 3;
    out = `${given.slice(0, start)}${was.userinfo}${given.slice(start + now.userinfo.length)}`;
  }
  const storedParams = paramsOf(stored);
  const q = out.indexOf('?');
  if (q < 0) return out;
  const hash = out.indexOf('#', q);
  const seen = new Map<string, number>();
  const params = out
    .slice(q + 1, hash < 0 ? undefined : hash)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0) return pair;
      const name = pair.slice(0, eq);
      const nth = seen.get(name) ?? 0;
      seen.set(name, nth + 1);
      const value = pair.slice(eq + 1);
      const before = storedParams.filter(([n]) => n === name)[nth]?.[1];
      return before !== undefined && isMasked(value) && value === maskSecret(before) ? `${name}=${before}` : pair;
    });
  return `${out.slice(0, q + 1)}${params.join('&')}${hash < 0 ? '' : out.slice(hash)}`;
}

/** A URL's query parameters as written: [name, value] pairs in order. */
function paramsOf(url: string): [string, string][] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const hash = url.indexOf('#', q);
  return url
    .slice(q + 1, hash < 0 ? undefined : hash)
    .split('&')
    .filter((pair) => pair.indexOf('=') > 0)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]);
}

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  let masked: Record<string, string> | null = null;
  for (const [name, value] of Object.entries(headers)) {
    if (!isSensitiveHeader(name)) continue;
    masked ??= { ...headers };
    masked[name] = maskSecret(value);
  }
  return masked ?? headers;
}

function maskWebhook(w: Webhook): Webhook {
  return { url: maskUrl(w.url), headers: maskHeaders(w.headers) };
}

export function maskDestination(d: Destination): Destination {
  return { ...d, sharedSecret: maskSecret(d.sharedSecret), webhooks: d.webhooks.map(maskWebhook) };
}

export function maskSource(s: Source): Source {
  return { ...s, writeKey: maskSecret(s.writeKey) };
}

export function maskReceiver(r: ReceiverEndpoint): ReceiverEndpoint {
  return { ...r, secret: maskSecret(r.secret) };
}

/**
 * A captured request as answers and events show it: credential-like header values masked, in `headers` and
 * in `rawHeaders` alike, and credential query parameters in its path. The body is shown as received (it is
 * what the receiver is for).
 */
export function maskCapture(c: CaptureRecord): CaptureRecord {
  const path = maskUrl(c.path);
  if (path === c.path && !c.rawHeaders.some(([name]) => isSensitiveHeader(name))) return c;
  return {
    ...c,
    path,
    headers: maskHeaders(c.headers),
    rawHeaders: c.rawHeaders.map(([name, value]) => (isSensitiveHeader(name) ? [name, maskSecret(value)] : [name, value])),
  };
}

/** An attempt with the request rule applied to both directions: a receiver's Set-Cookie is a credential too. */
export function maskAttempt(a: AttemptRecord): AttemptRecord {
  return { ...a, url: maskUrl(a.url), requestHeaders: maskHeaders(a.requestHeaders), responseHeaders: a.responseHeaders && maskHeaders(a.responseHeaders) };
}

export function maskDelivery(d: DeliveryRecord): DeliveryRecord {
  return d.pendingUrls.length > 0 ? { ...d, pendingUrls: d.pendingUrls.map((u) => maskUrl(u)) } : d;
}

/** A message record with its call's credential members masked (the body is the exact bytes delivered). */
export function maskMessageRecord<M extends Pick<MessageRecord, 'call'>>(m: M): M {
  const call = maskCall(m.call);
  return call === m.call ? m : { ...m, call };
}

export function maskMessageDetail(m: MessageDetail): MessageDetail {
  return { ...m, message: maskMessageRecord(m.message), deliveries: m.deliveries.map(maskDelivery), attempts: m.attempts.map(maskAttempt) };
}

/**
 * In an update, a value that is exactly the mask of the stored one means "unchanged": the stored value
 * comes back. Any other value containing the mask is refused by the caller (it cannot be meant).
 */
export function unmaskSecret(given: string | null | undefined, stored: string | null): string | null | undefined {
  if (typeof given === 'string' && stored !== null && given === maskSecret(stored)) return stored;
  return given;
}

/** Webhooks of a patch with masked header values and URLs restored from the current webhook at the same index. */
export function unmaskWebhooks(given: readonly Webhook[], current: readonly Webhook[]): Webhook[] {
  return given.map((w, i) => {
    const before = current[i];
    if (!before) return w;
    const url = unmaskUrl(w.url, before.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(w.headers)) {
      const old = Object.entries(before.headers).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
      headers[name] = old !== undefined && value === maskSecret(old) ? old : value;
    }
    return { url, headers };
  });
}

/** An event as a transport pushes it: attempts and deliveries masked like getMessage's. */
export function maskEvent(event: EngineEvent): EngineEvent {
  switch (event.type) {
    case 'attemptFinished':
      return { ...event, attempt: maskAttempt(event.attempt) };
    case 'attemptStarted':
      return { ...event, url: maskUrl(event.url) };
    case 'deliveryUpdated':
      return { ...event, delivery: maskDelivery(event.delivery) };
    case 'requestCaptured':
    case 'captureUpdated':
      return { ...event, capture: maskCapture(event.capture) };
    default:
      return event;
  }
}
