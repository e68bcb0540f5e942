/**
 * The capacity check's pure parts (main/check/capacity.ts): how a failed delivery is counted (errorKind)
 * and the verdict on a run's figures (judgeCapacity).
 */
import { describe, expect, it } from 'vitest';
import { errorKind, judgeCapacity } from '../../../main/check/capacity.js';
import type { CheckCapacity } from '../../../main/contract/check/check.js';

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

/** A run's figures: `rate` deliveries a second over `seconds`, each second alike, no errors. */
function run(rate: number, over: Partial<CheckCapacity> = {}): CheckCapacity {
  const seconds = over.series?.length ?? over.seconds ?? 5;
  return {
    concurrency: 16,
    seconds,
    deliveriesPerSecond: rate,
    latencyMs: { p50: 40, p95: 60, p99: 70, max: 90 },
    errors: {},
    timeouts: 0,
    series: Array.from({ length: seconds }, (_, i) => ({ second: i + 1, deliveries: Math.round(rate), p50: 40, p95: 60, errors: 0 })),
    timeoutMs: 5_000,
    expectRate: null,
    finished: true,
    ...over,
  };
}

describe('judgeCapacity: headroom', () => {
  it('floors the headroom: 199/s against 100 reads 1.9×, never the 2× it is under', () => {
    const j = judgeCapacity(run(199, { expectRate: 100 }));
    expect(j.verdict).toBe('warn');
    expect(j.detail).toMatch(/^sustains 100\/s with only 1\.9× headroom \(under 2×/);
  });

  it('passes at 2× and more, the headroom floored too', () => {
    expect(judgeCapacity(run(200, { expectRate: 100 }))).toMatchObject({ verdict: 'pass', detail: expect.stringMatching(/^sustains 100\/s with 2× headroom/) });
    expect(judgeCapacity(run(259.9, { expectRate: 100 })).detail).toMatch(/with 2\.5× headroom/);
  });
});
