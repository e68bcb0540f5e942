import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../main/contract/deliveries';
import { comparableBodies, diffFacts, diffHeaders, latencyDelta, type ComparedAttempt } from '../../../renderer/src/lib/compare';

function attempt(over: Partial<AttemptRecord>): AttemptRecord {
  return {
    id: 1, deliveryId: 1, messageId: 1, attemptNumber: 1, webhookIndex: 0, url: 'http://a/hook', outcome: 'success', retryable: false,
    statusCode: 200, error: null, startedAt: 1_700_000_000_000, finishedAt: 1_700_000_000_050, durationMs: 50,
    requestHeaders: {}, signature: null, responseHeaders: null, responseBody: null, responseTruncated: false, ...over,
  };
}

describe('Compare', () => {
  it('matches headers by name whatever their case, in the left side\'s order, then the right side\'s own', () => {
    const rows = diffHeaders(
      { 'Content-Type': 'application/json', 'X-Signature': 'aa', 'X-Only-Left': '1' },
      { 'x-signature': 'bb', 'content-type': 'application/json', 'X-Only-Right': '2' },
    );
    expect(rows).toEqual([
      { name: 'Content-Type', left: 'application/json', right: 'application/json', change: 'same' },
      { name: 'X-Signature', left: 'aa', right: 'bb', change: 'changed' },
      { name: 'X-Only-Left', left: '1', right: null, change: 'left-only' },
      { name: 'X-Only-Right', left: null, right: '2', change: 'right-only' },
    ]);
    // A timed-out attempt has no response headers: every header of the other side is its own.
    expect(diffHeaders(null, { a: '1' })).toEqual([{ name: 'a', left: null, right: '1', change: 'right-only' }]);
  });

  it('marks the facts that differ, not the start times that always do', () => {
    const left: ComparedAttempt = { attempt: attempt({}), body: '{"a":1}', destinationName: 'Orders', messageLabel: 'Order Completed' };
    const right: ComparedAttempt = { attempt: attempt({ id: 2, url: 'http://b/hook', outcome: 'http_error', statusCode: 500, startedAt: 1_700_000_009_000, webhookIndex: 1 }), body: '{"a":1}', destinationName: 'Orders', messageLabel: 'Order Completed' };
    const changed = diffFacts(left, right).filter((r) => r.change !== 'same').map((r) => r.name);
    expect(changed).toEqual(['URL', 'Outcome', 'Status']);
  });

  it('says the latency difference in words, and pretty-prints JSON bodies unless raw bytes are asked for', () => {
    expect(latencyDelta(50, 1250)).toBe('1.20 s slower');
    expect(latencyDelta(300, 265)).toBe('35 ms faster');
    expect(latencyDelta(10, 10)).toBe('same latency');
    expect(comparableBodies('{"a":1}', '{"a":2}', false)).toEqual(['{\n  "a": 1\n}', '{\n  "a": 2\n}']);
    expect(comparableBodies('{"a":1}', '{"a":2}', true)).toEqual(['{"a":1}', '{"a":2}']);
    expect(comparableBodies('not json', '{"a":2}', false)).toEqual(['not json', '{"a":2}']);
  });
});
