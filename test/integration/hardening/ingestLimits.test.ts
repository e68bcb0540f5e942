/**
 * The door's limits answer the same whatever the framing: a body one byte over the request limit gets 400
 * request_too_large and an ingest-log row, sent with Content-Length or chunked. (A 5xx here would be re-sent by
 * every SDK forever.)
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningServe } from '../../../main/cli/commands/serve.js';
import { LIMITS } from '../../../main/contract/message/messageShapes.js';
import { must, newDataDir, onCleanup } from '../../helpers/harness.js';
import { serveWithSource, WRITE_KEY } from '../../helpers/serveWithSource.js';

const serve = serveWithSource;

/** A body of exactly `size` bytes that is valid JSON. */
const bodyOf = (size: number): Buffer => {
  const head = '{"batch":[],"pad":"';
  return Buffer.from(`${head}${'x'.repeat(size - head.length - 2)}"}`);
};

/** Sends the request over a raw socket, with Content-Length or chunked in pieces of 64 KiB; returns the status line and JSON body. */
async function rawPost(running: RunningServe, body: Buffer, framing: 'length' | 'chunked'): Promise<{ status: number; json: Record<string, unknown> }> {
  const { port } = new URL(running.info.url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  const auth = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;
  const head = `POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nConnection: close\r\n${framing === 'length' ? `Content-Length: ${body.length}` : 'Transfer-Encoding: chunked'}\r\n\r\n`;
  const received: Buffer[] = [];
  socket.on('data', (d: Buffer) => received.push(d));
  socket.on('error', () => undefined); // the server may close once it has answered
  socket.write(head);
  if (framing === 'length') socket.write(body);
  else {
    for (let at = 0; at < body.length; at += 65_536) {
      const piece = body.subarray(at, at + 65_536);
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write('\r\n');
    }
    socket.write('0\r\n\r\n');
  }
  await once(socket, 'close');
  const text = Buffer.concat(received).toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const json = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
  return { status, json };
}

describe('a request over the limit, by Content-Length or chunked', () => {
  for (const framing of ['length', 'chunked'] as const) {
    it(`${framing}: limit + 1 bytes is 400 request_too_large with an ingest-log row (the size given when Content-Length declared it); exactly the limit is accepted`, async () => {
      const running = await serve();
      const over = await rawPost(running, bodyOf(LIMITS.requestBytes + 1), framing);
      const size = LIMITS.requestBytes + 1;
      const error =
        framing === 'length'
          ? { code: 'request_too_large', limit: LIMITS.requestBytes, value: size, message: `request: ${size} bytes > ${LIMITS.requestBytes} (its Content-Length)` }
          : { code: 'request_too_large', limit: LIMITS.requestBytes, message: `request: more than ${LIMITS.requestBytes} bytes` };
      expect(over).toEqual({ status: 400, json: { error } });
      expect(must(running.core.listIngestLog({})).items).toEqual([expect.objectContaining({ code: 'request_too_large', httpStatus: 400, limit: LIMITS.requestBytes, route: '/v1/batch', clientIp: '127.0.0.1' })]);
      const atLimit = await rawPost(running, bodyOf(LIMITS.requestBytes), framing);
      expect(atLimit).toEqual({ status: 200, json: { success: true } });
    });
  }
});

describe('invalid UTF-8 at the door', () => {
  it('three messageIds that differ only in invalid bytes are refused with 400 naming the field; nothing is stored or deduplicated', async () => {
    const running = await serve();
    const id = (bad: number[]) => Buffer.concat([Buffer.from('{"type":"track","userId":"u","event":"E","messageId":"m-'), Buffer.from(bad), Buffer.from('"}')]);
    const body = Buffer.concat([Buffer.from('{"batch":['), id([0x41]), Buffer.from(','), id([0xff]), Buffer.from(','), id([0xfe]), Buffer.from(']}')]);
    const answer = await rawPost(running, body, 'length');
    expect(answer.status).toBe(400);
    expect(answer.json['error']).toMatchObject({ code: 'invalid_json', field: 'batch[1].messageId', message: expect.stringMatching(/^batch\[1\]\.messageId: invalid UTF-8 at byte \d+ \(0xff\)/) });
    expect(must(running.core.listMessages({})).items).toEqual([]);
    expect(must(running.core.listIngestLog({})).items).toEqual([expect.objectContaining({ code: 'invalid_json', field: 'batch[1].messageId', httpStatus: 400 })]);
  });

  it('a valid U+FFFD the client did send, as its bytes, is stored as sent', async () => {
    const running = await serve();
    const answer = await rawPost(running, Buffer.from(JSON.stringify({ batch: [{ type: 'track', userId: 'u\uFFFD', event: 'E', messageId: 'ok-1' }] })), 'length');
    expect(answer).toEqual({ status: 200, json: { success: true } });
    expect(must(running.core.listMessages({})).items.map((m) => m.userId)).toEqual(['u\uFFFD']);
  });
});

describe('no silent coercion at the door: each is a 400 naming the field', () => {
  const cases: [string, string, string | RegExp][] = [
    ['a number beyond a double (1e400)', '{"batch":[{"type":"track","userId":"u","event":"E","properties":{"big":1e400}}]}', /^batch\[0\]\.properties\.big: a number beyond the range of a double/],
    ['a number with more digits than a double keeps', '{"batch":[{"type":"track","userId":"u","event":"E","properties":{"id":9007199254740993}}]}', /^batch\[0\]\.properties\.id: 9007199254740993 would be delivered as 9007199254740992 /],
    ['integrations as a number', '{"batch":[{"type":"track","userId":"u","event":"E","integrations":3}]}', 'batch[0].integrations: must be an object of destination names (got number 3)'],
    ['integrations as an array', '{"batch":[{"type":"track","userId":"u","event":"E","integrations":["Webhooks"]}]}', 'batch[0].integrations: must be an object of destination names (got an array)'],
    ['integrations as a boolean', '{"batch":[{"type":"track","userId":"u","event":"E","integrations":false}]}', 'batch[0].integrations: must be an object of destination names (got boolean false)'],
    ['batch-level context as a number', '{"context":5,"batch":[{"type":"track","userId":"u","event":"E"}]}', 'context: must be an object, merged into every call of the batch (got number 5)'],
    ['batch-level context as an array', '{"context":[],"batch":[{"type":"track","userId":"u","event":"E"}]}', 'context: must be an object, merged into every call of the batch (got an array)'],
    ['batch-level context as a string', '{"context":"s","batch":[{"type":"track","userId":"u","event":"E"}]}', 'context: must be an object, merged into every call of the batch (got the string "s")'],
    ['batch-level integrations as a string', '{"integrations":"All","batch":[{"type":"track","userId":"u","event":"E"}]}', 'integrations: must be an object, merged into every call of the batch (got the string "All")'],
  ];
  for (const [what, body, message] of cases) {
    it(`${what}: refused, nothing stored`, async () => {
      const running = await serve();
      const answer = await rawPost(running, Buffer.from(body), 'length');
      expect(answer.status).toBe(400);
      expect((answer.json['error'] as { message: string }).message).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
      expect(must(running.core.listMessages({})).items).toEqual([]);
    });
  }

  it('the typed API refuses 1e400 in sendMessage too, and a number that fits is kept exactly', async () => {
    const running = await serve();
    const call = (n: string) => `{"source":"backend","type":"track","call":{"userId":"u","event":"E","properties":{"n":${n}}}}`;
    const post = async (text: string) => {
      const res = await fetch(`${running.info.url}/api/sendMessage`, { method: 'POST', headers: { authorization: `Bearer ${running.info.token}`, 'content-type': 'application/json' }, body: text });
      return { status: res.status, json: (await res.json()) as { ok: boolean; error?: { field: string } } };
    };
    expect(await post(call('1e400'))).toMatchObject({ status: 400, json: { ok: false, error: { code: 'invalid_input', field: 'call.properties.n' } } });
    expect(await post(call('9007199254740993'))).toMatchObject({ status: 400, json: { ok: false, error: { code: 'invalid_input', field: 'call.properties.n' } } });
    // A key given twice: JSON.parse would keep the last (a page sent for a track), so it is refused, naming the key and both places.
    const twice = await post('{"source":"backend","type":"track","call":{"userId":"u","event":"E"},"type":"page"}');
    expect(twice).toMatchObject({ status: 400, json: { ok: false, error: { code: 'invalid_input' } } });
    expect((twice.json as { error?: { message?: string } }).error?.message).toBe('body: at line 1, column 70 (position 69): the key "type" appears twice in one object (first at line 1, column 21): give it once');
    expect(await post(call('1.7976931348623157e308'))).toMatchObject({ status: 200, json: { ok: true } });
    const [stored] = must(running.core.listMessages({})).items;
    expect(must(running.core.getMessage({ id: stored!.id })).message.body).toContain('"n":1.7976931348623157e+308');
  });
});

describe('memory under half-sent bodies', () => {
  it('bodies in flight are bounded: past the bound a request gets 503 with Retry-After; closed requests give their bytes back', async () => {
    const { startWorkbench } = await import('../../../main/server/workbench.js');
    const { vi } = await import('vitest');
    const dir = newDataDir();
    const running = await startWorkbench({ dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0, uiDir: null, ingestBufferBytes: 1_000_000 });
    onCleanup(() => running.stop());
    const half = Buffer.alloc(200_000, 0x20); // JSON white space: half of a 400,000-byte body
    const sockets: import('node:net').Socket[] = [];
    onCleanup(() => sockets.forEach((s) => s.destroy()));
    const open = async (): Promise<import('node:net').Socket> => {
      const socket = connect(running.server.port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', () => undefined);
      await once(socket, 'connect');
      socket.write(`POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 400000\r\n\r\n`);
      socket.write(half);
      return socket;
    };
    for (let i = 0; i < 5; i++) {
      await open();
      await vi.waitFor(() => expect(running.server.ingestBufferedBytes).toBe((i + 1) * 200_000));
    }
    // The sixth takes the total past 1,000,000 bytes: refused at once, not held.
    const sixth = await open();
    const answer: Buffer[] = [];
    sixth.on('data', (d: Buffer) => answer.push(d));
    await once(sixth, 'close');
    const text = Buffer.concat(answer).toString('utf8');
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(running.server.ingestBufferedBytes).toBe(1_000_000);
    // Clients that go away give their bytes back.
    sockets.slice(0, 5).forEach((s) => s.destroy());
    await vi.waitFor(() => expect(running.server.ingestBufferedBytes).toBe(0));
  });
});
