/**
 * 1024×768 and small things, against a real `hookbench serve`: every label still shows and nothing is
 * pushed out or touches its neighbour; Ctrl+K on Linux; the palette finds the Signature panel; a notice
 * never covers the next screen; an X-Signature never leaves one character alone on a line.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchBrowser, newPage } from './browser.js';
import { startServe, type RunningServe } from './serve.js';

/** What the line measure uses of a table cell (the tests compile without the DOM's types). */
type Cell = { ownerDocument: { createRange(): { selectNodeContents(node: unknown): void; getClientRects(): Iterable<{ top: number; width: number }> } } };

const box = async (page: Page, locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!;

describe.skipIf(chromiumMissing)('at 1024×768', () => {
  let browser: Browser;
  let r: RunningServe;
  const pages: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    r = await startServe({
      receivers: [{ name: 'ok', secret: 's3cret', script: 200 }],
      destinations: [{ name: 'A destination with a long name', enabled: true, url: 'receiver:ok', sharedSecret: 's3cret' }],
    });
  });
  afterEach(async () => {
    for (const p of pages.splice(0)) await p.context().close();
  });
  afterAll(async () => {
    await r?.stop();
    await browser?.close();
  });
  const open = async (hash: string) => {
    const page = await newPage(browser, { width: 1024, height: 768 });
    pages.push(page);
    await page.goto(`${r.info.uiUrl}${hash}`);
    await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
    return page;
  };

  it('History says "No messages stored yet" before anything is stored', async () => {
    const page = await open('#/history');
    await page.getByRole('heading', { name: 'No messages stored yet' }).or(page.getByText('No messages stored yet')).first().waitFor();
  });

  it('the navigation keeps its labels, the top bar fits with Reset offset labelled, and the shortcut says Ctrl+K on Linux', async () => {
    await r.call('advanceClock', { ms: 60_000 });
    const page = await open('#/live');
    for (const name of ['Live', 'History', 'Troubleshoot', 'Settings']) expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).innerText()).toBe(name);
    expect(await page.getByRole('button', { name: 'Reset offset' }).innerText()).toBe('Reset offset');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);
    const counters = await box(page, page.getByRole('group', { name: 'Counters' }));
    expect(counters.x + counters.width).toBeLessThanOrEqual(1024);
    expect(await page.getByRole('button', { name: 'Command palette' }).getAttribute('title')).toBe('Command palette (Ctrl+K)');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.locator('text="Ctrl+K" >> visible=true').waitFor();
    expect(await page.locator('text=⌘K >> visible=true').count()).toBe(0);
    await r.call('resetClock');
  });

  it('Destinations’ switches keep clear of the names', async () => {
    const page = await open('#/destinations');
    const sw = await box(page, page.getByRole('switch', { name: 'Enabled: A destination with a long name' }));
    const name = await box(page, page.getByRole('link', { name: 'A destination with a long name' }));
    expect(name.x - (sw.x + sw.width)).toBeGreaterThanOrEqual(8);
  });

  it('with a message open: Resume stream whole in Live, History’s filters in at most two rows, the X-Signature in even lines, and the palette’s "sig" opens the Signature panel', async () => {
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Order Completed', properties: { total: 42 } } });
    const id = sent.message.id;
    await expect.poll(async () => (await r.call<{ attempts: unknown[] }>('getMessage', { id })).attempts.length, { timeout: 20_000, interval: 100 }).toBe(1);

    const page = await open(`#/live/${id}`);
    await page.getByRole('region', { name: 'Message details' }).waitFor();
    await page.getByRole('button', { name: 'Pause stream' }).click();
    const resume = page.getByRole('button', { name: 'Resume stream' });
    const list = await box(page, page.getByRole('grid', { name: 'Messages' }));
    const button = await box(page, resume);
    expect(button.x + button.width).toBeLessThanOrEqual(list.x + list.width);
    expect(await resume.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // "sig" offers the Signature panel; choosing it opens the attempt with the panel in view.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Command' }).fill('sig');
    await palette.getByRole('option', { name: `Signature panel of message ${id}` }).click();
    const signature = page.getByRole('region', { name: 'Signature' });
    await signature.waitFor();
    expect(await signature.isVisible()).toBe(true);

    // The X-Signature header's 40 hex digits, wrapped in the narrow pane: no line is a stub of the others.
    const cell = page.getByRole('table', { name: 'Request headers' }).getByRole('row', { name: /x-signature/i }).getByRole('cell');
    const lines = await cell.evaluate((td: Cell) => {
      const range = td.ownerDocument.createRange();
      range.selectNodeContents(td);
      const widths = new Map<number, number>();
      for (const rect of range.getClientRects()) widths.set(Math.round(rect.top), Math.max(widths.get(Math.round(rect.top)) ?? 0, rect.width));
      return [...widths.values()];
    });
    if (lines.length > 1) expect(Math.min(...lines)).toBeGreaterThan(Math.max(...lines) / 3);
    // In the Signature panel too, the header sent is shown whole (wrapped), never cut at the pane's edge.
    const headerSent = signature.getByLabel('Header sent');
    expect(await headerSent.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= el.ownerDocument.documentElement.clientWidth)).toBe(true);

    const history = await open(`#/history/${id}?delivery=failed`);
    await history.getByRole('region', { name: 'Message details' }).or(history.getByText('No message matches these filters')).first().waitFor();
    const filters = await box(history, history.getByRole('search', { name: 'Filters' }));
    // Two rows of 28 px controls, their gap and padding: four rows (as before) would be over 130 px.
    expect(filters.height).toBeLessThan(90);
  });

  it('a notice said in Live does not follow you back to Compose, where it would cover the preview', async () => {
    const page = await open('#/compose');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'track sent' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compose', exact: true }).click();
    await page.getByRole('region', { name: 'Raw JSON' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'track sent' }).count()).toBe(0);
  });
});
