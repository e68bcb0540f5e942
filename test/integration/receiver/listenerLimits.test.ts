/**
 * The mock receiver's listeners hold serve's own connection limits: a capped number of connections (the
 * oldest idle one makes room), headers cut when they do not arrive in time, answered in words; a request that
 * has arrived still waits for its answer as long as its script says. The limits are lowered to cost seconds.
 */
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ReceiverListeners } from '../../../main/receiver/listeners.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

async function listeners(answerAfterMs = 0, headersTimeoutMs = 1000): Promise<string> {
  const l = new ReceiverListeners({
    dataDir: newDataDir(),
    handle: (_, req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.writeHead(200).end('ok'), answerAfterMs));
    },
    dropWaiting: () => undefined,
    connectionLimits: { max: 3, headersTimeoutMs, requestTimeoutMs: Math.max(1000, headersTimeoutMs) },
  });
  onCleanup(() => l.stop());
  const { url } = await l.start({ port: 0, tlsPort: null });
  return url!;
}

/** The HTTPS listener alone, with the handshake's deadline (the headers') at `headersTimeoutMs`. */
async function tlsListener(headersTimeoutMs: number): Promise<{ port: number; listeners: ReceiverListeners }> {
  const l = new ReceiverListeners({ dataDir: newDataDir(), handle: (_, _req, res) => res.end('ok'), dropWaiting: () => undefined, connectionLimits: { max: 3, headersTimeoutMs, requestTimeoutMs: headersTimeoutMs } });
  onCleanup(() => l.stop());
  const { tlsUrl } = await l.start({ port: null, tlsPort: 0 });
  return { port: Number(new URL(tlsUrl!).port), listeners: l };
}

/** A connection that sends `first` (or nothing) and then waits. */
const held = (port: number, first: Buffer | null) =>
  new Promise<Socket>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (first) socket.write(first);
      resolve(socket);
    });
    socket.on('error', () => undefined);
    onCleanup(() => void socket.destroy());
  });

function slowHeaders(url: string): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write('POST /hook HTTP/1.1\r\nHost: x\r\n');
      resolve(socket);
    });
    socket.on('error', () => undefined);
    onCleanup(() => void socket.destroy());
  });
}

const answer = (socket: Socket) =>
  new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    socket.once('close', () => resolve(text));
  });

describe("the mock receiver's connection limits", () => {
  it('with every slot held by slow headers, a delivery is still answered: the oldest idle connection makes room', async () => {
    // Headers get 30 s here: a held connection that closes can only have made room.
    const url = await listeners(0, 30_000);
    const held = [await slowHeaders(url), await slowHeaders(url), await slowHeaders(url)];
    const oldestClosed = answer(held[0]!);
    const res = await request(`${url}/hook`, { method: 'POST', body: '{}' });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('ok');
    expect(await oldestClosed).toBe('');
    expect(held[2]!.readyState).toBe('open');
  });

  it('headers that do not arrive in time are cut with a 408 saying which limit passed', async () => {
    const url = await listeners();
    const socket = await slowHeaders(url);
    expect(await answer(socket)).toMatch(/^HTTP\/1\.1 408[\s\S]*"the request line and headers did not arrive within 1 s"/);
  });

  it("a TLS handshake that never finishes (half a ClientHello, or nothing at all) is cut at the headers' deadline", async () => {
    const { port } = await tlsListener(500);
    const sockets = [await held(port, Buffer.from([0x16, 0x03, 0x01, 0x00])), await held(port, null)];
    // Waits on the close itself: a listener that lets them be holds them until the test's own timeout.
    expect(await Promise.all(sockets.map(answer))).toEqual(['', '']);
  });

  it('stopping the listeners closes a connection still in its TLS handshake at once, not at its deadline', async () => {
    const { port, listeners } = await tlsListener(60_000);
    const socket = await held(port, Buffer.from([0x16, 0x03, 0x01, 0x00]));
    const closed = answer(socket);
    await listeners.stop();
    expect(await closed).toBe('');
  });

  it('a request that has arrived waits for its answer past the request timeout (a script may hold it)', async () => {
    const url = await listeners(1500);
    const res = await request(`${url}/hook`, { method: 'POST', body: '{}' });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('ok');
  });
});
