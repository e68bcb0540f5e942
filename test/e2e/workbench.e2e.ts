/**
 * The workbench in a real browser against a real `hookbench serve` and its mock receiver. Driven by
 * accessible names only; every wait is on UI state, never a sleep.
 */
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

describe.skipIf(chromiumMissing)('the workbench UI', () => {
  const { serve, open } = useWorkbench();

  it('composes a track, sends it to a destination at receiver:<name>, and Live shows it delivered', async () => {
    const r = await serve({
      receivers: [{ name: 'inbox', secret: 's3cret', script: 200 }],
      destinations: [{ name: 'Inbox', enabled: true, sharedSecret: 's3cret', url: 'receiver:inbox' }],
    });
    const page = await open(r, '#/compose');
    const nav = page.getByRole('navigation');
    for (const name of ['Live', 'Compose', 'Destinations', 'Sources', 'Receiver', 'History', 'Troubleshoot', 'Audiences']) {
      expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1);
    }

    await page.getByLabel('Type', { exact: true }).selectOption('track');
    await page.getByLabel('User ID', { exact: true }).fill('e2e-user');
    await page.getByLabel('Event', { exact: true }).fill('E2E Signed Up');
    await page.getByRole('checkbox', { name: 'Inbox' }).check();
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    // Sending selects the new message in Live.
    await page.waitForURL(/#\/live\/\d+$/);
    const row = page.getByRole('row').filter({ hasText: 'E2E Signed Up' });
    await row.getByText('delivered', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Message details' }).getByRole('button', { name: /^Attempt 1: success, HTTP 200/ }).waitFor();

    const captures = await r.call<{ items: { receiver: string; signature: { verdict: string } | null }[] }>('listCaptures', { receiver: 'inbox' });
    expect(captures.items).toHaveLength(1);
    expect(captures.items[0]!.signature?.verdict).toBe('valid');
  });

  it("names where you are: the window's title and the main region say the screen, and the list/detail splitter has a name", async () => {
    const r = await serve({});
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Oriented' }, destinations: [] });
    const page = await open(r, '#/live');
    await page.getByRole('main', { name: 'Live' }).waitFor();
    expect(await page.title()).toBe('Live · Hookbench');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
    await page.getByRole('main', { name: 'History' }).waitFor();
    await expect.poll(() => page.title()).toBe('History · Hookbench');
    await page.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ hasText: 'Oriented' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/history/${sent.message.id}`);
    await page.getByRole('separator', { name: 'Resize the list and the details' }).waitFor();
  });

  it('shows three attempts on the timeline for a receiver scripted 500,500,200 after time travel', async () => {
    const r = await serve({
      receivers: [{ name: 'flaky', script: '500,500,200' }],
      destinations: [{ name: 'Flaky endpoint', enabled: true, url: 'receiver:flaky' }],
    });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Flaky Order' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: http_error, HTTP 500/ }).waitFor();
    // The next retry is already on the timeline as a ghost marker.
    await details.getByRole('listitem', { name: /^Scheduled attempt 2/ }).waitFor();

    // One minute covers both retries (5 s and 30 s, ±20 %): advancing plays them in time order.
    await page.getByRole('button', { name: '+1 min', exact: true }).click();
    await details.getByRole('button', { name: /^Attempt 3: success, HTTP 200/ }).waitFor();
    expect(await details.getByRole('button', { name: /^Attempt \d+:/ }).count()).toBe(3);
    await page.getByRole('row').filter({ hasText: 'Flaky Order' }).getByText('delivered', { exact: true }).waitFor();
    const clock = page.getByRole('group', { name: 'Engine clock' });
    await clock.getByText('+1 min', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Reset offset' }).click();
    await clock.getByText('real time', { exact: true }).waitFor();
  });

  it('holds messages while forwarding is paused, saying so on the card, and delivers them when it resumes', async () => {
    const r = await serve({
      receivers: [{ name: 'inbox', script: 200 }],
      destinations: [{ name: 'Inbox', enabled: true, url: 'receiver:inbox' }],
    });
    const page = await open(r, '#/live');
    await page.getByText('No messages yet').waitFor();
    const forwarding = page.getByRole('switch', { name: 'Forwarding' });
    await forwarding.click();
    await page.getByRole('switch', { name: 'Forwarding', checked: false }).waitFor();

    await r.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Held Order' } });
    const row = page.getByRole('row').filter({ hasText: 'Held Order' });
    await row.getByText('queued', { exact: true }).waitFor();
    // Its card says why it waits, and stops saying so once forwarding resumes.
    await row.click();
    const card = page.getByRole('region', { name: 'Message details' }).getByText('Forwarding is paused: the first attempt waits until you resume it.');
    await card.waitFor();
    await page.keyboard.press('Escape');

    await forwarding.click();
    await row.getByText('delivered', { exact: true }).waitFor();

    // The keyboard: j moves to the first row, Enter opens it, Esc closes it.
    await page.getByRole('grid', { name: 'Messages' }).focus();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: success/ }).waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
  });
});
