/**
 * Secrets at rest and in answers (docs/behaviour.md §9). The database files are 0600 like
 * the rest of the data dir, and write keys and credentials stay out of what is stored or shown in clear.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../../main/contract/events.js';
import type { CaptureRecord } from '../../../main/contract/receiver/receiver.js';
import type { Page } from '../../../main/contract/messages.js';
import { runCli } from '../../../main/cli/program.js';
import { runServe, startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { captureIO } from '../../helpers/cliIO.js';
import { openEventSocket } from '../../helpers/eventSocket.js';
import { must, newCore, newDataDir, newReceiver, onCleanup, sendTrack, settled } from '../../helpers/harness.js';
import type { TestReceiver } from '../../helpers/receiver.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;
const DB_FILES = ['hookbench.db', 'hookbench.db-wal', 'hookbench.db-shm'];

describe.skipIf(process.platform === 'win32')('the database files are 0600 (docs/behaviour.md §9 Files)', () => {
  it('hookbench.db, -wal and -shm end 0600 after writes, whatever the umask', async () => {
    const dataDir = newDataDir();
    const previous = process.umask(0o022);
    try {
      const core = newCore({ dataDir });
      must(core.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook' }));
      sendTrack(core, 'd');
      await core.idle();
      for (const name of DB_FILES) {
        expect(existsSync(join(dataDir, name)), name).toBe(true);
        expect(modeOf(join(dataDir, name)).toString(8), name).toBe('600');
      }
    } finally {
      process.umask(previous);
    }
  });

  it('an existing data dir whose database files are 0644 is tightened at start', async () => {
    const dataDir = newDataDir();
    const first = newCore({ dataDir });
    must(first.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook' }));
    await first.close();
    for (const name of DB_FILES) if (existsSync(join(dataDir, name))) chmodSync(join(dataDir, name), 0o644);
    const core = newCore({ dataDir });
    sendTrack(core, 'd');
    await core.idle();
    for (const name of DB_FILES) {
      expect(existsSync(join(dataDir, name)), name).toBe(true);
      expect(modeOf(join(dataDir, name)).toString(8), name).toBe('600');
    }
  });
});

const WRITE_KEY = 'wk_backend_0123456789';
const silentIO = { stdout: () => undefined, stderr: () => undefined };

async function serve(rx: TestReceiver): Promise<RunningServe> {
  const dir = newDataDir();
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      sources: [{ name: 'backend', kind: 'server', writeKey: WRITE_KEY }],
      destinations: [{ name: 'd', enabled: true, sources: ['backend'], url: rx.url }],
    }),
  );
  const running = await startServe({ config, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  onCleanup(() => running.stop());
  return running;
}

async function post(running: RunningServe, path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(`${running.info.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.body.dump();
  return res.statusCode;
}

describe('write keys and credentials sent to /v1 (docs/behaviour.md §9)', () => {
  it('the ingest log keeps a refused body with its writeKey and Authorization values redacted', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    // Refused after the key is known (a track without event), with an unknown key, and cut off inside the key.
    expect(await post(running, '/v1/track', JSON.stringify({ writeKey: WRITE_KEY, userId: 'u' }))).toBe(400);
    expect(await post(running, '/v1/track', JSON.stringify({ writeKey: 'wk_typo_0123456789', userId: 'u', event: 'E' }))).toBe(401);
    const headers = { authorization: 'Bearer tok_abcdef0123456789', Authorization: 'Basic dXNlcjpwYXNzd29yZA==' };
    expect(await post(running, '/v1/batch', JSON.stringify({ writeKey: WRITE_KEY, batch: [{ type: 'track', userId: 'u', context: { headers } }] }))).toBe(400);
    const cut = `{"properties": {"pad": "${'x'.repeat(4070)}"}, "writeKey": "${WRITE_KEY}"}`;
    expect(await post(running, '/v1/track', cut)).toBe(400);
    const log = must(running.core.listIngestLog({})).items;
    expect(log).toHaveLength(4);
    for (const entry of log) {
      expect(entry.bodyPreview).not.toContain('0123456789');
      expect(entry.bodyPreview).not.toContain('dXNlcjpwYXNzd29yZA');
    }
    expect(log.at(-1)!.bodyPreview).toContain('"writeKey":"wk_…89"');
    expect(log.at(-2)!.bodyPreview).toContain('"writeKey":"wk_…89"');
  });

  it('a writeKey in the body of a single-call route is neither stored in the call nor delivered', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    expect(await post(running, '/v1/track', JSON.stringify({ writeKey: WRITE_KEY, userId: 'u', event: 'E', properties: { a: 1 } }))).toBe(200);
    expect(await post(running, '/v1/batch', JSON.stringify({ writeKey: WRITE_KEY, batch: [{ type: 'track', userId: 'u', event: 'F', writeKey: WRITE_KEY }] }))).toBe(200);
    const stored = must(running.core.listMessages({})).items;
    expect(stored).toHaveLength(2);
    for (const m of stored) {
      const detail = await settled(running.core, m.id);
      expect(detail.message.status).toBe('delivered');
      expect(JSON.stringify(detail.message.call)).not.toContain(WRITE_KEY);
      expect(detail.message.call).toMatchObject({ userId: 'u' });
    }
    const api = await request(`${running.info.url}/api/getMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.info.token}` },
      body: JSON.stringify({ id: stored.at(-1)!.id }),
    });
    expect(await api.body.text()).not.toContain(WRITE_KEY);
    expect(rx.captured).toHaveLength(2);
    for (const c of rx.captured) expect(c.body.toString()).not.toContain(WRITE_KEY);
  });

  it('a writeKey pasted into a sendMessage call (the typed API) is not stored either', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    const sent = await api<{ message: { id: number } }>(running, 'sendMessage', { type: 'track', source: 'backend', call: { writeKey: WRITE_KEY, userId: 'u', event: 'Pasted' } });
    expect(sent.ok).toBe(true);
    const detail = await settled(running.core, sent.value!.message.id);
    expect(detail.message.status).toBe('delivered');
    expect(detail.message.call).toEqual({ userId: 'u', event: 'Pasted' });
    expect(sent.text).not.toContain(WRITE_KEY);
    expect(rx.captured.at(-1)!.body.toString()).not.toContain(WRITE_KEY);
  });
});

async function api<T>(running: RunningServe, command: string, input: unknown): Promise<{ ok: boolean; value?: T; text: string }> {
  const res = await request(`${running.info.url}/api/${command}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.info.token}` },
    body: JSON.stringify(input),
  });
  const text = await res.body.text();
  return { ...(JSON.parse(text) as { ok: boolean; value?: T }), text };
}

describe('receiver captures (docs/behaviour.md §9)', () => {
  it('listCaptures, getCapture and requestCaptured events show credential-like request headers masked', async () => {
    const rx = await newReceiver();
    const running = await serve(rx);
    expect((await api(running, 'createReceiver', { name: 'hook', script: 200 })).ok).toBe(true);
    const ws = await openEventSocket(running.info.url, running.info.token);
    const pushed = new Promise<string>((resolve) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { events: EngineEvent[] };
        if (frame.events.some((e) => e.type === 'requestCaptured')) resolve(String(data));
      });
    });
    const secrets = { authorization: 'Bearer tok_abcdef0123456789', cookie: 'session=sess_0123456789', 'x-api-key': 'key_0123456789', 'x-env': 'dev' };
    const sent = await request(`${running.info.receiverUrl}/r/hook`, { method: 'POST', headers: secrets, body: '{}' });
    await sent.body.dump();
    const frame = await pushed;
    const list = await api<Page<CaptureRecord>>(running, 'listCaptures', {});
    const capture = list.value!.items[0]!;
    const one = await api<CaptureRecord>(running, 'getCapture', { id: capture.id });
    for (const text of [list.text, one.text, frame]) expect(text).not.toContain('0123456789');
    for (const c of [capture, one.value!]) {
      expect(c.headers).toMatchObject({ authorization: 'Be••••', cookie: 'se••••', 'x-api-key': 'ke••••', 'x-env': 'dev' });
      expect(c.rawHeaders).toEqual(expect.arrayContaining([['authorization', 'Be••••'], ['x-env', 'dev']]));
    }
  });
});

describe('serve never prints a secret (docs/behaviour.md §9 Logs)', () => {
  it('start-up, config and stop lines name objects, never their secrets; the token is only in the ready URL', async () => {
    const rx = await newReceiver();
    const dir = newDataDir();
    const config = join(dir, 'config.json');
    const secrets = ['wk_start_0123456789', 'shared_0123456789', 'receiver_0123456789', 'Bearer hdr_0123456789'];
    writeFileSync(
      config,
      JSON.stringify({
        sources: [{ name: 'backend', kind: 'server', writeKey: secrets[0] }],
        receivers: [{ name: 'rx', secret: secrets[2], script: 200 }],
        destinations: [{ name: 'd', enabled: true, sources: ['backend'], sharedSecret: secrets[1], webhooks: [{ url: rx.url, headers: { Authorization: secrets[3] } }] }],
      }),
    );
    const logged: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
      onCleanup(() => spy.mockRestore());
    }
    const io = captureIO();
    const data = join(dir, 'data');
    const exit = runServe({ config, dataDir: data, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, io.io);
    await io.waitForErr('stop with Ctrl-C');
    const info = JSON.parse(readFileSync(join(data, 'server.json'), 'utf8')) as { url: string; token: string };
    // Traffic that goes through every path that could log: a refused write key, an accepted call, a delivery.
    const running = { info } as RunningServe;
    expect(await post(running, '/v1/track', JSON.stringify({ writeKey: 'wk_unknown_0123456789', userId: 'u', event: 'E' }))).toBe(401);
    expect(await post(running, '/v1/track', JSON.stringify({ writeKey: secrets[0], userId: 'u', event: 'E' }))).toBe(200);
    await rx.waitFor(1);
    io.abort();
    expect(await exit).toBe(0);
    const printed = `${io.out()}${io.err()}${logged.join('\n')}`;
    expect(io.err()).toContain('config ');
    expect(io.err()).toContain('stopped.');
    for (const secret of [...secrets, 'wk_unknown_0123456789']) expect(printed).not.toContain(secret.replace(/^Bearer /, ''));
    expect(printed.split('\n').filter((line) => line.includes(info.token))).toEqual([`Hookbench ready: ${info.url}/?token=${info.token}`]);
  });
});

describe('hookbench show, reading a data dir itself (no serve)', () => {
  it('prints request headers and URLs masked, as the serve answers them', async () => {
    const rx = await newReceiver();
    const dataDir = newDataDir();
    const core = newCore({ dataDir });
    must(core.createDestination({ name: 'd', enabled: true, webhooks: [{ url: rx.url.replace('http://', 'http://ada:pw_0123456789@'), headers: { 'X-Api-Key': 'key_0123456789' } }] }));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    await core.close();
    const io = captureIO();
    expect(await runCli(['show', String(id), '--data-dir', dataDir], io.io)).toBe(0);
    expect(io.out()).toContain('request headers:');
    expect(io.out()).toContain('ke••••');
    expect(io.out()).not.toContain('0123456789');
  });
});

describe('hookbench receive prints what arrived, credentials masked', () => {
  it.each([[[] as string[]], [['--json']]])('receive %j', async (flags) => {
    const io = captureIO();
    const run = runCli(['receive', '--port', '0', ...flags], io.io, { receive: { tmpRoot: newDataDir() } });
    onCleanup(async () => {
      io.abort();
      await run;
    });
    await io.waitForOut('\n');
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())![1]!;
    const res = await request(`${url}/hook`, { method: 'POST', headers: { authorization: 'Bearer tok_0123456789', 'x-env': 'dev' }, body: '{}' });
    await res.body.dump();
    await io.waitForOut('dev');
    expect(io.out()).toContain('Be••••');
    expect(io.out()).not.toContain('0123456789');
  });
});
