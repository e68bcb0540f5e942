/**
 * Secrets in answers (docs/behaviour.md §9): every list and get shows shared secrets, write keys,
 * receiver secrets, credential-like static header values and URL passwords masked (`s3••••`); only
 * `revealSecret` shows one in clear. A masked value sent back unchanged in an update keeps the stored one,
 * so a form can round-trip what it was given.
 */
import { createHash } from 'node:crypto';
import type { AttemptRecord, DeliveryRecord, Destination, MessageDetail, Source, Webhook } from '../contract/models.js';
import type { CaptureRecord, ReceiverEndpoint } from '../contract/receiver.js';
import type { EngineEvent } from '../contract/events.js';
import { SECRET_MASK } from '../contract/schemas.js';
import { urlAuthority } from '../contract/urls.js';

export const MASK = SECRET_MASK;

/** Header names whose values are credentials. */
const SENSITIVE_HEADER = /authorization|cookie|token|secret|password|passwd|api[-_]?key|^x-auth/i;

export function isSensitiveHeader(name: string): boolean {
  return SENSITIVE_HEADER.test(name);
}

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
 * A string member named `writeKey` or `authorization` (any case) in JSON text, its value up to the closing
 * quote or the end of the text (a preview may stop inside it). Keys are matched as written, unescaped.
 */
const CREDENTIAL_MEMBER = /("(?:writekey|authorization)"\s*:\s*")((?:[^"\\]|\\.)*\\?)("|$)/gi;

/**
 * JSON text (possibly cut short, possibly not JSON at all) with the values of its `writeKey` and
 * `authorization` members shown as their edges (`wk_…nd`): the ingest log's body preview.
 */
export function redactJsonCredentials(text: string): string {
  return text.replace(CREDENTIAL_MEMBER, (_all, head: string, value: string, tail: string) => `${head}${maskKeyEdges(value)}${tail}`);
}

export function isMasked(value: string): boolean {
  return value.includes(MASK);
}

/**
 * `https://user:pass@host/x` → `https://user:••••@host/x`; a user name alone is a credential too (it is sent
 * as Basic auth, docs/behaviour.md §2): `https://tok_123@host/` → `https://to••••@host/`. Anything else as it is.
 */
export function maskUrl(url: string): string {
  const authority = urlAuthority(url);
  if (!authority || authority.userinfo === null) return url;
  const start = url.indexOf('://') + 3;
  const { userinfo } = authority;
  const colon = userinfo.indexOf(':');
  const masked = colon < 0 ? maskSecret(userinfo) : `${userinfo.slice(0, colon)}:${MASK}`;
  return `${url.slice(0, start)}${masked}${url.slice(start + userinfo.length)}`;
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
 * in `rawHeaders` alike. The body is shown as received (it is what the receiver is for).
 */
export function maskCapture(c: CaptureRecord): CaptureRecord {
  if (!c.rawHeaders.some(([name]) => isSensitiveHeader(name))) return c;
  return {
    ...c,
    headers: maskHeaders(c.headers),
    rawHeaders: c.rawHeaders.map(([name, value]) => (isSensitiveHeader(name) ? [name, maskSecret(value)] : [name, value])),
  };
}

export function maskAttempt(a: AttemptRecord): AttemptRecord {
  return { ...a, url: maskUrl(a.url), requestHeaders: maskHeaders(a.requestHeaders) };
}

export function maskDelivery(d: DeliveryRecord): DeliveryRecord {
  return d.pendingUrls.some((u) => u.includes('@')) ? { ...d, pendingUrls: d.pendingUrls.map(maskUrl) } : d;
}

export function maskMessageDetail(m: MessageDetail): MessageDetail {
  return { ...m, deliveries: m.deliveries.map(maskDelivery), attempts: m.attempts.map(maskAttempt) };
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
    const url = w.url === maskUrl(before.url) ? before.url : w.url;
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
      return event.url.includes('@') ? { ...event, url: maskUrl(event.url) } : event;
    case 'deliveryUpdated':
      return { ...event, delivery: maskDelivery(event.delivery) };
    case 'requestCaptured':
      return { ...event, capture: maskCapture(event.capture) };
    default:
      return event;
  }
}
