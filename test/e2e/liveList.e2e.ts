/**
 * The Live list while messages arrive, against a real `hookbench serve`: scrolled down, the row being read
 * stays where it is and a pill counts what arrived above; at the top, the list follows the newest. Opening a
 * message puts its pane beside the list without the list losing its place, its focus or its pill; closing an
 * attempt or the message never leaves the focus on the page.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

const FIRST = 60;
const MORE = 5;

/** One source whose messages go to one destination that a mock endpoint answers 200. */
const ORDERS = {
  sources: [{ name: 'backend', kind: 'server', writeKey: 'wk_backend' }],
  receivers: [{ name: 'ok', script: 200 }],
  destinations: [{ name: 'Orders', enabled: true, sources: ['backend'], url: 'receiver:ok' }],
};
/** `count` Order Completed tracks from user-`from` on, through the backend source. */
const sendOrders = (r: { call: (name: string, input: unknown) => Promise<unknown> }, from: number, count: number) =>
  r.call('sendMessages', { messages: Array.from({ length: count }, (_, i) => ({ type: 'track', source: 'backend', call: { userId: `user-${from + i}`, event: 'Order Completed' } })) });

const grid = (page: Page) => page.getByRole('grid', { name: 'Messages' });
const scroller = (page: Page) => grid(page).getByRole('rowgroup').nth(1);
/** The userIds of the rows inside the scrolled viewport, top to bottom. */
const visibleUsers = (page: Page) =>
  scroller(page).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll('[role="row"]')]
      .filter((row) => {
        const r = row.getBoundingClientRect();
        return r.top >= box.top && r.bottom <= box.bottom;
      })
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
      .map((row) => row.querySelectorAll('[role="gridcell"]')[3]?.textContent ?? '');
  });

/** The accessible name of the element that has the focus. */
const focused = (page: Page) => page.evaluate<string | null | undefined>('document.activeElement?.getAttribute("aria-label")');

describe.skipIf(chromiumMissing)('the Live list while messages arrive', () => {
  const { serve, open } = useWorkbench();

  /** Live with FIRST messages, scrolled down to the 20th row, and the rows it shows then. */
  const scrolledDown = async () => {
    const r = await serve(ORDERS);
    const send = (from: number, count: number) => sendOrders(r, from, count);
    await send(0, FIRST);
    const page = await open(r, '#/live');
    await expect.poll(() => grid(page).getAttribute('aria-rowcount')).toBe(String(FIRST + 1));
    await scroller(page).evaluate((el) => el.scrollTo({ top: 20 * 32 }));
    await expect.poll(async () => (await visibleUsers(page)).length).toBeGreaterThan(3);
    return { page, send, reading: await visibleUsers(page) };
  };

  it('keeps the row being read in place when messages arrive above it, counts them in a pill, and the pill goes back to the newest', async () => {
    // Scrolled down, a burst above does not move what the user reads.
    const { page, send, reading } = await scrolledDown();
    await send(FIRST, MORE);
    await expect.poll(() => grid(page).getAttribute('aria-rowcount')).toBe(String(FIRST + MORE + 1));
    await page.getByRole('button', { name: `${MORE} new messages` }).waitFor();
    expect(await visibleUsers(page)).toEqual(reading);

    // The pill goes to the top, which then follows new messages.
    await page.getByRole('button', { name: `${MORE} new messages` }).click();
    await expect.poll(async () => (await visibleUsers(page))[0]).toBe(`user-${FIRST + MORE - 1}`);
    await expect.poll(() => page.getByRole('button', { name: /new messages?$/ }).count()).toBe(0);
    await send(FIRST + MORE, 1);
    await expect.poll(async () => (await visibleUsers(page))[0]).toBe(`user-${FIRST + MORE}`);
  });

  it('opens a message beside the list, which keeps its place, its focus and its pill, and again when the pane closes', async () => {
    const { page, send } = await scrolledDown();
    await send(FIRST, MORE);
    const pill = page.getByRole('button', { name: `${MORE} new messages` });
    await pill.waitFor();
    const reading = await visibleUsers(page);
    const top = await scroller(page).evaluate((el) => el.scrollTop);

    await grid(page).getByRole('row').filter({ hasText: reading[1]! }).click();
    await page.getByRole('region', { name: 'Message details' }).getByRole('heading', { level: 2 }).filter({ hasText: 'Order Completed' }).waitFor();
    expect(await scroller(page).evaluate((el) => el.scrollTop)).toBe(top);
    expect(await focused(page)).toBe('Messages');
    expect(await pill.isVisible()).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('region', { name: 'Message details' }).count()).toBe(0);
    expect(await scroller(page).evaluate((el) => el.scrollTop)).toBe(top);
    expect(await focused(page)).toBe('Messages');
  });

  it('closing an attempt gives the focus to its button in the timeline, and closing the message to the list', async () => {
    const r = await serve(ORDERS);
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', source: 'backend', call: { userId: 'ada', event: 'Order Completed' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    const attempt = details.getByRole('button', { name: /^Attempt 1: success/ });
    await attempt.click();
    await page.getByRole('button', { name: 'Close attempt' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Attempt 1' }).count()).toBe(0);
    expect(await focused(page)).toBe(await attempt.getAttribute('aria-label'));

    // Esc from inside the attempt: the same.
    await attempt.click();
    await page.getByRole('button', { name: 'Copy as cURL' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('region', { name: 'Attempt 1' }).count()).toBe(0);
    expect(await focused(page)).toBe(await attempt.getAttribute('aria-label'));

    await page.getByRole('button', { name: 'Close details' }).click();
    await expect.poll(() => details.count()).toBe(0);
    expect(await focused(page)).toBe('Messages');
  });

  it('a long event name or user ID cut in the list or the pane’s heading reads whole on hover', async () => {
    const r = await serve(ORDERS);
    const event = 'Subscription Renewal Payment Method Updated After Card Expiry Notification Was Acknowledged By Customer';
    const userId = 'user-0f3c9a7e-41b2-4c1d-9d0e-7a1b2c3d4e5f-with-a-very-long-tenant-prefix-acme-europe-west';
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', source: 'backend', call: { userId, event } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const row = grid(page).getByRole('row').filter({ hasText: 'Subscription Renewal' });
    const eventText = row.getByText(event, { exact: true });
    await eventText.waitFor();
    // Cut beside the open message (at 1280 px), with the whole name as its title.
    expect(await eventText.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await eventText.getAttribute('title')).toBe(event);
    const heading = page.getByRole('region', { name: 'Message details' }).getByRole('heading', { level: 2 });
    expect(await heading.getAttribute('title')).toBe(event);
    await page.getByRole('button', { name: 'Close details' }).click();
    const user = row.getByText(userId, { exact: true });
    await user.waitFor();
    expect(await user.getAttribute('title')).toBe(userId);
  });

  it('an identify or an anonymous call cut in the list reads whole on hover: whose call it is, its anonymous ID', async () => {
    const r = await serve(ORDERS);
    const userId = 'user-0f3c9a7e-41b2-4c1d-9d0e-7a1b2c3d4e5f-with-a-very-long-tenant-prefix-acme-europe-west';
    const anonymousId = 'anon-7d1e2f3a-9b8c-4d5e-8f6a-1b2c3d4e5f6a-from-a-browser-session-on-the-shop';
    const traits = await r.call<{ message: { id: number } }>('sendMessage', { type: 'identify', source: 'backend', call: { userId, traits: { plan: 'pro' } } });
    await r.call('sendMessage', { type: 'track', source: 'backend', call: { anonymousId, event: 'Product Viewed' } });
    // Beside the open message the list has no User column: the unnamed call says whose it is, cut.
    const page = await open(r, `#/live/${traits.message.id}`);
    const whose = grid(page).getByRole('row').filter({ hasText: 'user traits' }).getByText(/^user traits/);
    await whose.waitFor();
    expect(await whose.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await whose.getAttribute('title')).toBe(`user traits · ${userId}`);
    await page.getByRole('button', { name: 'Close details' }).click();
    const anonymous = grid(page).getByRole('row').filter({ hasText: 'Product Viewed' }).getByText(anonymousId, { exact: true });
    await anonymous.waitFor();
    expect(await anonymous.evaluate((el) => el.closest('[title]')?.getAttribute('title'))).toBe(`Anonymous ID: ${anonymousId}`);
  });

  it('dates rows from another day than the engine’s and widens the Time column so the whole time still fits', async () => {
    const r = await serve(ORDERS);
    const sent = await r.call<{ message: { receivedAt: number } }>('sendMessage', { type: 'track', source: 'backend', call: { userId: 'yesterday', event: 'Order Completed' } });
    await r.call('advanceClock', { ms: 30 * 3_600_000 });
    await r.call('sendMessage', { type: 'track', source: 'backend', call: { userId: 'today', event: 'Order Completed' } });
    const page = await open(r, '#/live');
    await expect.poll(() => grid(page).getAttribute('aria-rowcount')).toBe('3');
    const day = new Date(sent.message.receivedAt).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
    const timeCell = (user: string) => grid(page).getByRole('row').filter({ hasText: user }).getByRole('gridcell').first();
    await expect.poll(() => timeCell('yesterday').innerText()).toMatch(new RegExp(`^${day} \\d\\d:\\d\\d:\\d\\d`));
    expect(await timeCell('today').innerText()).toMatch(/^\d\d:\d\d:\d\d/);
    for (const user of ['yesterday', 'today']) expect(await timeCell(user).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});
