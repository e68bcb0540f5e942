/**
 * What a broken or hostile endpoint does to an attempt, each
 * classified as docs/behaviour.md §3 says (outcome names), and never holding up other deliveries. Each endpoint
 * is a raw TCP server, so that it can misbehave in ways an HTTP server library would not allow.
 * (Refused connections, resets before any response, redirects, 5xx and the 5 s timeout are in
 * engine/outcomes.test.ts.)
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { must, newCoreWithDestination, newReceiver, onCleanup, sendTrack, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

const fastRetry = { schedule: [60_000], windowMs: 3_600_000, jitter: 0 };

/** A TCP server that hands each connection to `onRequest` once the request's head and body have arrived. */
async function rawEndpoint(onRequest: (socket: Socket) => void, options: { readRequest?: boolean } = {}): Promise<{ url: string; sockets: Set<Socket>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (options.readRequest === false) return; // accepts the connection, reads nothing, says nothing
    let seen = '';
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      const head = seen.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(seen)?.[1] ?? 0);
      if (head >= 0 && seen.length >= head + 4 + length) {
        seen = '';
        onRequest(socket);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= (async () => {
      server.close();
      for (const s of sockets) s.destroy();
      await once(server, 'close').catch(() => undefined);
    })());
  onCleanup(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, sockets, close };
}

/** Writes `chunk` every `everyMs` until the socket closes. */
function drip(socket: Socket, chunk: string, everyMs: number): void {
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(chunk);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

describe('network faults at the webhook (docs/behaviour.md §2, §3)', () => {
  it('reset in the middle of a 200 response body: the status stands (success), the body is kept cut short', async () => {
    const endpoint = await rawEndpoint((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\npartial body');
      setImmediate(() => socket.resetAndDestroy());
    });
    const core = newCoreWithDestination({ url: endpoint.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'success', statusCode: 200, responseTruncated: true });
    expect(detail.attempts[0]!.responseBody).toMatch(/^partial body/);
  });

  it('reset in the middle of a 503 response body: http_error, retried', async () => {
    const endpoint = await rawEndpoint((socket) => {
      socket.write('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 1000\r\n\r\nbusy');
      setImmediate(() => socket.resetAndDestroy());
    });
    const core = newCoreWithDestination({ url: endpoint.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('retrying');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'http_error', statusCode: 503, retryable: true });
  });

  it('a hung socket (connection accepted, request never read, nothing answered): timeout at the destination\'s timeoutMs, retried', async () => {
    const endpoint = await rawEndpoint(() => undefined, { readRequest: false });
    const core = newCoreWithDestination({ url: endpoint.url, timeoutMs: 300, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('retrying');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'timeout', retryable: true, statusCode: null });
    expect(detail.attempts[0]!.durationMs).toBeGreaterThanOrEqual(295);
  });

  it('half-open: the request is read, then the endpoint closes its side without answering: network_error, retried', async () => {
    const endpoint = await rawEndpoint((socket) => socket.end());
    const core = newCoreWithDestination({ url: endpoint.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('retrying');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'network_error', retryable: true, statusCode: null });
  });

  it('slow headers (a header line dripped every 50 ms, never finished): timeout', async () => {
    const endpoint = await rawEndpoint((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n');
      drip(socket, 'x-slow: 1\r\n', 50);
    });
    const core = newCoreWithDestination({ url: endpoint.url, timeoutMs: 400, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.attempts[0]).toMatchObject({ outcome: 'timeout', retryable: true });
  });

  it('slow body (headers at once, then a byte every 50 ms, forever): success; the body is cut off after its own timeout, not waited for', async () => {
    const endpoint = await rawEndpoint((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
      drip(socket, '1\r\n.\r\n', 50);
    });
    const core = newCoreWithDestination({ url: endpoint.url, timeoutMs: 400, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'success', statusCode: 200, responseTruncated: true });
    expect(detail.attempts[0]!.responseBody).toMatch(/^\.+$/);
  });

  it('a huge response (64 MB): success, the first 64 KiB kept, responseTruncated', async () => {
    const endpoint = await rawEndpoint((socket) => {
      const total = 64 * 1024 * 1024;
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${total}\r\n\r\n`);
      const block = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const more = () => {
        while (sent < total && !socket.destroyed) {
          sent += block.length;
          if (!socket.write(block)) return void socket.once('drain', more);
        }
      };
      more();
    });
    const core = newCoreWithDestination({ url: endpoint.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'success', responseTruncated: true });
    expect(detail.attempts[0]!.responseBody).toHaveLength(65_536);
  });

  it('an endless response body: the attempt ends once 64 KiB are kept, and the exchange is closed, not read to the end', async () => {
    let written = 0;
    let closedAfter: number | null = null;
    const endpoint = await rawEndpoint((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
      const block = Buffer.alloc(1024 * 1024, 0x62);
      const frame = Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from('\r\n')]);
      socket.once('close', () => (closedAfter = written));
      const more = () => {
        while (!socket.destroyed) {
          written += block.length;
          if (!socket.write(frame)) return void socket.once('drain', more);
        }
      };
      more();
    });
    const core = newCoreWithDestination({ url: endpoint.url, retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.attempts[0]).toMatchObject({ outcome: 'success', statusCode: 200, responseTruncated: true });
    expect(detail.attempts[0]!.responseBody).toHaveLength(65_536);
    await vi.waitFor(() => expect(closedAfter).not.toBeNull());
    // What the kernel buffers on both sides before the client stops reading, not the stream's end (there is none).
    expect(closedAfter!).toBeLessThan(64 * 1024 * 1024);
  });

  it('a TLS handshake that fails (the endpoint answers https with plain bytes): network_error, retried; nothing of the body is sent in clear', async () => {
    const received: Buffer[] = [];
    const plain = await rawEndpointAnswering('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n', received);
    const core = newCoreWithDestination({ url: plain.replace('http://', 'https://'), retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd', { properties: { marker: 'SECRET-BODY-MARKER' } }));
    expect(detail.message.status).toBe('retrying');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'network_error', retryable: true, statusCode: null });
    expect(received.length).toBeGreaterThan(0); // the ClientHello arrived
    expect(Buffer.concat(received).toString('latin1')).not.toContain('SECRET-BODY-MARKER');
  });

  it('a TLS endpoint that resets during the handshake: network_error, retried', async () => {
    const server = await rawResetter();
    const core = newCoreWithDestination({ url: server.replace('http://', 'https://'), retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.attempts[0]).toMatchObject({ outcome: 'network_error', retryable: true });
    expect(detail.attempts[0]!.error).toMatch(/ECONNRESET|socket/i);
  });

  it('a host name that does not resolve (DNS failure): network_error naming ENOTFOUND, retried', async () => {
    const core = newCoreWithDestination({ url: 'http://hookbench-test.invalid/hook', retry: fastRetry });
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('retrying');
    expect(detail.attempts[0]).toMatchObject({ outcome: 'network_error', retryable: true });
    expect(detail.attempts[0]!.error).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it('hung endpoints never hold up other destinations: 40 rounds stuck on one, another is delivered while they all still hang', async () => {
    const hung = await rawEndpoint(() => undefined, { readRequest: false });
    const fast = await newReceiver(status(200));
    // A timeout far beyond the test's life: if delivering `fast` waited on the hung rounds, it would never happen.
    const core = newCoreWithDestination({ url: hung.url, timeoutMs: 120_000, retry: fastRetry });
    must(core.createDestination({ name: 'fast', enabled: true, url: fast.url }));
    onCleanup(() => hung.close()); // before the core closes (cleanups run last first): its rounds end at once
    const hungId = core.findDestination('d')!.id;
    const fastId = core.findDestination('fast')!.id;
    let hungFinished = 0;
    const hungStarted = new Set<number>();
    const allHung = new Promise<void>((resolve) => {
      const off = core.onEvent((e) => {
        if (e.type === 'attemptStarted' && e.destinationId === hungId) hungStarted.add(e.deliveryId);
        if (hungStarted.size === 40) {
          off();
          resolve();
        }
      });
    });
    const offFinished = core.onEvent((e) => {
      if (e.type === 'attemptFinished' && hungStarted.has(e.attempt.deliveryId)) hungFinished++;
    });
    onCleanup(offFinished);
    for (let i = 0; i < 40; i++) sendTrack(core, 'd');
    await allHung;
    // Not settled(): that waits for the engine to be idle, i.e. for the hung rounds too.
    const delivered = new Promise<void>((resolve) => {
      const off = core.onEvent((e) => {
        if (e.type === 'deliveryUpdated' && e.delivery.destinationId === fastId && e.delivery.status === 'delivered') {
          off();
          resolve();
        }
      });
    });
    sendTrack(core, 'fast');
    await delivered;
    expect(hungFinished).toBe(0);
    expect(hung.sockets.size).toBeGreaterThan(0);
    expect(fast.captured).toHaveLength(1);
  });
});

/** A plain HTTP endpoint (answers `answer` to whatever arrives); collects what it received. */
async function rawEndpointAnswering(answer: string, received: Buffer[]): Promise<string> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (c: Buffer) => {
      received.push(c);
      socket.end(answer);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => void server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/** Resets every connection as soon as its first bytes (a TLS ClientHello) arrive. */
async function rawResetter(): Promise<string> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.resetAndDestroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onCleanup(() => void server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}
