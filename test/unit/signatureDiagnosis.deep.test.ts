import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diagnoseSignature } from '../../main/domain/signatureDiagnosis.js';
import { checkSignature } from '../../main/domain/receiverScript.js';
import { deepTrackBody } from '../helpers/deepJson.js';

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
