/**
 * What this folder's origin, secrets and config tests
 * do not already cover. Static files never leave the UI folder, whatever the path's tricks; the API token is
 * taken from the Authorization header only; secrets appear in no answer of ANY read command, no event and no
 * export unless asked; every file and folder of a data dir is private to its user (docs/behaviour.md §9, §10).
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../main/contract/commands.js';
import { startWorkbench, type RunningWorkbench } from '../../../main/server/workbench.js';
import { openEventSocket } from '../../helpers/eventSocket.js';
import { newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';

async function workbench(options: { uiDir?: string | null; config?: unknown } = {}): Promise<RunningWorkbench> {
  const dir = newDataDir();
  let config: string | undefined;
  if (options.config) {
    config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify(options.config));
  }
  const running = await startWorkbench({ dataDir: join(dir, 'data'), config, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0, uiDir: options.uiDir ?? null });
  onCleanup(() => running.stop());
  return running;
}

/** The raw answer to a request line sent as is (no client library normalises the path). */
function rawGet(url: string, path: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), text }));
    socket.on('error', reject);
  });
}

describe('static files stay inside the UI folder', () => {
  it('no path trick reads a file outside it, and none answers 5xx (a malformed %-escape answered 500)', async () => {
    const root = newDataDir();
    const ui = join(root, 'ui');
    mkdirSync(join(root, 'ui-private'), { recursive: true });
    mkdirSync(ui);
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET-OUTSIDE');
    writeFileSync(join(root, 'ui-private', 'secret.txt'), 'TOP-SECRET-SIBLING');
    const running = await workbench({ uiDir: ui });
    const paths = [
      '/../secret.txt',
      '/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/....//secret.txt',
      '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/../ui-private/secret.txt',
      '/%2e%2e/ui-private/secret.txt',
      '//etc/passwd',
      '/%00',
      '/index.html%00.txt',
      '/%E0%A4%A',
      '/%',
      '/%zz',
      `/${'a/'.repeat(2000)}`,
    ];
    for (const path of paths) {
      const res = await rawGet(running.info.url, path);
      expect(res.status, path).toBeGreaterThan(0);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text, path).not.toContain('TOP-SECRET');
      expect(res.text, path).not.toContain('root:x:0');
    }
  });
});

describe('the API token', () => {
  it('is taken from the Authorization header only: not from the query string, not with junk around it, any length', async () => {
    const running = await workbench();
    const token = running.info.token;
    const call = async (path: string, headers: Record<string, string>) => {
      const res = await request(`${running.info.url}${path}`, { method: 'POST', headers, body: '{}' });
      await res.body.dump();
      return res.statusCode;
    };
    expect(await call('/api/getClock', { authorization: `Bearer ${token}` })).toBe(200);
    expect(await call(`/api/getClock?token=${token}`, {})).toBe(401);
    for (const wrong of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Basic ${token}`, token, `Bearer ${token.toUpperCase()}`, 'Bearer ', `Bearer ${'é'.repeat(48)}`, `Bearer ${'a'.repeat(10_000)}`]) {
      expect(await call('/api/getClock', { authorization: wrong }), wrong.slice(0, 40)).toBe(401);
    }
  });
});

describe('secrets in no answer, event or export unless asked (docs/behaviour.md §9)', () => {
  it('every read command of the typed API, the event stream and exports: none shows a secret', async () => {
    const rx = await newReceiver();
    const secrets = {
      writeKey: 'wk_SECRET_WRITE_KEY_1',
      shared: 'SECRET_SHARED_2',
      receiver: 'SECRET_RECEIVER_3',
      header: 'SECRET_HEADER_4',
      password: 'SECRET_PASSWORD_5',
    };
    const running = await workbench({
      config: {
        sources: [{ name: 'web', kind: 'web', writeKey: secrets.writeKey }],
        receivers: [{ name: 'rx', secret: secrets.receiver, script: 200 }],
        destinations: [
          {
            name: 'd',
            enabled: true,
            sources: ['web'],
            sharedSecret: secrets.shared,
            webhooks: [{ url: rx.url.replace('http://', `http://ada:${secrets.password}@`), headers: { 'X-Api-Key': secrets.header } }, { url: 'receiver:rx', headers: { Authorization: `Bearer ${secrets.header}` } }],
          },
        ],
      },
    });
    const { url, token } = running.info;
    const events: string[] = [];
    const ws = await openEventSocket(url, token);
    let sawCapture: () => void = () => undefined;
    const captured = new Promise<void>((resolve) => (sawCapture = resolve));
    ws.on('message', (data) => {
      events.push(String(data));
      if (String(data).includes('requestCaptured')) sawCapture();
    });

    // Traffic through every path that stores or shows something: an accepted call, a refused one (ingest log),
    // a delivery to both webhooks (attempts, captures with credential headers).
    const basic = `Basic ${Buffer.from(`${secrets.writeKey}:`).toString('base64')}`;
    for (const body of [{ userId: 'u1', event: 'E' }, { userId: 'u1' }]) {
      const res = await request(`${url}/v1/track`, { method: 'POST', headers: { authorization: basic }, body: JSON.stringify(body) });
      await res.body.dump();
    }
    const message = running.core.listMessages({});
    const id = message.ok ? message.value.items[0]!.id : 0;
    await settled(running.core, id);
    await captured;

    const api = async (command: string, input: unknown) => {
      const res = await request(`${url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(input) });
      return { status: res.statusCode, text: await res.body.text() };
    };
    const captures = JSON.parse((await api('listCaptures', {})).text) as { value: { items: { id: number }[] } };
    const inputs: Record<string, unknown> = {
      getMessage: { id },
      getReceiver: { name: 'rx' },
      getCapture: { id: captures.value.items[0]!.id },
      exportMessages: { format: 'har' },
    };
    const answered: string[] = [];
    for (const name of COMMAND_NAMES.filter((n) => /^(list|get|export)[A-Z]/.test(n))) {
      const res = await api(name, inputs[name] ?? {});
      if (res.status !== 200) continue; // a command that needs more input than this sweep gives
      answered.push(name);
      for (const secret of Object.values(secrets)) expect(res.text, `${name} shows ${secret}`).not.toContain(secret);
    }
    for (const format of ['json', 'har', 'curl']) {
      const res = await api('exportMessages', { format });
      for (const secret of Object.values(secrets)) expect(res.text, `export ${format}`).not.toContain(secret);
    }
    // Every list and get answered (the sweep did not skip them all).
    expect(answered).toEqual(expect.arrayContaining(['listMessages', 'getMessage', 'listDestinations', 'listSources', 'listReceivers', 'getReceiver', 'listCaptures', 'getCapture', 'listIngestLog', 'getSettings', 'exportMessages']));
    for (const frame of events) for (const secret of Object.values(secrets)) expect(frame, 'an event').not.toContain(secret);
    // Asked for, they are there.
    const revealed = await api('exportMessages', { format: 'curl', includeSecrets: true });
    expect(revealed.text).toContain(secrets.header);
  });
});

describe.skipIf(process.platform === 'win32')('file modes of a data dir (docs/behaviour.md §9 Files)', () => {
  it('after a serve with traffic and a receiver certificate: every folder 0700 and every file 0600, whatever the umask', async () => {
    const previous = process.umask(0o022);
    onCleanup(() => void process.umask(previous));
    const rx = await newReceiver();
    const running = await workbench({ config: { receivers: [{ name: 'rx', script: 200 }], destinations: [{ name: 'd', enabled: true, url: rx.url }] } });
    const sent = running.core.sendMessage({ type: 'track', call: { userId: 'u', event: 'E' } });
    if (sent.ok) await settled(running.core, sent.value.message.id);
    const https = await request(`${running.info.receiverTlsUrl}/r/rx`, { method: 'POST', body: '{}', dispatcher: new (await import('undici')).Agent({ connect: { rejectUnauthorized: false } }) });
    await https.body.dump();
    const modes: string[] = [];
    const walk = (dir: string) => {
      modes.push(`${dir.slice(running.dataDir.length) || '/'} ${(statSync(dir).mode & 0o777).toString(8)}`);
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else modes.push(`${path.slice(running.dataDir.length)} ${(statSync(path).mode & 0o777).toString(8)}`);
      }
    };
    walk(running.dataDir);
    expect(modes.length).toBeGreaterThan(5);
    for (const line of modes) {
      const [path, mode] = line.split(' ');
      const isDir = statSync(join(running.dataDir, path!)).isDirectory();
      expect(mode, path).toBe(isDir ? '700' : '600');
    }
  });
});
