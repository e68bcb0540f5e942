import { FAST_FORWARDED, REASONS, reasons, type AttemptOutcome } from '../contract/deliveries.js';

export interface Classified {
  outcome: AttemptOutcome;
  retryable: boolean;
  /** Why the delivery fails if this is its final word (permanent outcomes only). */
  permanentReason: string | null;
}

/** docs/behaviour.md §3 for a response that arrived. */
export function classifyStatus(status: number): Classified {
  if (status >= 200 && status < 300) return { outcome: 'success', retryable: false, permanentReason: null };
  if (status >= 500 || status === 429) return { outcome: 'http_error', retryable: true, permanentReason: null };
  if (status >= 300 && status < 400) return { outcome: 'http_error', retryable: false, permanentReason: reasons.redirect(status) };
  return { outcome: 'http_error', retryable: false, permanentReason: reasons.permanentHttp(status) };
}

const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);
const TLS_CODES = new Set([
  ...SELF_SIGNED,
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
  'INVALID_CA',
]);

/** Node's own advice on a certificate it does not trust: a flag of Node's, which no Hookbench user can pass. */
const NODE_CA_HINT = /;?\s*if the root CA is installed locally, try running Node\.js with\s+--use-system-ca\.?/i;

/** OpenSSL's own line (`40FD…:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/…:77:`): its reason is the part a user can read. */
const OPENSSL_LINE = /^[0-9A-F]+:error:[0-9A-F]+:[^:]*:[^:]*:([^:]+):/;

/** A network error's message on one line, OpenSSL's internals left out, and what a TLS version mismatch most often means. */
function readableMessage(code: string | undefined, given: string): string {
  const oneLine = given.replace(NODE_CA_HINT, '').replace(/\s+/g, ' ').trim();
  const message = OPENSSL_LINE.exec(oneLine)?.[1]?.trim() ?? oneLine;
  return code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? `${message}: the server did not answer in TLS (plain http on that port?)` : message;
}

/** A failure before any response: TLS refusal (permanent, nothing was sent) or a network error (retried). */
export function classifyNetworkError(code: string | undefined, given: string): Classified & { error: string } {
  const message = readableMessage(code, given);
  if (code && TLS_CODES.has(code)) {
    const reason = SELF_SIGNED.has(code) ? REASONS.selfSigned : `tls: untrusted certificate (${code})`;
    return { outcome: 'tls_error', retryable: false, permanentReason: reason, error: `${reason}: ${message}` };
  }
  return { outcome: 'network_error', retryable: true, permanentReason: null, error: code ? `${code}: ${message}` : message };
}

export function timeoutOutcome(timeoutMs: number): Classified & { error: string } {
  return { outcome: 'timeout', retryable: true, permanentReason: null, error: `no response headers within ${timeoutMs} ms` };
}

/**
 * A jump's attempt ended early by **Fast-forward unanswered attempts** (docs/behaviour.md §5): a `timeout`
 * whose error says so, since it might still have answered within the destination's own timeout.
 */
export function fastForwardedOutcome(afterMs: number, timeoutMs: number): Classified & { error: string } {
  const after = afterMs % 1000 === 0 ? `${afterMs / 1000} s` : `${afterMs} ms`;
  return {
    outcome: 'timeout',
    retryable: true,
    permanentReason: null,
    error: `${FAST_FORWARDED} after ${after} without response headers (Fast-forward unanswered attempts is on; the timeout is ${timeoutMs} ms)`,
  };
}
