/**
 * `hookbench receive` in-process through runCli with an injected CliIO: real sockets on port 0, real
 * engine deliveries into it, Ctrl-C as an abort signal. Waits on output, never sleeps.
 */
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../../main/cli/io.js';
import { runCli } from '../../../main/cli/program.js';
import { DEFAULT_RECEIVE_PORT, listenFailure } from '../../../main/cli/commands/receive.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import { DEFAULT_RECEIVER_PORT } from '../../../main/contract/receiver/receiver.js';
import { createCore } from '../../../main/app/createCore.js';
import { must, newCore, newDataDir, onCleanup, sendTrack, settled } from '../../helpers/harness.js';
import { tempDir } from '../../helpers/tempDir.js';

const hmac = (secret: string, body: string) => createHmac('sha1', secret).update(body).digest('hex');

interface Session {
  run: Promise<number>;
  out: () => string;
  err: () => string;
  lines: () => string[];
  /** Resolves once stdout holds at least `n` lines. */
  waitForLines(n: number): Promise<void>;
  /** Resolves once stdout satisfies `done`. */
  waitFor(done: (out: string) => boolean): Promise<void>;
  /** The URL of the first line. */
  url: Promise<string>;
  abort(): void;
}

function tmpRoot(): string {
  const t = tempDir('hookbench-receive-test-');
  onCleanup(t.cleanup);
  return t.dir;
}

function receive(args: string[], root = tmpRoot()): Session {
  let out = '';
  let err = '';
  const waiters: { done: (out: string) => boolean; resolve: () => void }[] = [];
  const controller = new AbortController();
  const lines = () => out.split('\n').slice(0, -1);
  const io: CliIO = {
    stdout: (t) => {
      out += t;
      for (const w of waiters.filter((w) => w.done(out))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    stderr: (t) => void (err += t),
    signal: controller.signal,
  };
  const run = runCli(['receive', ...args], io, { receive: { tmpRoot: root } });
  onCleanup(async () => {
    controller.abort();
    await run;
  });
  const waitFor = (done: (out: string) => boolean) => (done(out) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ done, resolve })));
  const waitForLines = (n: number) => waitFor(() => lines().length >= n);
  const url = Promise.race([
    waitForLines(1).then(() => /(https?:\/\/[^\s"]+)/.exec(lines()[0]!)![1]!),
    run.then((code) => Promise.reject(new Error(`receive exited ${code} before listening: ${err}`))),
  ]);
  url.catch(() => undefined); // awaited only by tests that expect it to listen
  return { run, out: () => out, err: () => err, lines, waitForLines, waitFor, url, abort: () => controller.abort() };
}

/** Each printed request ends with its body line. */
const bodyLines = (out: string) => (out.match(/^ {4}body/gm) ?? []).length;

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  await res.body.text();
  return res.statusCode;
}

describe('hookbench receive (in-process)', () => {
  it('--respond 500,200 --json: engine deliveries print one JSON line each; Ctrl-C exits 0 and removes the throw-away data dir', async () => {
    const root = tmpRoot();
    const s = receive(['--port', '0', '--respond', '500,200', '--secret', 's3cret', '--json'], root);
    const url = await s.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readdirSync(root)).toHaveLength(1); // its throw-away data dir

    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, url: `${url}/hook`, sharedSecret: 's3cret', retry: { schedule: [1000], windowMs: 60_000, jitter: 0 } }));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: 5000 }));
    const message = must(core.getMessage({ id })).message;
    expect(message.status).toBe('delivered');
    await s.waitForLines(3);
    s.abort();
    expect(await s.run).toBe(0);
    expect(s.err()).toBe('');

    const events = s.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => e['type'])).toEqual(['listening', 'request', 'request', 'stopped']);
    expect(events[0]).toMatchObject({ type: 'listening', url, tls: false, signatureCheck: true, script: '500, 200 (then the last step repeats)', dataDir: null });
    for (const [i, status] of [[1, 500], [2, 200]] as const) {
      expect(events[i]).toMatchObject({
        type: 'request',
        number: i,
        method: 'POST',
        path: '/hook',
        step: { index: i - 1, status, label: `step ${i} of 2: ${status}` },
        signature: { verdict: 'valid', expected: hmac('s3cret', message.body), diagnosis: null },
        messageId: message.messageId,
        body: message.body,
        bodySize: Buffer.byteLength(message.body),
      });
      expect(Buffer.from(events[i]!['bodyBase64'] as string, 'base64').toString('utf8')).toBe(message.body);
    }
    expect(events[3]).toEqual({ type: 'stopped', requests: 2 });
    expect(readdirSync(root)).toEqual([]);
  });

  it('human output: valid and invalid signatures, the expected value and the diagnosis; every path is answered', async () => {
    const s = receive(['--port', '0', '--secret', 's3cret']);
    const url = await s.url;
    expect(s.lines()[0]).toBe(`Hookbench receiver listening on ${url} (every path)`);
    const body = '{"type":"track","event":"Signed Up","messageId":"m-1"}';
    expect(await post(`${url}/webhooks/in`, body, { 'X-Signature': hmac('s3cret', body) })).toBe(200);
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    expect(await post(`${url}/r/anything`, pretty, { 'X-Signature': hmac('s3cret', body) })).toBe(200);
    await s.waitFor((out) => bodyLines(out) === 2);
    s.abort();
    expect(await s.run).toBe(0);

    const out = s.out();
    expect(out).toContain('answers: always 200; X-Signature checked (--secret)');
    expect(out).toMatch(/#1 {2}\d{4}-\d\d-\d\dT[\d:.]+Z {2}POST \/webhooks\/in {2}-> 200 {2}signature valid\n/);
    expect(out).toContain(`content-type: application/json  X-Signature: ${hmac('s3cret', body)}`);
    expect(out).toContain(`body (${body.length} bytes): ${body}\n`);
    expect(out).toMatch(/#2 {2}\S+ {2}POST \/r\/anything {2}-> 200 {2}signature INVALID\n/);
    expect(out).toContain(`    expected x-signature: ${hmac('s3cret', pretty)}\n`);
    expect(out).toContain('    diagnosis: matches the body re-serialised: your framework parsed and re-encoded the JSON; verify the raw bytes\n');
    expect(out).toContain(`body (${pretty.length} bytes): {\\n  "type": "track",`);
    expect(out.trimEnd().split('\n').at(-1)).toBe('stopped after 2 requests');
  });

  it('a client that closes the connection before a delayed answer: a line under its number says no answer was sent', async () => {
    const s = receive(['--port', '0', '--respond', '200', '--delay', '60000']);
    const url = await s.url;
    const gaveUp = request(`${url}/hook`, { method: 'POST', body: '{}', headersTimeout: 50 }).catch((e: Error) => e);
    await s.waitFor((out) => bodyLines(out) === 1);
    expect(await gaveUp).toBeInstanceOf(Error);
    await s.waitFor((out) => out.includes('the client closed the connection'));
    expect(s.out()).toMatch(/\n#1 {2}the client closed the connection after \d+ ms: no answer was sent\n/);
    s.abort();
    expect(await s.run).toBe(0);
  });

  it('Ctrl-C right away: exit 0, "stopped after 0 requests"', async () => {
    const s = receive(['--port', '0']);
    await s.url;
    s.abort();
    expect(await s.run).toBe(0);
    expect(s.out().trimEnd().split('\n').at(-1)).toBe('stopped after 0 requests');
  });

  it('bad input exits 2 naming the flag and the limit', async () => {
    const cases: [string[], string][] = [
      [['--respond', '500,50'], '--respond: item 2 ("50"): must be an HTTP status code from 200 to 599 (got 50)'],
      [['--respond', '500,later'], '--respond: item 2 ("later") is not a step: give a status code (200-599), never, reset or close'],
      [['--respond', '200,,500'], '--respond: item 2 is empty: give a status code (200-599), never, reset or close'],
      [['--respond', '500 500 200'], '--respond: item 1 ("500 500 200") holds 3 responses: separate them with commas (500, 500, 200)'],
      [['--respond', Array(1000).fill('200').join(',')], '--respond: at most 100 steps (got 1000)'],
      [['--delay', '700000'], "option '--delay <ms>' argument '700000' is invalid. must be from 0 to 600000 ms (10 min)"],
      [['--delay', '99999999999'], "option '--delay <ms>' argument '99999999999' is invalid. must be from 0 to 600000 ms (10 min)"],
      [['--delay', '-5'], "option '--delay <ms>' argument '-5' is invalid. a duration cannot be negative: give one from 0 to 600000 ms (10 min)"],
      [['--retry-after', '999999', '--respond', '503'], "option '--retry-after <seconds>' argument '999999' is invalid. expected a whole number of seconds from 0 to 604800"],
      [['--retry-after', '5s', '--respond', '503'], "option '--retry-after <seconds>' argument '5s' is invalid. expected a whole number of seconds from 0 to 604800"],
      [['--port', '70000'], "option '--port <n>' argument '70000' is invalid"],
      [['--secret', ''], '--secret: must not be empty'],
    ];
    for (const [argv, message] of cases) {
      const s = receive(['--port', '0', ...argv]);
      expect(await s.run, argv.join(' ')).toBe(2);
      expect(s.err()).toContain(message);
    }
  });

  it('with --json a refusal is one JSON error line on stdout and nothing on stderr', async () => {
    const s = receive(['--port', '0', '--respond', '500,50', '--json']);
    expect(await s.run).toBe(2);
    expect(s.err()).toBe('');
    expect(JSON.parse(s.out())).toMatchObject({ type: 'error', message: '--respond: item 2 ("50"): must be an HTTP status code from 200 to 599 (got 50)' });
  });

  it('--help names the limits of --respond and --delay', async () => {
    const s = receive(['--help']);
    expect(await s.run).toBe(0);
    expect(s.out()).toContain('(also never, reset, close; at most 100)');
    expect(s.out().replace(/\s+/g, ' ')).toContain('at most 100, none empty (500,,200 is refused). --delay is at most 600000 ms (10 minutes).');
  });

  it('a port in use: exit 1 naming it', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const s = receive(['--port', String(port)]);
    expect(await s.run).toBe(1);
    expect(s.err()).toContain(`--port: 127.0.0.1:${port} is already in use`);
  });

  it('--retry-after and --delay shape the answers; never/reset/close are accepted', async () => {
    const s = receive(['--port', '0', '--respond', '503,reset,200', '--retry-after', '30', '--json']);
    const url = await s.url;
    const res = await request(`${url}/x`, { method: 'POST', body: '{}' });
    await res.body.text();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    await expect(request(`${url}/x`, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(await post(`${url}/x`, '{}')).toBe(200);
    await s.waitForLines(4);
    const steps = s.lines().slice(1).map((l) => (JSON.parse(l) as { step: { label: string } }).step.label);
    expect(steps).toEqual(['step 1 of 3: 503, Retry-After 30', 'step 2 of 3: reset the connection', 'step 3 of 3: 200']);
  });

  it('--tls --data-dir: an https URL the engine refuses (tls_error, nothing captured); the certificate and captures stay in the data dir', async () => {
    const dataDir = newDataDir();
    const s = receive(['--port', '0', '--tls', '--data-dir', dataDir]);
    const url = await s.url;
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    await s.waitFor((out) => out.includes('Ctrl-C to stop'));
    expect(s.lines()[2]).toContain(`(${join(dataDir, 'receiver-tls', 'cert.pem')})`);
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, url: `${url}/hook` }));
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.attempts[0]).toMatchObject({ outcome: 'tls_error' });
    s.abort();
    expect(await s.run).toBe(0);
    expect(s.out().trimEnd().split('\n').at(-1)).toBe('stopped after 0 requests');
    expect(existsSync(join(dataDir, 'receiver-tls', 'cert.pem'))).toBe(true);

    // Captures of a plain run are kept in the data dir for later (serve, the UI).
    const plain = receive(['--port', '0', '--data-dir', dataDir]);
    expect(await post(`${await plain.url}/hook`, '{"messageId":"kept"}')).toBe(200);
    await plain.waitFor((out) => bodyLines(out) === 1);
    plain.abort();
    expect(await plain.run).toBe(0);
    const reopened = createCore({ dataDir, autoStart: false });
    try {
      const service = reopened.receivers;
      expect(must(service.listCaptures({})).items.map((c) => [c.receiver, c.messageId, c.listener])).toEqual([['receive', 'kept', 'http']]);
    } finally {
      await reopened.close();
    }
  });

  it('--help documents the flags and exit statuses', async () => {
    let out = '';
    const code = await runCli(['receive', '--help'], { stdout: (t) => void (out += t), stderr: () => undefined });
    expect(code).toBe(0);
    for (const flag of ['--port <n>', '--secret <secret>', '--respond <list>', '--delay <ms>', '--tls', '--json', '--data-dir <dir>']) expect(out).toContain(flag);
    expect(out).toContain('Exit status: 0 stopped with Ctrl-C');
  });
});

describe('receive and serve side by side (ports)', () => {
  it("receive's default port is 4411, not serve's receiver port 4410; a clash names the port and the flag", () => {
    expect(DEFAULT_RECEIVE_PORT).toBe(4411);
    expect(DEFAULT_RECEIVE_PORT).not.toBe(DEFAULT_RECEIVER_PORT);
    const inUse = { code: 'conflict' as const, field: 'port', message: 'port: 127.0.0.1:4410 is already in use (another Hookbench or program listens there)' };
    expect(listenFailure(inUse, { host: '127.0.0.1', port: 4410 })).toBe(
      "--port: 127.0.0.1:4410 is already in use (hookbench serve's mock receiver listens there by default, or another program); choose another with --port N, or --port 0 for a free one",
    );
    expect(listenFailure(inUse, { host: '127.0.0.1', port: 4411 })).toContain('(another hookbench receive or program listens there)');
  });

  it('--help says the default port and why', async () => {
    let out = '';
    expect(await runCli(['receive', '--help'], { stdout: (t) => void (out += t), stderr: () => undefined })).toBe(0);
    expect(out).toContain('(default: 4411)');
    expect(out).toContain("hookbench serve's own mock receiver has 4410");
  });

  it("serve's receiver port in use: exit 1 naming --receiver-port and the port", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    let err = '';
    const io: CliIO = { stdout: () => undefined, stderr: (t) => void (err += t) };
    const argv = ['serve', '--data-dir', newDataDir(), '--port', '0', '--receiver-port', String(port), '--receiver-tls-port', '0'];
    expect(await runCli(argv, io)).toBe(1);
    expect(err).toContain(`hookbench serve: port ${port} is already in use on 127.0.0.1`);
    expect(err).toContain(`  --receiver-port ${port} `);
  });

  it("receive --data-dir of a running serve: refused, pointing at that serve's own receiver", async () => {
    const data = newDataDir();
    const running = await startServe({ dataDir: data, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => running.stop());
    const s = receive(['--port', '0', '--data-dir', data]);
    expect(await s.run).toBe(2);
    expect(s.err()).toContain(`(pid ${process.pid})`); // the serve runs in this test's process
    expect(s.err()).toContain(`whose own mock receiver answers at ${running.info.receiverUrl}/r/<name>`);
  });
});
