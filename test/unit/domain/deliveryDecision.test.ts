import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../../main/contract/destinations.js';
import { decideAfterRound, deriveMessageStatus, type WebhookResult } from '../../../main/domain/deliveryDecision.js';
import { classifyNetworkError, classifyStatus } from '../../../main/domain/outcome.js';

const r = (url: string, status: number): WebhookResult => ({ url, ...classifyStatus(status), retryAfterMs: null });
const round = (results: WebhookResult[]) =>
  decideAfterRound({ results, policy: DEFAULT_RETRY_POLICY, attemptsMade: 1, firstAttemptAt: 0, finishedAt: 0, unit: 0.5 });

describe('classify (docs/behaviour.md §3 table)', () => {
  it.each([
    [200, 'success', false],
    [299, 'success', false],
    [500, 'http_error', true],
    [503, 'http_error', true],
    [429, 'http_error', true],
    [301, 'http_error', false],
    [404, 'http_error', false],
    [400, 'http_error', false],
  ] as const)('%i → %s, retryable %s', (status, outcome, retryable) => {
    expect(classifyStatus(status)).toMatchObject({ outcome, retryable });
  });

  it('TLS codes are permanent tls_error; socket codes are retryable network_error', () => {
    expect(classifyNetworkError('DEPTH_ZERO_SELF_SIGNED_CERT', 'x')).toMatchObject({ outcome: 'tls_error', retryable: false, permanentReason: 'tls: self-signed certificate' });
    expect(classifyNetworkError('CERT_HAS_EXPIRED', 'x')).toMatchObject({ outcome: 'tls_error', retryable: false });
    expect(classifyNetworkError('ECONNRESET', 'x')).toMatchObject({ outcome: 'network_error', retryable: true });
    expect(classifyNetworkError('ENOTFOUND', 'x')).toMatchObject({ outcome: 'network_error', retryable: true });
  });

  it("an error is said on one line, OpenSSL's internals left out, and a TLS version mismatch says what it most often means", () => {
    const openssl = '40FD4EAB2B7F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:\n';
    expect(classifyNetworkError('ERR_SSL_WRONG_VERSION_NUMBER', openssl)).toEqual({
      outcome: 'network_error',
      retryable: true,
      permanentReason: null,
      error: 'ERR_SSL_WRONG_VERSION_NUMBER: wrong version number: the server did not answer in TLS (plain http on that port?)',
    });
    expect(classifyNetworkError('ECONNRESET', 'socket hang up\n  while reading')).toMatchObject({ error: 'ECONNRESET: socket hang up while reading' });
  });
});

describe('one round', () => {
  it('any success delivers, and nothing is retried', () => {
    expect(round([r('a', 500), r('b', 200)])).toEqual({ status: 'delivered', reason: null });
  });
  it('all permanent: failed with the reason', () => {
    expect(round([r('a', 404)])).toEqual({ status: 'failed', reason: 'permanent: HTTP 404' });
    expect(round([r('a', 301)])).toEqual({ status: 'failed', reason: 'redirect not followed (301)' });
  });
  it('some retryable: only those are pending', () => {
    expect(round([r('a', 404), r('b', 503)])).toMatchObject({ status: 'retrying', pendingUrls: ['b'], nextAttemptAt: 5000 });
  });
});

describe('message status from deliveries', () => {
  it.each([
    [[], null],
    [['delivered', 'delivering'], 'delivering'],
    [['delivered', 'retrying', 'queued'], 'retrying'],
    [['delivered', 'queued'], 'queued'],
    [['delivered', 'delivered'], 'delivered'],
    [['cancelled', 'cancelled'], 'cancelled'],
    [['delivered', 'failed'], 'failed'],
    [['delivered', 'cancelled'], 'delivered'],
  ] as const)('%j → %s', (statuses, expected) => {
    expect(deriveMessageStatus(statuses)).toBe(expected);
  });
});
