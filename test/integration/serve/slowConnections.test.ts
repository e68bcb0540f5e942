/**
 * Slow clients cannot take the server down: connections that send their headers slowly (or never) are cut after
 * the headers timeout, a body that does not arrive is cut at the request timeout, and at the connection cap a
 * new connection takes the place of the oldest one that carries no request, so the UI and the typed API stay
 * reachable. The limits are lowered here so that the test costs seconds.
 */
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { startServer, type RunningServer } from '../../../main/server/httpServer.js';
import type { Core } from '../../../main/app/createCore.js';
import { must, newCore, onCleanup } from '../../helpers/harness.js';

async function serveCore(connectionLimits: { max: number; headersTimeoutMs?: number; requestTimeoutMs?: number }): Promise<RunningServer & { core: Core }> {
  const core = newCore({ autoStart: false });
  const server = await startServer({ core, host: '127.0.0.1', port: 0, token: () => 'tok', handlers: createCommandHandlers(core), uiDir: null, connectionLimits });
  onCleanup(() => server.close());
  return Object.assign(server, { core });
}

/** A connection that sends the start of a request and then nothing: what a slow-header attack holds open. */
function slowHeaders(server: RunningServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write('POST /v1/batch HTTP/1.1\r\nHost: x\r\n');
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
    onCleanup(() => void socket.destroy());
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('slow connections', () => {
  it('with every slot held by slow headers, the typed API still answers: the oldest slow one makes room', async () => {
    const server = await serveCore({ max: 20 });
    const slow = await Promise.all(Array.from({ length: 20 }, () => slowHeaders(server)));
    await expect.poll(() => server.connectionStats()).toEqual({ open: 20, busy: 0 });
    const answer = await request(`${server.url}/api/getClock`, { method: 'POST', headers: { authorization: 'Bearer tok', 'content-type': 'application/json' }, body: '{}' });
    expect(answer.statusCode).toBe(200);
    expect(((await answer.body.json()) as { ok: boolean }).ok).toBe(true);
    // One of the slow ones was let go for it: the oldest.
    await closed(slow[0]!);
  });

  it('headers that do not arrive within the headers timeout are cut', async () => {
    const server = await serveCore({ max: 20, headersTimeoutMs: 1000 });
    const socket = await slowHeaders(server);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.once('close', () => resolve(text));
    });
    expect(await answer).toMatch(/^HTTP\/1\.1 408[\s\S]*the request line and headers did not arrive within 1 s/);
    expect(must(server.core.listIngestLog({})).items.map((r) => [r.httpStatus, r.message])).toEqual([[408, 'the request line and headers did not arrive within 1 s']]);
  });

  it('a connection that sends nothing (a browser opens some ahead of its requests) is closed at the headers timeout, and no refusal is logged', async () => {
    const server = await serveCore({ max: 20, headersTimeoutMs: 1000 });
    const socket = await new Promise<Socket>((resolve) => {
      const s = connect(server.port, '127.0.0.1', () => resolve(s));
      s.on('error', () => undefined);
      onCleanup(() => void s.destroy());
    });
    let answered = '';
    socket.on('data', (d) => (answered += String(d)));
    await closed(socket);
    expect(answered).toBe('');
    expect(must(server.core.listIngestLog({})).items).toEqual([]);
  });

  it('a body that does not arrive within the request timeout is cut', async () => {
    const server = await serveCore({ max: 20, headersTimeoutMs: 1000, requestTimeoutMs: 1500 });
    const socket = await new Promise<Socket>((resolve) => {
      const s = connect(server.port, '127.0.0.1', () => {
        s.write('POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"batch":');
        resolve(s);
      });
      s.on('error', () => undefined);
      onCleanup(() => void s.destroy());
    });
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.once('close', () => resolve(text));
    });
    await expect.poll(() => server.ingestBufferedBytes).toBeGreaterThan(0);
    expect(await answer).toMatch(/^HTTP\/1\.1 408[\s\S]*did not arrive in full within 2 s/);
    // The bytes it sent are given back: else cut bodies would add up until ingestion refused everything with 503.
    await expect.poll(() => server.ingestBufferedBytes).toBe(0);
  });

  it('when every connection carries a request, a new one gets 503 with Retry-After at once', async () => {
    const server = await serveCore({ max: 2 });
    // Two requests whose bodies are on their way (busy), then a third connection.
    const busy = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(server.port, '127.0.0.1', () => {
              s.write('POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
              resolve(s);
            });
            s.on('error', () => undefined);
            onCleanup(() => void s.destroy());
          }),
      ),
    );
    expect(busy).toHaveLength(2);
    await expect.poll(() => server.connectionStats()).toEqual({ open: 2, busy: 2 });
    const third = await new Promise<string>((resolve) => {
      const s = connect(server.port, '127.0.0.1');
      let text = '';
      s.on('data', (d) => (text += String(d)));
      s.on('error', () => undefined);
      s.once('close', () => resolve(text));
    });
    expect(third).toMatch(/^HTTP\/1\.1 503/);
    expect(third).toMatch(/retry-after: 1/i);
  });
});
