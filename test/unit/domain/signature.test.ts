import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureMatches, signBody } from '../../../main/domain/signature.js';

describe('X-Signature', () => {
  const body = Buffer.from('{"version":1,"type":"track","userId":"ü","event":"E"}', 'utf8');
  it('is lowercase hex HMAC-SHA1 of the exact bytes', () => {
    const sig = signBody('s3cret', body);
    expect(sig).toMatch(/^[0-9a-f]{40}$/);
    expect(sig).toBe(createHmac('sha1', 's3cret').update(body).digest('hex'));
  });
  it('verifies, case-insensitively, and refuses other bytes or secrets', () => {
    const sig = signBody('s3cret', body);
    expect(signatureMatches('s3cret', body, sig.toUpperCase())).toBe(true);
    expect(signatureMatches('other', body, sig)).toBe(false);
    expect(signatureMatches('s3cret', Buffer.concat([body, Buffer.from('\n')]), sig)).toBe(false);
    expect(signatureMatches('s3cret', body, 'short')).toBe(false);
  });
});
