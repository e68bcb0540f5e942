import { describe, expect, it } from 'vitest';
import type { DeliveryStatus } from '../../../main/contract/deliveries';
import { deliveryCount } from '../../../renderer/src/features/detail/deliveryWords';

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
  });
});
