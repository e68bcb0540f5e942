/**
 * An attempt's record holds the request headers exactly as the socket carried them: every header (host,
 * connection and content-length included), spelled and ordered as on the wire (docs/behaviour.md §2).
 * Proved against a raw TCP server that keeps the bytes it received, from the forwarder's own thread and
 * from the engine's.
 */
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { must, newCore, onCleanup, settled } from '../../helpers/harness.js';

/** A raw HTTP/1.1 server: each request's header lines as received, then a 200 on the same connection. */
async function rawServer(): Promise<{ port: number; requests: [string, string][][] }> {
  const requests: [string, string][][] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buffered.subarray(0, end).toString('latin1').split('\r\n').slice(1);
        const headers = lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]);
        const length = Number(headers.find(([n]) => n.toLowerCase() === 'content-length')?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.subarray(end + 4 + length);
        requests.push(headers);
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      }
    });
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, requests };
}

describe('request headers as the socket carried them', () => {
  it.each(['worker', 'inline'] as const)('the record equals what a raw TCP server received, names and order (%s forwarder)', async (forwarder) => {
    const raw = await rawServer();
    const core = newCore({ forwarder });
    must(
      core.createDestination({
        name: 'raw',
        enabled: true,
        sharedSecret: 's3cret',
        webhooks: [{ url: `http://ada:pw@127.0.0.1:${raw.port}/hook?x=1`, headers: { 'X-Env': 'dev', 'x-trace': 'abc' } }],
      }),
    );
    for (const event of ['First', 'Second on the same connection']) {
      const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event }, destinations: ['raw'] })).message.id;
      const detail = await settled(core, id);
      expect(detail.message.status).toBe('delivered');
      const [attempt] = detail.attempts;
      const received = raw.requests.at(-1)!;
      expect(Object.entries(attempt!.requestHeaders)).toEqual(received);
      expect(received.map(([name]) => name)).toEqual(['host', 'connection', 'content-type', 'user-agent', 'x-signature', 'authorization', 'X-Env', 'x-trace', 'content-length']);
      expect(attempt!.requestHeaders['content-length']).toBe(String(Buffer.byteLength(detail.message.body)));
      expect(attempt!.requestHeaders['host']).toBe(`127.0.0.1:${raw.port}`);
    }
    expect(raw.requests).toHaveLength(2);
  });
});
