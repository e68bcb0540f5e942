/**
 * The desktop window's way in: the same build loaded from file:// (base './'), talking through a
 * `window.hookbench` bridge instead of HTTP. Here the bridge is a stand-in that forwards to a real serve
 * (the preload and IPC have their own tests in the desktop suite).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import WebSocket from 'ws';
import { CHROMIUM, chromiumMissing } from './browser.js';
import { ROOT, startServe, type RunningServe } from './serve.js';

/** The bridge's shape, in the page; events arrive through `__hookbenchEmit`. */
const BRIDGE = `
  const listeners = new Set();
  window.__hookbenchEmit = (batch) => listeners.forEach((l) => l(batch));
  window.hookbench = {
    call: (name, input) => window.__hookbenchCall(name, input),
    onEvents: (listener) => { listeners.add(listener); return () => listeners.delete(listener); },
    openFile: async () => null,
    saveFile: async () => null,
    revealDataDir: async () => {},
    openExternal: async () => {},
  };
`;

describe.skipIf(chromiumMissing)('the UI from file:// over the desktop bridge', () => {
  let browser: Browser;
  let serve: RunningServe;
  let events: WebSocket;
  beforeAll(async () => {
    // file:// pages may load their own module scripts, as Electron's file protocol allows.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'] });
    serve = await startServe({ receivers: [{ name: 'inbox', script: 200 }], destinations: [{ name: 'Inbox', enabled: true, url: 'receiver:inbox' }] });
  });
  afterAll(async () => {
    events?.close();
    await browser?.close();
    await serve?.stop();
  });

  it('calls commands and receives events through window.hookbench', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => {
      throw e;
    });
    await page.exposeFunction('__hookbenchCall', async (name: string, input: unknown) => {
      const res = await fetch(`${serve.info.url}/api/${name}`, { method: 'POST', headers: { authorization: `Bearer ${serve.info.token}`, 'content-type': 'application/json' }, body: JSON.stringify(input ?? {}) });
      return res.json();
    });
    await page.addInitScript(BRIDGE);
    events = new WebSocket(`${serve.info.url.replace('http', 'ws')}/api/events?token=${serve.info.token}`);
    // A batch that arrives once the page is closing has no page left to reach: dropped, not an unhandled rejection.
    events.on('message', (data) => {
      if (page.isClosed()) return;
      page.evaluate((batch) => (globalThis as unknown as { __hookbenchEmit(b: unknown): void }).__hookbenchEmit(batch), JSON.parse(String(data)) as unknown).catch(() => undefined);
    });
    await new Promise((resolve) => events.once('open', resolve));

    await page.goto(`${pathToFileURL(join(ROOT, 'dist', 'renderer', 'index.html')).href}#/live`);
    await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
    await page.getByText('No messages yet').waitFor();
    await serve.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'Desktop Order' } });
    await page.getByRole('row').filter({ hasText: 'Desktop Order' }).getByText('delivered', { exact: true }).waitFor();
    await context.close();
  });
});
