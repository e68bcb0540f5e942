import { describe, expect, it } from 'vitest';
import { formatHash, parseHash } from '../../../renderer/src/stores/router';
import { toCurl } from '../../../renderer/src/lib/curl';
import { failureReason, retryFate } from '../../../renderer/src/lib/failureReason';

describe('hash routes', () => {
  it('round-trips views, messages and attempts, and falls back to Live', () => {
    for (const hash of ['#/live', '#/live/42', '#/live/42/attempt/7', '#/compose', '#/audiences', '#/receiver', '#/receiver/orders', '#/receiver/orders/capture/9']) {
      expect(formatHash(parseHash(hash))).toBe(hash);
    }
    expect(parseHash('')).toEqual({ view: 'live', messageId: null, attemptId: null, receiver: null, captureId: null, sub: [], query: {} });
    expect(parseHash('#/receiver/my.hook/capture/3')).toEqual({ view: 'receiver', messageId: null, attemptId: null, receiver: 'my.hook', captureId: 3, sub: [], query: {} });
    expect(parseHash('#/nowhere/3').view).toBe('live');
  });

  it('opens a message and an attempt in History as in Live, with the filter kept in the query', () => {
    for (const hash of ['#/history/42', '#/history/42/attempt/7?userId=ada', '#/history?status=failed']) expect(formatHash(parseHash(hash))).toBe(hash);
    expect(parseHash('#/history/42/attempt/7?userId=ada')).toEqual({ view: 'history', messageId: 42, attemptId: 7, receiver: null, captureId: null, sub: [], query: { userId: 'ada' } });
  });

  it('keeps a view\'s own segments and a query, so a filter survives a reload or a shared link', () => {
    for (const hash of ['#/destinations/3', '#/destinations/new', '#/history?status=failed&userId=ada', '#/sources/wk%20web/log', '#/live?status=retrying']) {
      expect(formatHash(parseHash(hash))).toBe(hash);
    }
    expect(parseHash('#/history?text=caf%C3%A9&from=2026-01-01').query).toEqual({ text: 'café', from: '2026-01-01' });
    expect(parseHash('#/sources/a%2Fb').sub).toEqual(['a/b']);
    // Empty values are left out of the hash.
    expect(formatHash({ ...parseHash('#/history'), query: { status: '', type: 'track' } })).toBe('#/history?type=track');
  });
});

describe('attempt detail helpers', () => {
  it('copies a request as cURL with the exact body, quoting safely', () => {
    const curl = toCurl({ method: 'POST', url: 'http://h/r', headers: { 'Content-Type': 'application/json', 'Content-Length': '12', 'X-Signature': 'ab' }, body: `{"it's":1}` });
    expect(curl).toBe(`curl -X POST 'http://h/r' \\\n  -H 'Content-Type: application/json' \\\n  -H 'X-Signature: ab' \\\n  --data-raw '{"it'\\''s":1}'`);
  });

  it('says why an attempt failed in plain words', () => {
    expect(failureReason({ outcome: 'timeout', statusCode: null, error: 'no response headers within 5000 ms', retryable: true })).toMatch(/^No response headers within 5 s/);
    expect(failureReason({ outcome: 'tls_error', statusCode: null, error: 'tls: self-signed certificate: x', retryable: false })).toMatch(/^Self-signed certificate: no request was sent/);
    expect(failureReason({ outcome: 'http_error', statusCode: 404, error: null, retryable: false })).toMatch(/permanent/);
    expect(failureReason({ outcome: 'success', statusCode: 200, error: null, retryable: false })).toBeNull();
    expect(failureReason({ outcome: 'http_error', statusCode: 503, error: null, retryable: true, responseHeaders: { 'retry-after': '120' } })).toBe(
      'HTTP 503: the endpoint had a server error. Retried. It asked to wait (Retry-After: 120 s), so the next attempt waits at least that long.',
    );
  });

  it("says what came of a retryable attempt: retried, a retry to come, or why not (never 'Retried' over the last attempt of a failed delivery)", () => {
    const first = { deliveryId: 7, webhookIndex: 0, attemptNumber: 1 };
    const second = { ...first, attemptNumber: 2 };
    const otherWebhook = { ...first, webhookIndex: 1, attemptNumber: 2 };
    expect(retryFate(first, [first, second], { status: 'failed', reason: 'max attempts reached (2)' })).toBe('Retried.');
    expect(retryFate(first, [first, otherWebhook], { status: 'retrying', reason: null })).toBe('A retry is scheduled.');
    expect(retryFate(first, [first], { status: 'retrying', reason: null }, true)).toBe('Its retry is held: the destination is off, and nothing is sent until it is turned on.');
    expect(retryFate(second, [first, second], { status: 'failed', reason: 'max attempts reached (2)' })).toBe('Not retried: max attempts reached (2).');
    expect(retryFate(first, [first, otherWebhook], { status: 'delivered', reason: null })).toBe('Not retried: the delivery succeeded through another webhook.');
    const attempt = { outcome: 'http_error' as const, statusCode: 500, error: null, retryable: true, responseHeaders: { 'retry-after': '120' } };
    expect(failureReason(attempt, retryFate(second, [first, second], { status: 'failed', reason: 'max attempts reached (2)' }))).toBe(
      'HTTP 500: the endpoint had a server error. Not retried: max attempts reached (2). It asked to wait (Retry-After: 120 s).',
    );
  });
});
