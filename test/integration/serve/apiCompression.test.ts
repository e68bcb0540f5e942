/**
 * The typed API's answers go out compressed when the client accepts it (brotli first, then gzip) and they are
 * worth it (more than 1 KiB), with the same JSON every way, secrets masked as always; a client that does not
 * say Accept-Encoding gets the plain bytes.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startWorkbench } from '../../../main/server/workbench.js';
import { COMPRESS_ABOVE_BYTES } from '../../../main/server/responses.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

const SECRET = 'whsec_compressed_answers_secret';

async function workbench() {
  const dir = newDataDir();
  const running = await startWorkbench({ dataDir: dir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0, uiDir: null });
  onCleanup(() => running.stop());
  return running;
}

/** POST /api/<command> with the raw answer: undici's request decodes nothing by itself. */
async function call(running: Awaited<ReturnType<typeof workbench>>, command: string, input: unknown, acceptEncoding?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${running.info.token}`, 'content-type': 'application/json' };
  if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
  const res = await request(`${running.info.url}/api/${command}`, { method: 'POST', headers, body: JSON.stringify(input) });
  const raw = Buffer.from(await res.body.arrayBuffer());
  const encoding = res.headers['content-encoding'];
  const text = (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
  return { status: res.statusCode, headers: res.headers, bytes: raw.length, text };
}

describe('the typed API over HTTP', () => {
  it('gzip when the client accepts gzip, brotli when it accepts br, the plain bytes without Accept-Encoding: the same JSON every way', async () => {
    const running = await workbench();
    const destination = await call(running, 'createDestination', { name: 'billing', enabled: true, url: 'http://127.0.0.1:9/hook', sharedSecret: SECRET });
    expect(destination.status).toBe(200);
    for (let i = 0; i < 20; i++) {
      expect((await call(running, 'sendMessage', { type: 'track', call: { userId: `u${i}`, event: 'Compressed', properties: { i } } })).status).toBe(200);
    }
    const input = { limit: 20 };
    const plain = await call(running, 'listMessages', input);
    const gzip = await call(running, 'listMessages', input, 'gzip');
    const br = await call(running, 'listMessages', input, 'gzip, deflate, br');
    expect(plain.bytes).toBeGreaterThan(COMPRESS_ABOVE_BYTES);
    expect([plain.headers['content-encoding'], gzip.headers['content-encoding'], br.headers['content-encoding']]).toEqual([undefined, 'gzip', 'br']);
    for (const answer of [plain, gzip, br]) {
      expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8', vary: 'accept-encoding', 'cache-control': 'no-store' } });
      expect(Number(answer.headers['content-length'])).toBe(answer.bytes);
    }
    expect(JSON.parse(gzip.text)).toEqual(JSON.parse(plain.text));
    expect(br.text).toBe(plain.text);
    expect(gzip.bytes).toBeLessThan(plain.bytes / 3);
    const listed = JSON.parse(plain.text) as { ok: true; value: { items: { event: string }[] } };
    expect(listed.value.items).toHaveLength(20);
    expect(listed.value.items.every((m) => m.event === 'Compressed')).toBe(true);

    // Masking is the same whatever the encoding: the secret never goes out, compressed or not.
    const destinations = await call(running, 'listDestinations', {}, 'gzip');
    expect(destinations.text).not.toContain(SECRET);
    expect(destinations.text).toBe((await call(running, 'listDestinations', {})).text);
  });

  it('small answers, errors and a refused encoding go out as they are', async () => {
    const running = await workbench();
    const clock = await call(running, 'getClock', {}, 'gzip, br');
    expect(clock.bytes).toBeLessThanOrEqual(COMPRESS_ABOVE_BYTES);
    expect(clock.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(clock.text)).toMatchObject({ ok: true });
    for (let i = 0; i < 20; i++) await call(running, 'sendMessage', { type: 'track', call: { userId: `u${i}`, event: 'Plain' } });
    const refused = await call(running, 'listMessages', { limit: 20 }, 'br;q=0, gzip;q=0');
    expect(refused.bytes).toBeGreaterThan(COMPRESS_ABOVE_BYTES);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.text)).toMatchObject({ ok: true });
    const invalid = await call(running, 'listMessages', { limit: 'many' }, 'gzip');
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.text)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
