/**
 * Nothing is silently lost at the door of `hookbench serve` (docs/behaviour.md §7): a POST to a path that is
 * not a route answers a JSON 404 naming the route meant (only GETs serve the UI), and requests refused for
 * their write key are said in serve's log (once per key, then a count) and shown by `hookbench tail`.
 */
import { join } from 'node:path';
import { Analytics } from '@segment/analytics-node';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { secretFingerprint } from '../../../main/domain/secrets.js';
import type { Page } from '../../../main/contract/messages.js';
import type { IngestRefusal } from '../../../main/contract/sources.js';
import { runCli } from '../../../main/cli/program.js';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import type { RefusalReportOptions } from '../../../main/cli/refusalReport.js';
import { captureIO } from '../../helpers/cliIO.js';
import { must, newDataDir, onCleanup } from '../../helpers/harness.js';

async function serve(io = captureIO(), report: RefusalReportOptions = {}): Promise<RunningServe> {
  const running = await startServe({ dataDir: join(newDataDir(), 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, io.io, report);
  onCleanup(() => running.stop());
  return running;
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

async function send(running: RunningServe, method: string, path: string, body?: unknown) {
  const res = await request(`${running.info.url}${path}`, {
    method: method as 'POST',
    headers: { 'content-type': 'application/json', authorization: basic('wk_whatever') },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), text };
}

describe('serve: a request to a path that is not a route', () => {
  it('POST /batch, /track, /v2/track answer a JSON 404 naming the /v1 route; GETs of UI paths still serve the UI', async () => {
    const running = await serve();
    const batch = { batch: [{ type: 'track', userId: 'u1', event: 'Lost' }] };
    for (const [path, meant] of [
      ['/batch', '/v1/batch'],
      ['/track', '/v1/track'],
      ['/v2/track', '/v1/track'],
      ['/v1', '/v1/batch'],
    ] as const) {
      const r = await send(running, 'POST', path, batch);
      expect(r.status, path).toBe(404);
      expect(r.type, path).toContain('application/json');
      expect(JSON.parse(r.text), path).toEqual({ error: { code: 'not_found', message: `POST ${path}: not a route of Hookbench; did you mean ${meant}? Ingestion is under /v1/, the typed API under /api/<command>.` } });
    }
    const other = await send(running, 'PUT', '/settings', {});
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text).error.message).toBe('PUT /settings: not a route of Hookbench. Ingestion is under /v1/ (e.g. /v1/batch), the typed API under /api/<command>; only GET serves the UI.');
    // Nothing of them was stored as a message; the SDK-looking POSTs are in the ingest log.
    expect(must(running.core.listMessages({})).items).toHaveLength(0);
    const log = must(running.core.listIngestLog({})) as Page<IngestRefusal>;
    expect(log.items.map((r) => [r.route, r.httpStatus, r.code])).toEqual([
      ['/v1', 404, 'not_found'],
      ['/v2/track', 404, 'not_found'],
      ['/track', 404, 'not_found'],
      ['/batch', 404, 'not_found'],
    ]);

    for (const path of ['/', '/batch', '/destinations']) {
      const r = await send(running, 'GET', path);
      expect(r.status, path).toBe(200);
      expect(r.type, path).toContain('text/html');
    }
  });
});

describe('serve: a POST to a misspelt /v1/ route', () => {
  it("answers 404 with the route meant (a swapped pair of letters too) and is kept in the ingest log as its write key's source's, and said in serve's log", async () => {
    const io = captureIO();
    const running = await serve(io);
    const source = must(running.core.createSource({ name: 'Backend', kind: 'server', writeKey: 'wk_whatever' }));
    const r = await send(running, 'POST', '/v1/bacth', { batch: [{ type: 'track', userId: 'u1', event: 'Lost' }] });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text)).toEqual({ error: { code: 'not_found', message: 'no ingestion route /v1/bacth (did you mean /v1/batch?); use /v1/batch, /v1/import, /v1/<type> or /v1/{i,t,p,s,g,a,b}' } });
    const log = must(running.core.listIngestLog({})) as Page<IngestRefusal>;
    expect(log.items.map((l) => [l.route, l.httpStatus, l.code, l.sourceId])).toEqual([['/v1/bacth', 404, 'not_found', source.id]]);
    expect(io.err()).toContain('refused a request to /v1/bacth from 127.0.0.1 (HTTP 404): no ingestion route /v1/bacth (did you mean /v1/batch?)');
    // A GET (a browser poking at the API) is answered alike, and not logged.
    expect((await send(running, 'GET', '/v1/bacth')).status).toBe(404);
    expect(must(running.core.listIngestLog({})).items).toHaveLength(1);
  });
});

describe('serve: a doubled leading slash (an SDK host configured with a trailing slash)', () => {
  it('POST //v1/track and //v1/batch are ingested like /v1/track and /v1/batch; a 404 names the path as sent', async () => {
    const running = await serve();
    const source = must(running.core.createSource({ name: 'web', kind: 'server' }));
    for (const [path, body] of [
      ['//v1/track', { userId: 'u1', event: 'Doubled' }],
      ['///v1/batch', { batch: [{ type: 'track', userId: 'u1', event: 'Tripled' }] }],
    ] as const) {
      const res = await request(`${running.info.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic(source.writeKey) }, body: JSON.stringify(body) });
      expect(res.statusCode, path).toBe(200);
      expect(await res.body.json(), path).toEqual({ success: true });
    }
    expect(must(running.core.listMessages({})).items.map((m) => m.event).sort()).toEqual(['Doubled', 'Tripled']);

    const wrong = await send(running, 'POST', '//track', { userId: 'u1', event: 'Lost' });
    expect(wrong.status).toBe(404);
    expect(JSON.parse(wrong.text).error.message).toBe('POST //track: not a route of Hookbench; did you mean /v1/track? Ingestion is under /v1/, the typed API under /api/<command>.');
    expect(must(running.core.listIngestLog({})).items[0]).toMatchObject({ route: '//track', httpStatus: 404, code: 'not_found' });
  });
});

describe('serve: requests with an unknown write key', () => {
  it("a real SDK's calls with an unknown key: one line in serve's log naming the masked key, then a count of the repeats", async () => {
    const io = captureIO();
    let summary: (() => void) | null = null;
    const running = await serve(io, { schedule: (fn) => ((summary = fn), () => (summary = null)) });
    const errors: unknown[] = [];
    const analytics = new Analytics({ writeKey: 'wk_not_a_source_key', host: running.info.url, flushAt: 1, maxRetries: 0 });
    analytics.on('error', (e) => errors.push(e));
    for (let i = 0; i < 3; i++) analytics.track({ userId: 'sdk-user', event: `Call ${i}` });
    await analytics.closeAndFlush({ timeout: 10_000 });
    expect(must(running.core.listMessages({})).items).toHaveLength(0);
    expect(must(running.core.listIngestLog({})).items).toHaveLength(3);

    const lines = () => io.err().split('\n').filter((l) => l.includes('refused'));
    expect(lines()).toEqual([
      `hookbench serve: refused a request to /v1/batch from 127.0.0.1 (HTTP 401): unknown write key "wk_…ey"; nothing of it was kept; give the SDK the write key of one of your sources (Sources in the UI). Repeats are counted, not printed.`,
    ]);
    expect(summary).not.toBeNull();
    summary!();
    expect(lines().slice(1)).toEqual(['hookbench serve: refused 2 more requests: unknown write key "wk_…ey"']);
    expect(io.err()).not.toContain('wk_not_a_source_key');
  });

  it('two short unknown keys (nothing of them shown) are told apart by their length and fingerprint, each with its own line', async () => {
    const io = captureIO();
    const running = await serve(io);
    for (const key of ['wrong', 'bad']) {
      const res = await fetch(`${running.info.url}/v1/track`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' }, body: '{"userId":"u1","event":"x"}' });
      expect(res.status).toBe(401);
    }
    const lines = io.err().split('\n').filter((l) => l.includes('refused'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`unknown write key "***" (5 characters, fingerprint ${secretFingerprint('wrong')})`);
    expect(lines[1]).toContain(`unknown write key "***" (3 characters, fingerprint ${secretFingerprint('bad')})`);
  });

  it("a source's key sent as Basic auth's password or as a Bearer token: 401 saying where the key was and whose it is, in that source's ingest log", async () => {
    const running = await serve();
    const source = must(running.core.createSource({ name: 'Backend', kind: 'server', writeKey: 'wk_backend_key' }));
    const body = '{"userId":"u1","event":"x"}';
    const post = async (authorization: string) => {
      const res = await request(`${running.info.url}/v1/track`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });
      return { status: res.statusCode, error: ((await res.body.json()) as { error: { message: string } }).error };
    };
    const asPassword = await post(`Basic ${Buffer.from(':wk_backend_key').toString('base64')}`);
    expect(asPassword.status).toBe(401);
    expect(asPassword.error.message).toBe(
      'missing write key: the request has Basic auth with an empty user name and the key as its password (the write key of source "Backend"); send Basic auth with the write key as the user name and an empty password, or "writeKey" in the body',
    );
    const bearer = await post('Bearer wk_backend_key');
    expect(bearer.error.message).toMatch(/^missing write key: the request has "Authorization: Bearer …", which ingestion does not read \(the write key of source "Backend"\); send Basic auth/);
    const stranger = await post('Bearer not_a_key');
    expect(stranger.error.message).toMatch(/^missing write key: the request has "Authorization: Bearer …", which ingestion does not read; send Basic auth/);
    const log = must(running.core.listIngestLog({})).items;
    expect(log.map((r) => r.sourceId)).toEqual([null, source.id, source.id]);
    expect(JSON.stringify(log)).not.toContain('wk_backend_key');
  });

  it('hookbench tail shows refused requests as they happen', async () => {
    const running = await serve();
    const tail = captureIO();
    const run = runCli(['tail', '--data-dir', running.dataDir], tail.io, { tail: { retryMs: { min: 10, max: 50 }, timeZone: 'UTC' } });
    onCleanup(async () => {
      tail.abort();
      await run;
    });
    await tail.waitForErr('tailing Hookbench at');
    const r = await request(`${running.info.url}/v1/batch`, { method: 'POST', headers: { authorization: basic('wk_unknown_key') }, body: JSON.stringify({ batch: [{ type: 'track', userId: 'u', event: 'E' }] }) });
    await r.body.dump();
    expect(r.statusCode).toBe(401);
    await send(running, 'POST', '/batch', {});
    await tail.waitForOut('not_found');
    const lines = tail.out().split('\n').filter((l) => l.includes('request refused'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^[\d:.]{12}  request refused +← \/v1\/batch +HTTP 401 unauthorized: unknown write key "wk_…ey"  from 127\.0\.0\.1$/);
    expect(lines[1]).toMatch(/^[\d:.]{12}  request refused +← \/batch +HTTP 404 not_found: POST \/batch: not a route of Hookbench; did you mean \/v1\/batch\?/);
  });
});
