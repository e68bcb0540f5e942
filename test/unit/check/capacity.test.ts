/**
 * The capacity check's pure parts (main/check/capacity.ts): how a failed delivery is counted (errorKind)
 * and the verdict on a run's figures (judgeCapacity).
 */
import { describe, expect, it } from 'vitest';
import { capacityFigures, errorKind, judgeCapacity } from '../../../main/check/capacity.js';
import { parseCommandInput } from '../../../main/contract/dispatch.js';
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

describe('judgeCapacity: failures that are not capacity', () => {
  /** Every delivery refused with this status: no second has a delivery. */
  const refused = (kind: string, n: number, over: Partial<CheckCapacity> = {}): CheckCapacity =>
    run(0, { errors: { [kind]: n }, series: Array.from({ length: 5 }, (_, i) => ({ second: i + 1, deliveries: 0, p50: 5, p95: 9, errors: n / 5 })), ...over });

  it('fails a run where every delivery got HTTP 401, saying the receiver refused every one and pointing at the other checks, not at capacity', () => {
    for (const expectRate of [null, 50]) {
      const j = judgeCapacity(refused('HTTP 401', 12_370, { expectRate }));
      expect(j.verdict).toBe('fail');
      expect(j.detail).toMatch(/^the receiver refused every delivery \(HTTP 401 ×12,370\): none succeeded, so there is no rate to judge/);
      expect(j.detail).toContain('never retries HTTP 401');
      expect(j.detail).toContain('signature for 401 and 403');
      expect(j.detail).not.toMatch(/retries each|When traffic exceeds|deliveries queue/);
      expect(j.fix).not.toMatch(/16 requests at once/);
      expect(j.fix).toMatch(/accept a valid, signed delivery/);
    }
  });

  it('fails a run where nothing succeeded through timeouts and 503s, saying those are retried', () => {
    const j = judgeCapacity(run(0, { errors: { 'HTTP 503': 10 }, timeouts: 80, series: [{ second: 1, deliveries: 0, p50: 5000, p95: 5000, errors: 90 }] }));
    expect(j.verdict).toBe('fail');
    expect(j.detail).toMatch(/^no delivery succeeded \(HTTP 503 ×10, 80 timeouts\), so there is no rate to judge\. 90 deliveries failed in ways the destination retries/);
  });

  it('without an expected rate, warns on 401s among successes as refusals the destination never retries, not as load it retries', () => {
    const j = judgeCapacity(run(300, { errors: { 'HTTP 401': 20 } }));
    expect(j.verdict).toBe('warn');
    expect(j.detail).toContain('20 deliveries got HTTP 401 ×20, which the destination never retries (it retries 429, 5xx, timeouts and network errors only)');
    expect(j.detail).not.toMatch(/in ways the destination retries|When traffic exceeds/);
    expect(j.fix).not.toMatch(/16 requests at once/);
  });

  it('says 429, 5xx, timeouts and connection errors are retried, each adding load, with the capacity advice', () => {
    const j = judgeCapacity(run(300, { errors: { 'HTTP 503': 4, 'HTTP 429': 2, 'connection closed': 1 }, timeouts: 3 }));
    expect(j.verdict).toBe('warn');
    expect(j.detail).toContain('10 deliveries failed in ways the destination retries (HTTP 503 ×4, HTTP 429 ×2, connection closed ×1, 3 timeouts)');
    expect(j.detail).toContain('When traffic exceeds what it sustains');
    expect(j.fix).toMatch(/16 requests at once/);
  });

  it('with an expected rate it sustains, fails on 401s without capacity advice', () => {
    const j = judgeCapacity(run(300, { errors: { 'HTTP 401': 20 }, expectRate: 50 }));
    expect(j.verdict).toBe('fail');
    expect(j.detail).toMatch(/^20 deliveries failed\./);
    expect(j.detail).not.toContain('When traffic exceeds');
    expect(j.fix).not.toMatch(/16 requests at once/);
  });
});

describe('judgeCapacity: a receiver that slows down', () => {
  /** A run with this series of deliveries a second; its rate is the whole run's average, as measureCapacity gives it. */
  const slowing = (deliveries: number[], over: Partial<CheckCapacity> = {}): CheckCapacity =>
    run(Math.round((deliveries.reduce((a, b) => a + b, 0) / deliveries.length) * 10) / 10, { series: deliveries.map((d, i) => ({ second: i + 1, deliveries: d, p50: 40, p95: 60, errors: 0 })), ...over });
  const QA_SERIES = [352, 327, 286, 250, 215, 180, 144, 128, 111, 126];

  it('fails an expected rate its average clears but its last third does not, saying when throughput fell', () => {
    const c = slowing(QA_SERIES, { expectRate: 150 });
    expect(c.deliveriesPerSecond).toBeGreaterThan(150);
    const j = judgeCapacity(c);
    expect(j.verdict).toBe('fail');
    expect(j.detail).toMatch(/^by the end it sustains 127\.7\/s, below the 150\/s expected \(throughput fell from 321\.7\/s in seconds 1–3 to 127\.7\/s in seconds 7–9\)\. 211\.9 deliveries\/s on average over 10 s/);
  });

  it('below the expected rate, names what it sustains by the end when that is under the average, as the verdict does, not the average', () => {
    const c = slowing([150, 148, 146, 146, 145, 145, 144, 144, 143, 160], { expectRate: 300 });
    const j = judgeCapacity(c);
    expect(j.verdict).toBe('fail');
    expect(j.detail).toMatch(/^by the end it sustains 143\.7\/s, below the 300\/s expected \(seconds 7–9; 147\.1\/s on average\)\. 147\.1 deliveries\/s on average over 10 s/);
    // Steady or rising, the average is what it sustains.
    expect(judgeCapacity(slowing([140, 140, 140, 140, 140], { expectRate: 300 })).detail).toMatch(/^sustains 140\/s, below the 300\/s expected\. /);
  });

  it('without an expected rate, warns when throughput fell by a third or more', () => {
    const j = judgeCapacity(slowing(QA_SERIES));
    expect(j.verdict).toBe('warn');
    expect(j.detail).toMatch(/^Throughput fell from 321\.7\/s in seconds 1–3 to 127\.7\/s in seconds 7–9 \(by a third or more\): it sustains less the longer the load lasts\. 211\.9 deliveries\/s on average/);
    expect(j.fix).toMatch(/^Find what builds up while it serves/);
  });

  it('takes headroom from the last third when it is below the average, and says it fell', () => {
    const j = judgeCapacity(slowing([400, 380, 300, 260, 250, 250, 290], { expectRate: 100 }));
    expect(j.verdict).toBe('pass');
    expect(j.detail).toMatch(/^sustains 100\/s with 2\.5× headroom by the end \(throughput fell from 390\/s in seconds 1–2 to 250\/s in seconds 5–6\)\. /);
  });

  it('leaves out the final second, which also holds the answers still out: a drain-inflated or drain-only last second changes nothing', () => {
    expect(judgeCapacity(slowing([300, 300, 300, 300, 400], { expectRate: 100 }))).toMatchObject({ verdict: 'pass', detail: expect.stringMatching(/^sustains 100\/s with 3× headroom\. /) });
    expect(judgeCapacity(slowing([300, 290, 300, 310, 16]))).toMatchObject({ verdict: 'pass' });
  });

  it('does not call a steady run with ordinary jitter a fall, nor judge runs under 3 s on thirds', () => {
    expect(judgeCapacity(slowing([300, 260, 280, 240, 250, 290]))).toMatchObject({ verdict: 'pass' });
    expect(judgeCapacity(slowing([162, 145, 192, 148, 178]))).toMatchObject({ verdict: 'pass' });
    expect(judgeCapacity(slowing([192, 178, 145, 148, 170]))).toMatchObject({ verdict: 'pass' });
    expect(judgeCapacity(slowing([300, 100]))).toMatchObject({ verdict: 'pass' });
  });
});

describe("runCheck's capacity input", () => {
  const refusal = (capacity: unknown): unknown => {
    const r = parseCommandInput('runCheck', { url: 'http://127.0.0.1:9/hook', capacity });
    return r.ok ? null : r.error.message;
  };

  it('names the field, the limit and the value given for every bad seconds or expected rate', () => {
    expect(refusal({ seconds: 1.5 })).toBe('capacity.seconds: must be a whole number of seconds (1 to 300) (got 1.5)');
    expect(refusal({ seconds: '5' })).toBe('capacity.seconds: must be a number of seconds (1 to 300) (got the string "5")');
    expect(refusal({ seconds: 0 })).toBe('capacity.seconds: must be at least 1 second (at most 300) (got 0)');
    expect(refusal({ seconds: 301 })).toBe('capacity.seconds: must be at most 300 seconds (got 301)');
    expect(refusal({})).toBe('capacity.seconds: is required');
    expect(refusal({ seconds: 5, expectRate: -1 })).toBe('capacity.expectRate: must be more than 0 deliveries per second (got -1)');
    expect(refusal({ seconds: 5, expectRate: 'x' })).toBe('capacity.expectRate: must be a number (deliveries per second) (got the string "x")');
    expect(refusal({ seconds: 5, expectRate: 2_000_000 })).toBe('capacity.expectRate: must be at most 1,000,000 deliveries per second (got 2,000,000)');
  });
});

describe('judgeCapacity: words for every face', () => {
  it('a pass without an expected rate says none was given, naming neither the CLI flag nor the form field', () => {
    const j = judgeCapacity(run(300));
    expect(j).toMatchObject({ verdict: 'pass', detail: expect.stringMatching(/\(no expected rate given: nothing to judge the rate against\)$/) });
    expect(j.detail).not.toContain('--expect-rate');
  });
});

describe('judgeCapacity: a fall beside other failures', () => {
  it('a run failed for its p99 and its errors still says that throughput fell', () => {
    const deliveries = [352, 327, 286, 250, 215, 180, 144, 128, 111, 126];
    const c = run(211.9, { expectRate: 50, errors: { 'HTTP 503': 3_420 }, timeouts: 32, latencyMs: { p50: 88, p95: 1_200, p99: 5_000, max: 5_000 }, series: deliveries.map((d, i) => ({ second: i + 1, deliveries: d, p50: 50, p95: 60, errors: 0 })) });
    const j = judgeCapacity(c);
    expect(j.verdict).toBe('fail');
    expect(j.detail).toMatch(/^throughput fell from 321\.7\/s in seconds 1–3 to 127\.7\/s in seconds 7–9; p99 5000 ms is not under the 5000 ms timeout; 3,452 deliveries failed\. /);
  });
});

describe('capacityFigures', () => {
  it('writes counts of a kind with thousands separators, as the rest of the detail does', () => {
    expect(capacityFigures(run(300, { errors: { 'connection closed': 6_467 } }))).toMatch(/; connection closed ×6,467$/);
  });
});
