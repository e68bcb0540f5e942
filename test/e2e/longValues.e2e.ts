/**
 * Long values without spaces (a user ID an SDK built from a hash, an anonymous ID) are read whole where they are
 * shown, and never push the pane they are in wider than the window. Driven by accessible names; every wait is
 * on UI state.
 */
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

const USER = `user_${'x'.repeat(160)}_255`;
const ANONYMOUS = `anon-${'Z9'.repeat(150)}`;

describe.skipIf(chromiumMissing)('long values', () => {
  const { serve, open } = useWorkbench();

  it('wraps a long User ID and Anonymous ID in the message facts, so the details pane never scrolls sideways', async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'Orders', enabled: true, url: 'receiver:ok' }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: USER, anonymousId: ANONYMOUS, event: 'Order Completed' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    const user = details.getByText(USER, { exact: true });
    await user.waitFor();
    const pane = await details.boundingBox();
    for (const value of [user, details.getByText(ANONYMOUS, { exact: true })]) {
      const box = await value.boundingBox();
      // Inside the pane: the whole value can be read without scrolling sideways.
      expect(box!.x + box!.width).toBeLessThanOrEqual(pane!.x + pane!.width);
    }
    const sideways = await details.evaluate((el) => [...el.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && el.ownerDocument.defaultView!.getComputedStyle(e).overflowX === 'auto' && !e.closest('.cm-editor')).length);
    expect(sideways).toBe(0);
  });

  it('shows the whole messageId in a 1024 px window, where the pane beside the list is narrowest', async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'Orders', enabled: true, url: 'receiver:ok' }] });
    const sent = await r.call<{ message: { id: number; messageId: string } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Order Completed' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    await page.setViewportSize({ width: 1024, height: 768 });
    const id = page.getByRole('region', { name: 'Message details' }).getByText(sent.message.messageId, { exact: true });
    await id.waitFor();
    // Nothing of it is cut off: the element is as wide as its text.
    expect(await id.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});
