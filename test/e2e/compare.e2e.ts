/**
 * Compare, by accessible names against a real serve: one message to two webhooks (one answers 200, the
 * other 500) side by side in one click; and two attempts of different messages, picked one after the other.
 */
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

describe.skipIf(chromiumMissing)('Compare', () => {
  const { serve, open } = useWorkbench();

  it('shows one message across its two webhooks side by side: status, headers and latency', async () => {
    const r = await serve({
      receivers: [{ name: 'ok', script: 200 }, { name: 'down', script: { status: 500, body: 'boom' } }],
      destinations: [{ name: 'Pair', enabled: true, sharedSecret: 's3cret', webhooks: [{ url: 'receiver:ok' }, { url: 'receiver:down', headers: { 'X-Team': 'payments' } }] }],
    });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Order Completed' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: http_error, HTTP 500/ }).waitFor();
    await details.getByRole('button', { name: /^Attempt 1: success, HTTP 200/ }).waitFor();

    await details.getByRole('button', { name: 'Compare webhooks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compare attempts' });
    const summary = dialog.getByRole('table', { name: 'Summary compared' });
    const status = summary.getByRole('row', { name: /^Status/ });
    await status.waitFor();
    const cells = await status.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 2).sort()).toEqual(['HTTP 200', 'HTTP 500']);
    expect(cells[2]).toContain('differs');
    // The static header only the second webhook sends, and the same signature on both (same body, same secret).
    const headers = dialog.getByRole('table', { name: 'Request headers compared' });
    expect(await headers.getByRole('row', { name: /^X-Team/i }).innerText()).toMatch(/payments[\s\S]*only on the (left|right)/);
    expect(await headers.getByRole('row', { name: /^X-Signature/i }).innerText()).toMatch(/same/);
    await dialog.getByText(/^Byte-identical: \d+ bytes on each side\.$/).waitFor();
    expect(await dialog.getByRole('note', { name: 'Latency' }).innerText()).toMatch(/(the right one is .+ (slower|faster)|both took .+)/);
    // The response bodies differ: a side-by-side editor pair.
    await dialog.getByRole('textbox', { name: 'Response bodies compared, left' }).waitFor();
    // Only differences hides the rows that are the same.
    await dialog.getByRole('checkbox', { name: 'Only differences' }).check();
    await expect.poll(() => headers.getByRole('row', { name: /^X-Signature/i }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Esc closed the dialog, not the message.
    await details.waitFor();
  });

  it('compares attempts of two different messages, picked one after the other', async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'One', enabled: true, url: 'receiver:ok' }] });
    const first = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Signed Up' } });
    const second = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'grace', event: 'Signed Up', properties: { plan: 'pro' } } });
    const page = await open(r, `#/live/${first.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: success/ }).click();
    await details.getByRole('button', { name: 'Pick for compare' }).click();
    await details.getByRole('button', { name: 'Picked for compare' }).waitFor();

    await page.getByRole('row').filter({ hasText: 'grace' }).click();
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe(`#/live/${second.message.id}`);
    await details.getByRole('button', { name: /^Attempt 1: success/ }).click();
    await details.getByRole('button', { name: 'Compare with picked attempt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Compare attempts' });
    // Different bodies: both sides shown in the side-by-side diff.
    await dialog.getByRole('textbox', { name: 'Request bodies compared, left' }).waitFor();
    const left = await dialog.getByRole('textbox', { name: 'Request bodies compared, left' }).innerText();
    const right = await dialog.getByRole('textbox', { name: 'Request bodies compared, right' }).innerText();
    expect(left).toContain('"ada"');
    expect(right).toContain('"grace"');
    expect(await dialog.getByRole('table', { name: 'Summary compared' }).getByRole('row', { name: /^Request body/ }).innerText()).toMatch(/bytes/);
    await dialog.getByRole('button', { name: 'Close compare' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
