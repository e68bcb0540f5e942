/**
 * Failures as the workbench shows them, against a real `hookbench serve` and its mock receiver: a slow
 * endpoint, an endpoint that is always down, a self-signed certificate, a wrong secret. Driven by
 * accessible names; every wait is on UI state. One test waits 5 s of real time (the engine's default
 * timeout); long delays elsewhere are engine time (+4 h).
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../main/contract/messages.js';
import type { CaptureRecord } from '../../main/contract/receiver/receiver.js';
import { chromiumMissing } from './browser.js';
import { openRetryingMessage, useWorkbench } from './workbench.js';

/** HH:MM:SS in local time, as the timeline writes an engine time of today. */
const timeOfDay = (ms: number) => new Date(ms).toTimeString().slice(0, 8);

describe.skipIf(chromiumMissing)('deliveries that go wrong, in the workbench', () => {
  const { serve, open } = useWorkbench();

  it('while the first attempt waits on an endpoint that never answers, the timeline says it is in flight, not "No attempt yet"', async () => {
    const r = await serve({ receivers: [{ name: 'void', script: 'never' }], destinations: [{ name: 'Void', enabled: true, url: 'receiver:void', timeoutMs: 60_000 }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Unanswered Order' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('listitem', { name: 'Attempt 1 in flight, waiting for the response (Void)' }).waitFor();
    await details.getByText('attempt 1 in flight', { exact: true }).waitFor();
    expect(await details.getByText('No attempt yet.').count()).toBe(0);
    expect(await details.getByText('0 attempts', { exact: true }).count()).toBe(0);
    await r.call('cancelMessage', { id: sent.message.id });
  });

  it('a receiver delay of 6 s, set in the Receiver screen, makes a timeout attempt on the timeline', async () => {
    const r = await serve({ receivers: [{ name: 'slow', script: 200 }], destinations: [{ name: 'Slow', enabled: true, url: 'receiver:slow' }] });
    const page = await open(r, '#/receiver/slow');
    const endpoint = page.getByRole('form', { name: 'Endpoint slow' });
    await endpoint.getByLabel('Delay (ms)').fill('6000');
    await endpoint.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('list', { name: 'Endpoints' }).getByRole('button', { name: 'slow' }).getByText('always 200 after 6000 ms').waitFor();

    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Slow Order' }, destinations: ['Slow'] });
    await page.getByRole('link', { name: 'Live', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'Slow Order' }).click();
    const details = page.getByRole('region', { name: 'Message details' });
    // The engine's timeout (5 s of real time) is the one real wait of this file.
    const attempt = details.getByRole('button', { name: /^Attempt 1: timeout/ });
    await attempt.waitFor({ timeout: 15_000 });
    await details.getByRole('listitem', { name: /^Scheduled attempt 2 at / }).waitFor();
    await attempt.click();
    await expect.poll(() => details.getByRole('note', { name: 'Why it failed' }).innerText()).toMatch(/^No response headers within 5 s/);
    // The receiver captured the request the engine gave up on, and says its planned answer was never sent.
    await page.getByRole('link', { name: 'Receiver', exact: true }).click();
    const capture = page.getByRole('list', { name: 'Captured requests' }).getByRole('button', { name: /^Capture \d+: POST \/r\/slow, no answer: the client closed the connection after 5,\d{3} ms/ });
    await capture.waitFor();
    await capture.click();
    await page.getByText('planned answer, not sent: 200 after 6000 ms').waitFor();
    expect(sent.message.id).toBeGreaterThan(0);
  });

  it('the ghost markers show the retry time the engine reports, and +4 h on an always-500 receiver ends failed, retry window exhausted', async () => {
    const { r, sent, page, details } = await openRetryingMessage({ serve, open }, { userId: 'u1', event: 'Lost Order' });

    // Hold forwarding (the switch) so the next retry stays put while the test reads it.
    const forwarding = page.getByRole('switch', { name: 'Forwarding' });
    await forwarding.click();
    await page.getByRole('switch', { name: 'Forwarding', checked: false }).waitFor();
    const detail = await r.call<MessageDetail>('getMessage', { id: sent.message.id });
    const delivery = detail.deliveries[0]!;
    const next = delivery.nextAttemptAt!;
    expect(delivery.status).toBe('retrying');
    // The first ghost is the engine's own nextAttemptAt (exact: no "about"), to the second.
    const ghost = details.getByRole('listitem', { name: new RegExp(`^Scheduled attempt ${delivery.attempts + 1} at `) });
    await ghost.waitFor();
    expect(await ghost.getAttribute('aria-label')).toMatch(new RegExp(`^Scheduled attempt ${delivery.attempts + 1} at ${timeOfDay(next)}, (in \\d+ s|due now)$`));
    await forwarding.click();
    await page.getByRole('switch', { name: 'Forwarding', checked: true }).waitFor();

    await page.getByRole('button', { name: '+4 h', exact: true }).click();
    const card = details.getByRole('region', { name: 'Down' });
    await card.getByText('retry window exhausted', { exact: false }).waitFor();
    await card.getByText('failed', { exact: true }).waitFor();
    const attempts = await details.getByRole('button', { name: /^Attempt \d+: http_error, HTTP 500/ }).count();
    expect([7, 8]).toContain(attempts);
    expect(await details.getByRole('listitem', { name: /^Scheduled attempt/ }).count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'Lost Order' }).getByText('failed', { exact: true }).waitFor();
  });

  it('a self-signed HTTPS endpoint (receiver+tls:) is a tls_error, and the receiver captured nothing', async () => {
    const r = await serve({ receivers: [{ name: 'secure', script: 200 }], destinations: [{ name: 'Self-signed', enabled: true, sharedSecret: 's3cret', url: 'receiver+tls:secure' }] });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Secure Order' } });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: tls_error/ }).click();
    await expect.poll(() => details.getByRole('note', { name: 'Why it failed' }).innerText()).toMatch(/^Self-signed certificate: no request was sent/);
    // Nothing was sent: the Signature panel says what would have been signed, and claims no bytes or header sent.
    const panel = page.getByRole('region', { name: 'Signature' });
    await panel.getByText('the request body that would have been sent', { exact: true }).waitFor();
    await panel.getByLabel('Header that would have been sent').waitFor();
    await panel.getByRole('note', { name: 'Nothing to check' }).waitFor();
    expect(await panel.getByText(/\bas sent|bytes sent/).allInnerTexts()).toEqual([]);
    expect(await panel.getByLabel("Your server's signature").count()).toBe(0);
    await panel.getByRole('button', { name: 'Compute HMAC-SHA1' }).click();
    await expect.poll(() => panel.getByLabel('Computed HMAC-SHA1').innerText()).toBe(await panel.getByLabel('Header that would have been sent').innerText());
    await panel.getByRole('note').getByText(/^The header that would have been sent is the HMAC-SHA1/).waitFor();
    await details.getByText('Signature (unsent)', { exact: true }).waitFor();
    await details.getByRole('region', { name: 'Self-signed' }).getByText('failed', { exact: true }).waitFor();

    await page.getByRole('link', { name: 'Receiver', exact: true }).click();
    await page.getByRole('list', { name: 'Endpoints' }).getByRole('button', { name: 'secure', exact: true }).click();
    await page.getByText('No requests captured yet').waitFor();
    const captures = await r.call<{ items: CaptureRecord[] }>('listCaptures', { receiver: 'secure' });
    expect(captures.items).toEqual([]);
  });

  it("a message sent through 'hookbench send' shows that destination as it is: its secret, and a copy held while it is off", async () => {
    const r = await serve({ receivers: [{ name: 'ok', script: 200 }] });
    // The destination hookbench send keeps for itself: not in Destinations, but very much there.
    const own = await r.call<{ id: string }>('createDestination', { name: 'hookbench send', enabled: true, sharedSecret: 's3cret', url: 'receiver:ok' });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Sent Order' }, destinations: ['hookbench send'] });
    const page = await open(r, `#/live/${sent.message.id}`);
    const details = page.getByRole('region', { name: 'Message details' });
    await details.getByRole('button', { name: /^Attempt 1: success/ }).click();
    const panel = page.getByRole('region', { name: 'Signature' });
    await panel.getByRole('button', { name: 'Compute HMAC-SHA1' }).click();
    await expect.poll(() => panel.getByLabel('Computed HMAC-SHA1').innerText()).toMatch(/^[0-9a-f]{40}$/);
    expect(await panel.getByText(/destination was deleted|no longer exists/).count()).toBe(0);

    await r.call('updateDestination', { id: own.id, patch: { enabled: false } });
    const held = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Held Order' }, destinations: ['hookbench send'] });
    await page.goto(`${r.info.uiUrl}#/live/${held.message.id}`);
    await page
      .getByRole('region', { name: 'Message details' })
      .getByText('Held: hookbench send is off. Nothing is sent until the next hookbench send turns it on.', { exact: true })
      .waitFor();
  });

  it('a wrong secret: invalid in the Receiver screen, naming the destination whose secret differs, and the Signature panel diagnoses what a server computed', async () => {
    const r = await serve({
      receivers: [{ name: 'orders', secret: 'not-the-secret', script: 200 }],
      destinations: [{ name: 'Orders', enabled: true, sharedSecret: 's3cret', url: 'receiver:orders' }],
    });
    await r.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Signed Order', properties: { total: 42.5 } } });
    const page = await open(r, '#/receiver/orders');
    const capture = page.getByRole('list', { name: 'Captured requests' }).getByRole('button', { name: /^Capture \d+: POST \/r\/orders, answered 200, signature invalid$/ });
    await capture.waitFor();
    // The engine's own attempt sent it (matched by its bytes and headers): only the secrets can differ, and the capture says so.
    const differs = "destination 'Orders' signed with a secret that differed from receiver endpoint 'orders' when this request was sent";
    await page.getByRole('list', { name: 'Captured requests' }).getByText(differs).waitFor();
    await capture.click();
    const detail = page.getByRole('region', { name: /^Capture \d+$/ });
    expect(await detail.getByRole('note', { name: 'Diagnosis' }).innerText()).toBe(differs);
    // What the user's server (the receiver, with its wrong secret) computed.
    const theirs = await detail.getByLabel('Expected signature').innerText();

    // The capture links to the attempt that sent it: its Signature panel.
    await detail.getByRole('link', { name: 'attempt 1' }).click();
    const panel = page.getByRole('region', { name: 'Signature' });
    await panel.getByRole('button', { name: 'Reveal secret' }).click();
    await expect.poll(() => panel.getByLabel('Secret', { exact: true }).innerText()).toBe('s3cret');
    const header = await panel.getByLabel('Header sent').innerText();
    await expect.poll(() => panel.getByLabel('Computed HMAC-SHA1').innerText()).toBe(header);

    await panel.getByLabel("Your server's signature").fill(theirs);
    const diagnosis = panel.getByRole('status', { name: 'Diagnosis' });
    await diagnosis.getByText('No known mistake explains it: check the shared secret.').waitFor();
    await diagnosis.getByText('invalid', { exact: true }).waitFor();

    // A server that hashed a pretty-printed copy: named, and the bytes compared.
    const sent = await page.getByRole('region', { name: 'Signature' }).getByLabel('Signed bytes', { exact: true }).innerText();
    const pretty = JSON.stringify(JSON.parse(sent), null, 2);
    await panel.getByLabel("Your server's signature").fill(createHmac('sha1', 's3cret').update(pretty).digest('hex'));
    await panel.getByRole('textbox', { name: 'Body your server saw' }).fill(pretty);
    await diagnosis.getByText(/^Matches the body re-serialised pretty-printed with 2 spaces/).waitFor();
    await diagnosis.getByText(/^Your server hashed the body it saw correctly, but that body is not the bytes sent: they differ at byte 2/).waitFor();
    await panel.getByRole('region', { name: 'Byte diff' }).waitFor();
  });
});
