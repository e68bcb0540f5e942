/**
 * One webhook's request prepared on the engine's thread: its exact headers, `X-Signature` over the exact
 * bytes it is given, and a URL's credentials as `Authorization: Basic`.
 */
import { urlCredentials } from '../contract/message/urls.js';
import type { Webhook } from '../contract/destinations.js';
import { signBody } from '../domain/signature.js';

export const USER_AGENT = 'Hookbench/1.0';

/** One webhook's request, ready to send: its URL and exact headers (signature included). */
export interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  signature: string | null;
}

/**
 * The request headers for one webhook: ours, then its static ones (which can never override ours). A URL's
 * `user:password@` goes out as `Authorization: Basic` (docs/behaviour.md §2), unless a static Authorization
 * header is configured, which wins, as `curl -H` does over a URL's credentials.
 */
export function prepareRequest(webhook: Webhook, secret: string | null, body: Uint8Array): PreparedRequest {
  const signature = secret ? signBody(secret, body) : null;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(body.byteLength),
    'user-agent': USER_AGENT,
  };
  if (signature) headers['x-signature'] = signature;
  if (webhook.url.includes('@')) {
    const basic = basicAuthOf(webhook.url);
    if (basic && !Object.keys(webhook.headers).some((name) => name.toLowerCase() === 'authorization')) headers['authorization'] = basic;
  }
  for (const [name, value] of Object.entries(webhook.headers)) headers[name] = value;
  return { url: webhook.url, headers, signature };
}

/** `http://ada:p%40ss@host/` → `Basic base64("ada:p@ss")`; null without credentials. */
const basicAuths = new Map<string, string | null>();
function basicAuthOf(url: string): string | null {
  let basic = basicAuths.get(url);
  if (basic === undefined) {
    const credentials = urlCredentials(url);
    basic = credentials ? `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}` : null;
    if (basicAuths.size > 1_000) basicAuths.clear();
    basicAuths.set(url, basic);
  }
  return basic;
}
