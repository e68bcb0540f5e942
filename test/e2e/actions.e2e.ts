/**
 * Controls that say what they did and why they cannot, against a real `hookbench serve`: Retry now on a
 * delivered message says why it is disabled; Import names its file field, says how many it imported and the
 * footer's count follows; bulk Retry says how many messages and deliveries it moved; Ctrl+K ranks by words;
 * a confirmation is a named dialog that keeps focus to itself; the filter preview counts only what its sources'
 * integrations route to the destination; an action that opens another screen gives it the focus. Driven by
 * accessible names; every wait is on UI state.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MessageSummary, Page as ListPage } from '../../main/contract/messages.js';
import { chromiumMissing } from './browser.js';
import { controlsOf, hasFocus } from './controls.js';
import { openRetryingMessage, useWorkbench } from './workbench.js';

/** The accessible description (title or aria-description) of the one control of `role` named `name`. */
async function descriptionOf(page: Page, role: string, name: string): Promise<{ disabled: boolean; description: string }> {
  const found = (await controlsOf(page)).filter((c) => c.role === role && c.name === name);
  expect(found, `${role} "${name}"`).toHaveLength(1);
  return { disabled: found[0]!.disabled, description: found[0]!.description };
}

const hashOf = (page: Page) => new URL(page.url()).hash;

describe.skipIf(chromiumMissing)('what the controls say', () => {
  const { serve, open } = useWorkbench();

  it('Retry now and Cancel on a delivered message are disabled and say why; Replay is not', async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'Orders', enabled: true, url: 'receiver:ok' }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Order Completed' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const actions = page.getByRole('region', { name: 'Message details' }).getByRole('group', { name: 'Actions' });
    await page.getByRole('region', { name: 'Message details' }).getByRole('button', { name: /^Attempt 1: success/ }).waitFor();
    await expect.poll(() => actions.getByRole('button', { name: 'Retry now' }).isDisabled()).toBe(true);
    expect(await descriptionOf(page, 'button', 'Retry now')).toEqual({
      disabled: true,
      description: 'Nothing to retry: its delivery is delivered. Only a waiting or failed delivery can be retried (Replay sends it again).',
    });
    expect(await descriptionOf(page, 'button', 'Cancel')).toEqual({ disabled: true, description: 'Nothing to cancel: its delivery is delivered. Only a waiting or in-flight delivery can be cancelled.' });
    expect(await actions.getByRole('button', { name: 'Replay' }).isEnabled()).toBe(true);
  });

  it('Cancel activated with Enter keeps the focus in the detail: on Replay, the next control that can take it, once Cancel has nothing left to cancel', async () => {
    const { page, details } = await openRetryingMessage({ serve, open }, { userId: 'ada', event: 'Doomed Order' });
    const actions = details.getByRole('group', { name: 'Actions' });
    const cancel = actions.getByRole('button', { name: 'Cancel' });
    await cancel.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => cancel.isDisabled()).toBe(true);
    await page.getByText('will not be retried').first().waitFor();
    await expect.poll(() => hasFocus(actions.getByRole('button', { name: 'Replay' }))).toBe(true);
  });

  it('Cancel keeps the focus in the detail when the detail is read twice after it and the first read to finish is not the newest', async () => {
    const { page, details } = await openRetryingMessage({ serve, open }, { userId: 'ada', event: 'Doomed Order' });
    // Every read of the message after Cancel is held, then answered in the order they were asked: the first answer
    // is stale by the time it comes (a newer read was asked), so only the last one shows that nothing is left.
    const held: { release(): Promise<void> }[] = [];
    let holding = true;
    await page.route('**/api/getMessage', (route) => (holding ? held.push({ release: () => route.continue() }) : route.continue()));
    const actions = details.getByRole('group', { name: 'Actions' });
    const cancel = actions.getByRole('button', { name: 'Cancel' });
    await cancel.focus();
    await page.keyboard.press('Enter');
    await page.getByText('will not be retried').first().waitFor();
    await expect.poll(() => held.length).toBeGreaterThanOrEqual(2);
    holding = false;
    for (const request of held) await request.release();
    await expect.poll(() => cancel.isDisabled()).toBe(true);
    await expect.poll(() => hasFocus(actions.getByRole('button', { name: 'Replay' }))).toBe(true);
  });

  it('Import names its file field, says how many it imported, in the original order, and the footer counts them', async () => {
    const r = await serve({ sources: [{ name: 'web', kind: 'web' }] });
    const users = ['first', 'second', 'third'];
    for (const userId of users) await r.call('sendMessage', { type: 'track', source: 'web', call: { userId, event: 'Signed Up' }, destinations: [] });
    // An export by filter, as History writes it with nothing selected: newest first.
    const exported = await r.call<{ text: string }>('exportMessages', { format: 'json' });
    const page = await open(r, '#/history');
    const footer = page.getByRole('region', { name: 'Storage' });
    await footer.getByText('3 messages stored').waitFor();

    await page.getByRole('button', { name: 'Import' }).click();
    const panel = page.getByRole('dialog', { name: 'Import' });
    // Until a file is chosen its button says what it waits for (the panel's opener is named Import too, and enabled).
    const waiting = panel.getByRole('button', { name: 'Import', exact: true });
    expect(await waiting.isDisabled()).toBe(true);
    expect(await waiting.getAttribute('title')).toBe('Choose an export file first');
    // A copy damaged on the way (a byte that is not UTF-8) is refused where it is, not imported with U+FFFD in its
    // place, and the file chosen before it is no longer the one Import would send.
    await panel.getByRole('button', { name: 'Export file' }).setInputFiles({ name: 'signups.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(exported.text) });
    await panel.getByRole('button', { name: 'Import signups.jsonl' }).waitFor();
    const damaged = Buffer.from(exported.text);
    const at = damaged.indexOf('second');
    damaged[at] = 0xe9;
    await panel.getByRole('button', { name: 'Export file' }).setInputFiles({ name: 'damaged.jsonl', mimeType: 'application/x-ndjson', buffer: damaged });
    await panel.getByRole('alert').getByText(`damaged.jsonl: invalid UTF-8 at byte ${at} (0xe9), line 2,`, { exact: false }).waitFor();
    expect(await waiting.isDisabled()).toBe(true);
    // An import the server refuses keeps the panel open, saying why: its button was busy, which took the focus.
    const [first, ...rest] = exported.text.trimEnd().split('\n');
    const noEvent = JSON.parse(first!) as { message: { call: Record<string, unknown> } };
    delete noEvent.message.call['event'];
    await panel.getByRole('button', { name: 'Export file' }).setInputFiles({ name: 'broken.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from([JSON.stringify(noEvent), ...rest].join('\n')) });
    await panel.getByRole('button', { name: 'Import broken.jsonl' }).click();
    await panel.getByRole('alert').getByText('broken.jsonl: line 1: call.event: is required').waitFor();
    // So is one whose source is not here, named by the file too.
    const elsewhere = JSON.parse(first!) as { message: { sourceId: string } };
    elsewhere.message.sourceId = 'gone';
    await panel.getByRole('button', { name: 'Export file' }).setInputFiles({ name: 'elsewhere.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(JSON.stringify(elsewhere)) });
    await panel.getByRole('button', { name: 'Import elsewhere.jsonl' }).click();
    await panel.getByRole('alert').getByText('elsewhere.jsonl: line 1: its source gone does not exist in this workbench; choose a source to route the import through').waitFor();
    await panel.getByRole('button', { name: 'Export file' }).setInputFiles({ name: 'signups.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(exported.text) });
    await panel.getByRole('button', { name: 'Import signups.jsonl' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Imported 3 messages' });
    // Their originals went to no destination, nor do the copies: the notice does not say they are being delivered.
    await notice.getByText('From signups.jsonl (JSON lines); they went nowhere: filtered, no destination here takes them.').waitFor();
    await footer.getByText('6 messages stored').waitFor();
    await page.getByText('End of the history: 6 messages').waitFor();
    // The copies arrived in the originals' order: the newest copy is of the newest original.
    const listed = await r.call<ListPage<MessageSummary>>('listMessages', {});
    expect(listed.items.map((m) => m.userId)).toEqual([...users].reverse().concat([...users].reverse()));
  });

  it('Export as HAR of messages never sent says why there is nothing to download, and downloads nothing', async () => {
    const r = await serve({ sources: [{ name: 'web', kind: 'web' }] });
    for (const userId of ['first', 'second']) await r.call('sendMessage', { type: 'track', source: 'web', call: { userId, event: 'Kept Here' }, destinations: [] });
    const page = await open(r, '#/history');
    await page.getByText('End of the history: 2 messages').waitFor();
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Export' });
    await panel.getByRole('radio', { name: 'HAR' }).click();
    await panel.getByRole('button', { name: 'Download HAR' }).click();
    await panel.getByRole('alert').getByText('All 2 matching messages were never sent, and HAR lists attempts: nothing to download (JSON lines holds every message)').waitFor();
    expect(downloads).toBe(0);
    expect(await page.getByRole('status').filter({ hasText: 'Exported' }).count()).toBe(0);
  });

  it('bulk Retry says how many messages and deliveries it sent again, and what it could not retry', async () => {
    // Its retries wait 10 min: none is in flight when Retry selected is clicked, however slow the machine.
    const down = { name: 'Down', enabled: true, url: 'receiver:down', retry: { schedule: [600_000] } };
    const r = await serve({ receivers: [{ name: 'down', script: 500 }, { name: 'ok', script: 200 }], destinations: [down, { name: 'Up', enabled: true, url: 'receiver:ok' }] });
    await r.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Fine' }, destinations: ['Up'] });
    for (const userId of ['u2', 'u3']) await r.call('sendMessage', { type: 'track', call: { userId, event: 'Down Order' }, destinations: ['Down', 'Up'] });
    await expect.poll(async () => (await r.call<ListPage<MessageSummary>>('listMessages', { status: 'retrying' })).items.length, { timeout: 20_000, interval: 100 }).toBe(2);
    await expect.poll(async () => (await r.call<ListPage<MessageSummary>>('listMessages', { status: 'delivered' })).items.length, { timeout: 20_000, interval: 100 }).toBe(1);
    const page = await open(r, '#/history');
    await page.getByText('End of the history: 3 messages').waitFor();
    expect(await descriptionOf(page, 'button', 'Retry selected')).toEqual({ disabled: true, description: 'Select messages first: tick their boxes (x toggles the row under the cursor)' });
    await page.getByRole('checkbox', { name: 'Select all loaded messages' }).check();
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Retry selected' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'Retried 2 messages; 1 could not be retried' });
    await notice.getByText(/^2 deliveries sent again now\. message #1: nothing to retry/).waitFor();
    await notice.getByRole('button', { name: 'Dismiss: Retried 2 messages; 1 could not be retried' }).click();
    await notice.waitFor({ state: 'detached' });
  });

  it('Ctrl+K ranks by words: "hist" opens History, not a time-travel step', async () => {
    const r = await serve({});
    const page = await open(r, '#/live');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox', { name: 'Command' }).fill('hist');
    expect(await palette.getByRole('option').allInnerTexts()).toEqual(['History']);
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await expect.poll(() => hashOf(page)).toBe('#/history');
  });

  it('a confirmation is a named dialog that alone takes focus and keys until it is answered, then gives focus back', async () => {
    const r = await serve({
      sources: [{ name: 'backend', kind: 'server' }],
      receivers: [{ name: 'ok', script: 200 }],
      destinations: [{ name: 'Legacy CRM', enabled: true, url: 'receiver:ok', sources: ['backend'] }],
    });
    const page = await open(r, '#/destinations/Legacy%20CRM');
    const remove = page.getByRole('button', { name: 'Delete', exact: true });
    await remove.click();
    const dialog = page.getByRole('dialog', { name: 'Delete Legacy CRM?' });
    await dialog.getByText('It has no pending deliveries: nothing is cancelled.').waitFor();
    // The page behind is inert: the dialog's two buttons are all a screen reader or Tab reaches.
    expect((await controlsOf(page)).filter((c) => !c.disabled).map((c) => `${c.role} ${c.name}`)).toEqual(['button Cancel', 'button Delete']);
    const focused = () => page.evaluate<string | undefined>('document.activeElement?.innerText');
    expect(await focused()).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused()).toBe('Delete');

    // A confirmation in place (Sources) takes focus too, on Cancel, and Esc answers it.
    await page.getByRole('link', { name: 'Sources', exact: true }).click();
    await page.getByRole('button', { name: 'Delete source' }).click();
    const inPlace = page.getByRole('dialog', { name: 'Delete source backend?' });
    await inPlace.getByText('1 destination will be disconnected from it: Legacy CRM.').waitFor();
    expect(await descriptionOf(page, 'button', 'Regenerate')).toEqual({ disabled: true, description: 'Answer the question below first' });
    await expect.poll(focused).toBe('Cancel');
    await page.keyboard.press('Escape');
    await inPlace.waitFor({ state: 'detached' });
    // Answered, it gives the focus back to the button that asked: after Esc, and after the action.
    await expect.poll(focused).toBe('Delete source');
    await page.getByRole('button', { name: 'Regenerate', exact: true }).click();
    await expect.poll(focused).toBe('Cancel');
    await page.getByRole('dialog', { name: 'Regenerate write key?' }).getByRole('button', { name: 'Regenerate write key' }).click();
    await page.getByRole('dialog', { name: 'Regenerate write key?' }).waitFor({ state: 'detached' });
    await expect.poll(focused).toBe('Regenerate');
  });

  it('an action that opens another screen gives it the focus: Compose’s Send, Replay, a confirmed Delete', async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'Legacy CRM', enabled: true, url: 'receiver:ok' }] });
    const page = await open(r, '#/compose');
    const main = (name: string) => page.getByRole('main', { name });
    const send = page.getByRole('button', { name: 'Send', exact: true });
    await send.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Message details' }).waitFor();
    await expect.poll(() => hasFocus(main('Live'))).toBe(true);

    const replayed = page.url();
    await page.getByRole('button', { name: 'Replay', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.url()).not.toBe(replayed);
    await expect.poll(() => hasFocus(main('Live'))).toBe(true);

    await page.goto(`${r.info.uiUrl}#/destinations/Legacy%20CRM`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete Legacy CRM?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No destinations yet').waitFor();
    await expect.poll(() => hasFocus(main('Destinations'))).toBe(true);
  });

  it("the filter preview counts only the messages of its sources that their integrations route to it", async () => {
    const r = await serve({
      sources: [{ name: 'backend', kind: 'server' }, { name: 'other', kind: 'web' }],
      receivers: [{ name: 'orders', script: 200 }],
      destinations: [{ name: 'Orders', enabled: true, sources: ['backend'], url: 'receiver:orders' }],
    });
    const track = (event: string, extra: Record<string, unknown> = {}, source = 'backend') => ({ type: 'track', source, call: { userId: 'u1', event, ...extra } });
    await r.call('sendMessages', {
      messages: [
        track('Order Completed'),
        track('Order Completed'),
        track('Cart Updated'),
        track('Cart Updated'),
        // Kept from Orders by their integrations: the filters never see them.
        track('Internal Ping', { integrations: { All: false } }),
        track('Cart Updated', { integrations: { Orders: false } }),
        // Another source's message never reaches Orders.
        track('Cart Updated', {}, 'other'),
      ],
    });
    const page = await open(r, '#/destinations/Orders');
    const filters = page.getByRole('region', { name: 'Event filters' });
    await filters.getByLabel('Allow events').fill('Order Completed');
    const preview = filters.getByRole('status', { name: 'Would drop' });
    await preview.getByText('These filters would drop 2 of 4 messages from its sources').waitFor();
    await preview.getByText('2 other messages from its sources never reach it: their integrations leave it out.').waitFor();
    const dropped = await preview.getByRole('list', { name: 'Dropped events' }).getByRole('listitem').allInnerTexts();
    expect(dropped.map((t) => t.split('×').map((w) => w.trim()))).toEqual([['Cart Updated', '2']]);
  });
});
