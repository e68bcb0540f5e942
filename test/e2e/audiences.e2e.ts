/**
 * Audiences and deletion against a real `hookbench serve`, by accessible names: an audience built in the
 * rule editor previews who matches, creating it sends the joiners; after traits change, the screen shows
 * what a sync would send, and Sync shows exactly the identify calls it produced (joined/left), which the
 * engine delivered; a deletion request shows its delete notification per source and destination.
 */
import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../main/contract/messages.js';
import { chromiumMissing } from './browser.js';
import type { RunningServe } from './serve.js';
import { useWorkbench } from './workbench.js';

const CONFIG = {
  sources: [
    { name: 'backend', kind: 'server', writeKey: 'wk_backend' },
    { name: 'website', kind: 'web', writeKey: 'wk_web' },
  ],
  receivers: [{ name: 'hooks', script: 200 }],
  destinations: [
    { name: 'Hooks', enabled: true, sources: ['backend', 'website'], url: 'receiver:hooks' },
    { name: 'Paused CRM', enabled: false, sources: ['backend'], url: 'receiver:hooks' },
  ],
};

const identify = async (r: RunningServe, userId: string, traits: Record<string, unknown>) => {
  const res = await fetch(`${r.info.url}/v1/identify`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${btoa('wk_backend:')}` }, body: JSON.stringify({ userId, traits }) });
  expect(res.status).toBe(200);
};

describe.skipIf(chromiumMissing)('Audiences and deletion', () => {
  const { serve, open } = useWorkbench();

  it('after traits change, what a sync would send and who would belong now agree, read at the same moment', async () => {
    const r = await serve(CONFIG);
    await identify(r, 'u1', { spend: 700 });
    await identify(r, 'u2', { spend: 900 });
    const created = await r.call<{ audience: { id: string } }>('createAudience', { source: 'backend', name: 'Big Spenders', rule: { all: [{ trait: 'spend', op: 'gt', value: 500 }] } });
    const page = await open(r, `#/audiences/audience/${created.audience.id}`);
    const matches = page.getByRole('status', { name: 'Matches now' });
    await matches.getByText('2 users would belong now', { exact: false }).waitFor();
    const wouldSend = page.getByRole('region', { name: 'A sync now would send' });
    for (const [userId, spend] of [['u2', 50], ['u2', 950], ['u1', 20]] as const) {
      await identify(r, userId, { spend });
      // The moment the sync list shows the change, the definition's preview shows it too: never one without the other.
      const pending = spend > 500 ? null : userId;
      if (pending) await wouldSend.getByRole('listitem', { name: new RegExp(`${pending}$`) }).waitFor();
      else await wouldSend.getByRole('listitem').first().waitFor({ state: 'detached' });
      const belong = await matches.innerText();
      expect(belong, `after ${userId} spends ${spend}`).toContain(spend > 500 ? '2 users would belong now' : '1 user would belong now');
    }
    // backend has an enabled destination: no warning that the calls would go nowhere
    expect(await wouldSend.getByRole('note').count()).toBe(0);
  });

  it('a pending sync on a source with no enabled destination warns that its calls would go nowhere and never be sent again', async () => {
    const r = await serve({ ...CONFIG, destinations: [{ name: 'Hooks', enabled: false, sources: ['backend'], url: 'receiver:hooks' }] });
    await identify(r, 'u1', { plan: 'pro' });
    const created = await r.call<{ audience: { id: string } }>('createAudience', { source: 'backend', name: 'Pro', rule: { trait: 'plan', op: 'equals', value: 'pro' } });
    await identify(r, 'u2', { plan: 'pro' });
    const page = await open(r, `#/audiences/audience/${created.audience.id}`);
    const wouldSend = page.getByRole('region', { name: 'A sync now would send' });
    await wouldSend.getByRole('listitem', { name: /u2$/ }).waitFor();
    await wouldSend.getByRole('note').getByText(/^No enabled destination is connected to source backend: a sync would record these changes as sent, but the identify calls would go nowhere/).waitFor();
    // The same before creating one: creating sends at once.
    await page.getByRole('button', { name: 'New audience' }).click();
    await page.getByRole('form', { name: 'New audience' }).getByRole('note').getByText(/^No enabled destination is connected to source backend: creating it would count every user as told, but the identify calls would go nowhere/).waitFor();
    await page.getByRole('button', { name: 'New computed trait' }).click();
    await page.getByRole('form', { name: 'New computed trait' }).getByRole('note').getByText(/^No enabled destination is connected to source backend: creating it would count every user as told, but the identify calls would go nowhere/).waitFor();
  });

  it('beside Create, the New forms of a source with no enabled destination say nothing is sent, not that an identify goes to every member', async () => {
    const r = await serve({ ...CONFIG, destinations: [{ name: 'Hooks', enabled: false, sources: ['backend'], url: 'receiver:hooks' }] });
    const page = await open(r, '#/audiences/new/audience');
    const audience = page.getByRole('form', { name: 'New audience' });
    await audience.getByRole('note').waitFor();
    await audience.getByText('Creating it counts every member as told at once, though nothing is sent.', { exact: true }).waitFor();
    expect(await audience.getByText(/^Creating it sends/).count()).toBe(0);
    await page.getByRole('button', { name: 'New computed trait' }).click();
    const trait = page.getByRole('form', { name: 'New computed trait' });
    await trait.getByText('Creating it counts each user as told their value at once, though nothing is sent.', { exact: true }).waitFor();
    expect(await trait.getByText(/^Creating it sends/).count()).toBe(0);
  });

  it('a rule built in the editor previews its members; Sync shows exactly the joined/left identify calls it sent', async () => {
    const r = await serve(CONFIG);
    await identify(r, 'u1', { spend: 700, region: 'EU' });
    await identify(r, 'u2', { spend: 50, region: 'EU' });
    await identify(r, 'u3', { spend: 900, region: 'US' });
    const page = await open(r, '#/audiences');
    await page.getByRole('button', { name: 'New audience' }).first().click();
    const form = page.getByRole('form', { name: 'New audience' });
    await form.getByLabel('Name').fill('Big Spenders (EU)');
    await form.getByText('Sends the trait big_spenders_eu').waitFor();
    await form.getByLabel('Source').selectOption({ label: 'backend' });

    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByLabel('Condition 1 trait').fill('spend');
    await form.getByLabel('Condition 1 operator').selectOption('gt');
    await form.getByLabel('Condition 1 value').fill('500');
    const matches = form.getByRole('status', { name: 'Matches now' });
    await matches.getByText('2 users would belong now').waitFor();
    await form.getByRole('button', { name: 'Add condition' }).click();
    // A condition just added is not called wrong: the preview waits for its trait.
    await matches.getByText('Give the new condition a trait to see who matches.').waitFor();
    expect(await form.getByRole('group', { name: 'Condition 2' }).locator('.text-err').count()).toBe(0);
    await form.getByLabel('Condition 2 trait').fill('region');
    await form.getByLabel('Condition 2 value').fill('EU');
    await matches.getByText('1 user would belong now').waitFor();
    expect(await matches.innerText()).toContain('u1');
    // The six operators of the contract, by their names.
    expect(await form.getByLabel('Condition 1 operator').locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value')))).toEqual(['equals', 'not_equals', 'exists', 'gt', 'lt', 'contains']);
    await form.getByRole('button', { name: 'Create audience' }).click();

    const created = page.getByRole('region', { name: 'Sent when created' });
    await created.getByRole('listitem', { name: 'joined u1' }).waitFor();
    expect(await created.getByRole('listitem').count()).toBe(1);
    expect(await page.getByLabel('Trait key', { exact: true }).innerText()).toBe('big_spenders_eu');

    // Traits change: u2 joins, u1 leaves. The screen says what a sync would send before it is sent.
    await identify(r, 'u2', { spend: 650 });
    await identify(r, 'u1', { region: 'US' });
    const pending = page.getByRole('region', { name: 'A sync now would send' });
    await pending.getByRole('listitem', { name: 'joined u2' }).waitFor({ timeout: 10_000 });
    await pending.getByRole('listitem', { name: 'left u1' }).waitFor();

    await page.getByRole('button', { name: 'Sync', exact: true }).click();
    const sent = page.getByRole('region', { name: 'Last sync' }).getByRole('list', { name: 'Identify calls sent' });
    await sent.getByRole('listitem', { name: 'left u1' }).waitFor();
    await sent.getByRole('listitem', { name: 'joined u2' }).waitFor();
    expect(await sent.getByRole('listitem').count()).toBe(2);
    await pending.getByText('Nothing: membership is as the last sync left it.').waitFor();
    await page.getByRole('region', { name: 'Members at the last sync' }).getByText('u2', { exact: true }).waitFor();

    // Each row links to the message that carried it: exactly that identify, delivered.
    const links = sent.getByRole('link', { name: /^message #\d+$/ });
    const ids = (await links.allInnerTexts()).map((t) => Number(t.replace('message #', '')));
    const bodies: Record<string, unknown>[] = [];
    for (const id of ids) {
      await expect.poll(async () => (await r.call<MessageDetail>('getMessage', { id })).message.status, { timeout: 10_000 }).toBe('delivered');
      bodies.push(JSON.parse((await r.call<MessageDetail>('getMessage', { id })).message.body) as Record<string, unknown>);
    }
    expect(bodies.map((b) => [b['type'], b['userId'], b['traits']])).toEqual([
      ['identify', 'u1', { big_spenders_eu: false }],
      ['identify', 'u2', { big_spenders_eu: true }],
    ]);
    await links.first().click();
    await page.getByRole('region', { name: 'Message details' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/live/${ids[0]}`);
  });

  it('a rule error from the server lands on the condition it names', async () => {
    const r = await serve(CONFIG);
    const page = await open(r, '#/audiences/new/audience');
    const form = page.getByRole('form', { name: 'New audience' });
    await form.getByLabel('Name').fill('Late');
    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByLabel('Condition 1 trait').fill('signedUpAt');
    await form.getByLabel('Condition 1 operator').selectOption('lt');
    await form.getByLabel('Condition 1 value').fill('soon');
    await form.getByRole('group', { name: 'Condition 1' }).getByText('lt compares numbers or ISO 8601 dates (got "soon")', { exact: false }).waitFor();
    await form.getByLabel('Condition 1 value').fill('2026-01-01');
    await form.getByRole('status', { name: 'Matches now' }).getByText('0 users would belong now').waitFor();
  });

  it('a deletion request for the sources that saw the user shows its delete notification per source and destination', async () => {
    const r = await serve(CONFIG);
    await identify(r, 'u9', { plan: 'pro' });
    const page = await open(r, '#/audiences');
    await page.getByRole('button', { name: 'New deletion request' }).click();
    const form = page.getByRole('form', { name: 'New deletion request' });
    await form.getByLabel('User ID').fill('nobody');
    await form.getByRole('button', { name: 'Create deletion request' }).click();
    await form.getByText('No source has seen "nobody": choose “These sources” below and tick the ones to notify.').waitFor();
    await form.getByLabel('User ID').fill('u9');
    await form.getByLabel('All sources that saw this user').check();
    await form.getByRole('button', { name: 'Create deletion request' }).click();

    await page.getByRole('heading', { name: /^Deletion request #\d+: u9$/ }).waitFor();
    const notifications = page.getByRole('list', { name: 'Delete notifications' });
    const backend = notifications.getByRole('listitem', { name: 'Source backend' });
    await backend.getByRole('row', { name: 'Hooks: delivered' }).waitFor({ timeout: 10_000 });
    expect(await notifications.getByRole('listitem').count()).toBe(1); // website never saw u9
    // backend's disabled destination got no delete, and the screen says so rather than look complete
    await backend.getByText('No delete for Paused CRM: disabled. Enabling it later sends nothing; create the request again then.').waitFor();
    expect(await backend.getByRole('row').count()).toBe(1);
    const id = Number((await backend.getByRole('link', { name: /^message #\d+$/ }).innerText()).replace('message #', ''));
    const detail = await r.call<MessageDetail>('getMessage', { id });
    expect(JSON.parse(detail.message.body)).toMatchObject({ type: 'delete', userId: 'u9' });
    expect(await page.getByRole('list', { name: 'Deletion requests' }).getByRole('button').count()).toBe(1);

    // Picked sources: website too, though it never saw u9.
    await page.getByRole('button', { name: 'New deletion request' }).click();
    await form.getByLabel('User ID').fill('u9');
    await form.getByLabel('These sources:').check();
    await form.getByLabel('website').check();
    await form.getByRole('button', { name: 'Create deletion request' }).click();
    const website = notifications.getByRole('listitem', { name: 'Source website' });
    await website.getByRole('row', { name: 'Hooks: delivered' }).waitFor({ timeout: 10_000 });
    expect(await website.getByText(/^No delete for/).count()).toBe(0); // website has no disabled destination
  });
});
