/**
 * Both sides of a request, in the UI against a real serve: a destination and a mock-receiver endpoint with
 * different secrets. The receiver answers 200 (the attempt is a success), but its verdict on the
 * signature is invalid: the attempt and the message's row say so, with the capture one click away, and
 * one secret for both is one click after a confirmation. Driven by accessible names; waits on UI state.
 */
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../main/contract/messages.js';
import { chromiumMissing } from './browser.js';
import { hasFocus } from './controls.js';
import { useWorkbench } from './workbench.js';

const fingerprint = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 8);
const hashOf = (page: Page) => new URL(page.url()).hash;

describe.skipIf(chromiumMissing)('The receiver\'s verdict', () => {
  const { serve, open } = useWorkbench();

  it("a wrong-secret receiver's invalid verdict shows on the attempt and the row; the fix is one click after a confirmation", async () => {
    const r = await serve({
      receivers: [{ name: 'orders', secret: 'whsec_receiver_1', script: 200 }],
      destinations: [{ name: 'Orders API', enabled: true, url: 'receiver:orders', sharedSecret: 'whsec_destination_2' }],
    });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', destinations: ['Orders API'], call: { userId: 'ada', event: 'Order Completed' } });
    const id = sent.message.id;
    let detail: MessageDetail | null = null;
    await expect
      .poll(
        async () => {
          detail = await r.call<MessageDetail>('getMessage', { id });
          return detail.receiverChecks?.length ?? 0;
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const attempt = detail!.attempts[0]!;
    expect(attempt.outcome).toBe('success');

    // The row in Live carries the marker.
    const page = await open(r, '#/live');
    const row = page.getByRole('row').filter({ hasText: 'Order Completed' });
    await row.getByRole('img', { name: 'Receiver: signature invalid' }).waitFor();

    // The attempt says what the receiver made of it, why, and with whose secret.
    await page.goto(`${r.info.uiUrl}#/live/${id}/attempt/${attempt.id}`);
    const verdict = page.getByRole('region', { name: "Receiver's verdict" });
    await verdict.waitFor();
    const text = await verdict.innerText();
    // The header's green `success` (the HTTP exchange) stands beside a red "signature invalid", never alone.
    const header = page.getByRole('region', { name: `Attempt ${attempt.attemptNumber}` }).locator('div').first();
    expect(await header.innerText()).toMatch(/success\s+signature invalid/);
    expect(text).toContain("Receiver endpoint 'orders' found X-Signature invalid, but answered 200 as its script says.");
    expect(text).toContain("Destination 'Orders API' signs with a secret that differs from receiver endpoint 'orders'.");
    expect(text).toContain(fingerprint('whsec_destination_2'));
    expect(text).toContain(fingerprint('whsec_receiver_1'));
    expect(text).not.toContain('whsec_');
    // The Signature panel no longer says only that the header was right.
    await page.getByRole('region', { name: 'Signature' }).getByRole('note', { name: "Receiver's check" }).waitFor();

    // One secret for both, after a confirmation. Esc closes only the confirmation: the attempt stays open, and
    // focus goes back to the button that opened it.
    const opener = verdict.getByRole('button', { name: 'Use one secret for both' });
    await opener.click();
    const confirm = page.getByRole('dialog', { name: 'Use one secret for both?' });
    expect(await confirm.innerText()).toContain("Receiver endpoint ‘orders’ gets the shared secret of destination ‘Orders API’");
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(hashOf(page)).toBe(`#/live/${id}/attempt/${attempt.id}`);
    expect(await hasFocus(opener)).toBe(true);
    await opener.click();
    await confirm.getByRole('button', { name: 'Use one secret' }).click();
    await confirm.waitFor({ state: 'detached' });
    // The button is gone with the mismatch; focus is on the verdict it changed, not lost to the page.
    await opener.waitFor({ state: 'detached' });
    await expect.poll(() => hasFocus(verdict)).toBe(true);
    // The attempt's verdict stands, said in the past: the two secrets no longer differ.
    await expect.poll(() => verdict.innerText()).toContain("Destination 'Orders API' signed with a secret that differed from receiver endpoint 'orders' when this request was sent.");
    expect(await verdict.innerText()).not.toContain('signs with a secret that differs');
    await expect.poll(async () => (await r.call<{ secret: string }>('revealSecret', { kind: 'receiver', id: 'orders' })).secret, { timeout: 10_000 }).toBe('whsec_destination_2');

    // The capture is one click away.
    const captureId = detail!.receiverChecks![0]!.captureId;
    await verdict.getByRole('link', { name: `Open capture ${captureId}` }).click();
    await expect.poll(() => hashOf(page), { timeout: 10_000 }).toBe(`#/receiver/orders/capture/${captureId}`);
  });

  it('an endpoint that refuses invalid signatures: its verdict says it refused the request (401), not that it answered anyway', async () => {
    const r = await serve({
      receivers: [{ name: 'strict', secret: 'whsec_receiver_1', script: 200, refuseInvalidSignatures: true }],
      destinations: [{ name: 'Strict API', enabled: true, url: 'receiver:strict', sharedSecret: 'whsec_destination_2' }],
    });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', destinations: ['Strict API'], call: { userId: 'ada', event: 'Refused Order' } });
    const id = sent.message.id;
    await expect.poll(async () => (await r.call<MessageDetail>('getMessage', { id })).receiverChecks?.length ?? 0, { timeout: 20_000 }).toBe(1);
    const attempt = (await r.call<MessageDetail>('getMessage', { id })).attempts[0]!;
    expect(attempt.statusCode).toBe(401);
    const page = await open(r, `#/live/${id}/attempt/${attempt.id}`);
    const verdict = page.getByRole('region', { name: "Receiver's verdict" });
    await verdict.getByText("Receiver endpoint 'strict' found X-Signature invalid and refused it (401).").waitFor();
  });

  it('Why? explains per destination why the message was or was not delivered', async () => {
    const r = await serve({
      sources: [{ name: 'web', kind: 'web', writeKey: 'wk_web_1234567890' }],
      receivers: [{ name: 'orders', secret: 'whsec_receiver_1', script: 200 }],
      destinations: [
        { name: 'Orders API', enabled: true, url: 'receiver:orders', sharedSecret: 'whsec_destination_2', sources: ['web'] },
        { name: 'Warehouse', enabled: false, url: 'receiver:orders', sources: ['web'] },
      ],
    });
    const sent = await r.call<{ message: { id: number } }>('sendMessage', { type: 'track', source: 'web', call: { userId: 'ada', event: 'Order Completed' } });
    const id = sent.message.id;
    await expect.poll(async () => (await r.call<MessageDetail>('getMessage', { id })).receiverChecks?.length ?? 0, { timeout: 20_000 }).toBe(1);
    const page = await open(r, `#/live/${id}`);
    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Why?' }).click();
    const why = page.getByRole('region', { name: 'Why?' });
    const warehouse = why.getByRole('listitem', { name: 'Warehouse: not delivered' });
    await warehouse.waitFor();
    expect(await warehouse.innerText()).toContain('Warehouse is disabled: a disabled destination receives nothing.');
    const orders = why.getByRole('listitem', { name: 'Orders API: delivered' });
    expect(await orders.innerText()).toContain("Receiver endpoint 'orders' found the signature invalid: destination 'Orders API' signs with a secret that differs from receiver endpoint 'orders'.");
    await orders.getByRole('link', { name: 'Attempt 1: Receiver’s verdict' }).click();
    await page.getByRole('region', { name: "Receiver's verdict" }).waitFor();
  });
});
