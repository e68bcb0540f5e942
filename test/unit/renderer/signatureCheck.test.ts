import { describe, expect, it } from 'vitest';
import { checkServerSignature, describeDifference } from '../../../renderer/src/features/signature/check';
import { signBody, utf8 } from '../../../renderer/src/lib/signature';

const SECRET = 's3cret';
const SENT = JSON.stringify({ version: 1, type: 'track', userId: 'u1', event: 'Signed Up', properties: {}, timestamp: '2026-01-02T03:04:05.678Z', messageId: 'm-1' });
const bytes = (s: string) => utf8.encode(s);

describe("the Signature panel's check of your server's signature", () => {
  it('computes X-Signature with Web Crypto as the engine does (lowercase hex HMAC-SHA1)', async () => {
    // Known answer: RFC 2202 test case 2.
    expect(await signBody('Jefe', bytes('what do ya want for nothing?'))).toBe('effcdf6ae5eb2fa2d27416d5f184df9c259a7c79');
  });

  it('says the signature is right when it is the HMAC of the bytes sent', async () => {
    const check = await checkServerSignature({ secret: SECRET, sent: bytes(SENT), given: await signBody(SECRET, bytes(SENT)), saw: null });
    expect(check.diagnosis.matches).toBe(true);
    expect(check.headline).toBe("Your server's signature is right: it is the HMAC-SHA1 of the bytes sent.");
    expect(check.bodyNote).toBeNull();
  });

  it('names a wrong secret as the CLI does', async () => {
    const check = await checkServerSignature({ secret: SECRET, sent: bytes(SENT), given: await signBody('other', bytes(SENT)), saw: null });
    expect(check.diagnosis.mistakes).toEqual(['unknown']);
    expect(check.headline).toBe('No known mistake explains it: check the shared secret.');
  });

  it('with the body the server saw: a pretty-printed copy, hashed correctly, is named and located', async () => {
    const pretty = JSON.stringify(JSON.parse(SENT), null, 2);
    const check = await checkServerSignature({ secret: SECRET, sent: bytes(SENT), given: await signBody(SECRET, bytes(pretty)), saw: bytes(pretty) });
    expect(check.diagnosis.mistakes).toEqual(['pretty-printed-2']);
    expect(check.saw).toEqual({ identical: false, signatureMatchesSaw: true, difference: `they differ at byte 2 of 135: sent 0x22 ('"'), your server saw 0x0a (\\n)` });
    expect(check.bodyNote).toMatch(/^Your server hashed the body it saw correctly, but that body is not the bytes sent/);
  });

  it('with an identical body: the body is not the problem', async () => {
    const check = await checkServerSignature({ secret: SECRET, sent: bytes(SENT), given: await signBody(SECRET, bytes(SENT)).then((s) => `sha1=${s}`), saw: bytes(SENT) });
    expect(check.diagnosis.mistakes).toEqual(['sha1-prefix']);
    expect(check.bodyNote).toBe('The body your server saw is the bytes sent: the body is not the problem.');
  });

  it('describes where two bodies part, counting bytes from 1', () => {
    expect(describeDifference(bytes('{"a":1}'), bytes('{"a":1}\n'), 7)).toBe('it has 1 more byte at the end, from 0x0a (\\n)');
    expect(describeDifference(bytes('{"a":1}\r\n'), bytes('{"a":1}'), 7)).toBe('it lacks the last 2 bytes, from 0x0d (\\r)');
    expect(describeDifference(bytes('{"a":1}'), bytes('{"a": 1}'), 5)).toBe("they differ at byte 6 of 7: sent 0x31 ('1'), your server saw 0x20 (space)");
  });
});
