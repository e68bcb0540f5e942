/**
 * The troubleshooting checklist's rules over synthetic data (the store's reads faked): one finding per
 * cause, severity by rate, advice that matches the reason, and the CLI's helper destination left out.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostics } from '../../../main/contract/diagnostics.js';
import type { AttemptRecord } from '../../../main/contract/deliveries.js';
import { DEFAULT_RETRY_POLICY, type Destination } from '../../../main/contract/destinations.js';
import type { Overview } from '../../../main/contract/overview.js';
import type { IngestRefusal } from '../../../main/contract/sources.js';
import { DiagnosticsService } from '../../../main/diagnostics/diagnostics.js';

const NOW = Date.UTC(2026, 10, 26, 12);

function destination(name: string, over: Partial<Destination> = {}): Destination {
  return {
    id: `dst_${name.replace(/\W/g, '_')}`,
    name,
    enabled: true,
    sourceIds: ['src_web'],
    sharedSecret: null,
    webhooks: [{ url: 'https://example.test/hook', headers: {} }],
    caFile: null,
    timeoutMs: 5000,
    retry: DEFAULT_RETRY_POLICY,
    filters: { allowEvents: [], blockEvents: [] },
    createdAt: NOW - 1000,
    updatedAt: NOW - 1000,
    ...over,
  };
}

let nextAttempt = 1;
function attempt(d: Destination, over: Partial<AttemptRecord> = {}): AttemptRecord & { destinationId: string } {
  const id = nextAttempt++;
  return {
    id,
    deliveryId: id,
    messageId: id,
    attemptNumber: 1,
    webhookIndex: 0,
    url: d.webhooks[0]!.url,
    outcome: 'success',
    retryable: false,
    statusCode: 200,
    error: null,
    startedAt: NOW - 100,
    finishedAt: NOW - 90,
    durationMs: 10,
    requestHeaders: {},
    signature: null,
    responseHeaders: {},
    responseBody: '',
    responseTruncated: false,
    destinationId: d.id,
    ...over,
  };
}

const overview: Overview = {
  counts: { filtered: 0, queued: 0, delivering: 0, retrying: 0, delivered: 0, failed: 0, cancelled: 0 },
  totalMessages: 0,
  messageCounters: { inFlight: { messages: 0, filter: {} }, retrying: { messages: 0, filter: {} }, failedLastHour: { messages: 0, filter: {} } },
  inFlight: 0,
  retrying: 0,
  failedLastHour: 0,
  dueRetries: 0,
  nextDueAt: null,
  clock: { now: NOW, offsetMs: 0 },
  paused: false,
  acceptedLastMinute: 0,
};

function refusal(over: Partial<IngestRefusal>): IngestRefusal {
  return { id: 1, receivedAt: NOW, sourceId: null, route: '/v1/batch', clientIp: '127.0.0.1', httpStatus: 400, code: 'invalid_json', message: 'body: Unexpected token', field: null, index: null, limit: null, bodyBytes: 12, bodyPreview: '{"batch": [', ...over } as IngestRefusal;
}

function diagnose(args: { destinations: Destination[]; attempts?: (AttemptRecord & { destinationId: string })[]; refusals?: IngestRefusal[] }): Diagnostics {
  const service = new DiagnosticsService({
    store: {
      diagnostics: { recentMessages: () => [] },
      deliveries: {
        recentAttempts: () => [...(args.attempts ?? [])].sort((a, b) => b.id - a.id),
        recentAttemptsOfDestination: (id: string) => (args.attempts ?? []).filter((a) => a.destinationId === id).sort((a, b) => b.id - a.id),
      },
      ingestLog: { listRefusals: () => args.refusals ?? [], usageOf: () => ({ received: 1, accepted: 1, refused: 0, filtered: 0 }) },
    } as never,
    clock: { now: () => NOW },
    sources: () => [{ id: 'src_web', name: 'web', kind: 'web', writeKey: 'wk_web_1234567890', createdAt: NOW - 5000 }],
    destinations: () => args.destinations,
    captures: () => [],
    overview: () => overview,
  });
  const result = service.diagnose({ ingestUrl: 'http://127.0.0.1:4400' });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const byId = (d: Diagnostics, id: string) => d.checks.find((c) => c.id === id);

describe('the checklist’s rules', () => {
  it('8 timeouts among 313 attempts are a warning, with the rate; 30 among 100 a problem', () => {
    const orders = destination('Orders');
    const few = [...Array.from({ length: 305 }, () => attempt(orders)), ...Array.from({ length: 8 }, () => attempt(orders, { outcome: 'timeout', retryable: true, statusCode: null, error: 'no response headers within 5000 ms', durationMs: 5000 }))];
    const d = diagnose({ destinations: [orders], attempts: few });
    expect(byId(d, `deliveries.timeouts:${orders.id}`)).toMatchObject({ state: 'warning', title: '8 of the last 313 attempts to Orders timed out after 5 s (2.6 %)' });
    const many = [...Array.from({ length: 70 }, () => attempt(orders)), ...Array.from({ length: 30 }, () => attempt(orders, { outcome: 'timeout', retryable: true, statusCode: null, error: 'no response headers within 5000 ms', durationMs: 5000 }))];
    expect(byId(diagnose({ destinations: [orders], attempts: many }), `deliveries.timeouts:${orders.id}`)).toMatchObject({ state: 'problem', title: '30 of the last 100 attempts to Orders timed out after 5 s (30 %)' });
  });

  it('a self-signed certificate is one finding, saying it once; the receiver check does not report it again', () => {
    const secure = destination('Secure');
    const tls = attempt(secure, { outcome: 'tls_error', statusCode: null, error: 'tls: self-signed certificate: self-signed certificate', responseHeaders: null, responseBody: null });
    const d = diagnose({ destinations: [secure], attempts: [tls] });
    const problems = d.checks.filter((c) => c.subject === 'Secure' && (c.state === 'problem' || c.state === 'warning'));
    expect(problems.map((c) => c.title)).toEqual(['TLS refused by Secure: self-signed certificate']);
    expect(byId(d, `destination.failing:${secure.id}`)).toMatchObject({ state: 'idle', title: 'No request reached Secure’s endpoint' });
    expect(byId(d, `destination.tls:${secure.id}`)?.evidence[0]).toMatchObject({ label: `Message #${tls.messageId}, attempt 1: TLS refused, self-signed certificate` });
  });

  it('an invalid-JSON refusal gets advice about the body, not about write keys; a 401 gets the write key advice', () => {
    const d = diagnose({ destinations: [], refusals: [refusal({ id: 2 })] });
    expect(byId(d, 'ingest.writeKey')).toMatchObject({ state: 'ok' });
    const refused = byId(d, 'ingest.refused')!;
    expect(refused).toMatchObject({ state: 'problem', title: '1 request refused without a write key of a source: invalid_json' });
    expect(refused.detail).toContain('The body is not JSON');
    expect(refused.detail).not.toContain('write key');
    const auth = diagnose({ destinations: [], refusals: [refusal({ id: 3, httpStatus: 401, code: 'unauthorized', message: 'unknown write key wk_…99' })] });
    expect(byId(auth, 'ingest.writeKey')?.detail).toContain('Copy the write key from Sources');
    expect(byId(auth, 'ingest.refused')).toBeUndefined();
  });

  it('the CLI’s helper destinations (hookbench send, hookbench send 2) are not reported as the user’s problems', () => {
    const helper = destination('hookbench send', { enabled: false, sourceIds: [] });
    const second = destination('hookbench send 2', { enabled: false, sourceIds: [] });
    const d = diagnose({ destinations: [helper, second, destination('Orders')] });
    expect(d.checks.filter((c) => c.subject?.startsWith('hookbench send'))).toEqual([]);
    expect(d.checks.some((c) => c.subject === 'Orders')).toBe(true);
  });
});
