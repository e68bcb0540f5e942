/**
 * "Your server's signature": the shared diagnosis (main/contract/receiver/signatureDiagnosis.ts) over the bytes that
 * were signed and sent, and, when the user pastes the body their server saw, what that body changes.
 */
import type { SignatureDiagnosis } from '../../../../main/contract/receiver/signatureDiagnosis';
import { diagnose, firstDifference, signBody } from '../../lib/signature';
import { formatCount } from '../../lib/format';

export interface SawCheck {
  /** The body the server saw is byte for byte the body sent. */
  identical: boolean;
  /** The given signature is the HMAC-SHA1 of the body the server saw. */
  signatureMatchesSaw: boolean;
  /** Where the two first differ, in words (null when identical). */
  difference: string | null;
}

export interface ServerCheck {
  diagnosis: SignatureDiagnosis;
  saw: SawCheck | null;
  /** The verdict in one sentence: right, or the mistake that explains it. */
  headline: string;
  /** What the pasted body tells, when one was pasted. */
  bodyNote: string | null;
}

export async function checkServerSignature(input: { secret: string; sent: Uint8Array; given: string; saw: Uint8Array | null }): Promise<ServerCheck> {
  const diagnosis = await diagnose({ secret: input.secret, body: input.sent, signature: input.given, computedByReceiver: true });
  let headline = diagnosis.matches ? "Your server's signature is right: it is the HMAC-SHA1 of the bytes sent." : `${capitalise(diagnosis.explanation)}.`;
  if (input.saw === null) return { diagnosis, saw: null, headline, bodyNote: null };
  const at = firstDifference(input.sent, input.saw);
  const signatureMatchesSaw = (await signBody(input.secret, input.saw)) === input.given.trim().toLowerCase();
  const difference = at === null ? null : describeDifference(input.sent, input.saw, at);
  const saw: SawCheck = { identical: at === null, signatureMatchesSaw, difference };
  let bodyNote: string;
  if (saw.identical) bodyNote = diagnosis.matches ? 'The body your server saw is the bytes sent.' : 'The body your server saw is the bytes sent: the body is not the problem.';
  else if (signatureMatchesSaw) {
    // Its HMAC of what it saw is right, so the secret is too: the headline must not send the user to it.
    if (diagnosis.mistakes.includes('unknown')) headline = 'The secret is right; the body your server hashed is not the bytes sent.';
    bodyNote = `Your server hashed the body it saw correctly, but that body is not the bytes sent: ${difference}. Hash the raw request bytes, before any parsing.`;
  }
  else bodyNote = `The body your server saw is not the bytes sent either: ${difference}.`;
  return { diagnosis, saw, headline, bodyNote };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A byte as a reader needs it: `0x0a (\n)`, `0x2c (',')`, `0x22 ('"')`. */
export function describeByte(b: number): string {
  const hex = `0x${b.toString(16).padStart(2, '0')}`;
  const named: Record<number, string> = { 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x20: 'space' };
  if (named[b]) return `${hex} (${named[b]})`;
  const char = String.fromCharCode(b);
  if (b > 0x20 && b < 0x7f) return `${hex} (${char === "'" ? `"'"` : `'${char}'`})`;
  return hex;
}

/**
 * Where two bodies part, bytes counted from 1: `they differ at byte 2 of 207: sent 0x22 ('"'), your server
 * saw 0x0a (\n)`, `it has 1 more byte at the end: 0x0a (\n)`.
 */
export function describeDifference(sent: Uint8Array, saw: Uint8Array, at: number): string {
  if (at === sent.length) {
    const extra = saw.length - sent.length;
    return `it has ${extra} more byte${extra === 1 ? '' : 's'} at the end, from ${describeByte(saw[at]!)}`;
  }
  if (at === saw.length) {
    const missing = sent.length - saw.length;
    return `it lacks the last ${missing} byte${missing === 1 ? '' : 's'}, from ${describeByte(sent[at]!)}`;
  }
  return `they differ at byte ${formatCount(at + 1)} of ${formatCount(sent.length)}: sent ${describeByte(sent[at]!)}, your server saw ${describeByte(saw[at]!)}`;
}
