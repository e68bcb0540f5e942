/** The Receiver screen's endpoint management, by accessible names against a real serve. */
import { describe, expect, it } from 'vitest';
import type { ReceiverEndpoint } from '../../main/contract/receiver/receiver.js';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

describe.skipIf(chromiumMissing)('Receiver endpoints', () => {
  const { serve, open } = useWorkbench();

  it('Clear, from the keyboard, keeps the focus in the captures’ toolbar once there is nothing left to clear', async () => {
    const r = await serve({ receivers: [{ name: 'orders', script: 200 }] });
    expect((await fetch(`${r.info.receiverUrl}/r/orders`, { method: 'POST', body: '{"a":1}' })).status).toBe(200);
    const page = await open(r, '#/receiver/orders');
    await page.getByRole('list', { name: 'Captured requests' }).getByRole('listitem').first().waitFor();
    const clear = page.getByRole('button', { name: 'Clear', exact: true });
    await clear.focus();
    await page.keyboard.press('Enter');
    await page.getByText('No requests captured yet').waitFor();
    expect(await clear.isDisabled()).toBe(true);
    // Clear is the toolbar's last control: the focus goes to the one before it, the endpoint/all switch.
    await expect.poll(() => page.evaluate<string | null | undefined>('document.activeElement?.closest("[aria-label=\'Show captures of\']") ? "switch" : document.activeElement?.tagName')).toBe('switch');
  });

  it('says the list holds the newest captures when the receiver keeps more than it loaded, and all of them otherwise', async () => {
    const r = await serve({ receivers: [{ name: 'orders', script: 200 }, { name: 'spare', script: 200 }] });
    // One more than a page of captures for orders, two for spare.
    for (let i = 0; i < 301; i += 43) await Promise.all(Array.from({ length: Math.min(43, 301 - i) }, () => fetch(`${r.info.receiverUrl}/r/orders`, { method: 'POST', body: '{"a":1}' })));
    for (let i = 0; i < 2; i++) await fetch(`${r.info.receiverUrl}/r/spare`, { method: 'POST', body: '{"a":1}' });
    const page = await open(r, '#/receiver/orders');
    const toolbar = page.getByRole('heading', { name: 'Captured requests' }).locator('..');
    await toolbar.getByText('newest 300 requests', { exact: true }).waitFor();
    await page.getByRole('list', { name: 'Endpoints' }).getByRole('button', { name: 'spare' }).click();
    await toolbar.getByText('2 requests', { exact: true }).waitFor();
  });

  it('deletes an endpoint after a confirmation that names the destinations pointing at it', async () => {
    const r = await serve({
      receivers: [{ name: 'orders', script: 200 }, { name: 'spare', script: 200 }],
      destinations: [{ name: 'Orders service', enabled: true, url: 'receiver:orders' }],
    });
    const page = await open(r, '#/receiver/orders');
    const endpoint = page.getByRole('form', { name: 'Endpoint orders' });
    await endpoint.getByRole('button', { name: 'Delete endpoint' }).click();
    const confirm = endpoint.getByRole('dialog', { name: 'Delete orders?' });
    expect(await confirm.innerText()).toContain('Orders service');
    // Keeping it changes nothing.
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await r.call<{ items: ReceiverEndpoint[] }>('listReceivers')).items.map((e) => e.name)).toEqual(['orders', 'spare']);

    // From the keyboard: the question takes focus on its safe answer, Escape keeps the endpoint and hands focus back.
    await endpoint.getByRole('button', { name: 'Delete endpoint' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate<string | null | undefined>('document.activeElement?.textContent')).toBe('Keep it');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate<string | null | undefined>('document.activeElement?.textContent')).toBe('Delete endpoint');
    expect(new URL(page.url()).hash).toBe('#/receiver/orders');

    await endpoint.getByRole('button', { name: 'Delete endpoint' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('list', { name: 'Endpoints' }).getByRole('button', { name: 'orders' }).waitFor({ state: 'detached' });
    await expect.poll(async () => (await r.call<{ items: ReceiverEndpoint[] }>('listReceivers')).items.map((e) => e.name)).toEqual(['spare']);
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/receiver');
  });

  it('Refuse invalid signatures: ticked and saved, the endpoint answers an unsigned request 401; without a secret it cannot be ticked', async () => {
    const r = await serve({ receivers: [{ name: 'orders', secret: 's3cret', script: 200 }, { name: 'open', script: 200 }] });
    const page = await open(r, '#/receiver/orders');
    const endpoint = page.getByRole('form', { name: 'Endpoint orders' });
    const refuse = endpoint.getByRole('checkbox', { name: 'Refuse invalid signatures', exact: true });
    expect(await refuse.isChecked()).toBe(false);
    expect(await refuse.isEnabled()).toBe(true);
    await refuse.check();
    await endpoint.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await r.call<ReceiverEndpoint>('getReceiver', { name: 'orders' })).refuseInvalidSignatures).toBe(true);
    const unsigned = await fetch(`${r.info.receiverUrl}/r/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toMatchObject({ error: 'missing signature', verdict: 'missing' });
    // The capture list says the endpoint refused it.
    await page.getByRole('list', { name: 'Captured requests' }).getByText('refused: no X-Signature header').waitFor();

    // The saved endpoint comes back ticked; clearing its secret under the ticked box says what to do and blocks Save.
    await page.reload();
    await refuse.waitFor();
    expect(await refuse.isChecked()).toBe(true);
    await endpoint.getByRole('textbox', { name: 'Secret' }).fill('');
    await endpoint.getByRole('alert').filter({ hasText: 'Needs a secret' }).waitFor();
    expect(await endpoint.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await refuse.uncheck();
    await endpoint.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await r.call<ReceiverEndpoint>('getReceiver', { name: 'orders' })).refuseInvalidSignatures).toBe(false);
    expect((await r.call<ReceiverEndpoint>('getReceiver', { name: 'orders' })).secret).toBeNull();

    // An endpoint without a secret has nothing to check signatures against.
    await page.getByRole('list', { name: 'Endpoints' }).getByRole('button', { name: 'open' }).click();
    const other = page.getByRole('form', { name: 'Endpoint open' }).getByRole('checkbox', { name: 'Refuse invalid signatures', exact: true });
    await other.waitFor();
    expect(await other.isDisabled()).toBe(true);
  });

  it('Responses "200,,500" is refused under the field, naming the empty item, and nothing is saved', async () => {
    const r = await serve({ receivers: [{ name: 'seq', script: '201,202' }] });
    const page = await open(r, '#/receiver/seq');
    const endpoint = page.getByRole('form', { name: 'Endpoint seq' });
    const responses = endpoint.getByRole('textbox', { name: 'Responses' });
    await responses.fill('200,,500');
    await endpoint.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => responses.getAttribute('aria-invalid')).toBe('true');
    // The error is the field's own description, not a toast elsewhere.
    const description = await responses.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '').join(' | '));
    expect(description).toContain('Responses: item 2 is empty: give a status code (200-599), never, reset or close');
    expect((await r.call<ReceiverEndpoint>('getReceiver', { name: 'seq' })).script).toMatchObject({ steps: [{ status: 201 }, { status: 202 }] });
  });

  it("Save's notice says what happened to the script's place: unchanged, it keeps it (the next request gets step 4); changed, it starts over", async () => {
    const r = await serve({ receivers: [{ name: 'seq', script: '201,202,203,204,205' }] });
    const url = `${r.info.receiverUrl}/r/seq`;
    for (const status of [201, 202, 203]) expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(status);
    const page = await open(r, '#/receiver/seq');
    const endpoint = page.getByRole('form', { name: 'Endpoint seq' });
    await endpoint.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Script unchanged, so it keeps its place: the next request gets step 4 of 5: 204' }).waitFor();
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(204);

    await endpoint.getByRole('textbox', { name: 'Responses' }).fill('500,200');
    await endpoint.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'The new script starts at its first step: the next request gets step 1 of 2: 500' }).waitFor();
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(500);
  });

  it('a new endpoint named " spaced2 " is refused under Name, naming the value, and none is created under a trimmed name', async () => {
    const r = await serve({ receivers: [{ name: 'orders', script: 200 }] });
    const page = await open(r, '#/receiver/orders');
    await page.getByRole('button', { name: 'New endpoint' }).click();
    const form = page.getByRole('form', { name: 'New endpoint' });
    const name = form.getByRole('textbox', { name: 'Name' });
    await name.fill(' spaced2 ');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    await form.getByText('Name: must not begin or end with a space (got " spaced2 ")').waitFor();
    expect((await r.call<{ items: ReceiverEndpoint[] }>('listReceivers')).items.map((e) => e.name)).toEqual(['orders']);
  });

  it('the endpoint list, cut in a 1024 px window, reads whole on hover: the script and the name, and Used by lists every destination', async () => {
    const name = 'payments-eu-west';
    const r = await serve({
      sources: [{ name: 'web', kind: 'web' }],
      receivers: [{ name, script: { status: 503, retryAfter: 120 } }, { name: 'warehouse', script: { mode: 'failureRate', rate: 0.35, seed: 7 } }],
      destinations: ['Orders service', 'Analytics warehouse', 'Billing reconciliation'].map((d) => ({ name: d, enabled: true, sources: ['web'], url: `receiver:${name}` })),
    });
    const page = await open(r, `#/receiver/${name}`);
    await page.setViewportSize({ width: 1024, height: 768 });
    const list = page.getByRole('list', { name: 'Endpoints' });
    for (const [endpoint, script] of [[name, /^always 503/], ['warehouse', /^35 % of requests fail/]] as const) {
      const words = list.getByRole('button', { name: endpoint }).getByText(script);
      const { text, title } = await words.evaluate((el) => ({ text: el.textContent, title: el.getAttribute('title') }));
      expect(title).toBe(text);
    }
    expect(await list.getByRole('button', { name }).getByText(name, { exact: true }).getAttribute('title')).toBe(name);
    const usedBy = await page.getByText(/^(Orders service|Analytics warehouse|Billing reconciliation)(, (Orders service|Analytics warehouse|Billing reconciliation)){2}$/).evaluate((el) => ({ text: el.textContent, title: el.getAttribute('title') }));
    expect(usedBy.title).toBe(usedBy.text);
  });

  it('the endpoint list counts steps of the script used, not answers: a never step counts, a request refused for its signature does not', async () => {
    const r = await serve({ receivers: [{ name: 'hang', script: 'never,200' }, { name: 'strict', secret: 's3cret', refuseInvalidSignatures: true, script: 200 }] });
    const page = await open(r, '#/receiver/hang');
    const list = page.getByRole('list', { name: 'Endpoints' });
    const captures = page.getByRole('list', { name: 'Captured requests' });
    // The never step: captured, never answered, and still one step used.
    const hanging = new AbortController();
    const never = fetch(`${r.info.receiverUrl}/r/hang`, { method: 'POST', body: '{}', signal: hanging.signal }).catch(() => null);
    await captures.getByRole('button', { name: /answered never/ }).waitFor();
    hanging.abort();
    await never;
    await list.getByRole('button', { name: 'hang' }).getByText('1 step used').waitFor();
    await page.getByRole('form', { name: 'Endpoint hang' }).getByText('1 request took a step of this script; the next gets step 2 of 2: 200.').waitFor();

    for (let i = 0; i < 2; i++) expect((await fetch(`${r.info.receiverUrl}/r/strict`, { method: 'POST', body: '{}' })).status).toBe(401);
    await list.getByRole('button', { name: 'strict' }).click();
    await expect.poll(() => captures.getByRole('button', { name: /answered 401/ }).count()).toBe(2);
    await list.getByRole('button', { name: 'strict' }).getByText('0 steps used').waitFor();
    await page.getByRole('form', { name: 'Endpoint strict' }).getByText('(one refused for its signature gets 401 and takes none)', { exact: false }).waitFor();
  });
});
