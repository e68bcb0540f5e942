/**
 * A check's evidence keeps a receiver's credential response headers masked, as it keeps request headers; a
 * scenario that expects such a header is still judged on the value as it came, and says only the mask.
 */
import { describe, expect, it } from 'vitest';
import type { CheckExchange } from '../../../main/contract/check/check.js';
import type { CheckScenario } from '../../../main/contract/check/checkInputs.js';
import { judgeExpectations, maskResponseHeaders } from '../../../main/check/runner.js';

const exchange = (headers: Record<string, string>): CheckExchange =>
  ({ label: 'sent', request: { method: 'POST', url: 'http://127.0.0.1/hook', headers: {}, body: '{}', bodyBytes: 2, bodyTruncated: false }, outcome: 'success', statusCode: 200, error: null, durationMs: 3, response: { headers: maskResponseHeaders(headers), body: '', bodyTruncated: false }, attempt: null, signature: null }) as CheckExchange;

const expecting = (contains: string) => ({ id: 'cookie', title: 'a session cookie', area: 'custom', expect: { header: { name: 'Set-Cookie', contains } } }) as unknown as CheckScenario;

describe('response headers in check evidence', () => {
  it('are masked by the request rule, and a header expectation judges the value as it came', () => {
    const ex = exchange({ 'set-cookie': 'sid=SECRET_SESSION_1; HttpOnly', 'x-request-id': 'r-1' });
    expect(ex.response!.headers).toEqual({ 'set-cookie': 'si••••', 'x-request-id': 'r-1' });
    // A relabelled copy (a repeated request) is judged the same way.
    expect(judgeExpectations(expecting('HttpOnly'), [ex, { ...ex, label: 'sent (2nd time)' }]).verdict).toBe('pass');
    const failed = judgeExpectations(expecting('Secure'), [ex]);
    expect(failed.verdict).toBe('fail');
    expect(failed.detail).toBe('sent: Set-Cookie is "si••••", which does not contain "Secure"');
    expect(JSON.stringify(failed)).not.toContain('SECRET_SESSION_1');
  });
});
