/**
 * The first screen against a real `hookbench serve` in a fresh browser context: the page asks for Live's
 * first screenful, the counters and the clock before the app's code has run (before React mounts anything),
 * gets them compressed, shows them, and fetches the rest of the list once the first rows are painted.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchBrowser, newPage } from './browser.js';
import { startServe, type RunningServe } from './serve.js';

const STORED = 120;
const FIRST_PAGE = 50;

/** Notes (ms from navigation start) when the app first puts something in #root, and when a message row is first there. */
const PROBE = `
  window.__first = {};
  new MutationObserver(() => {
    const now = performance.now();
    if (window.__first.mounted === undefined && document.getElementById('root')?.firstChild) window.__first.mounted = now;
    if (window.__first.row === undefined && document.querySelector('[role="grid"][aria-label="Messages"] [role="gridcell"]')) window.__first.row = now;
  }).observe(document, { childList: true, subtree: true });
`;

describe.skipIf(chromiumMissing)('the first screen', () => {
  let browser: Browser;
  let serve: RunningServe | null = null;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const context of browser.contexts()) await context.close();
    await serve?.stop();
    serve = null;
  });

  it('sends its first requests before React mounts, asks for a screenful of Live, compressed, and the rest after the first rows show', async () => {
    serve = await startServe({});
    const r = serve;
    await r.call('sendMessages', { messages: Array.from({ length: STORED }, (_, i) => ({ type: 'track', call: { userId: `user-${i}`, event: 'Order Completed', properties: { i } } })) });
    const page = await newPage(browser);
    await page.addInitScript(PROBE);
    const pages: { input: { limit?: number; cursor?: string }; encoding: string | null }[] = [];
    const sentInputs: { limit?: number; cursor?: string }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/listMessages')) sentInputs.push(JSON.parse(request.postData() ?? '{}') as { limit?: number });
    });
    page.on('response', (response) => {
      if (!response.url().endsWith('/api/listMessages')) return;
      pages.push({ input: JSON.parse(response.request().postData() ?? '{}') as { limit?: number }, encoding: null });
      const entry = pages.at(-1)!;
      void response.headerValue('content-encoding').then((v) => (entry.encoding = v));
    });
    await page.goto(`${r.info.uiUrl}#/live`);
    const grid = page.getByRole('grid', { name: 'Messages' });
    await expect.poll(() => grid.getAttribute('aria-rowcount')).toBe(String(STORED + 1));

    // Sent by the page's first script, before the app rendered anything.
    const timing = await page.evaluate(() => ({
      first: (globalThis as unknown as { __first: { mounted: number; row: number } }).__first,
      sent: performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/'))
        .map((e) => ({ command: e.name.split('/api/')[1]!, at: e.startTime })),
    }));
    const sentAt = (command: string) => timing.sent.filter((s) => s.command === command).map((s) => s.at);
    for (const command of ['listMessages', 'getOverview', 'getClock']) expect(sentAt(command)[0], command).toBeLessThan(timing.first.mounted);
    // A screenful first, compressed; the same screenful again once the event socket is open (the first answer
    // may predate it: session.ts); the rest of the list after the first rows are there.
    expect(sentInputs[0]).toEqual({ limit: FIRST_PAGE });
    expect(['br', 'gzip']).toContain(pages[0]!.encoding);
    expect(sentInputs.slice(1)).toHaveLength(2);
    expect(sentInputs.slice(1)).toEqual(expect.arrayContaining([{ limit: FIRST_PAGE }, { cursor: expect.any(String) as string, limit: 500 - FIRST_PAGE }]));
    const rest = sentInputs.findIndex((input) => input.cursor !== undefined);
    expect(sentAt('listMessages')[rest]).toBeGreaterThan(timing.first.row);
    // The top bar shows the counters, and the rows are the newest first.
    await page.getByRole('group', { name: 'Counters' }).getByRole('button', { name: 'Failed (1 h): 0 messages' }).waitFor();
    await grid.getByRole('row').filter({ hasText: `user-${STORED - 1}` }).waitFor();
  });

  it("a message's link opens its detail at once, and History and Check's report load the same way", async () => {
    serve = await startServe({ receivers: [{ name: 'ok', script: 200 }] });
    const r = serve;
    const sent = await r.call<{ message: { id: number } }[]>('sendMessages', { messages: [{ type: 'track', call: { userId: 'ada', event: 'Linked' } }] });
    const id = sent[0]!.message.id;
    const page = await newPage(browser);
    await page.addInitScript(PROBE);
    await page.goto(`${r.info.uiUrl}#/live/${id}`);
    await page.getByRole('region', { name: 'Message details' }).getByRole('heading', { name: 'Linked' }).waitFor();
    const gotMessage = await page.evaluate(() => {
      const mounted = (globalThis as unknown as { __first: { mounted: number } }).__first.mounted;
      const asked = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/getMessage'));
      return asked ? asked.startTime < mounted : null;
    });
    expect(gotMessage).toBe(true);

    const history = await newPage(browser);
    await history.addInitScript(PROBE);
    await history.goto(`${r.info.uiUrl}#/history?userId=ada`);
    await history.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ hasText: 'Linked' }).waitFor();
    const historyEarly = await history.evaluate(() => {
      const mounted = (globalThis as unknown as { __first: { mounted: number } }).__first.mounted;
      const lists = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/listMessages'));
      return lists.some((e) => e.startTime < mounted);
    });
    expect(historyEarly).toBe(true);

    const run = await r.call<{ id: number }>('runCheck', { url: `${r.info.receiverUrl}/r/ok`, only: ['status.valid-request'] });
    await expect.poll(async () => (await r.call<{ status: string }>('getCheckRun', { id: run.id })).status).not.toBe('running');
    const check = await newPage(browser);
    await check.addInitScript(PROBE);
    await check.goto(`${r.info.uiUrl}#/check/${run.id}`);
    await check.getByRole('region', { name: 'Report' }).getByLabel('Summary').getByText(/passed/).waitFor();
    const checkEarly = await check.evaluate(() => {
      const mounted = (globalThis as unknown as { __first: { mounted: number } }).__first.mounted;
      const asked = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/getCheckRun'));
      return asked ? asked.startTime < mounted : null;
    });
    expect(checkEarly).toBe(true);
  });
});
