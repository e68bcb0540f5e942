import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Analytics } from '@segment/analytics-node';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EngineEvent } from '../../../main/contract/events.js';
import type { MessageRecord, Page } from '../../../main/contract/messages.js';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { openEventSocket } from '../../helpers/eventSocket.js';
import { must, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';
import { status, type TestReceiver } from '../../helpers/receiver.js';

const WRITE_KEY = 'wk_backend';
const silentIO = { stdout: () => undefined, stderr: () => undefined };

async function serve(rx: TestReceiver, extra: Record<string, unknown> = {}): Promise<RunningServe> {
  const dir = newDataDir();
  const configFile = join(dir, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      sources: [{ name: 'backend', kind: 'server', writeKey: WRITE_KEY }],
      destinations: [{ name: 'Local receiver', enabled: true, sources: ['backend'], sharedSecret: 's3cret', webhooks: [{ url: rx.url, headers: { 'X-Env': 'dev' } }] }],
      ...extra,
    }),
  );
  const running = await startServe({ config: configFile, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  onCleanup(() => running.stop());
  return running;
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function post(running: RunningServe, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${running.info.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(WRITE_KEY), ...headers },
    body: Buffer.isBuffer(body) ? body : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json().catch(() => null)) as Record<string, unknown> | null };
}

async function api<T>(running: RunningServe, command: string, input: unknown = {}, token = running.info.token): Promise<{ status: number; body: { ok: boolean; value?: T; error?: Record<string, unknown> } }> {
  const res = await request(`${running.info.url}/api/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  return { status: res.statusCode, body: (await res.body.json()) as { ok: boolean; value?: T } };
}

const messages = (running: RunningServe) => must(running.core.listMessages({ limit: 1000 })).items;

describe('hookbench serve', () => {
  it('writes server.json (mode 0600) with the documented keys, and removes it on stop', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const file = join(running.dataDir, 'server.json');
    const info = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(info).sort()).toEqual(['pid', 'port', 'receiverTlsUrl', 'receiverUrl', 'token', 'uiUrl', 'url', 'version'].sort());
    expect(info['uiUrl']).toBe(`${running.info.url}/?token=${running.info.token}`);
    const { statSync } = await import('node:fs');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await running.stop();
    expect(existsSync(file)).toBe(false);
  });

  it('a config error names its path, and nothing of the file is applied', async () => {
    const dir = newDataDir();
    const configFile = join(dir, 'bad.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        sources: [{ name: 'backend', kind: 'server' }],
        destinations: [{ name: 'd', webhooks: Array.from({ length: 6 }, (_, i) => ({ url: `http://127.0.0.1:9/${i}` })) }],
      }),
    );
    const data = join(dir, 'data');
    await expect(startServe({ config: configFile, data, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO)).rejects.toThrow(
      'destinations[0].webhooks[5]: at most 5 webhooks',
    );
    writeFileSync(configFile, JSON.stringify({ sources: [{ name: 'backend', kind: 'server' }], destinations: [{ name: 'd', url: 'receiver:nope' }] }));
    await expect(startServe({ config: configFile, data, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO)).rejects.toThrow(
      'destinations[0].webhooks[0].url: no receiver named "nope"',
    );
    const running = await startServe({ data, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
    onCleanup(() => running.stop());
    expect(must(running.core.listSources()).items).toEqual([]);
  });
});

describe('ingestion API (docs/behaviour.md §7)', () => {
  it('/v1/batch: accepted, committed before the 200, routed, forwarded and signed', async () => {
    const rx = await newReceiver(status(200));
    const running = await serve(rx);
    const res = await post(running, '/v1/batch', {
      batch: [
        { type: 'identify', userId: 'u1', traits: { plan: 'pro' }, messageId: 'm-1' },
        { type: 'track', userId: 'u1', event: 'Signed Up', properties: { source: 'ad' } },
      ],
      context: { library: { name: 'test' } },
      sentAt: new Date().toISOString(),
    });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    const stored = messages(running);
    expect(stored.map((m) => m.type).sort()).toEqual(['identify', 'track']);
    for (const m of stored) await settled(running.core, m.id);
    expect(rx.captured).toHaveLength(2);
    for (const c of rx.captured) {
      expect(c.headers['x-signature']).toBe(createHmac('sha1', 's3cret').update(c.body).digest('hex'));
      expect(c.headers['x-env']).toBe('dev');
      const body = JSON.parse(c.body.toString()) as Record<string, unknown>;
      expect(body['context']).toMatchObject({ library: { name: 'test' }, ip: '127.0.0.1' });
    }
    const identify = stored.find((m) => m.type === 'identify')!;
    expect(identify.messageId).toBe('m-1');
  });

  it.each([
    ['invalid JSON', '{"batch": [', 'invalid_json', undefined],
    ['an unknown type', { batch: [{ type: 'trak', userId: 'u' }] }, 'unknown_type', 'batch[0].type'],
    ['no type', { batch: [{ userId: 'u', event: 'E' }] }, 'missing_field', 'batch[0].type'],
    ['no userId or anonymousId', { batch: [{ type: 'track', event: 'E' }] }, 'missing_identity', 'batch[0].userId'],
    ['a track without event', { batch: [{ type: 'identify', userId: 'u' }, { type: 'track', userId: 'u' }] }, 'missing_field', 'batch[1].event'],
    ['a group without groupId', { batch: [{ type: 'group', userId: 'u' }] }, 'missing_field', 'batch[0].groupId'],
    ['an alias without previousId', { batch: [{ type: 'alias', userId: 'u' }] }, 'missing_field', 'batch[0].previousId'],
  ])('refuses the whole request with 400 for %s; nothing is stored; the refusal is logged', async (_what, body, code, field) => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const res = await post(running, '/v1/batch', body);
    expect(res.status).toBe(400);
    expect(res.body!['error']).toMatchObject({ code, ...(field ? { field } : {}) });
    expect(messages(running)).toEqual([]);
    const log = must(running.core.listIngestLog({}));
    expect(log.items[0]).toMatchObject({ httpStatus: 400, code, route: '/v1/batch' });
  });

  it('a message over 32 KiB: 400 message_too_large with index, field and limit; the rest of the batch is not stored', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const big = { type: 'track', userId: 'u', event: 'Big', properties: { blob: 'x'.repeat(40_000) } };
    const res = await post(running, '/v1/batch', { batch: [{ type: 'track', userId: 'u', event: 'ok' }, { type: 'track', userId: 'u', event: 'ok' }, { type: 'track', userId: 'u', event: 'ok' }, big] });
    expect(res.status).toBe(400);
    const error = res.body!['error'] as Record<string, unknown>;
    expect(error).toMatchObject({ code: 'message_too_large', index: 3, field: 'batch[3]', limit: 32768 });
    expect(error['message']).toMatch(/^batch\[3\]: \d+ bytes > 32768$/);
    expect(messages(running)).toEqual([]);
    // The ingest log keeps the reason, the field and the limit, and a preview of the body.
    const [logged] = must(running.core.listIngestLog({})).items;
    expect(logged).toMatchObject({ code: 'message_too_large', field: 'batch[3]', index: 3, limit: 32768, message: error['message'] });
    expect(logged!.bodyPreview).toMatch(/^\{"batch":\[\{"type":"track"/);
    // One call on its own (/v1/track) is the body: the refusal names it as its field too.
    const single = await post(running, '/v1/track', { userId: 'u', event: 'Big', properties: { blob: 'x'.repeat(40_000) } });
    expect(single.body!['error']).toMatchObject({ code: 'message_too_large', field: 'body', limit: 32768 });
  });

  it('a batch with several bad calls is answered naming each, first one first, and logged once naming each; nothing of it is stored', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const res = await post(running, '/v1/batch', { batch: [{ type: 'track', userId: 'u', event: 'Fine' }, { type: 'track', userId: 'u' }, { type: 'bogus', userId: 'u' }] });
    expect(res.status).toBe(400);
    expect(res.body!['error']).toEqual({
      code: 'missing_field',
      field: 'batch[1].event',
      index: 1,
      message: 'batch[1].event: is required (and 1 more problem)',
      problems: [{ code: 'unknown_type', field: 'batch[2].type', index: 2, message: 'batch[2].type: unknown message type "bogus" (one of track, page, screen, identify, group, alias)' }],
    });
    expect(must(running.core.listIngestLog({})).items.map((r) => [r.field, r.index, r.message])).toEqual([['batch[1].event', 1, '2 problems: batch[1].event: is required; batch[2].type: unknown message type "bogus" (one of track, page, screen, identify, group, alias)']]);
    expect(messages(running)).toEqual([]);
  });

  it('a batch with more bad calls than its log row spells out names the first ten and counts the rest', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const res = await post(running, '/v1/batch', { batch: Array.from({ length: 13 }, () => ({ type: 'track', userId: 'u' })) });
    expect(res.status).toBe(400);
    const logged = must(running.core.listIngestLog({})).items[0]!.message;
    expect(logged).toBe(`13 problems: ${Array.from({ length: 10 }, (_, i) => `batch[${i}].event: is required`).join('; ')}; and 3 more`);
  });

  it('a request over 500 KiB, and a gzip bomb, are refused; gzip bodies are accepted', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const batch = Array.from({ length: 30 }, (_, i) => ({ type: 'track', userId: 'u', event: `E${i}`, properties: { pad: 'y'.repeat(20_000) } }));
    const tooBig = await post(running, '/v1/batch', { batch });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body!['error']).toMatchObject({ code: 'request_too_large', limit: 512000 });
    expect(must(running.core.listIngestLog({})).items[0]).toMatchObject({ code: 'request_too_large', limit: 512000 });

    const bomb = gzipSync(Buffer.from(`{"batch":[],"pad":"${'0'.repeat(20_000_000)}"}`));
    expect(bomb.length).toBeLessThan(512_000);
    const bombed = await post(running, '/v1/batch', bomb, { 'content-encoding': 'gzip' });
    expect(bombed.status).toBe(400);
    expect(bombed.body!['error']).toMatchObject({ code: 'request_too_large' });

    const zipped = await post(running, '/v1/batch', gzipSync(JSON.stringify({ batch: [{ type: 'track', userId: 'u', event: 'Zipped' }] })), { 'content-encoding': 'gzip' });
    expect(zipped).toMatchObject({ status: 200, body: { success: true } });
    expect(messages(running).map((m) => m.event)).toEqual(['Zipped']);
  });

  it('401 for a missing or unknown write key; the body may carry writeKey instead of Basic auth', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const call = { userId: 'u', event: 'E' };
    expect((await post(running, '/v1/track', call, { authorization: basic('wrong') })).status).toBe(401);
    expect((await post(running, '/v1/track', call, { authorization: '' })).status).toBe(401);
    expect((await post(running, '/v1/track', { ...call, writeKey: WRITE_KEY }, { authorization: '' })).status).toBe(200);
    expect(must(running.core.listIngestLog({})).items.map((r) => r.httpStatus)).toEqual([401, 401]);
  });

  it('single-call routes and the browser routes (text/plain, CORS)', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    for (const [path, call] of [
      ['/v1/identify', { userId: 'u', traits: {} }],
      ['/v1/page', { userId: 'u', name: 'Home' }],
      ['/v1/screen', { userId: 'u', name: 'Home' }],
      ['/v1/group', { userId: 'u', groupId: 'g' }],
      ['/v1/alias', { userId: 'u', previousId: 'anon' }],
    ] as const) {
      expect((await post(running, path, call)).status).toBe(200);
    }
    const browser = await post(running, '/v1/t', JSON.stringify({ anonymousId: 'a1', event: 'Clicked', writeKey: WRITE_KEY }), { 'content-type': 'text/plain', authorization: '' });
    expect(browser.status).toBe(200);
    expect(browser.headers['access-control-allow-origin']).toBe('*');
    const preflight = await request(`${running.info.url}/v1/t`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const mobile = await post(running, '/v1/b', { batch: [{ type: 'screen', userId: 'u', name: 'Cart' }] });
    expect(mobile.status).toBe(200);
    expect(messages(running).map((m) => m.type).sort()).toEqual(['alias', 'group', 'identify', 'page', 'screen', 'screen', 'track']);
  });

  it("a request with the write key in its Basic auth is its source's refusal even when its body cannot be read: bad JSON, a bad encoding, too large, a wrong route", async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const source = must(running.core.listSources()).items.find((s) => s.name === 'backend')!;
    expect((await post(running, '/v1/batch', '{"batch": [')).status).toBe(400);
    expect((await post(running, '/v1/batch', 'not gzip', { 'content-encoding': 'gzip' })).status).toBe(400);
    expect((await post(running, '/v1/batch', Buffer.alloc(600 * 1024, 0x20))).status).toBe(400);
    expect((await post(running, '/batch', { batch: [] })).status).toBe(404);
    // Without a key Hookbench knows, a refusal is no source's.
    expect((await post(running, '/v1/batch', '{"batch": [', { authorization: basic('wk_nobody') })).status).toBe(400);
    const log = must(running.core.listIngestLog({})).items.map((r) => [r.route, r.code, r.sourceId]);
    expect(log).toEqual([
      ['/v1/batch', 'invalid_json', null],
      ['/batch', 'not_found', source.id],
      ['/v1/batch', 'request_too_large', source.id],
      ['/v1/batch', expect.any(String), source.id],
      ['/v1/batch', 'invalid_json', source.id],
    ]);
    const checks = must(running.core.getDiagnostics({})).checks;
    expect(checks.find((c) => c.id === `source.refused:${source.id}`)).toMatchObject({ state: 'problem', title: '4 requests of backend refused' });
    expect(checks.find((c) => c.id === 'ingest.refused')).toMatchObject({ title: '1 request refused without a write key of a source: invalid_json' });
  });

  it('counts usage per source: received, accepted, refused, filtered', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    await post(running, '/v1/batch', { batch: [{ type: 'track', userId: 'u', event: 'E' }, { type: 'track', userId: 'u', event: 'F', integrations: { All: false } }] });
    await post(running, '/v1/batch', { batch: [{ type: 'track', userId: 'u' }] });
    const usage = must(running.core.listSourceUsage()).items;
    expect(usage).toEqual([{ sourceId: expect.any(String), name: 'backend', received: 3, accepted: 2, refused: 1, filtered: 1, lastHour: expect.any(Object) }]);
    // The same calls, per minute of engine time over the last hour (the sparkline): 60 minutes ending now.
    const { lastHour } = usage[0]!;
    const now = running.core.clock.now();
    expect(lastHour.minuteMs).toBe(60_000);
    expect(lastHour.from + 60 * 60_000).toBeGreaterThan(now);
    expect(lastHour.from + 59 * 60_000).toBeLessThanOrEqual(now);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect({ received: sum(lastHour.received), accepted: sum(lastHour.accepted), refused: sum(lastHour.refused), filtered: sum(lastHour.filtered) }).toEqual({ received: 3, accepted: 2, refused: 1, filtered: 1 });
    expect(lastHour.received).toHaveLength(60);
    // An hour of engine time later, the sparkline is empty; the totals stay.
    await running.core.advanceClock({ ms: 3_600_000 });
    const later = must(running.core.listSourceUsage()).items[0]!;
    expect(sum(later.lastHour.received)).toBe(0);
    expect(later.received).toBe(3);
  });

  it('a real SDK (@segment/analytics-node) pointed at serve: every call arrives, is routed, forwarded and signed', async () => {
    const rx = await newReceiver(status(200));
    const running = await serve(rx);
    const analytics = new Analytics({ writeKey: WRITE_KEY, host: running.info.url, flushAt: 5, flushInterval: 50 });
    analytics.identify({ userId: 'sdk-user', traits: { name: 'Ada' } });
    analytics.track({ userId: 'sdk-user', event: 'Order Completed', properties: { total: 42 } });
    analytics.page({ userId: 'sdk-user', name: 'Pricing', properties: { path: '/pricing' } });
    analytics.group({ userId: 'sdk-user', groupId: 'acme', traits: { plan: 'team' } });
    analytics.alias({ userId: 'sdk-user', previousId: 'anon-1' });
    await analytics.closeAndFlush({ timeout: 10_000 });
    const stored = messages(running);
    expect(stored.map((m) => m.type).sort()).toEqual(['alias', 'group', 'identify', 'page', 'track']);
    for (const m of stored) expect((await settled(running.core, m.id)).message.status).toBe('delivered');
    const bodies = rx.captured.map((c) => {
      expect(c.headers['x-signature']).toBe(createHmac('sha1', 's3cret').update(c.body).digest('hex'));
      return JSON.parse(c.body.toString()) as Record<string, unknown>;
    });
    expect(bodies.find((b) => b['type'] === 'alias')).toMatchObject({ version: 1, 'Previous ID': 'anon-1', 'User ID': 'sdk-user' });
    expect(bodies.find((b) => b['type'] === 'track')).toMatchObject({ event: 'Order Completed', properties: { total: 42 } });
    expect(bodies.find((b) => b['type'] === 'page')).toMatchObject({ properties: { path: '/pricing' }, name: 'Pricing' });
  });
});

describe('audiences over ingested traits (docs/behaviour.md §8)', () => {
  it('identify traits from SDK traffic feed an audience rule; creating it over the API sends identify <key>: true', async () => {
    const rx = await newReceiver(status(200));
    const running = await serve(rx);
    await post(running, '/v1/batch', {
      batch: [
        { type: 'identify', userId: 'big', traits: { spend: 900, region: 'EU' } },
        { type: 'identify', userId: 'small', traits: { spend: 10, region: 'EU' } },
      ],
    });
    for (const m of messages(running)) await settled(running.core, m.id);
    rx.captured.length = 0;
    const created = await api<{ sync: { sent: number; messageIds: number[] } }>(running, 'createAudience', {
      source: 'backend',
      name: 'Big Spenders (EU) 2026',
      rule: { all: [{ trait: 'spend', op: 'gt', value: 500 }, { trait: 'region', op: 'equals', value: 'EU' }] },
    });
    expect(created.status).toBe(200);
    expect(created.body.value!.sync.sent).toBe(1);
    for (const id of created.body.value!.sync.messageIds) await settled(running.core, id);
    expect(rx.captured.map((c) => JSON.parse(c.body.toString()) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ type: 'identify', userId: 'big', traits: { big_spenders_eu_2026: true } }),
    ]);
  });
});

describe('typed API over HTTP (docs/behaviour.md §10)', () => {
  it('answers commands with the token; 401 without; 404 for an unknown command; 403 for a foreign Host', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const sent = await api<{ message: MessageRecord }>(running, 'sendMessage', { type: 'track', call: { userId: 'u', event: 'From API' }, source: 'backend' });
    expect(sent.status).toBe(200);
    const list = await api<Page<MessageRecord>>(running, 'listMessages', { limit: 10 });
    expect(list.body.value!.items.map((m) => m.event)).toEqual(['From API']);
    expect((await api(running, 'listMessages', {}, 'wrong')).status).toBe(401);
    expect((await api(running, 'nope')).status).toBe(404);
    const invalid = await api(running, 'sendMessage', { type: 'track', call: { userId: 'u' } });
    expect(invalid).toMatchObject({ status: 400, body: { ok: false, error: { code: 'missing_field', field: 'event' } } });
    const missing = await api(running, 'getMessage', { id: 999 });
    expect(missing.status).toBe(404);
    const foreign = await request(`${running.info.url}/api/getClock`, {
      method: 'POST',
      headers: { host: 'evil.example', authorization: `Bearer ${running.info.token}` },
      body: '{}',
    });
    expect(foreign.statusCode).toBe(403);
    await foreign.body.dump();
  });

  it('serves a page at / (with a CSP) to this machine only', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const page = await request(`${running.info.url}/`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // The built UI (dist/renderer) when there is one, else the placeholder that says how to use the APIs.
    expect(await page.body.text()).toContain('<title>Hookbench</title>');
    const foreign = await request(`${running.info.url}/`, { headers: { host: 'rebind.example:80' } });
    expect(foreign.statusCode).toBe(403);
    await foreign.body.dump();
  });

  it('stops while a browser holds a pre-opened connection that never sent a request', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const preconnect = connect(running.info.port, '127.0.0.1');
    await once(preconnect, 'connect');
    const closedByServer = once(preconnect, 'close');
    await running.stop(); // before the fix this waited for the client to hang up (minutes for a browser)
    await closedByServer;
    expect(preconnect.destroyed).toBe(true);
  });

  it('pushes events on the WebSocket, batched', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const ws = await openEventSocket(running.info.url, running.info.token);
    const seen: EngineEvent[] = [];
    const gotDelivery = new Promise<void>((resolve) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { events: EngineEvent[] };
        seen.push(...frame.events);
        if (seen.some((e) => e.type === 'deliveryUpdated' && e.delivery.status === 'delivered')) resolve();
      });
    });
    await post(running, '/v1/track', { userId: 'u', event: 'Live' });
    await gotDelivery;
    expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(['messageAccepted', 'attemptStarted', 'attemptFinished', 'deliveryUpdated']));
    const refused = new WebSocket(`${running.info.url.replace('http', 'ws')}/api/events?token=wrong`);
    await new Promise<void>((resolve) => refused.once('error', () => resolve()));
  });
});
