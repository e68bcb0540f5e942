/**
 * The troubleshooting checklist (docs/behaviour.md §13) over a real workbench: each set-up the spec's
 * rules name is found in real data and linked to its evidence: a disabled destination, a source it is not
 * connected to, an integrations filter, a refused write key, a failing receiver, TLS refused, a signature
 * the receiver found invalid, timeouts-to-be and Retry-After, the retry backlog and a pause.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import type { DiagnosticCheck, Diagnostics } from '../../../main/contract/diagnostics.js';
import { dispatch } from '../../../main/contract/dispatch.js';
import { internalsOf } from '../../../main/app/createCore.js';
import { RECENT } from '../../../main/diagnostics/diagnostics.js';
import { must, newDataDir, onCleanup, settled } from '../../helpers/harness.js';

const WRITE_KEY = 'wk_web_1234567890';
const fingerprint = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 8);
const silentIO = { stdout: () => undefined, stderr: () => undefined };

async function serve(config: Record<string, unknown>): Promise<RunningServe> {
  const dir = newDataDir();
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ sources: [{ name: 'web', kind: 'web', writeKey: WRITE_KEY }], ...config }));
  const running = await startServe({ config: file, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  onCleanup(() => running.stop());
  return running;
}

async function diagnose(r: RunningServe): Promise<Diagnostics> {
  const result = await dispatch(r.handlers, 'getDiagnostics', {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value as Diagnostics;
}

function check(d: Diagnostics, id: string): DiagnosticCheck {
  const found = d.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} among ${d.checks.map((c) => c.id).join(', ')}`);
  return found;
}

const destinationId = (r: RunningServe, name: string) => r.core.findDestination(name)!.id;

async function sendTracks(r: RunningServe, calls: Record<string, unknown>[]): Promise<number[]> {
  const sent = must(r.core.sendMessages({ messages: calls.map((call) => ({ type: 'track' as const, call: { userId: 'ada', event: 'Order Completed', ...call }, source: 'web' })) }));
  const ids = sent.map((s) => s.message.id);
  for (const id of ids) await settled(r.core, id);
  return ids;
}

describe('the troubleshooting checklist', () => {
  it('names a disabled destination, with the messages of its sources that went without it', async () => {
    const r = await serve({ destinations: [{ name: 'Warehouse', enabled: false, url: 'http://127.0.0.1:9/hook', sources: ['web'] }] });
    // The second would not have reached it even on: its integrations keep it from every destination.
    const [id, ping] = await sendTracks(r, [{}, { event: 'Internal Ping', integrations: { All: false } }]);
    const d = await diagnose(r);
    const enabled = check(d, `destination.enabled:${destinationId(r, 'Warehouse')}`);
    expect(enabled).toMatchObject({ section: 'not-delivered', state: 'problem', subject: 'Warehouse', title: 'Warehouse is disabled' });
    expect(enabled.detail).toMatch(/1 recent message of its sources went without it/);
    expect(enabled.evidence).toEqual([
      { kind: 'destination', label: 'Warehouse', destinationId: destinationId(r, 'Warehouse') },
      { kind: 'message', label: `Message #${id} (Order Completed)`, messageId: id },
    ]);
    // A disabled destination is not "filtered": nothing in the first call kept it from it; the second is.
    const filtered = check(d, `destination.filtered:${destinationId(r, 'Warehouse')}`);
    expect(filtered.detail).toBe(`integrations.All=false and Webhooks not enabled: 1 message (latest #${ping})`);
  });

  it('names an integrations filter, an event block list and an allow list with the message and the rule; and a source it is not connected to', async () => {
    const r = await serve({
      receivers: [{ name: 'ok', script: 200 }],
      sources: [{ name: 'web', kind: 'web', writeKey: WRITE_KEY }, { name: 'ios', kind: 'mobile', writeKey: 'wk_ios_1234567890' }, { name: 'tv', kind: 'mobile', writeKey: 'wk_tv_1234567890' }],
      destinations: [
        { name: 'Warehouse', enabled: true, url: 'receiver:ok', sources: ['web'], filters: { allowEvents: [], blockEvents: ['Debug'] } },
        { name: 'Billing', enabled: true, url: 'receiver:ok', sources: ['web'], filters: { allowEvents: ['Order Completed'], blockEvents: [] } },
        { name: 'TV', enabled: true, url: 'receiver:ok', sources: ['tv'] },
      ],
    });
    const [delivered, skipped, blocked] = await sendTracks(r, [{}, { integrations: { Webhooks: false } }, { event: 'Debug' }]);
    must(r.core.sendMessage({ type: 'track', call: { userId: 'bob', event: 'Opened' }, source: 'ios' }));
    const d = await diagnose(r);
    const id = destinationId(r, 'Warehouse');
    const filtered = check(d, `destination.filtered:${id}`);
    expect(filtered).toMatchObject({ state: 'warning', title: '2 recent messages filtered out of Warehouse by integrations or event filters' });
    expect(filtered.detail).toContain(`integrations.Webhooks=false: 1 message (latest #${skipped})`);
    expect(filtered.detail).toContain(`event "Debug" is blocked by destination "Warehouse": 1 message (latest #${blocked})`);
    expect(filtered.evidence).toEqual(
      expect.arrayContaining([
        { kind: 'message', label: `Message #${skipped}: integrations.Webhooks=false`, messageId: skipped },
        { kind: 'message', label: `Message #${blocked}: event "Debug" is blocked by destination "Warehouse"`, messageId: blocked },
      ]),
    );
    const billing = check(d, `destination.filtered:${destinationId(r, 'Billing')}`);
    // Rules with as many messages keep the newest first.
    expect(billing.detail).toBe(`not in the allow list of Billing (Order Completed): 1 message (latest #${blocked}) — Debug ×1; integrations.Webhooks=false: 1 message (latest #${skipped})`);
    const sources = check(d, `destination.sources:${id}`);
    // Connected to some sources only is usual while its own send: said, not flagged.
    expect(sources).toMatchObject({ state: 'ok', title: 'Warehouse is connected to web', detail: 'Not connected to ios (1 recent message): those messages do not reach it.' });
    // None of its sources sends while others do: flagged, with links to the messages it does not get.
    const tv = check(d, `destination.sources:${destinationId(r, 'TV')}`);
    expect(tv).toMatchObject({ state: 'warning', title: 'TV is connected to tv', detail: 'Not connected to web (3 recent messages), ios (1 recent message): those messages do not reach it.' });
    expect(tv.evidence.slice(1)).toEqual([
      { kind: 'history', label: 'Messages of web', filter: { sourceId: r.core.findSource('web')!.id } },
      { kind: 'history', label: 'Messages of ios', filter: { sourceId: r.core.findSource('ios')!.id } },
    ]);
    expect(check(d, `destination.failing:${id}`)).toMatchObject({ state: 'ok', evidence: [{ kind: 'message', messageId: delivered }] });
    expect(check(d, `destination.enabled:${id}`).state).toBe('ok');
  });

  it('reads the integrations of calls that came through /v1/batch, stored compact beside their bodies', async () => {
    const r = await serve({ destinations: [{ name: 'Warehouse', enabled: true, url: 'http://127.0.0.1:9/hook', sources: ['web'] }] });
    const sent = [
      { type: 'track', userId: 'ada', event: 'Order Completed', integrations: { Webhooks: false }, properties: { total: 3 }, messageId: 'sdk-1' },
      { type: 'track', userId: 'ada', event: 'Order Completed', properties: { total: 4 }, messageId: 'sdk-2' },
    ];
    const res = await fetch(`${r.info.url}/v1/batch`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ batch: sent, context: { library: { name: 'analytics-node' } } }),
    });
    expect(res.status).toBe(200);
    const ids = must(r.core.listMessages({ limit: 10 })).items.map((m) => m.id).sort((a, b) => a - b);
    const [skipped, routed] = ids;
    await settled(r.core, skipped!);
    const stored = internalsOf(r.core).store.db.prepare('SELECT call FROM message_payloads WHERE message_id = ?').pluck().get(skipped) as string;
    expect(stored.startsWith('[')).toBe(true); // compact
    // Read back exactly as received, the batch's context merged in.
    expect(must(r.core.getMessage({ id: skipped! })).message.call).toEqual({ ...sent[0], context: { library: { name: 'analytics-node' } } });
    expect(JSON.stringify(must(r.core.getMessage({ id: routed! })).message.call)).toBe(JSON.stringify({ ...sent[1], context: { library: { name: 'analytics-node' } } }));
    const filtered = check(await diagnose(r), `destination.filtered:${destinationId(r, 'Warehouse')}`);
    expect(filtered.detail).toContain(`integrations.Webhooks=false: 1 message (latest #${skipped})`);
  });

  it('names a refused write key from the ingest log, and the URL SDKs must use', async () => {
    const r = await serve({});
    const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    const post = (key: string) =>
      fetch(`${r.info.url}/v1/batch`, { method: 'POST', headers: { authorization: auth(key), 'content-type': 'application/json' }, body: JSON.stringify({ batch: [{ type: 'track', userId: 'ada', event: 'Signed Up' }] }) });
    expect((await post('wk_wrong_1234567890')).status).toBe(401);
    let d = await diagnose(r);
    const key = check(d, 'ingest.writeKey');
    expect(key).toMatchObject({ section: 'no-events', state: 'problem', title: '1 request refused: unknown or missing write key' });
    expect(key.detail).toMatch(/^Latest: HTTP 401 unauthorized: unknown write key "/);
    expect(key.detail).not.toContain('wk_wrong_1234567890');
    expect(key.evidence).toEqual([{ kind: 'ingestLog', label: expect.stringMatching(/^Refused #\d+: HTTP 401 unauthorized$/), refusalId: expect.any(Number) }]);
    const web = r.core.findSource('web')!.id;
    expect(check(d, `source.calls:${web}`)).toMatchObject({ state: 'warning', title: 'No call has arrived with the write key of web' });
    expect(check(d, 'ingest.url')).toMatchObject({ state: 'warning', title: `SDKs send to ${r.info.url}/v1/batch`, evidence: [{ kind: 'url', url: `${r.info.url}/v1/batch` }] });

    expect((await post(WRITE_KEY)).status).toBe(200);
    d = await diagnose(r);
    expect(check(d, `source.calls:${web}`)).toMatchObject({ state: 'ok', title: '1 call received with the write key of web' });
    expect(check(d, 'ingest.url').state).toBe('ok');
  });

  it('names a failing receiver, TLS refused with the HTTP listener to use instead, and a signature the receiver found invalid', async () => {
    const r = await serve({
      receivers: [{ name: 'down', script: 500 }, { name: 'secure', script: 200 }, { name: 'signed', script: 200, secret: 'the-receivers-secret' }],
      destinations: [
        { name: 'Down', enabled: true, url: 'receiver:down', sources: ['web'], retry: { maxAttempts: 1 } },
        { name: 'Secure', enabled: true, url: 'receiver+tls:secure', sources: ['web'], retry: { maxAttempts: 1 } },
        { name: 'Signed', enabled: true, url: 'receiver:signed', sources: ['web'], sharedSecret: 'another-secret' },
      ],
    });
    const [id] = await sendTracks(r, [{}]);
    const detail = must(r.core.getMessage({ id: id! }));
    const attemptTo = (name: string) => detail.attempts.find((a) => a.deliveryId === detail.deliveries.find((x) => x.destinationName === name)!.id)!;
    const d = await diagnose(r);
    expect(check(d, `destination.failing:${destinationId(r, 'Down')}`)).toMatchObject({
      state: 'problem',
      title: 'Down’s endpoint is failing: HTTP 500',
      evidence: [{ kind: 'message', messageId: id, attemptId: attemptTo('Down').id }],
    });
    const tls = check(d, `destination.tls:${destinationId(r, 'Secure')}`);
    // One finding per cause, its cause said once.
    expect(tls).toMatchObject({ state: 'problem', title: 'TLS refused by Secure: self-signed certificate' });
    expect(d.checks.filter((c) => c.subject === 'Secure' && c.state === 'problem').map((c) => c.rule)).toEqual(['destination.tls']);
    expect(tls.detail).toContain('receiver:secure instead of receiver+tls:secure');
    expect(tls.detail).toContain('caFile');
    const signature = check(d, `destination.signature:${destinationId(r, 'Signed')}`);
    expect(signature).toMatchObject({ state: 'problem', title: 'The receiver found Signed’s signature invalid' });
    expect(signature.evidence[0]).toEqual({ kind: 'signature', label: `Signature panel of message #${id}, attempt 1`, messageId: id, attemptId: attemptTo('Signed').id });
    expect(signature.evidence[1]).toMatchObject({ kind: 'capture', receiver: 'signed' });
    // The two secrets differ, and it says exactly that, with fingerprints instead of masked secrets.
    expect(signature.detail).toContain("Destination 'Signed' signs with a secret that differs from receiver endpoint 'signed'.");
    expect(signature.detail).toContain(`destination ${fingerprint('another-secret')}, receiver ${fingerprint('the-receivers-secret')}`);
    expect(signature.detail).not.toContain('No known mistake');
    // The other destinations have no signature problem to report.
    expect(d.checks.some((c) => c.id === `destination.signature:${destinationId(r, 'Down')}`)).toBe(false);

    // Fixed: once the receiver finds the newest request's signature valid, the problem is history, not a fix to make.
    must(r.core.updateDestination({ id: destinationId(r, 'Signed'), patch: { sharedSecret: 'the-receivers-secret' } }));
    await sendTracks(r, [{}]);
    const fixed = check(await diagnose(r), `destination.signature:${destinationId(r, 'Signed')}`);
    expect(fixed).toMatchObject({ state: 'ok', title: 'The receiver finds Signed’s signature valid', evidence: [{ kind: 'capture', receiver: 'signed' }] });
    expect(fixed.detail).toMatch(/^Its newest request passed the receiver’s check \(capture \d+\); 1 earlier request failed it\.$/);
  });

  it('reads a destination whose attempts another one’s retries pushed out of the newest ones on its own: it answers, it was attempted', async () => {
    const r = await serve({
      receivers: [{ name: 'ok', script: 200 }, { name: 'down', script: 500 }],
      destinations: [
        { name: 'Orders', enabled: true, url: 'receiver:ok', sources: ['web'] },
        { name: 'Down', enabled: true, url: 'receiver:down', sources: ['web'], retry: { maxAttempts: 1 } },
      ],
    });
    const [first] = await sendTracks(r, [{}]);
    // Then as many attempts to Down alone as the checklist reads: none of them is Orders'.
    const calls = Array.from({ length: RECENT.attempts }, (_, i) => ({ type: 'track' as const, call: { userId: `u${i}`, event: 'Ping' }, source: 'web', destinations: ['Down'] }));
    const sent = must(r.core.sendMessages({ messages: calls }));
    for (const s of sent) await settled(r.core, s.message.id);
    const d = await diagnose(r);
    expect(check(d, `destination.failing:${destinationId(r, 'Down')}`).detail).toMatch(new RegExp(`^${RECENT.attempts} of the last ${RECENT.attempts.toLocaleString('en-US')} attempts failed`));
    const orders = check(d, `destination.failing:${destinationId(r, 'Orders')}`);
    expect(orders).toMatchObject({ state: 'ok', title: 'Orders’s endpoint answers', detail: 'The last 1 attempt succeeded (latest: HTTP 200).' });
    expect(orders.evidence).toEqual([expect.objectContaining({ kind: 'message', messageId: first })]);
  });

  it('a destination delivered by one of its webhooks is not "failing" because another, slower one answered 500 last', async () => {
    const r = await serve({
      receivers: [{ name: 'ok', script: 200 }, { name: 'slow-down', script: { status: 500, delayMs: 300 } }],
      destinations: [{ name: 'Trio', enabled: true, sources: ['web'], webhooks: [{ url: 'receiver:ok' }, { url: 'receiver:slow-down' }] }],
    });
    const [id] = await sendTracks(r, [{}]);
    expect(must(r.core.getMessage({ id: id! })).message.status).toBe('delivered');
    expect(check(await diagnose(r), `destination.failing:${destinationId(r, 'Trio')}`)).toMatchObject({
      state: 'warning',
      title: 'Trio’s endpoint failed 1 time recently',
      detail: '1 of the last 2 attempts failed; the latest round was delivered by webhook 1. Webhooks that fail beside a 2xx are not retried: one success delivers the message.',
      evidence: [{ kind: 'message', messageId: id, label: `Message #${id}, attempt 1, webhook 2: HTTP 500` }],
    });
  });

  it('a failing destination whose webhook 1 failed for good (410) beside a retried 500 does not say every failed attempt is retried: it names webhook 1 as no longer sent to', async () => {
    const r = await serve({
      receivers: [{ name: 'gone', script: 410 }, { name: 'down', script: 500 }],
      destinations: [{ name: 'Duo', enabled: true, sources: ['web'], webhooks: [{ url: 'receiver:gone' }, { url: 'receiver:down' }] }],
    });
    const [id] = await sendTracks(r, [{}]);
    // The second round goes to webhook 2 alone.
    must(await r.core.advanceClock({ ms: 60_000 }));
    const detail = await settled(r.core, id!);
    expect(detail.attempts.map((a) => [a.attemptNumber, a.webhookIndex])).toEqual(expect.arrayContaining([[2, 1]]));
    expect(detail.attempts.some((a) => a.attemptNumber === 2 && a.webhookIndex === 0)).toBe(false);
    const failing = check(await diagnose(r), `destination.failing:${destinationId(r, 'Duo')}`);
    expect(failing.state).toBe('problem');
    expect(failing.detail).toMatch(/ failed\. Failed attempts are retried on the retry schedule, except webhook 1 \(HTTP 410\): it failed for good and is no longer sent to\.$/);
  });

  it('names Retry-After, the retry backlog and a pause under "Deliveries slow"', async () => {
    const r = await serve({
      receivers: [{ name: 'busy', script: { status: 503, retryAfter: 120 } }],
      destinations: [{ name: 'Busy', enabled: true, url: 'receiver:busy', sources: ['web'] }],
    });
    await sendTracks(r, [{}]);
    let d = await diagnose(r);
    const id = destinationId(r, 'Busy');
    expect(check(d, `deliveries.retryAfter:${id}`)).toMatchObject({ section: 'slow', state: 'warning', title: 'Busy’s endpoint asked to wait: Retry-After 120' });
    expect(check(d, 'deliveries.backlog')).toMatchObject({ title: '1 delivery waiting for a retry', evidence: [{ kind: 'history', filter: { status: 'retrying' } }] });
    expect(check(d, `deliveries.timeouts:${id}`).state).toBe('ok');
    expect(check(d, 'forwarding.paused').state).toBe('ok');
    must(r.core.pauseForwarding());
    d = await diagnose(r);
    expect(check(d, 'forwarding.paused')).toMatchObject({ state: 'problem', title: 'Forwarding is paused' });
  });
});
