/**
 * Renaming an endpoint that a destination names: refused, naming the destinations, so that none is left
 * pointing at an endpoint that no longer exists.
 */
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../main/contract/result.js';
import { must, newCore } from '../../helpers/harness.js';

function failure<T>(result: Result<T>) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('renaming a receiver endpoint', () => {
  it('is refused while a destination points at it, naming the destinations; nothing changes', () => {
    const core = newCore();
    must(core.createReceiver({ name: 'flaky2', script: '500,200' }));
    must(core.createDestination({ name: 'Orders', enabled: true, url: 'receiver:flaky2' }));
    must(core.createDestination({ name: 'Billing', enabled: true, webhooks: [{ url: 'https://example.test/hook' }, { url: 'receiver+tls:flaky2' }] }));
    must(core.createDestination({ name: 'Elsewhere', enabled: true, url: 'https://example.test/other' }));

    expect(failure(core.updateReceiver({ name: 'flaky2', patch: { name: 'flaky3' } }))).toEqual({
      code: 'conflict',
      field: 'patch.name',
      value: 'flaky3',
      message:
        'patch.name: "flaky2" cannot be renamed to "flaky3" while the destinations "Billing", "Orders" point at it (receiver:flaky2): create "flaky3" as a new endpoint and point their webhooks at receiver:flaky3, or rename it once no destination uses it',
    });
    expect(must(core.listReceivers()).items.map((r) => r.name)).toEqual(['flaky2']);
    // Other changes to it are not renames: still allowed.
    expect(must(core.updateReceiver({ name: 'flaky2', patch: { name: 'flaky2', script: 200 } })).name).toBe('flaky2');
  });

  it('names the one destination in the singular, and goes through once no destination uses it', () => {
    const core = newCore();
    must(core.createReceiver({ name: 'flaky2', script: 200 }));
    const d = must(core.createDestination({ name: 'Orders', enabled: true, url: 'receiver:flaky2' }));
    expect(failure(core.updateReceiver({ name: 'flaky2', patch: { name: 'flaky3' } })).message).toContain('while the destination "Orders" points at it (receiver:flaky2): create "flaky3" as a new endpoint and point its webhook at receiver:flaky3');
    must(core.updateDestination({ id: d.id, patch: { webhooks: [{ url: 'https://example.test/hook' }] } }));
    expect(must(core.updateReceiver({ name: 'flaky2', patch: { name: 'flaky3' } })).name).toBe('flaky3');
  });
});
