/**
 * The Sources screen against a real `hookbench serve`, by accessible names: the SDK snippets carry this
 * serve's URL and the write key (the cURL one, run as shown, is accepted and counted); a refused write key
 * shows in the ingest log with its reason; a limit refusal names its field and limit; Regenerate makes the
 * old key a 401. Every wait is on UI state.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumMissing } from './browser.js';
import type { RunningServe } from './serve.js';
import { useWorkbench } from './workbench.js';

const run = promisify(execFile);

const CONFIG = {
  sources: [{ name: 'backend', kind: 'server', writeKey: 'wk_backend' }],
  receivers: [{ name: 'hooks', script: 200 }],
  destinations: [{ name: 'Hooks', enabled: true, sources: ['backend'], url: 'receiver:hooks' }],
};

const post = (r: RunningServe, writeKey: string, body: unknown) =>
  fetch(`${r.info.url}/v1/batch`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${btoa(`${writeKey}:`)}` }, body: JSON.stringify(body) });

/** Waits until a usage counter shows `value`. */
const counterShows = (page: Page, name: string, value: number) => page.getByRole('region', { name: /^Source / }).getByLabel(`${name}: ${value}`, { exact: true }).waitFor({ timeout: 10_000 });

describe.skipIf(chromiumMissing)('Sources', () => {
  const { serve, open } = useWorkbench();

  it('counts usage in calls and says so: a request refused as invalid JSON is in the ingest log, and counts no call', async () => {
    const r = await serve(CONFIG);
    const refused = await fetch(`${r.info.url}/v1/batch`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${btoa('wk_backend:')}` }, body: '{"batch": [' });
    expect(refused.status).toBe(400);
    const page = await open(r, '#/sources/backend');
    await page.getByRole('list', { name: 'Ingest log' }).getByRole('button', { name: /^Refusal \d+: 400 invalid_json/ }).waitFor();
    await counterShows(page, 'refused', 0);
    await page.getByText('Counted in calls: a request refused unread (invalid JSON) counts none. The ingest log lists every refused request.', { exact: true }).waitFor();
  });

  it('snippets name this serve and the write key; the cURL one, run as shown, is accepted and counted', async () => {
    const r = await serve(CONFIG);
    const page = await open(r, '#/sources');
    const snippets = page.getByRole('region', { name: 'SDK snippets' });
    await snippets.getByLabel('Node snippet', { exact: true }).waitFor();
    // Masked until asked for.
    expect(await snippets.getByLabel('Node snippet', { exact: true }).innerText()).not.toContain('wk_backend');
    await snippets.getByRole('button', { name: 'Show write key' }).click();
    await expect.poll(() => snippets.getByLabel('Node snippet', { exact: true }).innerText()).toContain(`writeKey: "wk_backend", host: "${r.info.url}"`);

    for (const [sdk, expected] of [
      ['Python', `analytics.host = "${r.info.url}"`],
      ['Go', `analytics.Config{Endpoint: "${r.info.url}"}`],
      ['Hookbench client', `{ endpoint: "${r.info.url}" }`],
      ['Browser', `apiHost: "${new URL(r.info.url).host}/v1"`],
    ] as const) {
      await snippets.getByRole('radio', { name: sdk }).click();
      await expect.poll(() => snippets.getByLabel(`${sdk} snippet`, { exact: true }).innerText()).toContain(expected);
      expect(await snippets.getByLabel(`${sdk} snippet`, { exact: true }).innerText()).toContain('wk_backend');
    }
    await snippets.getByRole('radio', { name: 'cURL' }).click();
    const curl = await snippets.getByLabel('cURL snippet', { exact: true }).innerText();
    expect(curl).toContain(`'${r.info.url}/v1/batch'`);
    expect(curl).toContain(`-u 'wk_backend:'`);

    const { stdout } = await run('sh', ['-c', curl]);
    expect(JSON.parse(stdout)).toEqual({ success: true });
    // Its two calls are counted, and appear in the last hour.
    await counterShows(page, 'received', 2);
    await counterShows(page, 'accepted', 2);
    await page.getByRole('img', { name: /^Calls per minute, last hour: 2 received, 0 refused/ }).waitFor();
    // The minutes are kept in memory, the totals stored: the caption says since when it counts.
    await page.getByText('Last hour (engine time; counted since Hookbench started): 2 received, peak 2/min').waitFor();
    // The route keeps the chosen SDK.
    expect(new URL(page.url()).hash).toBe('#/sources/backend?sdk=curl');
  });

  it('a refused write key shows in the ingest log with its reason; a call over 32 KiB names its field and limit', async () => {
    const r = await serve(CONFIG);
    const page = await open(r, '#/sources/backend');
    const log = page.getByRole('list', { name: 'Ingest log' });
    await page.getByText('Nothing refused').waitFor();

    expect((await post(r, 'wk_wrong_key', { batch: [{ type: 'track', userId: 'u1', event: 'Signed Up' }] })).status).toBe(401);
    const refusal = log.getByRole('button', { name: /^Refusal \d+: 401 unauthorized, unknown write key "wk_…ey"$/ });
    await refusal.waitFor({ timeout: 10_000 });
    await refusal.click();
    const body = page.getByLabel(/^Body of refusal \d+$/);
    expect(await body.innerText()).toContain('"event":"Signed Up"');

    expect((await post(r, 'wk_backend', { batch: [{ type: 'track', userId: 'u1', event: 'Big', properties: { blob: 'x'.repeat(40_000) } }] })).status).toBe(400);
    const tooBig = log.getByRole('button', { name: /^Refusal \d+: 400 message_too_large, batch\[0\]: \d+ bytes > 32768$/ });
    await tooBig.waitFor({ timeout: 10_000 });
    const row = await tooBig.innerText();
    expect(row).toMatch(/field batch\[0\] · limit 32[,.\u202f\u00a0]?768 · /);
    expect(row).toContain('/v1/batch · backend');
    // Newest first.
    const names = await log.getByRole('button', { name: /^Refusal / }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(names[0]).toMatch(/message_too_large/);
    expect(names[1]).toMatch(/unauthorized/);
    await counterShows(page, 'refused', 1);
  });

  it('Regenerate, once confirmed, replaces the write key: the old one is refused (401) and the new one accepted', async () => {
    const r = await serve(CONFIG);
    const page = await open(r, '#/sources/backend');
    await page.getByRole('button', { name: 'Regenerate', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Regenerate write key?' });
    await confirm.getByText('SDKs still configured with the old key are refused').waitFor();
    await confirm.getByRole('button', { name: 'Regenerate write key' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Reveal write key' }).click();
    await expect.poll(() => page.getByLabel('Write key', { exact: true }).innerText()).toMatch(/^wk_[0-9a-f]{24}$/);
    const fresh = await page.getByLabel('Write key', { exact: true }).innerText();
    expect(fresh).not.toBe('wk_backend');

    expect((await post(r, 'wk_backend', { batch: [{ type: 'track', userId: 'u1', event: 'Old Key' }] })).status).toBe(401);
    expect((await post(r, fresh, { batch: [{ type: 'track', userId: 'u1', event: 'New Key' }] })).status).toBe(200);
    await page.getByRole('list', { name: 'Ingest log' }).getByRole('button', { name: /^Refusal \d+: 401 unauthorized, unknown write key "wk_…nd"$/ }).waitFor({ timeout: 10_000 });
    await counterShows(page, 'accepted', 1);
  });

  it('creates a source (its write key generated) after refusals said at their field in its words, and deletes it, naming the destinations it leaves', async () => {
    const r = await serve(CONFIG);
    const page = await open(r, '#/sources');
    await page.getByRole('button', { name: 'New source' }).click();
    const form = page.getByRole('form', { name: 'New source' });
    await form.getByLabel('Name').fill('backend');
    await form.getByRole('button', { name: 'Create source' }).click();
    // The server's refusal, on the field it names, as the form labels it; it goes once that field changes.
    await form.getByText('Name: a source named "backend" already exists').waitFor();
    await form.getByLabel('Write key (optional)').fill('wk live');
    await form.getByLabel('Name').fill('website');
    await form.getByText('Name: a source named "backend" already exists').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Create source' }).click();
    await form.getByText('Write key: must be printable ASCII without spaces (a space at position 2)').waitFor();
    await form.getByLabel('Write key (optional)').fill('');
    await form.getByLabel('Kind').selectOption('web');
    await form.getByRole('button', { name: 'Create source' }).click();
    await page.getByRole('region', { name: 'Source website' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/sources/website');
    const sources = await r.call<{ items: { name: string; kind: string }[] }>('listSources');
    expect(sources.items.map((s) => [s.name, s.kind])).toEqual([['backend', 'server'], ['website', 'web']]);

    await page.getByRole('list', { name: 'Sources' }).getByRole('button', { name: 'backend' }).click();
    await page.getByRole('button', { name: 'Delete source' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete source backend?' });
    await confirm.getByText('1 destination will be disconnected from it: Hooks.').waitFor();
    await confirm.getByRole('button', { name: 'Delete source' }).click();
    await page.getByText('Disconnected from Hooks.').waitFor();
    await expect.poll(async () => (await r.call<{ items: { name: string }[] }>('listSources')).items.map((s) => s.name)).toEqual(['website']);
  });

  it('names a connected destination that is off as off: its calls pass it by, and with only such ones they are filtered', async () => {
    const r = await serve({ ...CONFIG, destinations: [...CONFIG.destinations, { name: 'Paused Hooks', enabled: false, sources: ['backend'], url: 'receiver:hooks' }] });
    const page = await open(r, '#/sources/backend');
    const source = page.getByRole('region', { name: 'Source backend' });
    await source.getByText('Hooks, Paused Hooks (off)', { exact: true }).waitFor();
    await r.call('updateDestination', { id: 'Hooks', patch: { enabled: false } });
    await source.getByText('Hooks (off), Paused Hooks (off): all off, its calls are stored as filtered', { exact: true }).waitFor();
  });
});
