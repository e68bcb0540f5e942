/**
 * Names with direction-changing or invisible characters are shown as what they are: a destination named and an
 * event called "Order \u202Edetelpmoc" never read "Order completed" in Live, the message's header or the
 * Destinations list. Driven by accessible names; every wait is on UI state.
 */
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

const SPOOF = 'Order \u202Edetelpmoc';

describe.skipIf(chromiumMissing)('hidden characters in names', () => {
  const { serve, open } = useWorkbench();

  it('shows a right-to-left override as ⟨U+202E⟩ in the Live row, the message header and the destination list', async () => {
    const r = await serve({ receivers: [{ name: 'orders', script: 200 }], destinations: [{ name: SPOOF, enabled: true, url: 'receiver:orders' }] });
    await r.call('sendMessage', { type: 'track', call: { userId: 'u\u200b1', event: SPOOF }, destinations: [SPOOF] });
    const page = await open(r, '#/live');
    const row = page.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ hasText: 'U+202E' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Order ⟨U+202E⟩detelpmoc');
    expect(await row.innerText()).toContain('u⟨U+200B⟩1');
    await row.click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).first().innerText()).toBe('Order ⟨U+202E⟩detelpmoc');
    // The delivery card is named by its destination: shown the same way.
    expect(await page.getByRole('region', { name: SPOOF }).innerText()).toContain('Order ⟨U+202E⟩detelpmoc');
    await page.goto(`${r.info.uiUrl}#/destinations`);
    const list = page.getByRole('row', { name: SPOOF });
    await list.waitFor();
    expect(await list.innerText()).toContain('Order ⟨U+202E⟩detelpmoc');
  });
});
