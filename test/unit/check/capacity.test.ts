/**
 * The capacity check's pure parts (main/check/capacity.ts): how a failed delivery is counted (errorKind)
 * and the verdict on a run's figures (judgeCapacity).
 */
import { describe, expect, it } from 'vitest';
import { errorKind } from '../../../main/check/capacity.js';

describe('errorKind', () => {
  it('counts a connection the receiver closed as "connection closed", not undici\'s UND_ERR_SOCKET', () => {
    expect(errorKind({ outcome: 'network_error', statusCode: null, error: 'UND_ERR_SOCKET: other side closed' })).toBe('connection closed');
  });

  it('keeps the system code (ECONNRESET), the status, and the outcome otherwise', () => {
    expect(errorKind({ outcome: 'network_error', statusCode: null, error: 'ECONNRESET: read ECONNRESET' })).toBe('ECONNRESET');
    expect(errorKind({ outcome: 'http_error', statusCode: 503, error: 'HTTP 503' })).toBe('HTTP 503');
    expect(errorKind({ outcome: 'tls_error', statusCode: null, error: 'tls: self-signed certificate' })).toBe('tls_error');
    expect(errorKind({ outcome: 'network_error', statusCode: null, error: 'socket hang up' })).toBe('network_error');
  });
});
