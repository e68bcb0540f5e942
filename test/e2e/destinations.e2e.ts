/**
 * The Destinations screen against a real `hookbench serve`, by accessible names: the guided setup makes a
 * destination that delivers (signature valid at the mock receiver); the limits show before they are hit
 * and the API refuses past them naming the field (errors the UI cannot prevent appear next to theirs);
 * the filter preview predicts what the engine then filters; the first-run button delivers in one click.
 */
import { describe, expect, it } from 'vitest';
import type { MessageSummary, Page as ListPage } from '../../main/contract/messages.js';
import type { CaptureRecord } from '../../main/contract/receiver/receiver.js';
import { startReceiver } from '../helpers/receiver.js';
import { chromiumMissing } from './browser.js';
import { useWorkbench } from './workbench.js';

const captures = (r: { call<T>(c: string, i?: unknown): Promise<T> }, receiver: string) => r.call<ListPage<CaptureRecord>>('listCaptures', { receiver }).then((p) => p.items);

describe.skipIf(chromiumMissing)('Destinations', () => {
  const { serve, open } = useWorkbench();

  it('the guided setup creates a destination that delivers, signed, to a mock receiver endpoint it creates', async () => {
    const r = await serve({ sources: [{ name: 'backend', kind: 'server' }] });
    const page = await open(r, '#/destinations');
    await page.getByText('No destinations yet').waitFor();
    await page.getByRole('button', { name: 'New destination' }).first().click();
    const form = page.getByRole('form', { name: 'New destination' });
    await form.getByRole('radio', { name: /^Webhooks/ }).click();
    // The only source is picked already.
    expect(await form.getByRole('checkbox', { name: /backend/ }).isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Create endpoint receiver:inbox' }).click();
    expect(await form.getByLabel('Webhook 1 URL').inputValue()).toBe('receiver:inbox');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Webhook 1 header 1 name').fill('X-Env');
    await form.getByLabel('Webhook 1 header 1 value').fill('dev');
    await form.getByRole('button', { name: 'Generate' }).click();
    const secret = await form.getByLabel('Shared secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    // The switch never turns itself on (a URL was given): the user turns it on, and it shows what Save does.
    const enabled = form.getByRole('switch', { name: 'Enabled' });
    expect(await enabled.getAttribute('aria-checked')).toBe('false');
    await enabled.click();
    expect(await enabled.getAttribute('aria-checked')).toBe('true');
    await form.getByText('Saved on: it starts forwarding as soon as it is saved.').waitFor();
    await form.getByRole('button', { name: 'Save' }).click();

    const row = page.getByRole('table', { name: 'Destinations' }).getByRole('row', { name: 'Webhooks', exact: true });
    await row.waitFor();
    expect(await row.getByRole('switch', { name: 'Enabled: Webhooks' }).getAttribute('aria-checked')).toBe('true');
    // A call from the source (as an SDK's would be routed) reaches the receiver, signed with that secret.
    await r.call('sendMessage', { type: 'track', source: 'backend', call: { userId: 'u1', event: 'Guided Setup' } });
    await row.getByText('delivered', { exact: true }).waitFor();
    await expect.poll(() => captures(r, 'inbox').then((c) => c.length)).toBe(1);
    const [capture] = await captures(r, 'inbox');
    expect(capture!.signature?.verdict).toBe('valid');
    expect(capture!.headers['x-env']).toBe('dev');
    expect(JSON.parse(capture!.body.text ?? '{}')).toMatchObject({ event: 'Guided Setup', userId: 'u1' });
    expect(await r.call<{ secret: string }>('revealSecret', { kind: 'receiver', id: 'inbox' })).toEqual({ secret });
  });

  it('limits: "5 of 5" and Add webhook / Add header disabled with the reason; past them the API names the field; server errors sit next to their field', async () => {
    const r = await serve({ destinations: [{ name: 'Taken', url: 'http://127.0.0.1:9/hook' }] });
    const page = await open(r, '#/destinations/new');
    const form = page.getByRole('form', { name: 'New destination' });
    await form.getByRole('radio', { name: /^Webhooks/ }).click();
    for (let i = 1; i <= 5; i++) {
      if (i > 1) await form.getByRole('button', { name: 'Add webhook' }).click();
      await form.getByLabel(`Webhook ${i} URL`).fill(`http://127.0.0.1:9/hook${i}`);
    }
    const addWebhook = form.getByRole('button', { name: 'Add webhook' });
    expect(await addWebhook.isDisabled()).toBe(true);
    expect(await addWebhook.getAttribute('title')).toBe('A destination has at most 5 webhook URLs (5 of 5)');
    await form.getByText('5 of 5: the limit. Remove one to add another.').waitFor();
    const addHeader = form.getByRole('button', { name: 'Add header to webhook 1' });
    for (let k = 0; k < 5; k++) await addHeader.click();
    expect(await addHeader.isDisabled()).toBe(true);
    expect(await addHeader.getAttribute('title')).toBe('A webhook has at most 5 static headers (5 of 5)');

    // What the UI cannot offer, the API refuses, naming the field, the limit and the count.
    const sixUrls = Array.from({ length: 6 }, (_, i) => ({ url: `http://127.0.0.1:9/${i}` }));
    await expect(r.call('createDestination', { name: 'Six', webhooks: sixUrls })).rejects.toThrow('createDestination: webhooks[5]: at most 5 webhooks');
    const sixHeaders = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`X-H${i}`, 'v']));
    await expect(r.call('createDestination', { name: 'Six', webhooks: [{ url: 'http://127.0.0.1:9/', headers: sixHeaders }] })).rejects.toThrow(
      'createDestination: webhooks[0].headers: at most 5 headers per webhook (got 6)',
    );

    // A field's problem appears next to it, named as the form labels it, as soon as the field is left.
    for (let k = 5; k >= 2; k--) await form.getByRole('button', { name: `Remove webhook 1 header ${k}` }).click();
    await form.getByLabel('Webhook 1 header 1 name').fill('Host');
    await form.getByLabel('Webhook 1 header 1 value').click();
    const headersOf1 = form.getByRole('group', { name: /^Webhook 1/ });
    await headersOf1.getByRole('alert').getByText('Webhook 1 header Host: header "Host" is set by Hookbench and cannot be configured').waitFor();
    expect(await form.getByLabel('Webhook 1 header 1 name').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Webhook 2 URL').fill('ftp://example.com/hook');
    await form.getByLabel('Webhook 3 URL').click();
    await form.getByText(/^Webhook 2 URL: must be an absolute http:\/\/ or https:\/\/ URL/).waitFor();
    await form.getByLabel('Webhook 2 URL').fill('http://127.0.0.1:9/hook2');
    await form.getByRole('button', { name: 'Remove webhook 1 header 1' }).click();
    // Errors only the server knows appear next to their field, named the same way.
    await form.getByLabel('Name').fill('Taken');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Name: a destination named "Taken" already exists').first().waitFor();
    expect(await form.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await r.call<ListPage<unknown>>('listDestinations')).items).toHaveLength(1);
  });

  it('editing: one Save shows every problem at once, each next to its field in the unit it was typed in; a server error lands on its field', async () => {
    const r = await serve({ destinations: [{ name: 'Orders', url: 'http://127.0.0.1:9/hook' }, { name: 'Taken', url: 'http://127.0.0.1:9/other' }] });
    const page = await open(r, '#/destinations/Orders');
    const form = page.getByRole('form', { name: 'Destination Orders' });
    await form.getByLabel('Timeout', { exact: true }).fill('500s');
    await form.getByLabel('Max attempts', { exact: true }).fill('0');
    await form.getByLabel('Webhook 1 URL').fill('ftp://127.0.0.1:9/hook');
    await form.getByRole('button', { name: 'Save' }).click();

    const timeout = form.getByLabel('Timeout', { exact: true });
    await form.getByText('Timeout: must be at most 120 s (got 500 s)', { exact: true }).waitFor();
    await form.getByText('Max attempts: must be at least 1 attempt (got 0); leave it empty for no cap', { exact: true }).waitFor();
    await form.getByText(/^Webhook 1 URL: must be an absolute http:\/\/ or https:\/\/ URL/).waitFor();
    // Each field says it is invalid and is described by its own message; nothing in milliseconds.
    for (const [field, message] of [
      [timeout, 'Timeout: must be at most 120 s (got 500 s)'],
      [form.getByLabel('Webhook 1 URL'), 'Webhook 1 URL: must be an absolute'],
    ] as const) {
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
      const described = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
      expect(described.join(' ')).toContain(message);
    }
    expect(await form.innerText()).not.toContain('120000');
    // The summary counts them and leads to each field.
    const summary = form.getByRole('status', { name: 'Not saved' });
    await summary.getByText('Not saved: 3 problems:').waitFor();
    await summary.getByRole('button', { name: 'Timeout' }).click();
    await expect.poll(() => form.locator('input:focus').getAttribute('id')).toBe(await timeout.getAttribute('id'));
    expect((await r.call<ListPage<{ name: string; timeoutMs: number }>>('listDestinations')).items.find((d) => d.name === 'Orders')!.timeoutMs).toBe(5000);

    // Fixed, the server's own refusal (the name is taken) sits next to Name, and goes once Name changes.
    await timeout.fill('90s');
    await form.getByLabel('Max attempts', { exact: true }).fill('');
    await form.getByLabel('Webhook 1 URL').fill('http://127.0.0.1:9/hook');
    await form.getByLabel('Name', { exact: true }).fill('Taken');
    await form.getByRole('button', { name: 'Save' }).click();
    const name = form.getByLabel('Name', { exact: true });
    await summary.getByText('Not saved: Name: a destination named "Taken" already exists').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('Orders EU');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Orders EU saved').waitFor();
    expect((await r.call<ListPage<{ name: string; timeoutMs: number }>>('listDestinations')).items.find((d) => d.name === 'Orders EU')!.timeoutMs).toBe(90_000);
  });

  it('the filter preview over recent messages matches what the engine then filters', async () => {
    const r = await serve({
      sources: [{ name: 'backend', kind: 'server' }, { name: 'other', kind: 'web' }],
      receivers: [{ name: 'orders', script: 200 }],
      destinations: [{ name: 'Orders', enabled: true, sources: ['backend'], url: 'receiver:orders' }],
    });
    const batch = [
      ...['Heartbeat', 'Heartbeat', 'Heartbeat', 'Ping', 'Ping', 'Order Completed', 'Order Completed', 'Order Completed', 'Order Completed'].map((event) => ({ type: 'track', source: 'backend', call: { userId: 'u1', event } })),
      { type: 'page', source: 'backend', call: { userId: 'u1', name: 'Heartbeat' } },
      // Another source's messages never reach Orders: not part of the preview.
      { type: 'track', source: 'other', call: { userId: 'u2', event: 'Heartbeat' } },
    ];
    await r.call('sendMessages', { messages: batch });
    const page = await open(r, '#/destinations/Orders');
    const filters = page.getByRole('region', { name: 'Event filters' });
    await filters.getByLabel('Block events').fill('Heartbeat\nPing');
    const preview = filters.getByRole('status', { name: 'Would drop' });
    await preview.getByText('These filters would drop 5 of 10 messages from its sources').waitFor();
    const predicted = Object.fromEntries(
      (await preview.getByRole('list', { name: 'Dropped events' }).getByRole('listitem').allInnerTexts()).map((t) => {
        const [event, count] = t.split('×').map((s) => s.trim());
        return [event!, Number(count)];
      }),
    );
    expect(predicted).toEqual({ Heartbeat: 3, Ping: 2 });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Orders saved').waitFor();

    // The same calls again: the engine filters exactly what the preview named.
    const sent = await r.call<{ message: { id: number } }[]>('sendMessages', { messages: batch });
    const ids = new Set(sent.map((s) => s.message.id));
    const filtered = (await r.call<ListPage<MessageSummary>>('listMessages', { status: 'filtered', limit: 100 })).items.filter((m) => ids.has(m.id) && m.sourceId !== null);
    const other = (await r.call<ListPage<{ id: string; name: string }>>('listSources')).items.find((s) => s.name === 'other')!;
    const engine: Record<string, number> = {};
    for (const m of filtered.filter((m) => m.sourceId !== other.id)) {
      expect(m.statusReason).toBe(`event "${m.event}" is blocked by destination "Orders"`);
      engine[m.event!] = (engine[m.event!] ?? 0) + 1;
    }
    expect(engine).toEqual(predicted);
  });

  it('first run: one click sets up a destination to the mock receiver and sends a test event, shown in Live', async () => {
    const r = await serve({});
    const page = await open(r, '#/live');
    await page.getByRole('button', { name: 'Set up a destination to the mock receiver and send a test event' }).click();
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('region', { name: 'Mock receiver' }).getByText('delivered', { exact: true }).waitFor();
    expect(page.url()).toMatch(/#\/live\/\d+$/);
    await page.getByRole('row').filter({ hasText: 'Test Event' }).waitFor();
    await expect.poll(() => captures(r, 'inbox').then((c) => c.length)).toBe(1);
    const [capture] = await captures(r, 'inbox');
    expect(capture!.signature?.verdict).toBe('valid');
    const [destination] = (await r.call<ListPage<{ name: string; enabled: boolean; sourceIds: string[]; webhooks: { url: string }[] }>>('listDestinations')).items;
    expect(destination).toMatchObject({ name: 'Mock receiver', enabled: true, webhooks: [{ url: 'receiver:inbox' }] });
    const [source] = (await r.call<ListPage<{ id: string; name: string }>>('listSources')).items;
    expect(destination!.sourceIds).toEqual([source!.id]);
  });

  it('Send test event reaches a destination with an allow list (as an allowed event, said plainly) and Live shows the outcome; Esc goes back one level', async () => {
    const r = await serve({
      receivers: [{ name: 'orders', script: 200 }],
      destinations: [{ name: 'Orders', enabled: true, url: 'receiver:orders', filters: { allowEvents: ['Order Completed'] } }],
    });
    const page = await open(r, '#/destinations/Orders');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Sent as “Order Completed”').waitFor();
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('region', { name: 'Orders' }).getByText('delivered', { exact: true }).waitFor();
    await expect.poll(() => captures(r, 'orders').then((c) => c.length)).toBe(1);
    const [capture] = await captures(r, 'orders');
    expect(JSON.parse(capture!.body.text ?? '{}')).toMatchObject({ event: 'Order Completed', properties: { sentBy: 'Hookbench', test: true } });
    await details.getByText('Body delivered').first().waitFor();

    // Esc: attempt → message → list, as the attempt's own tooltip says.
    await details.getByRole('button', { name: /^Attempt 1: success/ }).click();
    await details.getByRole('region', { name: 'Attempt 1' }).waitFor();
    expect(page.url()).toMatch(/#\/live\/\d+\/attempt\/\d+$/);
    await page.locator('body').press('Escape');
    await expect.poll(() => page.url()).toMatch(/#\/live\/\d+$/);
    await details.getByText('Body delivered').first().waitFor();
    await page.locator('body').press('Escape');
    await expect.poll(() => page.url()).toMatch(/#\/live$/);
  });

  it('editing a destination whose URL carries an api_key: the form shows it masked, and saving a new name keeps the key, the password and the header', async () => {
    const rx = await startReceiver();
    try {
      const hook = new URL(rx.url);
      const r = await serve({ destinations: [{ name: 'Keyed', enabled: true, webhooks: [{ url: `http://ada:pass_1234567@${hook.host}/hook?api_key=KEY_1234567&v=1`, headers: { 'X-Api-Key': 'HDR_1234567' } }] }] });
      const page = await open(r, '#/destinations');
      await page.getByRole('link', { name: 'Keyed', exact: true }).click();
      const form = page.getByRole('form', { name: 'Destination Keyed' });
      expect(await form.getByLabel('Webhook 1 URL').inputValue()).toBe(`http://ada:••••@${hook.host}/hook?api_key=KE••••&v=1`);
      expect(await form.getByLabel('Webhook 1 header 1 value').inputValue()).toBe('HD••••');
      await form.getByLabel('Name', { exact: true }).fill('Keyed renamed');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Keyed renamed saved').waitFor();
      await r.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'After edit' }, destinations: ['Keyed renamed'] });
      await rx.waitFor(1);
      expect(rx.captured[0]!.path).toBe('/hook?api_key=KEY_1234567&v=1');
      expect(rx.captured[0]!.headers['x-api-key']).toBe('HDR_1234567');
      expect(rx.captured[0]!.headers['authorization']).toBe(`Basic ${Buffer.from('ada:pass_1234567').toString('base64')}`);
    } finally {
      await rx.close();
    }
  });

  it('Cancel with edits asks before discarding; without edits it just leaves', async () => {
    const r = await serve({});
    const page = await open(r, '#/destinations/new');
    const form = page.getByRole('form', { name: 'New destination' });
    await form.getByRole('radio', { name: /^Webhooks/ }).click();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('No destinations yet').waitFor();

    await page.getByRole('button', { name: 'New destination' }).first().click();
    await form.getByRole('radio', { name: /^Webhooks/ }).click();
    // Leaving a field by clicking a button: the problem appears, and the click is not lost to the line it adds.
    await form.getByLabel('Webhook 1 URL').fill('ftp://127.0.0.1:9/hook');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Webhook 1 header 1 name').waitFor();
    await form.getByText(/^Webhook 1 URL: must be an absolute/).waitFor();
    await form.getByLabel('Webhook 1 URL').fill('http://127.0.0.1:9/hook');
    await form.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Discard your changes?' });
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(await form.getByLabel('Webhook 1 URL').inputValue()).toBe('http://127.0.0.1:9/hook');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await page.getByText('No destinations yet').waitFor();
  });

  it('an Off destination does not say its sources’ messages are forwarded to it: they pass it by until it is on', async () => {
    const r = await serve({
      sources: [{ name: 'backend', kind: 'server' }],
      receivers: [{ name: 'ok', script: 200 }],
      destinations: [{ name: 'Paused CRM', enabled: false, sources: ['backend'], url: 'receiver:ok' }],
    });
    const page = await open(r, '#/destinations/Paused%20CRM');
    const note = page.getByText(/^Messages from this source are forwarded to it/);
    await expect.poll(() => note.innerText()).toBe('Messages from this source are forwarded to it while it is on. It is off: they pass it by.');
    await page.getByRole('switch', { name: 'Enabled' }).click();
    await expect.poll(() => note.innerText()).toBe('Messages from this source are forwarded to it.');
  });
});

describe.skipIf(chromiumMissing)('The door', () => {
  const { serve } = useWorkbench();
  it('a POST to /batch (no /v1) is refused with a JSON 404 naming /v1/batch, not answered with the UI', async () => {
    const r = await serve({ sources: [{ name: 'backend', kind: 'server', writeKey: 'wk_backend' }] });
    const res = await fetch(`${r.info.url}/batch`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('wk_backend:').toString('base64')}` }, body: JSON.stringify({ batch: [{ type: 'track', userId: 'u', event: 'E' }] }) });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'not_found', message: expect.stringContaining('did you mean /v1/batch?') });
  });
});
