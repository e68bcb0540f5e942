import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CONNECTIONS_PER_ORIGIN, Dispatchers, prepareRequest, sendToWebhook } from '../../../main/delivery/webhookRequests.js';
import { onCleanup } from '../../helpers/harness.js';

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(async () => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const send = (dispatchers: Dispatchers, url: string) =>
  sendToWebhook({
    request: prepareRequest({ url, headers: {} }, null, Buffer.from('{"type":"track"}')),
    body: Buffer.from('{"type":"track"}'),
    timeoutMs: 5000,
    dispatcher: dispatchers.for({ caFile: null }),
    gate: dispatchers.gate,
    realNow: Date.now,
  });

describe('connections and proxies (docs/behaviour.md §2)', () => {
  it('at most 16 requests in flight to one origin; the rest wait their turn and are all delivered', async () => {
    let open = 0;
    let peak = 0;
    const held: ServerResponse[] = [];
    let release: () => void = () => undefined;
    const reachedPeak = new Promise<void>((resolve) => (release = resolve));
    const base = await listen((req, res) => {
      req.resume();
      open++;
      peak = Math.max(peak, open);
      res.on('finish', () => open--);
      held.push(res);
      if (open === CONNECTIONS_PER_ORIGIN) release();
    });
    const dispatchers = new Dispatchers(undefined, {});
    onCleanup(() => dispatchers.close());
    const all = Promise.all(Array.from({ length: 40 }, () => send(dispatchers, `${base}/hook`)));
    await reachedPeak;
    // Let any request beyond the limit arrive, if the limit did not hold.
    await new Promise((resolve) => setImmediate(resolve));
    expect(open).toBe(16);
    const drain = setInterval(() => held.splice(0).forEach((r) => r.end('ok')), 5);
    const results = await all;
    clearInterval(drain);
    expect(results.every((r) => r.outcome === 'success')).toBe(true);
    expect(peak).toBe(CONNECTIONS_PER_ORIGIN);
  });

  it('HTTP_PROXY is honoured; NO_PROXY bypasses it', async () => {
    const proxied: string[] = [];
    const proxy = await listen((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.end('via proxy'));
    });
    const direct: string[] = [];
    const target = await listen((req, res) => {
      direct.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.end('direct'));
    });

    const viaProxy = new Dispatchers(undefined, { HTTP_PROXY: proxy });
    onCleanup(() => viaProxy.close());
    const r1 = await send(viaProxy, 'http://webhooks.example.test/hook');
    expect(r1).toMatchObject({ outcome: 'success', responseBody: 'via proxy' });
    expect(proxied).toEqual(['POST http://webhooks.example.test/hook']);

    const bypass = new Dispatchers(undefined, { HTTP_PROXY: proxy, NO_PROXY: '127.0.0.1' });
    onCleanup(() => bypass.close());
    const r2 = await send(bypass, `${target}/hook`);
    expect(r2).toMatchObject({ outcome: 'success', responseBody: 'direct' });
    expect(direct).toEqual(['POST /hook']);
    expect(proxied).toHaveLength(1);
  });
});
