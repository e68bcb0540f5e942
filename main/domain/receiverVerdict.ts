/**
 * Both sides of an attempt to the mock receiver (pure): the receiver's verdict on the request an attempt
 * sent, and when the two sides sign and check with different secrets, say exactly that, with each
 * secret's fingerprint (never the secret) and whether making them one would fix it.
 */
import type { AttemptRecord } from '../contract/deliveries.js';
import { destinationOwner, type Destination } from '../contract/destinations.js';
import type { CaptureAttempt, CaptureRecord, ReceiverCheck, SecretMismatch, SignatureCheck } from '../contract/receiver/receiver.js';
import { secretFingerprint } from './secrets.js';
import { signBody } from './signature.js';

export interface VerdictContext {
  attempts: readonly AttemptRecord[];
  /** Attempt's delivery → its destination id and name (as recorded on the delivery). */
  deliveryOf: (deliveryId: number) => { destinationId: string; destinationName: string } | undefined;
  /** The destination as configured now (its secret in clear), if it still exists. */
  destination: (id: string) => Destination | undefined;
  /** The receiver endpoint's secret now: null when it has none, undefined when it no longer exists. */
  receiverSecret: (name: string) => string | null | undefined;
}

/**
 * `destination 'Orders API' signs with a secret that differs from receiver endpoint 'orders'`; once that is no
 * longer so (Use one secret, a secret changed), in the past: it was true of this request when it was sent.
 */
export function secretsDifferWords(destinationName: string, receiver: string, stillSo = true): string {
  return stillSo
    ? `destination '${destinationName}' signs with a secret that differs from receiver endpoint '${receiver}'`
    : `destination '${destinationName}' signed with a secret that differed from receiver endpoint '${receiver}' when this request was sent`;
}

/**
 * A capture's verdict when the engine's own attempt sent it: the request was matched by its exact bytes and
 * headers, X-Signature included, so an invalid one was signed as the engine signs, with the destination's
 * secret, and only the two secrets can differ. Said in the past, as the capture keeps it. The check's deliberate
 * forgeries (its own destinations) keep the diagnosis of the bytes.
 */
export function engineSentVerdict(signature: SignatureCheck | null, attempt: CaptureAttempt | null, receiver: string): SignatureCheck | null {
  if (!signature || signature.verdict !== 'invalid' || !attempt?.destinationName || destinationOwner(attempt.destinationName) === 'check') return signature;
  return { ...signature, diagnosis: { mistakes: ['secret-differs'], explanation: secretsDifferWords(attempt.destinationName, receiver, false) } };
}

/** `destination 'Orders API' has no shared secret, so it sends no X-Signature; receiver endpoint 'orders' expects one` (in the past once it has one). */
export function unsignedWords(destinationName: string, receiver: string, stillSo = true): string {
  return stillSo
    ? `destination '${destinationName}' has no shared secret, so it sends no X-Signature; receiver endpoint '${receiver}' expects one`
    : `destination '${destinationName}' had no shared secret when this request was sent, so it sent no X-Signature; receiver endpoint '${receiver}' expected one`;
}

/** What a check's deliberate forgery met at the mock receiver. */
export function forgedOnPurposeWords(destinationName: string, receiver: string, verdict: 'invalid' | 'missing'): string {
  const how = verdict === 'missing' ? 'without X-Signature' : 'with another secret';
  return `hookbench check sent this request ${how} on purpose (destination '${destinationName}'): receiver endpoint '${receiver}' is right to find it ${verdict}; nothing needs changing`;
}

/** One check per capture the message's attempts produced, in capture order. */
export function receiverChecks(captures: readonly CaptureRecord[], ctx: VerdictContext): ReceiverCheck[] {
  const out: ReceiverCheck[] = [];
  for (const c of captures) {
    const link = c.attempt;
    if (!link) continue;
    const attempt = ctx.attempts.find((a) => a.deliveryId === link.deliveryId && a.attemptNumber === link.attemptNumber && a.webhookIndex === link.webhookIndex);
    if (!attempt) continue;
    out.push(checkOf(c, attempt, ctx));
  }
  return out;
}

function checkOf(c: CaptureRecord, attempt: AttemptRecord, ctx: VerdictContext): ReceiverCheck {
  const base = { attemptId: attempt.id, captureId: c.id, receiver: c.receiver };
  const sig = c.signature;
  if (!sig) return { ...base, verdict: null, explanation: null, mistakes: [], secrets: null };
  if (sig.verdict === 'valid') return { ...base, verdict: 'valid', explanation: null, mistakes: [], secrets: null };
  const delivery = ctx.deliveryOf(attempt.deliveryId);
  const receiver = c.receiver ?? 'receiver';
  const mistakes = sig.diagnosis?.mistakes ?? [];
  if (!delivery) return { ...base, verdict: sig.verdict, explanation: sig.diagnosis?.explanation ?? null, mistakes, secrets: null };
  const destination = ctx.destination(delivery.destinationId);
  // hookbench check signs with another secret (or none) on purpose: the refusal is the receiver doing its job,
  // and no secret should change because of it.
  const signedBy = destination?.name ?? delivery.destinationName;
  if (destinationOwner(signedBy) === 'check') {
    return { ...base, verdict: sig.verdict, explanation: forgedOnPurposeWords(signedBy, receiver, sig.verdict), mistakes, secrets: null };
  }
  const mismatch = (): SecretMismatch => {
    const current = destination?.sharedSecret ?? null;
    const receiverNow = ctx.receiverSecret(receiver);
    // A fingerprint is shown only for the secret that was actually used: the current one, if it still is.
    // The capture holds the exact bytes the attempt sent (all of them unless the body was too large).
    const body = c.bodyTruncated ? null : Buffer.from(c.body.base64, 'base64');
    const used = (secret: string | null | undefined, signature: string | null) => typeof secret === 'string' && body !== null && signature !== null && signBody(secret, body) === signature;
    const destinationFingerprint = used(current, attempt.signature) ? secretFingerprint(current!) : null;
    const receiverFingerprint = used(receiverNow, sig.expected) ? secretFingerprint(receiverNow!) : null;
    return {
      destinationId: delivery.destinationId,
      destinationName: destination?.name ?? delivery.destinationName,
      receiver,
      destinationFingerprint,
      receiverFingerprint,
      fixable: destination !== undefined && typeof receiverNow === 'string' && current !== receiverNow,
    };
  };
  if (sig.verdict === 'missing') {
    if (attempt.signature !== null) return { ...base, verdict: 'missing', explanation: null, mistakes, secrets: null };
    const secrets = mismatch();
    return { ...base, verdict: 'missing', explanation: unsignedWords(secrets.destinationName, receiver, secrets.fixable), mistakes, secrets };
  }
  // The engine signs the exact bytes it sends; the receiver checks the bytes it received (the same ones,
  // in-process). The X-Signature arrived as the engine sent it, so only the secrets can differ.
  const given = sig.given?.trim().toLowerCase() ?? null;
  if (attempt.signature !== null && given === attempt.signature) {
    const secrets = mismatch();
    return { ...base, verdict: 'invalid', explanation: secretsDifferWords(secrets.destinationName, receiver, secrets.fixable), mistakes: ['secret-differs'], secrets };
  }
  return { ...base, verdict: 'invalid', explanation: sig.diagnosis?.explanation ?? null, mistakes, secrets: null };
}
