import { describe, expect, it } from 'vitest';
import type { AttemptOutcome, DeliveryStatus } from '../../../main/contract/deliveries';
import { deliveredDespite, deliveryCount, notRetried } from '../../../renderer/src/features/detail/deliveryWords';
import { awaitsWebhook } from '../../../renderer/src/lib/retryLadder';

describe('a delivery card counts what its timelines show', () => {
  const delivery = (status: DeliveryStatus, rounds: number) => ({ status, attempts: rounds });
  it('one webhook: rounds and attempts are the same, counted as attempts', () => {
    expect(deliveryCount(delivery('retrying', 3), 3, 1)).toBe('3 attempts');
    expect(deliveryCount(delivery('delivered', 1), 1, 1)).toBe('1 attempt');
    expect(deliveryCount(delivery('delivering', 1), 1, 1)).toBe('attempt 2 in flight');
  });
  it('several webhooks: the rounds and the attempts, so five #1 rows do not sit under "1 attempt"', () => {
    expect(deliveryCount(delivery('delivered', 1), 5, 5)).toBe('1 round · 5 attempts');
    expect(deliveryCount(delivery('retrying', 2), 3, 2)).toBe('2 rounds · 3 attempts');
    expect(deliveryCount(delivery('delivering', 0), 0, 3)).toBe('round 1 in flight');
    expect(deliveryCount(delivery('queued', 0), 0, 3)).toBe('0 attempts');
  });
});

describe("which webhooks a waiting delivery's next round goes to (their timelines show its ghost markers)", () => {
  it('every webhook when the delivery names none: its first round, or Retry now on a failed one', () => {
    expect(awaitsWebhook([], 3, ['http://a/1', 'http://a/1'])).toBe(true);
  });
  it('only the webhooks named, by the URL configured (receiver:<name>) or the one it was sent to', () => {
    expect(awaitsWebhook(['http://a/2'], 3, ['http://a/1', 'http://a/1'])).toBe(false);
    expect(awaitsWebhook(['http://a/2'], 3, ['http://a/2', 'receiver:two'])).toBe(true);
    expect(awaitsWebhook(['receiver:two'], 3, [undefined, 'receiver:two'])).toBe(true);
  });
});

describe('webhooks a waiting delivery no longer retries', () => {
  const last = (statusCode: number | null, retryable: boolean, outcome: AttemptOutcome = 'http_error') => ({ outcome, retryable, statusCode });
  it('names the webhooks that failed for good while the others wait for their next round', () => {
    const webhooks = [
      { index: 0, pending: false, last: last(410, false) },
      { index: 1, pending: true, last: last(500, true) },
      { index: 2, pending: false, last: last(null, false, 'tls_error') },
    ];
    expect(notRetried({ status: 'retrying' }, webhooks)).toBe('Not retried: webhooks 1 and 3 failed for good (HTTP 410, TLS refused); only webhooks that failed retryably get the next round.');
    expect(notRetried({ status: 'retrying' }, webhooks.slice(0, 2))).toBe('Not retried: webhook 1 failed for good (HTTP 410); only webhooks that failed retryably get the next round.');
  });
  it('says nothing once the delivery ended, or when every webhook is in the next round', () => {
    expect(notRetried({ status: 'failed' }, [{ index: 0, pending: false, last: last(410, false) }])).toBeNull();
    expect(notRetried({ status: 'queued' }, [{ index: 0, pending: true, last: last(410, false) }])).toBeNull();
  });
});

describe('a delivered delivery beside webhooks that failed', () => {
  const attempt = (webhookIndex: number, attemptNumber: number, outcome: AttemptOutcome) => ({ webhookIndex, attemptNumber, outcome });
  it('says why the badge is green over red rows, and that those webhooks are not retried', () => {
    const round = [attempt(0, 1, 'success'), attempt(1, 1, 'http_error'), attempt(2, 1, 'network_error'), attempt(3, 1, 'tls_error'), attempt(4, 1, 'success')];
    expect(deliveredDespite({ status: 'delivered' }, round)).toBe('Delivered: webhooks 1 and 5 answered 2xx, and one success delivers the message, so webhooks 2, 3 and 4 are not retried.');
    expect(deliveredDespite({ status: 'delivered' }, [attempt(0, 1, 'http_error'), attempt(1, 1, 'success')])).toBe(
      'Delivered: webhook 2 answered 2xx, and one success delivers the message, so webhook 1 is not retried.',
    );
  });
  it('says nothing when every webhook tried succeeded, or the delivery is not delivered', () => {
    // Webhook 1 failed in round 1 and succeeded in round 2: its last attempt is what counts.
    expect(deliveredDespite({ status: 'delivered' }, [attempt(0, 1, 'http_error'), attempt(0, 2, 'success')])).toBeNull();
    expect(deliveredDespite({ status: 'retrying' }, [attempt(0, 1, 'http_error'), attempt(1, 1, 'http_error')])).toBeNull();
  });
});
