/**
 * History against a real `hookbench serve` with 10,000 stored messages: found by user ID and by a word of
 * the body, the filter kept in the hash across a reload, a selection exported as HAR (valid HAR 1.2) and as
 * cURL (run, it reproduces the body and the signature at the mock receiver), and the HAR imported back.
 * Driven by accessible names; every wait is on UI state.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Page as ListPage, MessageSummary } from '../../main/contract/messages.js';
import type { CapturePage } from '../../main/contract/receiver/receiver.js';
import { har12Schema } from '../helpers/har12.js';
import { chromiumMissing } from './browser.js';
import { hasFocus } from './controls.js';
import type { RunningServe } from './serve.js';
import { useWorkbench } from './workbench.js';

const TOTAL = 10_000;
const BATCH = 1000;

/** 10,000 messages (to no destination: stored, not delivered), then one order delivered, signed, to the mock receiver. */
async function seed(r: RunningServe): Promise<number> {
  for (let start = 0; start < TOTAL - 1; start += BATCH) {
    const n = Math.min(BATCH, TOTAL - 1 - start);
    const messages = Array.from({ length: n }, (_, i) => ({
      type: 'track',
      call: { userId: `user-${start + i}`, event: ['Product Viewed', 'Cart Updated', 'Signed Up'][(start + i) % 3], properties: { note: `ordinary note ${start + i}` } },
      destinations: [],
    }));
    await r.call('sendMessages', { messages });
  }
  const sent = await r.call<{ message: { id: number } }>('sendMessage', {
    type: 'track',
    call: { userId: 'ada-lovelace', event: 'Order Completed', properties: { note: 'shipped to zanzibar by dhow', total: 42 } },
    destinations: ['Orders'],
  });
  return sent.message.id;
}

async function download(page: Page, click: () => Promise<void>): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync((await file.path())!, 'utf8');
}

/** The page's hash (the route), from its URL. */
const hashOf = (page: Page) => new URL(page.url()).hash;

const dataRows = (page: Page) => page.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ has: page.getByRole('gridcell') });

describe.skipIf(chromiumMissing)('History', () => {
  const { serve, open } = useWorkbench();

  it('finds one message among 10,000 by user ID and by a word of its body, keeps the filter across a reload, exports HAR and cURL, and imports the HAR back', async () => {
    const r = await serve({
      receivers: [{ name: 'orders', secret: 'ord3r-secret', script: 200 }],
      destinations: [{ name: 'Orders', enabled: true, url: 'receiver:orders', sharedSecret: 'ord3r-secret' }],
    });
    const id = await seed(r);
    // The order reached the receiver, signed (its capture is what the cURL replay must reproduce).
    const capturesNow = () => r.call<CapturePage>('listCaptures', { receiver: 'orders' });
    await expect.poll(async () => (await capturesNow()).items.length, { timeout: 20_000, interval: 100 }).toBe(1);
    const original = (await capturesNow()).items[0]!;
    expect(original.signature?.verdict).toBe('valid');

    const page = await open(r, '#/history');
    await page.getByText('200 messages loaded · scroll for more').waitFor(); // the first page of the 10,000
    // Scrolled to its end, the list loads the next page.
    await dataRows(page).first().hover();
    await page.mouse.wheel(0, 200 * 40);
    await page.getByText('400 messages loaded · scroll for more').waitFor();

    // By user ID: the hash keeps it, and a reload shows the same view.
    await page.getByLabel('User ID', { exact: true }).fill('ada-lovelace');
    await expect.poll(() => hashOf(page)).toBe(`#/history?userId=ada-lovelace`);
    await dataRows(page).filter({ hasText: 'Order Completed' }).waitFor();
    await page.getByText('End of the history: 1 message').waitFor();
    expect(await dataRows(page).count()).toBe(1);
    await page.reload();
    await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
    expect(await page.getByLabel('User ID', { exact: true }).inputValue()).toBe('ada-lovelace');
    await page.getByText('End of the history: 1 message').waitFor();
    expect(await dataRows(page).count()).toBe(1);

    // By a word of the body, with the user filter cleared.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('200 messages loaded · scroll for more').waitFor();
    await page.getByLabel('Search bodies').fill('zanzibar');
    await page.getByText('End of the history: 1 message').waitFor();
    expect(await dataRows(page).count()).toBe(1);
    await expect.poll(() => hashOf(page)).toBe('#/history?text=zanzibar');
    // A row opens in the detail pane beside the list, the filter kept.
    await dataRows(page).first().click();
    await page.getByRole('region', { name: 'Message details' }).getByRole('heading', { name: 'Order Completed' }).waitFor();
    expect(await hashOf(page)).toBe(`#/history/${id}?text=zanzibar`);

    // Export the selection as HAR: it validates as HAR 1.2 and holds the delivered attempt.
    await page.getByRole('checkbox', { name: `Select message #${id}` }).check();
    await page.getByText('1 selected').waitFor();
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const exportPanel = page.getByRole('dialog', { name: 'Export' });
    await exportPanel.getByRole('radio', { name: 'HAR' }).click();
    const harText = await download(page, () => exportPanel.getByRole('button', { name: 'Download HAR' }).click());
    const har = har12Schema.parse(JSON.parse(harText));
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]!.request.postData?.text).toBe(Buffer.from(original.body.base64, 'base64').toString('utf8'));
    expect(harText).not.toContain('ord3r-secret');

    // Export as cURL and run it: the receiver gets the same bytes and the same signature again.
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await exportPanel.getByRole('radio', { name: 'cURL' }).click();
    const script = await download(page, () => exportPanel.getByRole('button', { name: 'Download cURL' }).click());
    await promisify(execFile)('bash', ['-c', script], { timeout: 15_000 });
    const captures = await capturesNow();
    expect(captures.items).toHaveLength(2);
    const replayed = captures.items[0]!;
    expect(replayed.body.base64).toBe(original.body.base64);
    expect(replayed.headers['x-signature']).toBe(original.headers['x-signature']);
    expect(replayed.signature?.verdict).toBe('valid');

    // Import the HAR: its message is sent again to Orders, a new message with the same body.
    await page.getByRole('button', { name: 'Import' }).click();
    const importPanel = page.getByRole('dialog', { name: 'Import' });
    await importPanel.getByLabel('Export file').setInputFiles({ name: 'orders.har', mimeType: 'application/json', buffer: Buffer.from(harText) });
    await importPanel.getByRole('button', { name: 'Import orders.har' }).click();
    await page.getByText('Imported 1 message').waitFor();
    await page.getByText('End of the history: 2 messages').waitFor();
    const found = await r.call<ListPage<MessageSummary>>('listMessages', { text: 'zanzibar' });
    expect(found.items.map((m) => m.userId)).toEqual(['ada-lovelace', 'ada-lovelace']);
    expect(found.items[0]!.messageId).not.toBe(found.items[1]!.messageId);
  });

  it('says a body search is still going while the index catches up, then shows what the following pages found', async () => {
    const r = await serve({});
    await r.call('sendMessages', { messages: [{ type: 'track', call: { userId: 'kiri', event: 'Spotted', properties: { note: 'a quokka by the road' } }, destinations: [] }] });
    const page = await open(r, '#/history');
    await page.getByText('End of the history: 1 message').waitFor();
    // Right after a burst a body search's first pages stop early; a serve is in that state only for moments, so
    // here the first answer stops early and the page after it waits until the test lets it through.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/listMessages', async (route) => {
      const input = JSON.parse(route.request().postData() ?? '{}') as { text?: string; cursor?: string };
      if (input.text === undefined) return route.continue();
      if (input.cursor === undefined) return route.fulfill({ json: { ok: true, value: { items: [], nextCursor: '1000', searching: { left: 999 } } } });
      await held;
      return route.continue();
    });
    await page.getByLabel('Search bodies').fill('quokka');
    await page.getByRole('heading', { name: 'Searching messages not indexed yet' }).waitFor();
    await page.getByText('About 999 recent messages are not indexed yet', { exact: false }).waitFor();
    await page.getByText('0 messages found so far · searching').waitFor();
    release();
    await page.getByText('End of the history: 1 message').waitFor();
    expect(await dataRows(page).filter({ hasText: 'Spotted' }).count()).toBe(1);
  });

  it('selects a range with shift-click and every loaded row at once; a bad filter value is named, not applied', async () => {
    const r = await serve({});
    await r.call('sendMessages', { messages: Array.from({ length: 5 }, (_, i) => ({ type: 'track', call: { userId: `u${i}`, event: 'Picked' }, destinations: [] })) });
    const page = await open(r, '#/history?status=filtered&type=shout');
    await page.getByText(/Type: "shout" is not a type/).waitFor();
    await page.getByText('End of the history: 5 messages').waitFor();
    const boxes = page.getByRole('checkbox', { name: /^Select message #/ });
    await boxes.nth(0).click();
    await boxes.nth(3).click({ modifiers: ['Shift'] });
    await page.getByText('4 selected').waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('checkbox', { name: 'Select all loaded messages' }).check();
    await page.getByText('5 selected').waitFor();
  });

  it('a failed row retried while Live was shown reads delivered when History is shown again, as its detail pane does', async () => {
    // The first attempt gets a 500 and, with one attempt allowed, fails the message; a retry gets a 200.
    const r = await serve({ receivers: [{ name: 'flaky', script: '500,200' }], destinations: [{ name: 'Flaky', enabled: true, url: 'receiver:flaky', retry: { maxAttempts: 1 } }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Retried Order' } });
    const page = await open(r, '#/history');
    const row = dataRows(page).filter({ hasText: 'Retried Order' });
    await row.getByText('failed', { exact: true }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Live' }).click();
    await page.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ hasText: 'Retried Order' }).getByText('failed', { exact: true }).waitFor();
    await r.call('retryNow', { id: sent.message.id });
    await page.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ hasText: 'Retried Order' }).getByText('delivered', { exact: true }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await row.getByText('delivered', { exact: true }).waitFor();
    expect(await row.getByText('failed', { exact: true }).count()).toBe(0);
    await row.click();
    await page.getByRole('region', { name: 'Message details' }).getByText('delivered', { exact: true }).first().waitFor();
  });

  it('the storage line, cut in a 1024 px window, reads whole on hover: its title is its text, the oldest message included', async () => {
    const r = await serve({});
    await r.call('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Order Completed' } });
    const page = await open(r, '#/history');
    await page.setViewportSize({ width: 1024, height: 768 });
    const line = page.getByRole('region', { name: 'Storage' }).getByText(/^1 message stored/);
    await line.waitFor();
    const { text, title } = await line.evaluate((el) => ({ text: el.textContent, title: el.getAttribute('title') }));
    expect(text).toContain(' · oldest ');
    expect(title).toBe(text);
  });

  it('the Retention panel closes when Tab leaves it, and Esc closes it from anywhere in it, giving the focus back to the Retention button', async () => {
    const r = await serve({});
    const page = await open(r, '#/history');
    const button = page.getByRole('button', { name: 'Retention' });
    const panel = page.getByRole('dialog', { name: 'Retention' });
    await page.getByRole('region', { name: 'Storage' }).getByText('0 messages stored').waitFor();

    await button.click();
    await panel.getByLabel('Keep the last (days)').focus();
    // Days, messages, Save retention, then out.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    await panel.waitFor({ state: 'detached' });
    expect(await page.evaluate<string>('document.activeElement?.tagName ?? ""')).not.toBe('BODY');

    // A click on its text keeps it open; Esc then closes it and gives the focus back to its button.
    await button.click();
    await panel.getByText('Leave a field empty to keep everything.', { exact: false }).click();
    expect(await panel.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await hasFocus(button)).toBe(true);
  });
});
