/**
 * The UI's files go out pre-compressed when the browser accepts it (brotli first, then gzip), with the exact
 * bytes of the build, and hashed assets are cached for good while index.html is always revalidated.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { acceptsEncoding } from '../../../main/server/httpServer.js';
import { startWorkbench } from '../../../main/server/workbench.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

async function workbenchWithUi() {
  const dir = newDataDir();
  const ui = join(dir, 'ui');
  mkdirSync(join(ui, 'assets'), { recursive: true });
  const html = '<!doctype html><title>app</title><script src="./assets/index-AbC123.js"></script>';
  const js = `console.log(${JSON.stringify('x'.repeat(5000))});`;
  for (const [name, text] of [['index.html', html], ['assets/index-AbC123.js', js]] as const) {
    writeFileSync(join(ui, name), text);
    writeFileSync(join(ui, `${name}.gz`), gzipSync(text));
    writeFileSync(join(ui, `${name}.br`), brotliCompressSync(text));
  }
  const running = await startWorkbench({ dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0, uiDir: ui });
  onCleanup(() => running.stop());
  return { running, html, js };
}

async function get(url: string, acceptEncoding?: string) {
  const res = await request(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
  const raw = Buffer.from(await res.body.arrayBuffer());
  const encoding = res.headers['content-encoding'];
  const text = (encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
  return { status: res.statusCode, headers: res.headers, bytes: raw.length, text };
}

describe('the UI files', () => {
  it('brotli when accepted, else gzip, else the plain file; the same text every way; Vary says why', async () => {
    const { running, js } = await workbenchWithUi();
    const url = `${running.info.url}/assets/index-AbC123.js`;
    const br = await get(url, 'gzip, deflate, br');
    const gz = await get(url, 'gzip');
    const plain = await get(url);
    const refused = await get(url, 'br;q=0, gzip;q=0');
    expect([br.headers['content-encoding'], gz.headers['content-encoding'], plain.headers['content-encoding'], refused.headers['content-encoding']]).toEqual(['br', 'gzip', undefined, undefined]);
    for (const answer of [br, gz, plain, refused]) {
      expect(answer).toMatchObject({ status: 200, text: js, headers: { vary: 'accept-encoding', 'content-type': 'text/javascript; charset=utf-8' } });
    }
    expect(br.bytes).toBeLessThan(plain.bytes / 10);
  });

  it('hashed assets are immutable for a year; index.html (and a client-side route that falls back to it) is revalidated', async () => {
    const { running, html } = await workbenchWithUi();
    expect((await get(`${running.info.url}/assets/index-AbC123.js`, 'br')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await get(`${running.info.url}/`, 'br');
    expect(index).toMatchObject({ text: html, headers: { 'cache-control': 'no-cache', 'content-encoding': 'br' } });
    expect(await get(`${running.info.url}/live/42`, 'gzip')).toMatchObject({ status: 200, text: html, headers: { 'cache-control': 'no-cache', 'content-encoding': 'gzip' } });
  });

  it('reads Accept-Encoding as HTTP says: names, wildcards and q=0', () => {
    expect(acceptsEncoding('gzip, deflate, br', 'br')).toBe(true);
    expect(acceptsEncoding('gzip;q=1.0, br;q=0', 'br')).toBe(false);
    expect(acceptsEncoding('*', 'gzip')).toBe(true);
    expect(acceptsEncoding('identity', 'gzip')).toBe(false);
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
    expect(acceptsEncoding('GZIP', 'gzip')).toBe(true);
  });
});
