/**
 * Both sides of a request: an attempt to the core's own mock receiver carries the receiver's verdict on it
 * (linked to the capture that attempt produced, by its exact bytes and headers, never by guessing), the message's row
 * shows it, and when the two secrets differ the verdict says exactly that, with fingerprints, and one
 * command makes them one.
 */
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/contract/dispatch.js';
import type { Core } from '../../../main/app/createCore.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { must, newCore, sendTrack, settled } from '../../helpers/harness.js';

const fingerprint = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 8);

async function withReceiver(receiverSecret: string | null, destinationSecret: string | null, script: unknown = 200): Promise<{ core: Core; destinationId: string }> {
  const core = newCore();
  await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
  must(core.createReceiver({ name: 'orders', secret: receiverSecret, script: script as never }));
  const d = must(core.createDestination({ name: 'Orders API', enabled: true, url: 'receiver:orders', sharedSecret: destinationSecret, retry: { schedule: [1000], windowMs: 60_000, jitter: 0 } }));
  return { core, destinationId: d.id };
}

describe('the receiver\'s verdict on the attempt', () => {
  it('a receiver whose secret differs from the destination\'s: the attempt succeeded, but its check says invalid, why, with both fingerprints, linked to the capture', async () => {
    const { core, destinationId } = await withReceiver('whsec_receiver_1', 'whsec_destination_2');
    const id = sendTrack(core, 'Orders API');
    const detail = await settled(core, id);
    expect(detail.attempts.map((a) => a.outcome)).toEqual(['success']);
    const capture = must(core.receivers.listCaptures({ receiver: 'orders' })).items[0]!;
    expect(capture.signature?.verdict).toBe('invalid');
    expect(capture.attempt).toEqual({ messageRef: id, deliveryId: detail.deliveries[0]!.id, destinationName: 'Orders API', attemptNumber: 1, webhookIndex: 0 });
    expect(detail.receiverChecks).toEqual([
      {
        attemptId: detail.attempts[0]!.id,
        captureId: capture.id,
        receiver: 'orders',
        verdict: 'invalid',
        explanation: "destination 'Orders API' signs with a secret that differs from receiver endpoint 'orders'",
        mistakes: ['secret-differs'],
        secrets: {
          destinationId,
          destinationName: 'Orders API',
          receiver: 'orders',
          destinationFingerprint: fingerprint('whsec_destination_2'),
          receiverFingerprint: fingerprint('whsec_receiver_1'),
          fixable: true,
        },
      },
    ]);
    // The row says it too.
    expect(must(core.listMessages({})).items.find((m) => m.id === id)?.receiverVerdict).toBe('invalid');
    // Made one secret: the attempt's verdict stands, said in the past (the two no longer differ).
    must(core.useOneSecret({ destinationId, receiver: 'orders' }));
    expect(must(core.getMessage({ id })).receiverChecks?.[0]).toMatchObject({
      verdict: 'invalid',
      explanation: "destination 'Orders API' signed with a secret that differed from receiver endpoint 'orders' when this request was sent",
      secrets: { fixable: false },
    });
  });

  it("the capture itself (the Receiver screen's row and detail) says the secrets differ, not that no known mistake explains it", async () => {
    const { core } = await withReceiver('whsec_receiver_1', 'whsec_destination_2');
    const id = sendTrack(core, 'Orders API');
    await settled(core, id);
    const capture = must(core.receivers.listCaptures({ receiver: 'orders' })).items[0]!;
    expect(capture.signature?.diagnosis).toEqual({
      mistakes: ['secret-differs'],
      explanation: "destination 'Orders API' signed with a secret that differed from receiver endpoint 'orders' when this request was sent",
    });
    // The same bytes sent by another program keep the diagnosis of the bytes: nothing says who signed them.
    const url = must(core.receivers.urlFor('orders'));
    const forged = await request(url, { method: 'POST', body: must(core.getMessage({ id })).message.body, headers: { 'content-type': 'application/json', 'x-signature': 'f'.repeat(40) } });
    await forged.body.text();
    expect(must(core.receivers.listCaptures({ receiver: 'orders' })).items[0]!.signature?.diagnosis?.mistakes).not.toContain('secret-differs');
  });

  it('useOneSecret gives the receiver the destination\'s secret (the answer shows a fingerprint, not the secret); the next message is valid on both sides', async () => {
    const { core, destinationId } = await withReceiver('whsec_receiver_1', 'whsec_destination_2');
    const api = createCommandHandlers(core);
    const fixed = await dispatch(api, 'useOneSecret', { destinationId, receiver: 'orders' });
    expect(fixed).toEqual({ ok: true, value: { changed: 'receiver', destinationId, receiver: 'orders', fingerprint: fingerprint('whsec_destination_2') } });
    expect(JSON.stringify(fixed)).not.toContain('whsec_');
    expect(must(core.receivers.receiverSecret('orders'))).toBe('whsec_destination_2');
    const id = sendTrack(core, 'Orders API');
    const detail = await settled(core, id);
    expect(detail.receiverChecks?.map((c) => [c.verdict, c.explanation, c.secrets])).toEqual([['valid', null, null]]);
    expect(must(core.listMessages({})).items.find((m) => m.id === id)?.receiverVerdict).toBe('valid');
  });

  it('a destination without a secret to a receiver that expects one: missing, said so, and useOneSecret gives the destination the receiver\'s', async () => {
    const { core, destinationId } = await withReceiver('whsec_receiver_1', null);
    const id = sendTrack(core, 'Orders API');
    const detail = await settled(core, id);
    expect(detail.receiverChecks?.[0]).toMatchObject({
      verdict: 'missing',
      explanation: "destination 'Orders API' has no shared secret, so it sends no X-Signature; receiver endpoint 'orders' expects one",
      secrets: { destinationFingerprint: null, receiverFingerprint: fingerprint('whsec_receiver_1'), fixable: true },
    });
    expect(must(core.listMessages({})).items[0]?.receiverVerdict).toBe('missing');
    expect(must(core.useOneSecret({ destinationId, receiver: 'orders' }))).toMatchObject({ changed: 'destination', fingerprint: fingerprint('whsec_receiver_1') });
    expect(core.findDestination(destinationId)?.sharedSecret).toBe('whsec_receiver_1');
    expect(must(core.getMessage({ id })).receiverChecks?.[0]?.explanation).toBe(
      "destination 'Orders API' had no shared secret when this request was sent, so it sent no X-Signature; receiver endpoint 'orders' expected one",
    );
  });

  it('the row shows the worst of the deliveries\' newest verdicts: another destination to an endpoint that checks nothing does not hide an invalid one', async () => {
    const { core } = await withReceiver('whsec_receiver_1', 'whsec_destination_2');
    must(core.createReceiver({ name: 'plain', script: 200 }));
    must(core.createDestination({ name: 'Plain', enabled: true, url: 'receiver:plain' }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Tested' }, destinations: ['Orders API', 'Plain'] })).message.id;
    const detail = await settled(core, id);
    expect(detail.receiverChecks?.map((c) => [c.receiver, c.verdict]).sort()).toEqual([
      ['orders', 'invalid'],
      ['plain', null],
    ]);
    expect(must(core.listMessages({})).items.find((m) => m.id === id)?.receiverVerdict).toBe('invalid');
  });

  it('each retry is linked to its own capture: three attempts, three checks in order', async () => {
    const { core } = await withReceiver('same', 'same', '500,500,200');
    const id = sendTrack(core, 'Orders API');
    await settled(core, id);
    must(await core.advanceClock({ ms: 10_000 }));
    const detail = await settled(core, id);
    expect(detail.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    const captures = must(core.receivers.listCaptures({ receiver: 'orders' })).items.reverse();
    expect(detail.receiverChecks?.map((c) => [c.attemptId, c.captureId, c.verdict])).toEqual(detail.attempts.map((a, i) => [a.id, captures[i]!.id, 'valid']));
  });

  it('a request that no attempt sent (same bytes, sent by another program) links to nothing', async () => {
    const { core } = await withReceiver('whsec_receiver_1', 'whsec_receiver_1');
    const id = sendTrack(core, 'Orders API');
    const detail = await settled(core, id);
    const url = must(core.receivers.urlFor('orders'));
    const res = await request(url, { method: 'POST', body: detail.message.body, headers: { 'content-type': 'application/json' } });
    await res.body.text();
    const newest = must(core.receivers.listCaptures({ receiver: 'orders' })).items[0]!;
    expect(newest.attempt).toBeNull();
    expect(must(core.getMessage({ id })).receiverChecks).toHaveLength(1);
  });

  it('two attempts sending the same body to one endpoint at once: each request is linked to the attempt whose headers it carries, whichever arrives first', async () => {
    const { core } = await withReceiver('same', 'same');
    const url = must(core.receivers.urlFor('orders'));
    const body = '{"type":"track","userId":"u1","event":"Tested"}';
    // Their ids only: a capture reads its destination's name from the delivery, and these two have no row.
    const attempt = (deliveryId: number) => ({ messageRef: 1, deliveryId, destinationName: null, attemptNumber: 1, webhookIndex: 0 });
    const headers = (dest: string) => ({ 'content-type': 'application/json', 'X-Dest': dest });
    core.receivers.expectRequest(url, body, attempt(101), () => headers('A'));
    core.receivers.expectRequest(url, body, attempt(102), () => headers('B'));
    // B's request arrives first: the same bytes, but B's header.
    for (const dest of ['B', 'A']) await (await request(url, { method: 'POST', body, headers: headers(dest) })).body.text();
    const captures = must(core.receivers.listCaptures({ receiver: 'orders' })).items.reverse();
    expect(captures.map((c) => [c.headers['x-dest'], c.attempt?.deliveryId])).toEqual([
      ['B', 102],
      ['A', 101],
    ]);
  });

  it('one message to two destinations of one endpoint with their own static headers: each capture names the destination whose header it carries', async () => {
    const { core } = await withReceiver('same', 'same');
    for (const dest of ['A', 'B']) {
      // Configured with white space around the value, which the request carries and the receiver's parser trims.
      must(core.createDestination({ name: `Dest ${dest}`, enabled: true, sharedSecret: 'same', webhooks: [{ url: 'receiver:orders', headers: { 'X-Dest': ` ${dest} ` } }] }));
    }
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Tested' }, destinations: ['Dest A', 'Dest B'] })).message.id;
    await settled(core, id);
    const captures = must(core.receivers.listCaptures({ receiver: 'orders' })).items;
    expect(captures).toHaveLength(2);
    for (const c of captures) expect(c.attempt?.destinationName).toBe(`Dest ${c.headers['x-dest']}`);
  });

  it('neither side has a secret: useOneSecret refuses with a conflict naming both', async () => {
    const { core, destinationId } = await withReceiver(null, null);
    const r = core.useOneSecret({ destinationId, receiver: 'orders' });
    expect(r).toMatchObject({ ok: false, error: { code: 'conflict', message: 'neither destination "Orders API" nor receiver endpoint "orders" has a secret: give one of them a secret first' } });
    expect(core.useOneSecret({ destinationId, receiver: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found', field: 'receiver' } });
  });
});
