/**
 * The signature diagnosis (main/contract/receiver/signatureDiagnosis.ts), one module for every face: each known
 * mistake named as node:crypto drives it synchronously (main/domain/signatureDiagnosis.ts: the CLI and the
 * receiver), also on deeply nested bodies; and the same answer driven asynchronously by Web Crypto (the
 * renderer's Signature panel).
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseSignatureAsync, toBase64, toHex, type HmacRequest, type Utf8 } from '../../../main/contract/receiver/signatureDiagnosis.js';
import { checkSignature } from '../../../main/domain/receiverScript.js';
import { diagnoseSignature, NO_KNOWN_MISTAKE } from '../../../main/domain/signatureDiagnosis.js';
import { deepTrackBody } from '../../helpers/deepJson.js';

const SECRET = 's3cret';
const bytes = (s: string) => Buffer.from(s, 'utf8');
/** Strings are signed as their UTF-8 bytes, as Node's update() reads a string by default. */
const sign = (body: string | Uint8Array, algorithm = 'sha1', encoding: 'hex' | 'base64' = 'hex', secret = SECRET) => createHmac(algorithm, secret).update(body).digest(encoding);

const utf8: Utf8 = { encode: (t) => new TextEncoder().encode(t), decode: (b) => new TextDecoder().decode(b) };
const webHmac = async ({ algorithm, secret, body }: HmacRequest): Promise<Uint8Array> => {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: algorithm === 'sha1' ? 'SHA-1' : 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, new Uint8Array(body)));
};

describe('diagnoseSignature', () => {
  /** A body as Hookbench sends it: compact JSON.stringify output, serialised once. */
  const RAW = JSON.stringify({ version: 1, type: 'track', userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' }, timestamp: '2026-01-02T03:04:05.678Z' });

  it('matches lowercase hex HMAC-SHA1 of the exact bytes, in any hex case and with surrounding whitespace', () => {
    const sig = sign(RAW);
    for (const given of [sig, sig.toUpperCase(), ` ${sig}\n`]) {
      const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: given });
      expect(d).toEqual({ matches: true, expected: sig, mistakes: [], explanation: 'signature matches' });
    }
  });

  it('a signature a receiver computed in upper-case hex is its mistake: compared as text with the lowercase header, it fails', () => {
    const sig = sign(RAW);
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: sig.toUpperCase(), computedByReceiver: true });
    expect(d).toMatchObject({ matches: false, mistakes: ['uppercase-hex'], expected: sig });
    expect(diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: sig, computedByReceiver: true }).matches).toBe(true);
  });

  it("names Python's compact json.dumps (separators without spaces, non-ASCII escaped) as a re-serialisation", () => {
    const body = JSON.stringify({ city: 'Zürich', n: 1 });
    const d = diagnoseSignature({ secret: SECRET, body: bytes(body), signature: sign('{"city":"Z\\u00fcrich","n":1}') });
    expect(d.mistakes).toEqual(['reserialised']);
  });

  it('names re-serialisation: the signature is over the compact bytes, the body given was re-encoded with spaces', () => {
    // What Python's json.dumps (and many frameworks) make of the same object.
    const reencoded = RAW.replace(/":/g, '": ').replace(/,"/g, ', "');
    expect(reencoded).not.toBe(RAW);
    expect(JSON.stringify(JSON.parse(reencoded))).toBe(RAW);
    const d = diagnoseSignature({ secret: SECRET, body: bytes(reencoded), signature: sign(RAW) });
    expect(d.matches).toBe(false);
    expect(d.mistakes).toEqual(['reserialised']);
    expect(d.explanation).toBe('matches the body re-serialised: your framework parsed and re-encoded the JSON; verify the raw bytes');
    expect(d.expected).toBe(sign(reencoded));
  });

  it.each([
    [2, 'pretty-printed-2'],
    [4, 'pretty-printed-4'],
  ] as const)('names a pretty-printed re-serialisation with %i spaces', (spaces, mistake) => {
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: sign(JSON.stringify(JSON.parse(RAW), null, spaces)) });
    expect(d.mistakes).toEqual([mistake]);
    expect(d.explanation).toContain(`pretty-printed with ${spaces} spaces`);
  });

  it("names Python's json.dumps re-serialisation (a space after each , and :, non-ASCII escaped or not)", () => {
    const body = JSON.stringify({ event: 'Café ordered 😀', properties: { note: 'a,b:c "q"', n: [1, 2] } });
    // Exactly what python3 -c 'import json; print(json.dumps(json.loads(body)))' writes, with and without ensure_ascii.
    const dumped = '{"event": "Caf\\u00e9 ordered \\ud83d\\ude00", "properties": {"note": "a,b:c \\"q\\"", "n": [1, 2]}}';
    const dumpedUnicode = '{"event": "Café ordered 😀", "properties": {"note": "a,b:c \\"q\\"", "n": [1, 2]}}';
    for (const signed of [dumped, dumpedUnicode]) {
      const d = diagnoseSignature({ secret: SECRET, body: bytes(body), signature: sign(signed) });
      expect(d.mistakes).toEqual(['python-json-dumps']);
      expect(d.explanation).toContain("Python's json.dumps");
    }
  });

  it('names a trailing newline in the body given that was not signed (echo), before any re-serialisation story', () => {
    const d = diagnoseSignature({ secret: SECRET, body: bytes(`${RAW}\n`), signature: sign(RAW) });
    expect(d.mistakes).toEqual(['trailing-newline-stripped']);
    expect(d.explanation).toMatch(/^matches the body with its trailing newline stripped/);
  });

  it('names a trailing newline that was signed but is missing from the body given', () => {
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: sign(`${RAW}\n`) });
    expect(d.mistakes).toEqual(['trailing-newline-added']);
    expect(d.explanation).toMatch(/^matches the body with a trailing newline added/);
  });

  it('names HMAC-SHA256 instead of SHA-1', () => {
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: sign(RAW, 'sha256') });
    expect(d.mistakes).toEqual(['sha256']);
    expect(d.explanation).toContain('HMAC-SHA256 instead of HMAC-SHA1');
  });

  it('names base64 instead of hex (standard and URL-safe unpadded)', () => {
    const b64 = sign(RAW, 'sha1', 'base64');
    for (const given of [b64, b64.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')]) {
      const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: given });
      expect(d.mistakes).toEqual(['base64']);
      expect(d.explanation).toContain('base64 instead of hex');
    }
  });

  it('names a sha1= prefix, also when the rest is otherwise right', () => {
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: `sha1=${sign(RAW)}` });
    expect(d.matches).toBe(false);
    expect(d.mistakes).toEqual(['sha1-prefix']);
    expect(d.explanation).toContain('"sha1=" prefix');
  });

  it('combines a prefix with another mistake (GitHub-style sha256=)', () => {
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: `sha256=${sign(RAW, 'sha256')}` });
    expect(d.mistakes).toEqual(['sha256', 'sha1-prefix']);
    expect(d.explanation).toContain('HMAC-SHA256');
    expect(d.explanation).toContain('"sha256=" prefix');
  });

  it('names whitespace around the secret', () => {
    const d = diagnoseSignature({ secret: `${SECRET}\n`, body: bytes(RAW), signature: sign(RAW) });
    expect(d.mistakes).toEqual(['secret-whitespace']);
  });

  it("names a signature made with the secret plus a newline (the signer's copy kept its file's newline)", () => {
    const withNewline = createHmac('sha1', `${SECRET}\n`).update(RAW).digest('hex');
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: withNewline });
    expect(d.mistakes).toEqual(['secret-newline']);
    expect(d.explanation).toMatch(/^matches the secret with a newline added at its end/);
  });

  it('names a signature of the wrong length or not hex when nothing reproduces it', () => {
    const short = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: sign(RAW).slice(0, 39) });
    expect(short.mistakes).toEqual(['wrong-length']);
    expect(short.explanation).toContain('39 hex characters');
    expect(short.explanation).toContain('40');
    expect(diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: '' }).mistakes).toEqual(['wrong-length']);
    const notHex = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: 'zz'.repeat(20) });
    expect(notHex.mistakes).toEqual(['not-hex']);
  });

  it('blames the secret when no known mistake explains a well-formed signature', () => {
    const d = diagnoseSignature({ secret: SECRET, body: bytes(RAW), signature: sign(RAW, 'sha1', 'hex', 'other-secret') });
    expect(d.mistakes).toEqual(['unknown']);
    expect(d.explanation).toBe(NO_KNOWN_MISTAKE);
    expect(d.explanation).toBe('no known mistake explains it: check the shared secret');
  });

  it('works on bytes that are not JSON or not UTF-8', () => {
    const body = Buffer.from([0xff, 0x00, 0x41, 0x0a]);
    const sig = createHmac('sha1', SECRET).update(body).digest('hex');
    expect(diagnoseSignature({ secret: SECRET, body, signature: sig }).matches).toBe(true);
    expect(diagnoseSignature({ secret: SECRET, body, signature: sign('x') }).mistakes).toEqual(['unknown']);
  });
});

// The diagnosis re-serialised the parsed body, which recursed until the stack overflowed.
describe('signature diagnosis of deeply nested bodies', () => {
  const body = Buffer.from(deepTrackBody(5000, 'deep-1'), 'utf8');
  const signedWithOtherSecret = createHmac('sha1', 'other').update(body).digest('hex');

  it('diagnoses a 5,000-level body signed with another secret without throwing', () => {
    const d = diagnoseSignature({ secret: 's3cret', body, signature: signedWithOtherSecret });
    expect(d.matches).toBe(false);
    expect(d.mistakes).toEqual(['unknown']);
    expect(d.expected).toBe(createHmac('sha1', 's3cret').update(body).digest('hex'));
  });

  it('still recognises a valid signature and the simple slips on such a body', () => {
    const good = createHmac('sha1', 's3cret').update(body).digest('hex');
    expect(diagnoseSignature({ secret: 's3cret', body, signature: good }).matches).toBe(true);
    const withNewline = createHmac('sha1', 's3cret').update(Buffer.concat([body, Buffer.from('\n')])).digest('hex');
    expect(diagnoseSignature({ secret: 's3cret', body, signature: withNewline }).mistakes).toEqual(['trailing-newline-added']);
  });

  it('checkSignature (what the receiver runs per capture) answers a verdict', () => {
    expect(checkSignature({ secret: 's3cret', body, given: signedWithOtherSecret }).verdict).toBe('invalid');
  });
});

describe('the shared signature diagnosis', () => {
  const RAW = JSON.stringify({ version: 1, type: 'track', userId: 'u1', event: 'Signed Up', properties: { plan: 'pro', note: 'naïve ☃' }, timestamp: '2026-01-02T03:04:05.678Z' });

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
