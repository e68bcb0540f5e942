import { describe, expect, it } from 'vitest';
import { resultsFromWire, resultsToWire, roundFromWire, roundToWire, type RoundRequest } from '../../../main/delivery/forwarders.js';
import type { SendResult } from '../../../main/delivery/webhookRequests.js';
import { sendResult } from '../../helpers/sendResult.js';

const success = sendResult({
  durationMs: 0.57,
  requestHeaders: '{"host":"127.0.0.1:9","content-length":"2"}',
  signature: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4',
  responseHeaders: '{"content-type":"application/json"}',
  responseBody: '{"ok":true}',
});
const refused: SendResult = {
  ...success,
  outcome: 'http_error',
  retryable: true,
  permanentReason: 'permanent: HTTP 404',
  statusCode: 503,
  error: 'HTTP 503',
  retryAfterMs: 30_000,
  signature: null,
  responseHeaders: null,
  responseBody: null,
  responseTruncated: true,
};

describe('what crosses to and from the forwarder thread', () => {
  it('a round arrives as the engine asked for it, defaults filled', () => {
    const webhooks = [{ url: 'http://127.0.0.1:9/a', headers: { 'x-team': 'a' } }];
    const full: RoundRequest = { webhooks, body: '{"x":1}', secret: 's', timeoutMs: 5000, caFile: '/ca.pem', jump: true, fastForwardMs: 100 };
    expect(roundFromWire(roundToWire(full))).toEqual(full);
    const bare: RoundRequest = { webhooks, body: Buffer.from('{}'), secret: null, timeoutMs: 1000, caFile: null };
    expect(roundFromWire(roundToWire(bare))).toEqual({ ...bare, jump: false, fastForwardMs: null });
    expect(structuredClone(roundToWire(full))).toEqual(roundToWire(full));
  });

  it('results come back field for field, in their order', () => {
    expect(resultsFromWire(structuredClone(resultsToWire([success, refused])))).toEqual([success, refused]);
    expect(resultsFromWire(resultsToWire([]))).toEqual([]);
  });
});
