/** The Receiver screen's endpoint management, by accessible names against a real serve. */
import { describe, expect, it } from 'vitest';
import type { ReceiverEndpoint } from '../../main/contract/receiver/receiver.js';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

describe.skipIf(chromiumMissing)('Receiver endpoints', () => {
  const { serve, open } = useWorkbench();

  it('deletes an endpoint after a confirmation that names the destinations pointing at it', async () => {
    const r = await serve({
      receivers: [{ name: 'orders', script: 200 }, { name: 'spare', script: 200 }],
      destinations: [{ name: 'Orders service', enabled: true, url: 'receiver:orders' }],
    });
    const page = await open(r, '#/receiver/orders');
    const endpoint = page.getByRole('form', { name: 'Endpoint orders' });
    await endpoint.getByRole('button', { name: 'Delete endpoint' }).click();
    const confirm = endpoint.getByRole('alertdialog', { name: 'Delete orders?' });
    expect(await confirm.innerText()).toContain('Orders service');
    // Keeping it changes nothing.
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await r.call<{ items: ReceiverEndpoint[] }>('listReceivers')).items.map((e) => e.name)).toEqual(['orders', 'spare']);

    await endpoint.getByRole('button', { name: 'Delete endpoint' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('list', { name: 'Endpoints' }).getByRole('button', { name: 'orders' }).waitFor({ state: 'detached' });
    await expect.poll(async () => (await r.call<{ items: ReceiverEndpoint[] }>('listReceivers')).items.map((e) => e.name)).toEqual(['spare']);
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/receiver');
  });
});
