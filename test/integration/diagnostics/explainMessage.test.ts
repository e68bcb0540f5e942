/**
 * explainMessage (the detail's Why?): per destination, why one message was or was not delivered, from the
 * checklist's rules, against a real core with its own mock receiver. Retries are played with
 * advanceClock, never by sleeping.
 */
import { describe, expect, it } from 'vitest';
import type { DestinationExplanation } from '../../../main/contract/diagnostics.js';
import { must, newCore, settled } from '../../helpers/harness.js';

const byName = (list: DestinationExplanation[], name: string) => {
  const found = list.find((d) => d.destinationName === name);
  if (!found) throw new Error(`no explanation for ${name} among ${list.map((d) => d.destinationName).join(', ')}`);
  return found;
};
const texts = (d: DestinationExplanation) => d.reasons.map((r) => `${r.rule} ${r.state}: ${r.text}`);

describe('Why? for one message', () => {
  it('names, per destination, what kept the message from it or what its delivery met', async () => {
    const core = newCore();
    await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: 0 });
    must(core.createReceiver({ name: 'ok', script: 200 }));
    must(core.createReceiver({ name: 'down', script: 500 }));
    must(core.createReceiver({ name: 'signed', script: 200, secret: 'the-receivers-secret' }));
    const web = must(core.createSource({ name: 'web', kind: 'web' }));
    must(core.createSource({ name: 'ios', kind: 'mobile' }));
    const dest = (name: string, over: Record<string, unknown>) => must(core.createDestination({ name, enabled: true, url: 'receiver:ok', sources: ['web'], ...over } as never));
    dest('Warehouse', {});
    dest('Down', { url: 'receiver:down', retry: { maxAttempts: 1 } });
    dest('Secure', { url: 'receiver+tls:ok' });
    dest('Signed', { url: 'receiver:signed', sharedSecret: 'another-secret' });
    dest('Off', { enabled: false });
    dest('Mobile only', { sources: ['ios'] });
    dest('Blocked', { filters: { blockEvents: ['Order Completed'] } });
    dest('Opted out', {});
    must(core.createDestination({ name: 'hookbench send', enabled: false, url: 'receiver:ok' }));
    const sent = must(core.sendMessage({ type: 'track', source: web.id, call: { userId: 'ada', event: 'Order Completed', integrations: { 'Opted out': false } } }));
    const id = sent.message.id;
    await settled(core, id);
    const why = must(core.explainMessage({ id }));
    expect(why.messageId).toBe(id);
    expect(why.destinations.map((d) => d.destinationName)).not.toContain('hookbench send');

    expect(byName(why.destinations, 'Warehouse')).toMatchObject({ outcome: 'delivered', status: 'delivered' });
    expect(texts(byName(why.destinations, 'Warehouse'))).toEqual(['delivery.delivered ok: delivered after 1 attempt (HTTP 200)']);
    expect(byName(why.destinations, 'Down')).toMatchObject({ outcome: 'not delivered', status: 'failed' });
    expect(texts(byName(why.destinations, 'Down'))).toEqual(['destination.failing problem: max attempts reached (1): Down’s endpoint answered HTTP 500 (attempt 1)']);
    expect(texts(byName(why.destinations, 'Secure'))).toEqual(['destination.tls problem: TLS refused by Secure: self-signed certificate; no request was sent']);
    // Delivered, but the receiver refused the signature: said first, as a warning.
    const signed = byName(why.destinations, 'Signed');
    expect(signed.outcome).toBe('delivered');
    expect(texts(signed)[0]).toBe(
      "destination.signature warning: receiver endpoint 'signed' found the signature invalid: destination 'Signed' signs with a secret that differs from receiver endpoint 'signed'",
    );
    expect(signed.reasons[0]!.evidence.map((e) => e.kind)).toEqual(['signature', 'capture']);
    expect(texts(byName(why.destinations, 'Off'))).toEqual(['destination.enabled problem: Off is disabled: a disabled destination receives nothing']);
    expect(texts(byName(why.destinations, 'Mobile only'))).toEqual(['destination.sources problem: Mobile only is not connected to source web']);
    expect(texts(byName(why.destinations, 'Blocked'))).toEqual(['destination.filtered problem: the event filter of Blocked: event "Order Completed" is blocked by destination "Blocked"']);
    expect(texts(byName(why.destinations, 'Opted out'))).toEqual(["destination.filtered problem: the call's integrations keep it from Opted out: integrations.Opted out=false"]);
  });

  it('a retry window that ran out says why no further attempt came', async () => {
    const core = newCore();
    await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(core.createReceiver({ name: 'down', script: 503 }));
    must(core.createDestination({ name: 'Down', enabled: true, url: 'receiver:down', retry: { schedule: [60_000, 120_000], windowMs: 90_000, jitter: 0 } }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'ada', event: 'Tested' }, destinations: ['Down'] })).message.id;
    await settled(core, id);
    must(await core.advanceClock({ ms: 5 * 60_000 }));
    await settled(core, id);
    const down = must(core.explainMessage({ id })).destinations[0]!;
    expect(down).toMatchObject({ destinationName: 'Down', outcome: 'not delivered', status: 'failed' });
    expect(texts(down)[0]).toMatch(/^retry\.window problem: retry window exhausted after 2 attempts: the 3rd would have fallen due 3 min( \d+ s)? after the first, past the 1 min 30 s retry window$/);
  });

  it('with several webhooks counts rounds and attempts as the detail card does, and names the round that did not come', async () => {
    const core = newCore();
    await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(core.createReceiver({ name: 'down', script: 503 }));
    must(core.createReceiver({ name: 'ok', script: 200 }));
    const webhooks = [{ url: 'receiver:down' }, { url: 'receiver:down' }, { url: 'receiver:down' }];
    must(core.createDestination({ name: 'Down', enabled: true, webhooks, retry: { schedule: [60_000, 120_000], windowMs: 90_000, jitter: 0 } }));
    must(core.createDestination({ name: 'Trio', enabled: true, webhooks: [{ url: 'receiver:ok' }, { url: 'receiver:down' }, { url: 'receiver:down' }] }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'ada', event: 'Tested' }, destinations: ['Down', 'Trio'] })).message.id;
    await settled(core, id);
    must(await core.advanceClock({ ms: 5 * 60_000 }));
    await settled(core, id);
    const why = must(core.explainMessage({ id })).destinations;
    expect(texts(byName(why, 'Down'))[0]).toMatch(/^retry\.window problem: retry window exhausted after 2 rounds · 6 attempts: the 3rd round would have fallen due 3 min( \d+ s)? after the first, past the 1 min 30 s retry window$/);
    expect(texts(byName(why, 'Trio'))[0]).toBe('delivery.delivered ok: delivered after 1 round · 3 attempts (HTTP 200)');
    // Its last failure and its link name the webhook: round 2's three attempts would otherwise read alike.
    const last = byName(why, 'Down').reasons[1]!;
    expect(last.text).toMatch(/^Down’s endpoint answered HTTP 503 \(attempt 2, webhook [123]\)$/);
    expect(last.evidence[0]!.label).toMatch(/^Message #\d+, attempt 2, webhook [123]: HTTP 503$/);
  });

  it('a waiting delivery with several webhooks names each webhook that holds it back, not only the one whose attempt was recorded last', async () => {
    const core = newCore();
    await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(core.createReceiver({ name: 'gone', script: 410 }));
    must(core.createReceiver({ name: 'down', script: 500 }));
    must(core.createReceiver({ name: 'busy', script: 503 }));
    const webhooks = [{ url: 'receiver:gone' }, { url: 'receiver:down' }, { url: 'receiver:busy' }, { url: 'receiver:busy' }];
    must(core.createDestination({ name: 'Quad', enabled: true, webhooks, retry: { schedule: [5_000], windowMs: 3_600_000, jitter: 0 } }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'ada', event: 'Tested' }, destinations: ['Quad'] })).message.id;
    await settled(core, id);
    // Round 2 goes to webhooks 2, 3 and 4: webhook 1's 410 is not retried.
    must(await core.advanceClock({ ms: 5_000 }));
    await settled(core, id);
    const quad = byName(must(core.explainMessage({ id })).destinations, 'Quad');
    expect(quad.outcome).toBe('waiting');
    expect(texts(quad).slice(0, 3)).toEqual([
      'destination.failing problem: Quad’s endpoint answered HTTP 500 (attempt 2, webhook 2)',
      'destination.failing problem: Quad’s endpoint answered HTTP 503 (attempt 2, webhooks 3 and 4)',
      'destination.failing problem: Quad’s endpoint answered HTTP 410 (attempt 1, webhook 1)',
    ]);
    expect(quad.reasons[1]!.evidence.map((e) => e.label)).toEqual([`Message #${id}, attempt 2, webhook 3: HTTP 503`, `Message #${id}, attempt 2, webhook 4: HTTP 503`]);
  });

  it('a delivery waiting for its retry says in how long, in words, not as a raw timestamp', async () => {
    const core = newCore();
    await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(core.createReceiver({ name: 'busy', script: 503 }));
    must(core.createDestination({ name: 'Busy', enabled: true, url: 'receiver:busy', retry: { schedule: [600_000], windowMs: 3_600_000, jitter: 0 } }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'ada', event: 'Tested' }, destinations: ['Busy'] })).message.id;
    await settled(core, id);
    const busy = must(core.explainMessage({ id })).destinations[0]!;
    expect(busy).toMatchObject({ outcome: 'waiting', status: 'retrying' });
    expect(texts(busy).at(-1)).toMatch(/^delivery\.waiting warning: retrying: the next attempt falls due in (9 min \d+ s|10 min) \(engine time\)$/);
  });

  it('a delivery its destination holds (off, or without a webhook URL) says so, and never that an attempt is due', () => {
    const core = newCore({ autoStart: false });
    must(core.createDestination({ name: 'Off', enabled: false, url: 'http://127.0.0.1:9/hook' }));
    must(core.createDestination({ name: 'Bare', enabled: false, webhooks: [] }));
    for (const [name, held] of [
      ['Off', 'Off is disabled: its retries are held until it is enabled'],
      ['Bare', 'Bare has no webhook URL: add one, then turn it on'],
    ] as const) {
      const id = must(core.sendMessage({ type: 'track', call: { userId: 'ada', event: 'Tested' }, destinations: [name] })).message.id;
      const why = must(core.explainMessage({ id })).destinations[0]!;
      expect(texts(why)).toEqual([`destination.enabled problem: ${held}`, `delivery.waiting warning: queued: held until ${name} is turned on`]);
    }
  });

  it('a destination a message did not name, when it named its destinations, is "not sent to it": nothing went wrong there', () => {
    const core = newCore({ autoStart: false });
    must(core.createDestination({ name: 'Named', enabled: true, url: 'http://127.0.0.1:9/hook' }));
    must(core.createDestination({ name: 'Other', enabled: true, url: 'http://127.0.0.1:9/hook' }));
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'ada', event: 'Tested' }, destinations: ['Named'] })).message.id;
    const other = must(core.explainMessage({ id })).destinations.find((d) => d.destinationName === 'Other')!;
    expect(other).toMatchObject({ outcome: 'not sent to it', status: null });
    expect(texts(other)).toEqual(['destination.sources ok: the message was sent to named destinations only, and Other was not among them']);
  });

  it('an unknown message is not_found', () => {
    const core = newCore();
    expect(core.explainMessage({ id: 999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
