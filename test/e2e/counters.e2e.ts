/**
 * Counters, filters and counts agree, against a real `hookbench serve`: the Failed counter opens a list
 * with exactly as many rows as it says; each row names every destination's outcome; "any delivery failed"
 * finds messages whose own status is retrying; Live says how much of the history it holds.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Overview } from '../../main/contract/overview.js';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

const MESSAGES = 12;

const grid = (page: Page) => page.getByRole('grid', { name: 'Messages' });
const dataRows = (page: Page) => grid(page).getByRole('row').filter({ has: page.getByRole('gridcell') });

describe.skipIf(chromiumMissing)('counters, filters and counts', () => {
  const { serve, open } = useWorkbench();

  it('Failed (1 h) counts messages and opens History with exactly that many rows, each naming every destination’s outcome', async () => {
    const r = await serve({
      sources: [{ name: 'backend', kind: 'server', writeKey: 'wk_backend' }],
      receivers: [
        { name: 'ok', script: 200 },
        { name: 'gone', script: 404 },
        { name: 'busy', script: 503 },
      ],
      destinations: [
        { name: 'Orders', enabled: true, sources: ['backend'], url: 'receiver:ok' },
        { name: 'Legacy', enabled: true, sources: ['backend'], url: 'receiver:gone' },
        { name: 'Billing', enabled: true, sources: ['backend'], url: 'receiver:busy', retry: { schedule: [600_000], windowMs: 3_600_000, jitter: 0 } },
      ],
    });
    const messages = Array.from({ length: MESSAGES }, (_, i) => ({ type: 'track', source: 'backend', call: { userId: `user-${i}`, event: 'Order Completed' } }));
    await r.call('sendMessages', { messages });
    // Each message: delivered to Orders, refused for good by Legacy (404), retrying on Billing (503).
    await expect
      .poll(async () => (await r.call<Overview>('getOverview')).messageCounters.failedLastHour.messages, { timeout: 20_000, interval: 100 })
      .toBe(MESSAGES);
    await expect.poll(async () => (await r.call<Overview>('getOverview')).messageCounters.retrying.messages, { timeout: 20_000, interval: 100 }).toBe(MESSAGES);

    const page = await open(r, '#/live');
    // Their own status is retrying: the message-status filter finds none failed, "any delivery failed" finds all.
    await dataRows(page).nth(MESSAGES - 1).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'failed' });
    await page.getByText(`0 of ${MESSAGES} messages`).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'any delivery failed' });
    await page.getByText(`${MESSAGES} of ${MESSAGES} messages`).waitFor();

    const failed = page.getByRole('group', { name: 'Counters' }).getByRole('button', { name: `Failed (1 h): ${MESSAGES} messages` });
    await failed.click();
    await expect.poll(() => page.evaluate<string>('location.hash')).toMatch(/^#\/history\?failedSince=/);
    await page.getByText(`End of the history: ${MESSAGES} messages`).waitFor();
    expect(await grid(page).getAttribute('aria-rowcount')).toBe(String(MESSAGES + 1));
    // The filter says what it is: failures since an instant of real time, which a jump does not move.
    await page.getByRole('search', { name: 'Filters' }).getByRole('button', { name: /^Clear: failed since / }).waitFor();

    // One row tells all three destinations apart, with the last HTTP status of each.
    const outcomes = dataRows(page).first().getByRole('img');
    expect(await outcomes.getAttribute('aria-label')).toBe(
      'Orders: delivered, last HTTP 200, 1 attempt; Legacy: failed (permanent: HTTP 404), last HTTP 404, 1 attempt; Billing: retrying, last HTTP 503, 1 attempt',
    );
    expect(await dataRows(page).first().innerText()).toMatch(/✓\s*200[\s\S]*✕\s*404[\s\S]*↻\s*503/);
  });

  it('Live says it holds the newest 500 of everything stored, links to History, and shows milliseconds where rows share a second', async () => {
    const r = await serve({});
    const stored = 520;
    await r.call('sendMessages', { messages: Array.from({ length: stored }, (_, i) => ({ type: 'track', call: { userId: `u-${i}`, event: 'Ping' }, destinations: [] })) });
    const page = await open(r, '#/live');
    await page.getByText(`newest 500 of ${stored}`).waitFor();
    // Rows stored in the same second: each time shows its milliseconds, the whole timestamp on hover.
    const time = dataRows(page).first().getByRole('gridcell').first();
    expect(await time.innerText()).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
    expect(await time.locator('[title]').getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    await page.getByRole('link', { name: 'Open in History' }).click();
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/history');
    await page.getByText('200 messages loaded · scroll for more').waitFor();
  });
});
