/**
 * The Troubleshoot checklist against a real `hookbench serve`, in three set-ups the spec's rules name: a
 * disabled destination, a call whose integrations keep it from the destination, and an SDK with a write key
 * the workbench does not know. Each is named with its evidence, and the evidence links open it. Driven by
 * accessible names; every wait is on UI state.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

const WRITE_KEY = 'wk_web_1234567890';
const source = { name: 'web', kind: 'web', writeKey: WRITE_KEY };

/** The page's hash (the route), from its URL. */
const hashOf = (page: Page) => new URL(page.url()).hash;

describe.skipIf(chromiumMissing)('Troubleshoot', () => {
  const { serve, open } = useWorkbench();

  it('names a disabled destination, and the message of its source that went without it', async () => {
    const r = await serve({ sources: [source], destinations: [{ name: 'Warehouse', enabled: false, url: 'http://127.0.0.1:9/hook', sources: ['web'] }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', source: 'web', call: { userId: 'ada', event: 'Order Completed' } });
    const page = await open(r, '#/troubleshoot');
    const section = page.getByRole('region', { name: 'Events received but not delivered' });
    const warehouse = section.getByRole('listitem', { name: 'Warehouse', exact: true });
    const item = warehouse.getByRole('listitem', { name: 'Problem: Warehouse is disabled' });
    await item.waitFor();
    expect(await item.innerText()).toMatch(/A disabled destination receives nothing: 1 recent message of its sources went without it\. Turn it on in Destinations\./);
    const link = item.getByRole('link', { name: `Message #${sent.message.id} (Order Completed), evidence of: Warehouse is disabled` });
    // An in-app link: no external-link icon.
    expect(await link.locator('svg.lucide-external-link').count()).toBe(0);
    expect(await page.locator('svg.lucide-external-link').count()).toBe(0);
    await link.click();
    await page.getByRole('region', { name: 'Message details' }).getByText('no enabled destination is connected to source "web"', { exact: false }).first().waitFor();
    expect(await hashOf(page)).toBe(`#/live/${sent.message.id}`);
  });

  it('names an integrations filter with the message and the rule, live as the message arrives', async () => {
    const r = await serve({ sources: [source], receivers: [{ name: 'ok', script: 200 }], destinations: [{ name: 'Warehouse', enabled: true, url: 'receiver:ok', sources: ['web'] }] });
    const page = await open(r, '#/troubleshoot');
    const section = page.getByRole('region', { name: 'Events received but not delivered' });
    await section.getByRole('listitem', { name: 'Warehouse', exact: true }).waitFor();
    // Sent while the page is open: the checklist follows the event stream.
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', source: 'web', call: { userId: 'ada', event: 'Order Completed', integrations: { Webhooks: false } } });
    const item = section.getByRole('listitem', { name: 'Warning: 1 recent message filtered out of Warehouse by integrations or event filters' });
    await item.waitFor();
    expect(await item.innerText()).toContain(`integrations.Webhooks=false: 1 message (latest #${sent.message.id})`);
    await item.getByRole('link', { name: `Message #${sent.message.id}: integrations.Webhooks=false, evidence of: 1 recent message filtered out of Warehouse by integrations or event filters` }).click();
    await page.getByRole('region', { name: 'Message details' }).getByRole('heading', { name: 'Order Completed' }).waitFor();
  });

  it('names a refused write key from the ingest log, and shows the URL SDKs must use', async () => {
    const r = await serve({ sources: [source] });
    const res = await fetch(`${r.info.url}/v1/batch`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('wk_revoked_999999:').toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ batch: [{ type: 'track', userId: 'ada', event: 'Signed Up' }] }),
    });
    expect(res.status).toBe(401);
    const page = await open(r, '#/troubleshoot');
    const section = page.getByRole('region', { name: 'No events from a source' });
    const item = section.getByRole('listitem', { name: 'Problem: 1 request refused: unknown or missing write key' });
    await item.waitFor();
    expect(await item.innerText()).toMatch(/Latest: HTTP 401 unauthorized: unknown write key "wk_/);
    expect(await item.innerText()).not.toContain('wk_revoked_999999');
    await item.getByRole('link', { name: /^Refused #\d+: HTTP 401 unauthorized, evidence of: 1 request refused: unknown or missing write key$/ }).waitFor();
    await section.getByRole('listitem', { name: `Warning: SDKs send to ${r.info.url}/v1/batch` }).getByRole('button', { name: 'Copy Ingestion URL' }).waitFor();
    await page.getByText('1 problem', { exact: true }).waitFor();
  });
});
