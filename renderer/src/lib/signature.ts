/**
 * X-Signature in the renderer: HMAC with Web Crypto (crypto.subtle), and the one signature diagnosis of
 * main/contract driven by it. Nothing here sends a secret anywhere.
 */
import { diagnoseSignatureAsync, toHex, type HmacRequest, type SignatureDiagnosis, type SignatureInput, type Utf8 } from '../../../main/contract/receiver/signatureDiagnosis';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const utf8: Utf8 = {
  encode: (text) => encoder.encode(text),
  decode: (bytes) => decoder.decode(bytes),
};

/** Web Crypto exists only in secure contexts: 127.0.0.1, localhost, file:// and https. */
export function webCryptoMissing(): string | null {
  return globalThis.crypto?.subtle ? null : 'Web Crypto is not available on this page (it needs 127.0.0.1, localhost or https): signatures cannot be computed here.';
}

const HASH: Record<HmacRequest['algorithm'], string> = { sha1: 'SHA-1', sha256: 'SHA-256' };

/** The raw HMAC digest (the key is the secret's UTF-8 bytes, as node:crypto takes a string secret). */
export async function webHmac({ algorithm, secret, body }: HmacRequest): Promise<Uint8Array> {
  // A zero-length key is refused by Web Crypto; HMAC pads keys with zeros, so one zero byte is the same key.
  const raw = secret === '' ? new Uint8Array(1) : encoder.encode(secret);
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: HASH[algorithm] }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, new Uint8Array(body)));
}

/** X-Signature: lowercase hex HMAC-SHA1 of the exact body bytes (docs/behaviour.md §2). */
export async function signBody(secret: string, body: Uint8Array): Promise<string> {
  return toHex(await webHmac({ algorithm: 'sha1', secret, body }));
}

export function diagnose(input: SignatureInput): Promise<SignatureDiagnosis> {
  return diagnoseSignatureAsync(webHmac, utf8, input);
}

/** Where two byte strings first differ (null when equal). */
export function firstDifference(a: Uint8Array, b: Uint8Array): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}
