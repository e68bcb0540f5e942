import { createHmac, timingSafeEqual } from 'node:crypto';

/** X-Signature (docs/behaviour.md §2): lowercase hex HMAC-SHA1 keyed with the shared secret over the exact body bytes. */
export function signBody(secret: string, body: Uint8Array): string {
  return createHmac('sha1', secret).update(body).digest('hex');
}

/** Constant-time comparison of a received signature with the expected one. Case of the hex is not significant. */
export function signatureMatches(secret: string, body: Uint8Array, signature: string): boolean {
  const expected = Buffer.from(signBody(secret, body), 'utf8');
  const given = Buffer.from(signature.trim().toLowerCase(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
