/** The ⌘K palette and Settings, by accessible names against a real serve. */
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './browser.js';
import { hasFocus } from './controls.js';
import { useWorkbench } from './workbench.js';

describe.skipIf(chromiumMissing)('command palette and settings', () => {
  const { serve, open } = useWorkbench();

  it('Ctrl+K finds screens and actions by typing: time travel, a message by number, compose a type', async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'One', enabled: true, url: 'receiver:ok' }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Signed Up' } });
    const page = await open(r, '#/live');
    const palette = page.getByRole('dialog', { name: 'Command palette' });

    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox', { name: 'Command' }).fill('+1 h');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await page.getByRole('group', { name: 'Engine clock' }).getByLabel('offset +1 h').waitFor();

    await page.getByRole('button', { name: 'Command palette' }).click();
    await palette.getByRole('combobox', { name: 'Command' }).fill(`#${sent.message.id}`);
    await palette.getByRole('option', { name: `Open message ${sent.message.id}` }).click();
    await page.getByRole('region', { name: 'Message details' }).getByRole('heading', { name: 'Signed Up' }).waitFor();
    expect(await page.evaluate<string>('location.hash')).toBe(`#/live/${sent.message.id}`);

    // With a message open, its actions are offered.
    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox', { name: 'Command' }).fill('replay');
    await palette.getByRole('option', { name: `Replay message ${sent.message.id}` }).waitFor();
    await palette.getByRole('combobox', { name: 'Command' }).fill('compose an identify');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/compose');
    expect(await page.getByRole('combobox', { name: 'Type' }).inputValue()).toBe('identify');

    // Deleting a user's data is found by saying so; it opens the form on the Audiences screen.
    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox', { name: 'Command' }).fill('delete user');
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'New deletion request' }).waitFor();
    expect(await page.evaluate<string>('location.hash')).toBe('#/audiences/new/deletion');
  });

  it('closing the palette gives focus back where it was (Esc, or an entry that stays on the screen), and to the new screen after one that opens it', async () => {
    const r = await serve({});
    await r.call('sendMessage', { type: 'track', call: { userId: 'ada', event: 'Signed Up' }, destinations: [] });
    const page = await open(r, '#/live');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.focus();

    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox', { name: 'Command' }).waitFor();
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(grid)).toBe(true);

    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox', { name: 'Command' }).fill('+1 h');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(grid)).toBe(true);

    await page.keyboard.press('Control+k');
    await palette.getByRole('combobox', { name: 'Command' }).fill('history');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/history');
    await expect.poll(() => hasFocus(page.getByRole('main'))).toBe(true);
  });

  it('Settings lists the addresses to copy, the data directory and database size, and switches density', async () => {
    const r = await serve({});
    const page = await open(r, '#/live');
    await page.getByRole('link', { name: 'Settings' }).click();
    const addresses = page.getByRole('region', { name: 'Addresses' });
    // The settings arrive after the screen: wait for the value, not for the placeholder.
    await expect.poll(() => addresses.getByLabel('Ingestion for SDKs', { exact: true }).innerText()).toBe(r.info.url);
    await addresses.getByRole('button', { name: 'Copy UI link' }).waitFor();
    const data = page.getByRole('region', { name: 'Data' });
    await expect.poll(() => data.getByLabel('Data directory', { exact: true }).innerText()).toBe(r.dataDir);
    expect(await data.getByLabel('Database size', { exact: true }).innerText()).toMatch(/^\d+(\.\d)? (B|KiB|MiB)/);
    // What the folder holds, as it is: sources and destinations live in the database, a --config file stays where it was.
    const hint = await data.locator('header p').innerText();
    expect(hint).toContain('your sources, destinations and receiver endpoints');
    expect(hint).toContain('A config file you start with is not kept here');

    await page.getByRole('radiogroup', { name: 'Density' }).getByRole('radio', { name: 'Compact' }).click();
    expect(await page.evaluate<string>('document.documentElement.dataset.density')).toBe('compact');
    // The choice survives a reload.
    await page.reload();
    await page.getByRole('radiogroup', { name: 'Density' }).getByRole('radio', { name: 'Compact', checked: true }).waitFor();
  });
});
