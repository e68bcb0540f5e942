/** Pure parts of the client: request bodies and their split, backoff, Retry-After, the DEBUG switch. */
import { describe, expect, it } from 'vitest';
import { batchBody, requestBytes, splitIntoRequests } from '../../../main/client/batching.js';
import { backoffDelay, parseRetryAfter } from '../../../main/client/client.js';
import { debugEnabled } from '../../../main/client/index.js';

describe('client: request bodies', () => {
  it('requestBytes bounds the real body size', () => {
    const jsons = ['{"a":1}', '{"b":"é"}', '{}'];
    const bytes = jsons.reduce((n, j) => n + Buffer.byteLength(j), 0);
    const body = batchBody(jsons, '2026-11-22T06:22:02.954Z');
    expect(JSON.parse(body)).toEqual({ batch: [{ a: 1 }, { b: 'é' }, {}], sentAt: '2026-11-22T06:22:02.954Z' });
    const bound = requestBytes(bytes, jsons.length);
    expect(bound).toBeGreaterThanOrEqual(Buffer.byteLength(body));
    expect(bound - Buffer.byteLength(body)).toBe(3); // room for a 27-character extended-year sentAt
    expect(requestBytes(bytes, jsons.length)).toBeGreaterThanOrEqual(Buffer.byteLength(batchBody(jsons, new Date(8.64e15).toISOString())));
  });

  it('splits in order into the fewest requests within the limit', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ i, bytes: 20_000 }));
    const requests = splitIntoRequests(items, 512_000);
    expect(requests.map((r) => r.length)).toEqual([25, 15]);
    expect(requests.flat().map((r) => r.i)).toEqual(items.map((r) => r.i));
    for (const r of requests) expect(requestBytes(r.length * 20_000, r.length)).toBeLessThanOrEqual(512_000);
  });

  it('puts a message in the current request exactly when the body still fits', () => {
    const limitForTwo = requestBytes(100 + 50, 2);
    expect(splitIntoRequests([{ bytes: 100 }, { bytes: 50 }], limitForTwo)).toHaveLength(1);
    expect(splitIntoRequests([{ bytes: 100 }, { bytes: 51 }], limitForTwo)).toHaveLength(2);
    expect(splitIntoRequests([], 512_000)).toEqual([]);
  });
});

describe('client: retry timing', () => {
  it('backs off from 100 ms, doubling, capped, with ±25 % jitter', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, 100, 10_000, mid))).toEqual([100, 200, 400, 800]);
    expect(backoffDelay(10, 100, 10_000, mid)).toBe(10_000);
    expect(backoffDelay(1, 100, 10_000, () => 0)).toBe(75);
    expect(backoffDelay(1, 100, 10_000, () => 0.999_999)).toBe(125);
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = Date.UTC(2026, 10, 22, 6, 0, 0);
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter(new Date(now - 5000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('client: DEBUG', () => {
  it.each([
    ['analytics', true],
    ['express,analytics', true],
    ['express analytics', true],
    ['*', true],
    ['analytic*', true],
    ['*,-analytics', false],
    ['express:*', false],
    ['analytics:*', false],
    ['', false],
    [undefined, false],
  ])('DEBUG=%s → %s', (value, on) => {
    expect(debugEnabled(value)).toBe(on);
  });
});
