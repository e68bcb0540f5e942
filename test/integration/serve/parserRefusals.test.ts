/**
 * What Node's HTTP parser refuses before any route sees it (bad framing, a URL or header past its limit, a
 * garbage request line) gets the JSON error every other refusal gets, and a line in the ingest log.
 */
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { startServer, type RunningServer } from '../../../main/server/httpServer.js';
import { must, newCore, onCleanup } from '../../helpers/harness.js';
import type { Core } from '../../../main/app/createCore.js';

async function serveCore(): Promise<{ core: Core; server: RunningServer }> {
  const core = newCore({ autoStart: false });
  const server = await startServer({ core, host: '127.0.0.1', port: 0, token: () => 'tok', handlers: createCommandHandlers(core), uiDir: null });
  onCleanup(() => server.close());
  return { core, server };
}

/** Sends raw bytes and reads everything until the server closes: status line, headers and body. */
async function raw(server: RunningServer, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const [head = '', body = ''] = (await exchange(server, bytes)).split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body };
}

/** A /v1/track call whose Content-Length counts the body's characters, as a hand-written client might: the whole exchange. */
async function trackCountingCharacters(core: Core, server: RunningServer, writeKey: string, body: string): Promise<string> {
  const source = must(core.createSource({ name: 'web', kind: 'server', writeKey }));
  const auth = Buffer.from(`${source.writeKey}:`).toString('base64');
  return exchange(server, `POST /v1/track HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
}

describe('requests the HTTP parser refuses', () => {
  const cases: [string, string, number, RegExp, string][] = [
    ['Content-Length and Transfer-Encoding together', 'POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, /Content-Length and Transfer-Encoding together/, 'POST /v1/batch'],
    ['Transfer-Encoding, then Content-Length', 'POST /v1/batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n', 400, /^Content-Length and Transfer-Encoding together/, 'POST /v1/batch'],
    ['two Content-Length headers that differ (no Transfer-Encoding)', 'POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef', 400, /^Content-Length is sent more than once: send one Content-Length header$/, 'POST /v1/track'],
    ['two Content-Length headers that agree', 'POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nabcde', 400, /^Content-Length is sent more than once/, 'POST /v1/track'],
    ['a Content-Length that is not a number', 'POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, /^Content-Length is not a number of bytes/, 'POST /v1/track'],
    ['a Content-Length listing two numbers', 'POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 6\r\n\r\nabcdef', 400, /^Content-Length is not a number of bytes/, 'POST /v1/track'],
    ['a 20 KB URL', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, /more than [\d,]+ bytes \(a URL or header too large\)/, `GET /${'a'.repeat(195)}…`],
    ['a 20 KB header', `POST /v1/batch HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431, /a URL or header too large/, 'POST /v1/batch'],
    ['a garbage request line', 'HELLO WORLD\r\n\r\n', 400, /not an HTTP\/1\.1 request line/, '(unreadable request)'],
  ];
  it.each(cases)('%s: the JSON error with its status, and a line in the ingest log', async (_name, bytes, status, message, route) => {
    const { core, server } = await serveCore();
    const answer = await raw(server, bytes);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/);
    const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(message);
    const logged = must(core.listIngestLog({})).items[0]!;
    expect(logged).toMatchObject({ route, httpStatus: status, code: 'invalid_request' });
    expect(logged.message).toMatch(message);
  });

  it('an https:// client at the http:// port (a TLS handshake) is logged as that, not as an unreadable request line', async () => {
    const { core, server } = await serveCore();
    const socket = tlsConnect({ host: '127.0.0.1', port: server.port, rejectUnauthorized: false });
    // The client fails on the plain-HTTP answer: by then the refusal is in the log.
    await new Promise<void>((resolve) => socket.once('error', () => resolve()).once('close', () => resolve()));
    const logged = must(core.listIngestLog({})).items[0]!;
    expect(logged).toMatchObject({ httpStatus: 400, code: 'invalid_request' });
    expect(logged.message).toBe('a TLS handshake arrived: the client was given an https:// URL, and this port speaks plain HTTP; use http:// (the ingestion URL serve printed)');
  });

  it('a complete request followed by garbage on the same connection gets its own answer first, then the refusal', async () => {
    const { core, server } = await serveCore();
    const source = must(core.createSource({ name: 'web', kind: 'server', writeKey: 'wk_pipe' }));
    const body = JSON.stringify({ userId: 'u1', event: 'Piped', messageId: 'pipe-garbage-1' });
    const auth = Buffer.from(`${source.writeKey}:`).toString('base64');
    const answer = await raw(server, `POST /v1/track HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}GARBAGE\r\n\r\n`);
    // The call was stored: its client is told so, and only then that the bytes after it were refused.
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/^\{"success":true\}HTTP\/1\.1 400 Bad Request/);
    expect(must(core.listIngestLog({})).items[0]!.message).toMatch(/not an HTTP\/1\.1 request line/);
    expect(must(core.listMessages({})).items.map((m) => m.messageId)).toEqual(['pipe-garbage-1']);
  });

  it('a Content-Length counted in characters of a non-ASCII body: the cut JSON and the bytes left over each say why', async () => {
    const { core, server } = await serveCore();
    const body = JSON.stringify({ userId: 'ü1', event: 'Bestellung größer' });
    // body.length counts UTF-16 characters: three fewer than the UTF-8 bytes the socket carries.
    const text = await trackCountingCharacters(core, server, 'wk_chars', body);
    const [first, second] = [...text.matchAll(/HTTP\/1\.1 (\d{3})[\s\S]*?\r\n\r\n(\{"error":\{.*?\}\})/g)].map((m) => {
      expect(m[1]).toBe('400');
      return m[2]!;
    });
    expect((JSON.parse(first!) as { error: { message: string } }).error.message).toMatch(
      new RegExp(`^body: invalid JSON \\(.+\\); the JSON ends early, at the body's last byte \\(${body.length} bytes\\): was the body cut short, or its Content-Length counted in characters where UTF-8 text takes more bytes\\?$`),
    );
    expect((JSON.parse(second!) as { error: { message: string } }).error.message).toBe(
      `not an HTTP/1.1 request line (METHOD /path HTTP/1.1): these bytes came after the previous request's body (Content-Length: ${body.length}) on this connection; a Content-Length shorter than its body (characters counted, not UTF-8 bytes?) leaves the body's end to be read as a new request`,
    );
    expect(must(core.listMessages({})).items).toEqual([]);
  });

  it('a Content-Length in characters that cuts a character in two says so too, not only that the byte is bad UTF-8', async () => {
    const { core, server } = await serveCore();
    // '☕' is three UTF-8 bytes: cut at the character count, the body ends on its first byte.
    const body = JSON.stringify({ userId: 'u1', event: 'Café ☕' });
    const text = await trackCountingCharacters(core, server, 'wk_cut_char', body);
    const first = /\r\n\r\n(\{"error":\{.*?\}\})/.exec(text)![1]!;
    expect((JSON.parse(first) as { error: { message: string } }).error.message).toMatch(
      new RegExp(`^event: invalid UTF-8 at byte \\d+ \\(0xe2\\); JSON must be UTF-8 \\(the value is refused rather than changed\\); the body ends inside a character, at its last byte \\(${body.length} bytes\\): was the body cut short, or its Content-Length counted in characters where UTF-8 text takes more bytes\\?$`),
    );
    expect(must(core.listMessages({})).items).toEqual([]);
  });
});

/**
 * Sends raw bytes and reads the whole exchange as text, until the server closes; `thenEnd` also ends this side of
 * the connection after them (a client that gives up mid-request).
 */
function exchange(server: RunningServer, bytes: string, thenEnd = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    if (thenEnd) socket.end(bytes);
    else socket.write(bytes);
  });
}

const sendThenEnd = (server: RunningServer, bytes: string) => exchange(server, bytes, true);

describe('a client that ends its side of the connection mid-request', () => {
  it('is no malformed request: nothing answered, no refusal in the ingest log, nothing stored (headers or body cut short)', async () => {
    const { core, server } = await serveCore();
    const source = must(core.createSource({ name: 'web', kind: 'server', writeKey: 'wk_gone' }));
    const auth = Buffer.from(`${source.writeKey}:`).toString('base64');
    expect(await sendThenEnd(server, 'POST /v1/batch HTTP/1.1\r\nHost: x\r\n')).toBe('');
    expect(await sendThenEnd(server, `POST /v1/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\nContent-Length: 100\r\n\r\n{"batch":[`)).toBe('');
    expect(must(core.listIngestLog({})).items).toEqual([]);
    expect(must(core.listMessages({})).items).toEqual([]);
  });
});

describe('Expect headers', () => {
  it('an expectation other than 100-continue gets 417 with the JSON error and a line in the ingest log', async () => {
    const { core, server } = await serveCore();
    const answer = await raw(server, 'POST /v1/batch HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nContent-Length: 2\r\n\r\n{}');
    expect(answer.status).toBe(417);
    expect(answer.headers).toMatch(/content-type: application\/json/);
    const message = 'Expect: "something-else" is not an expectation Hookbench meets (only 100-continue); send the request without it';
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'invalid_request', message } });
    expect(must(core.listIngestLog({})).items[0]).toMatchObject({ route: 'POST /v1/batch', httpStatus: 417, code: 'invalid_request', message });
  });

  it('100-continue with a Content-Length past the request limit is refused at once, without 100 Continue, so nothing is uploaded', async () => {
    const { core, server } = await serveCore();
    // Headers only: a client that waits for 100 Continue sends nothing more.
    const text = await exchange(server, 'POST /v1/batch HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 600000\r\n\r\n');
    expect(text).not.toMatch(/100 Continue/);
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(body)).toEqual({ error: { code: 'request_too_large', limit: 512000, value: 600000, message: 'request: 600000 bytes > 512000 (its Content-Length)' } });
    expect(must(core.listIngestLog({})).items[0]).toMatchObject({ route: '/v1/batch', httpStatus: 400, code: 'request_too_large', limit: 512000, bodyBytes: 600000 });
  });

  it('a typed-API request past its limit gives its declared size, as an ingestion request does', async () => {
    const { server } = await serveCore();
    const res = await fetch(`${server.url}/api/sendMessages`, { method: 'POST', headers: { authorization: 'Bearer tok', 'content-type': 'application/json' }, body: ' '.repeat(5_000_000) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, error: { code: 'request_too_large', limit: 4194304, value: 5000000, message: 'request: 5000000 bytes > 4194304 (its Content-Length)' } });
  });

  it('a typed-API command called with another method than POST says which it got', async () => {
    const { server } = await serveCore();
    const res = await fetch(`${server.url}/api/getClock`, { headers: { authorization: 'Bearer tok' } });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ ok: false, error: { code: 'invalid_input', message: 'POST /api/getClock with a JSON object (got GET)' } });
  });

  it('a typed-API body of Latin-1 bytes labelled charset=iso-8859-1 names the label, as an ingestion body does', async () => {
    const { server } = await serveCore();
    const body = Buffer.concat([Buffer.from('{"type":"track","call":{"userId":"u","event":"caf'), Buffer.from([0xe9]), Buffer.from('"}}')]);
    const res = await fetch(`${server.url}/api/sendMessage`, { method: 'POST', headers: { authorization: 'Bearer tok', 'content-type': 'application/json; charset=iso-8859-1' }, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ok: false,
      error: { code: 'invalid_json', field: 'call.event', message: 'call.event: invalid UTF-8 at byte 49 (0xe9); JSON must be UTF-8 (the value is refused rather than changed); labelled charset=iso-8859-1: the body is read as UTF-8, as JSON is; send it encoded as UTF-8' },
    });
  });

  it('100-continue within the limit is told to go on, and the request is answered', async () => {
    const { server } = await serveCore();
    const text = await exchange(server, 'POST /v1/batch HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\nContent-Length: 12\r\n\r\n{"batch":[]}');
    expect(text).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);
  });
});
