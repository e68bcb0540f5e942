/**
 * Redaction for exports: every occurrence of a known secret value becomes `<redacted>` (as written, as it
 * appears escaped inside JSON text, and percent-encoded inside URLs), and so does the whole value of a
 * credential-like header or query parameter and the password of a URL. X-Signature is kept: it is an HMAC
 * of the body, not a secret.
 */
import type { Destination } from '../../contract/destinations.js';
import { hideUrlCredentials, isCredentialName, isCredentialParam, type UrlMaskForm } from '../secrets.js';

export const REDACTED = '<redacted>';

/** What is a credential is the answers' rule (../secrets.ts); an export only shows it as `<redacted>`. */
export { isCredentialName };

const REDACTED_FORM: UrlMaskForm = { password: () => REDACTED, user: () => REDACTED, param: () => REDACTED };

export interface Redactor {
  /** False when secrets are kept: every method is then the identity. */
  readonly active: boolean;
  text(value: string): string;
  header(name: string, value: string): string;
  /** A query parameter's decoded value (a HAR's queryString). */
  param(name: string, value: string): string;
  url(url: string): string;
  /** Every string (keys too) of a JSON value. */
  json<T>(value: T): T;
}

const keep: Redactor = { active: false, text: (v) => v, header: (_n, v) => v, param: (_n, v) => v, url: (u) => u, json: (v) => v };

/**
 * The secrets are the given values plus, from the destinations, each shared secret and each static header
 * value under a credential-like name. Empty values are ignored; longer ones are replaced first.
 */
export function createRedactor(options: { includeSecrets: boolean; secrets: readonly string[]; destinations: readonly Destination[] }): Redactor {
  if (options.includeSecrets) return keep;
  const values = new Set(options.secrets);
  for (const d of options.destinations) {
    if (d.sharedSecret) values.add(d.sharedSecret);
    for (const w of d.webhooks) for (const [name, value] of Object.entries(w.headers)) if (isCredentialName(name)) values.add(value);
  }
  const forms = new Set<string>();
  for (const v of values) {
    if (!v) continue;
    forms.add(v);
    forms.add(JSON.stringify(v).slice(1, -1));
    forms.add(encodeURIComponent(v));
  }
  // One pass over the text, longest value first at each position (a short secret inside `<redacted>` stays put).
  const sorted = [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
  const pattern = sorted.length ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : null;
  const text = (value: string): string => (pattern ? value.replace(pattern, REDACTED) : value);
  const json = <T>(value: T): T => {
    if (typeof value === 'string') return text(value) as T;
    if (Array.isArray(value)) return value.map(json) as T;
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), json(v)])) as T;
    }
    return value;
  };
  return {
    active: true,
    text,
    header: (name, value) => (name.toLowerCase() === 'x-signature' ? value : isCredentialName(name) ? REDACTED : text(value)),
    param: (name, value) => (isCredentialParam(name) ? REDACTED : text(value)),
    url: (url) => text(redactUrlCredentials(url)),
    json,
  };
}

/** `https://user:pass@host/p?token=t#f` → `https://user:<redacted>@host/p?token=<redacted>#f` (the rest kept as written). */
export function redactUrlCredentials(url: string): string {
  return hideUrlCredentials(url, REDACTED_FORM);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
