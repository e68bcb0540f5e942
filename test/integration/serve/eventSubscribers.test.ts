/**
 * An event subscriber that stops reading (a suspended `hookbench tail`, a frozen tab, a raw socket) cannot make
 * serve hold its events without bound: past a few MiB waiting for it, its frames are dropped and counted (its
 * next frame says `dropped`), and one that stays behind is closed with a reason. A rotated token ends the
 * sockets the old one opened.
 */
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { internalsOf, type Core } from '../../../main/app/createCore.js';
import type { EngineEvent, EventFrame } from '../../../main/contract/events.js';
import { EVENT_SOCKET_CLOSE } from '../../../main/server/eventSockets.js';
import { startServer, type RunningServer } from '../../../main/server/httpServer.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import { openEventSocket } from '../../helpers/eventSocket.js';
import { newCore, newDataDir, onCleanup } from '../../helpers/harness.js';

async function serveCore(limits: { bufferedBytes: number; stalledMs: number }): Promise<{ core: Core; server: RunningServer; token: { value: string } }> {
  const core = newCore({ autoStart: false });
  const token = { value: 'tok-1' };
  const server = await startServer({ core, host: '127.0.0.1', port: 0, token: () => token.value, handlers: createCommandHandlers(core), uiDir: null, eventFlushMs: 1, eventSocketLimits: limits });
  onCleanup(() => server.close());
  return { core, server, token };
}

const connect = (server: RunningServer, token: string): Promise<WebSocket> => openEventSocket(server.url, token);

/** Events of about 64 KiB each: a few fill a socket's buffers. */
function burst(core: Core, count: number): void {
  const emit = internalsOf(core).emit;
  const big = 'x'.repeat(64 * 1024);
  for (let i = 0; i < count; i++) emit({ type: 'ingestRefused', refusal: { id: i, receivedAt: 0, route: '/v1/track', httpStatus: 400, code: 'invalid_input', message: big, clientIp: null, writeKey: null, bytes: 0 } } as unknown as EngineEvent);
}

/** Lets the server's batcher (flushing every millisecond here) send what is pending. */
const flushed = () => new Promise((resolve) => setTimeout(resolve, 2));

function pauseReading(ws: WebSocket): import('node:net').Socket {
  const raw = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  raw.pause();
  return raw;
}

describe('event subscribers that stop reading', () => {
  it('a socket that reads nothing holds at most about the limit; its next frame once it reads says how many events it missed', async () => {
    const { core, server } = await serveCore({ bufferedBytes: 256 * 1024, stalledMs: 600_000 });
    const ws = await connect(server, 'tok-1');
    const frames: EventFrame[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as EventFrame));
    const raw = pauseReading(ws);
    // Events keep coming until the kernel's buffers are full and the server starts dropping for this socket.
    let sent = 0;
    while (!server.eventSubscribers()[0]?.behind) {
      burst(core, 8);
      sent += 8;
      await flushed();
      if (sent > 20_000) throw new Error('the subscriber never fell behind');
    }
    const { bufferedBytes: held, dropped: before } = server.eventSubscribers()[0]!;
    for (let more = 0; more < 10; more++) {
      burst(core, 8);
      sent += 8;
      await flushed();
    }
    // What it holds stopped growing: the limit plus the one frame that crossed it, whatever else comes.
    expect(server.eventSubscribers()[0]!.bufferedBytes).toBe(held);
    expect(held).toBeLessThan(256 * 1024 + 9 * 70 * 1024);
    expect(server.eventSubscribers()[0]!.dropped).toBe(before + 80);
    raw.resume();
    burst(core, 1);
    sent += 1;
    await expect.poll(() => frames.reduce((n, f) => n + f.events.length + (f.dropped ?? 0), 0), { timeout: 20_000 }).toBe(sent);
    // Every event was delivered or counted as missed in a frame: nothing vanished without a word.
    expect(frames.some((f) => (f.dropped ?? 0) > 0)).toBe(true);
  });

  it('a socket that stays behind is closed, saying why', async () => {
    const { core, server } = await serveCore({ bufferedBytes: 64 * 1024, stalledMs: 0 });
    const ws = await connect(server, 'tok-1');
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    const raw = pauseReading(ws);
    let sent = 0;
    while (!server.eventSubscribers()[0]?.closing) {
      burst(core, 8);
      sent += 8;
      await flushed();
      if (sent > 20_000) throw new Error('the subscriber was never closed');
    }
    // It reads again in time to get the close frame behind what it missed.
    raw.resume();
    expect(await closed).toEqual({ code: EVENT_SOCKET_CLOSE.fellBehind.code, reason: EVENT_SOCKET_CLOSE.fellBehind.reason });
    await expect.poll(() => server.eventSubscribers()).toEqual([]);
  });
});

describe('a rotated token', () => {
  it('closes the event sockets the old token opened, and keeps the ones the new token opened', async () => {
    const { server, token } = await serveCore({ bufferedBytes: 4 * 1024 * 1024, stalledMs: 30_000 });
    const old = await connect(server, 'tok-1');
    const closed = new Promise<{ code: number; reason: string }>((resolve) => old.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    token.value = 'tok-2';
    const fresh = await connect(server, 'tok-2');
    server.closeStaleEventSockets();
    expect(await closed).toEqual({ code: EVENT_SOCKET_CLOSE.tokenRotated.code, reason: EVENT_SOCKET_CLOSE.tokenRotated.reason });
    expect(fresh.readyState).toBe(WebSocket.OPEN);
  });
});

describe('rotateToken through a running serve', () => {
  it('ends the event stream the old token opened, saying why; the new token opens one', async () => {
    const running = await startServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => running.stop());
    const old = await openEventSocket(running.info.url, running.info.token);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => old.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    const answer = await request(`${running.info.url}/api/rotateToken`, { method: 'POST', headers: { authorization: `Bearer ${running.info.token}`, 'content-type': 'application/json' }, body: '{}' });
    const rotated = ((await answer.body.json()) as { value: { token: string } }).value.token;
    expect(await closed).toEqual({ code: EVENT_SOCKET_CLOSE.tokenRotated.code, reason: EVENT_SOCKET_CLOSE.tokenRotated.reason });
    await openEventSocket(running.info.url, rotated);
  });
});
