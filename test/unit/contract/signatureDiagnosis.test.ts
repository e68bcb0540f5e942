/**
 * The one signature diagnosis (main/contract) gives the same answer driven synchronously by node:crypto (the
 * CLI and the receiver) and asynchronously by Web Crypto (the renderer's Signature panel).
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseSignatureAsync, toBase64, toHex, type HmacRequest, type Utf8 } from '../../../main/contract/receiver/signatureDiagnosis.js';
import { diagnoseSignature } from '../../../main/domain/signatureDiagnosis.js';

const utf8: Utf8 = { encode: (t) => new TextEncoder().encode(t), decode: (b) => new TextDecoder().decode(b) };
const webHmac = async ({ algorithm, secret, body }: HmacRequest): Promise<Uint8Array> => {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: algorithm === 'sha1' ? 'SHA-1' : 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, new Uint8Array(body)));
};

const SECRET = 's3cret';
const RAW = JSON.stringify({ version: 1, type: 'track', userId: 'u1', event: 'Signed Up', properties: { plan: 'pro', note: 'naïve ☃' }, timestamp: '2026-01-02T03:04:05.678Z' });
const sign = (body: string | Uint8Array, algorithm = 'sha1', encoding: 'hex' | 'base64' = 'hex', secret = SECRET) => createHmac(algorithm, secret).update(body).digest(encoding);

describe('the shared signature diagnosis', () => {
  it('encodes digests as Node does (hex, padded base64)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (bytes) => {
        expect(toHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });

  const cases: [string, string, string][] = [
    ['valid', SECRET, sign(RAW)],
    ['re-serialised', SECRET, sign(JSON.stringify(JSON.parse(RAW)).replace(/":/g, '": '))],
    ['pretty-printed', SECRET, sign(JSON.stringify(JSON.parse(RAW), null, 2))],
    ['newline added', SECRET, sign(`${RAW}\n`)],
    ['SHA-256', SECRET, sign(RAW, 'sha256')],
    ['base64', SECRET, sign(RAW, 'sha1', 'base64')],
    ['sha1= prefix', SECRET, `sha1=${sign(RAW)}`],
    ['sha256= prefix', SECRET, `sha256=${sign(RAW, 'sha256')}`],
    ['secret with a newline', `${SECRET}\n`, sign(RAW)],
    ['wrong secret', SECRET, sign(RAW, 'sha1', 'hex', 'other')],
    ['too short', SECRET, sign(RAW).slice(0, 30)],
    ['not hex', SECRET, 'zz'.repeat(20)],
  ];
  it.each(cases)('%s: Web Crypto and node:crypto agree', async (_name, secret, signature) => {
    const body = Buffer.from(RAW, 'utf8');
    const sync = diagnoseSignature({ secret, body, signature });
    const web = await diagnoseSignatureAsync(webHmac, utf8, { secret, body, signature });
    expect(web).toEqual(sync);
  });

  it('agrees on arbitrary bytes, secrets and signatures', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), fc.string({ minLength: 1, maxLength: 12 }), fc.boolean(), async (body, secret, right) => {
        const signature = right ? sign(body, 'sha1', 'hex', secret) : sign(body, 'sha256', 'hex', secret);
        const web = await diagnoseSignatureAsync(webHmac, utf8, { secret, body, signature });
        expect(web).toEqual(diagnoseSignature({ secret, body, signature }));
      }),
      { numRuns: 60 },
    );
  });
});
