/**
 * The signature diagnosis (main/contract/receiver/signatureDiagnosis.ts, shared with the renderer) driven by
 * node:crypto, synchronously: what `hookbench verify` and the mock receiver's verdicts run.
 */
import { createHmac } from 'node:crypto';
import { diagnoseSignatureWith, type HmacRequest, type SignatureDiagnosis, type SignatureInput, type Utf8 } from '../contract/receiver/signatureDiagnosis.js';

export { NO_KNOWN_MISTAKE, RESERIALISE_MAX_DEPTH } from '../contract/receiver/signatureDiagnosis.js';
export type { SignatureDiagnosis, SignatureMistake } from '../contract/receiver/signatureDiagnosis.js';

const utf8: Utf8 = {
  encode: (text) => Buffer.from(text, 'utf8'),
  decode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
};

const hmac = ({ algorithm, secret, body }: HmacRequest): Uint8Array => createHmac(algorithm, secret).update(body).digest();

export function diagnoseSignature(input: SignatureInput): SignatureDiagnosis {
  return diagnoseSignatureWith(hmac, utf8, input);
}
