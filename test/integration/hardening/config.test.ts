/**
 * Configuration that can never work is refused when it is given, naming the field, through
 * every door: the config file (`hookbench serve --config`, applyConfig), the typed API and `hookbench send`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/program.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import type { HookbenchConfig } from '../../../main/contract/config.js';
import { dispatch } from '../../../main/contract/dispatch.js';
import type { MessageDetail } from '../../../main/contract/messages.js';
import type { Result } from '../../../main/contract/result.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { applyConfig } from '../../../main/app/config.js';
import { internalsOf, type Core } from '../../../main/app/createCore.js';
import { captureIO } from '../../helpers/cliIO.js';
import { must, newCore, newDataDir, newReceiver, onCleanup, sendTrack, settled } from '../../helpers/harness.js';

const silentIO = { stdout: () => undefined, stderr: () => undefined };

async function serveWith(config: unknown): Promise<void> {
  const dir = newDataDir();
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const running = await startServe({ config: file, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  onCleanup(() => running.stop());
}

describe('a config file is as strict as the API (docs/behaviour.md §10)', () => {
  it('hookbench serve --config refuses an unknown destination key with its path and a "did you mean"', async () => {
    await expect(serveWith({ destinations: [{ name: 'd', url: 'http://127.0.0.1:9/hook', secret: 's3cret' }] })).rejects.toThrow(
      /destinations\[0\]\.secret: unknown field \(did you mean "sharedSecret"\?\)/,
    );
    await expect(serveWith({ destinations: [{ name: 'd', url: 'http://127.0.0.1:9/hook', timeoutms: 100 }] })).rejects.toThrow(
      /destinations\[0\]\.timeoutms: unknown field \(did you mean "timeoutMs"\?\)/,
    );
  });

  it('applyConfig refuses it too, for a new destination and for one that exists; nothing is applied', () => {
    const core = newCore();
    const bad = { sources: [], receivers: [], destinations: [{ name: 'd', url: 'http://127.0.0.1:9/hook', secret: 's3cret' }] } as unknown as HookbenchConfig;
    expect(applyConfig(core, bad)).toMatchObject({ ok: false, error: { field: 'destinations[0].secret', message: expect.stringContaining('did you mean "sharedSecret"?') } });
    expect(must(core.listDestinations()).items).toEqual([]);
    must(core.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook' }));
    expect(applyConfig(core, bad)).toMatchObject({ ok: false, error: { field: 'destinations[0].secret', message: expect.stringContaining('did you mean "sharedSecret"?') } });
    expect(must(core.listDestinations()).items[0]!.sharedSecret).toBeNull();
  });

  it('the API says "did you mean" too', () => {
    const core = newCore();
    expect(core.createDestination({ name: 'd', secret: 'x' } as never)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', field: 'secret', message: 'secret: unknown field (did you mean "sharedSecret"?)' },
    });
    expect(core.createDestination({ name: 'd', webhooks: [{ url: 'http://127.0.0.1:9/hook', header: {} }] } as never)).toMatchObject({
      ok: false,
      error: { field: 'webhooks[0].header', message: expect.stringContaining('did you mean "headers"?') },
    });
  });
});

/** The lines of a config's refusal (the test fails if it was applied). */
function refusalLines(result: ReturnType<typeof applyConfig>): string[] {
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.error.message.split('\n');
}

/** applyConfig's options that apply the receivers too, as serve does. */
const withReceivers = (core: Core) => ({ applyReceivers: (receivers: Parameters<Core['receivers']['applyConfig']>[0]) => core.receivers.applyConfig(receivers) as never });

describe('a config file with several problems names them all at once (docs/behaviour.md §10)', () => {
  /** `hookbench serve --config FILE` with this text; its exit code and stderr. */
  async function serveConfigText(text: string): Promise<{ code: number; err: string; file: string }> {
    const dir = newDataDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, text);
    const c = captureIO();
    const code = await runCli(['serve', '--config', file, '--data-dir', join(dir, 'data'), '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], c.io);
    return { code, err: c.err(), file };
  }

  it('every schema problem, each unknown key on its own line with its path', async () => {
    const config = {
      sources: [{ name: 's', kind: 'desktop' }],
      destinations: [
        { name: 'd', url: 'http://127.0.0.1:9/h', secret: 'x', timeoutms: 5 },
        { name: 'e', webhooks: Array.from({ length: 6 }, () => ({ url: 'http://127.0.0.1:9/h' })) },
      ],
    };
    const r = await serveConfigText(JSON.stringify(config, null, 2));
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      [
        `hookbench serve: config ${r.file}: 4 problems:`,
        '  sources[0].kind: must be one of web, mobile, server (got "desktop")',
        '  destinations[0].secret: unknown field (did you mean "sharedSecret"?)',
        '  destinations[0].timeoutms: unknown field (did you mean "timeoutMs"?)',
        '  destinations[1].webhooks[5]: at most 5 webhooks (got 6)',
        '',
      ].join('\n'),
    );
  });

  it('every entry the workbench refuses when applying it, and nothing of the file is applied', async () => {
    const core = newCore();
    const config = {
      sources: [{ name: 'web', kind: 'web' }],
      receivers: [],
      destinations: [
        { name: 'd', url: 'http://127.0.0.1:9/h', sources: ['nope'] },
        { name: 'ok', url: 'http://127.0.0.1:9/h', sources: ['web'] },
        { name: 'e', url: 'http://127.0.0.1:9/h', sources: ['nah'] },
      ],
    } as unknown as HookbenchConfig;
    expect(applyConfig(core, config)).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        field: 'destinations[0].sources[0]',
        message: '2 problems:\n  destinations[0].sources[0]: no source named or with id "nope"; the sources are "web"\n  destinations[2].sources[0]: no source named or with id "nah"; the sources are "web"',
      },
    });
    expect(must(core.listDestinations()).items).toEqual([]);
    expect(must(core.listSources()).items).toEqual([]);
  });

  it("every problem of the receivers too, each on its line (none left behind '(and 1 more problem)')", () => {
    const core = newCore();
    const config = { sources: [], destinations: [], receivers: [{ name: 'bad name!', script: '500,abc' }] } as unknown as HookbenchConfig;
    expect(refusalLines(applyConfig(core, config, withReceivers(core)))).toEqual([
      '2 problems:',
      '  receivers[0].name: must start with a letter or digit and use only letters, digits, ".", "_" and "-" (it is a URL path segment; got "bad name!")',
      '  receivers[0].script: item 2 ("abc") is not a step: give a status code (200-599), never, reset or close',
    ]);
  });

  it('a receiver name given twice is named beside every other problem, in the order of the file, not alone', () => {
    const core = newCore();
    const config = {
      sources: [],
      destinations: [],
      receivers: [
        { name: 'dup', script: 200 },
        { name: 'a', script: 0 },
        { name: 'dup', script: '200,,500' },
        { name: 'b', script: { status: 200, delayMs: 9999999 } },
        { name: 'c', secret: '' },
      ],
    } as unknown as HookbenchConfig;
    expect(refusalLines(applyConfig(core, config, withReceivers(core)))).toEqual([
      '5 problems:',
      '  receivers[1].script: must be an HTTP status code from 200 to 599 (got 0)',
      '  receivers[2].script: item 2 is empty: give a status code (200-599), never, reset or close',
      '  receivers[2].name: "dup" is given twice (first at index 0)',
      '  receivers[3].script.delayMs: must be at most 600000 ms (10 minutes; got 9999999)',
      '  receivers[4].secret: must not be empty (omit it or use null for no signature check)',
    ]);
    expect(core.receivers.listReceivers()).toMatchObject({ ok: true, value: { items: [] } }); // nothing applied
  });

  it('every problem of one destination at once, not one per start', () => {
    const core = newCore();
    const config = {
      sources: [],
      receivers: [],
      destinations: [{ name: 'd', enabled: true, webhooks: [], sources: ['nope', 'nah'], caFile: '/no/such/ca.pem', sharedSecret: 'ab••••' }],
    } as unknown as HookbenchConfig;
    expect(refusalLines(applyConfig(core, config))).toEqual([
      '5 problems:',
      '  destinations[0].sharedSecret: this is a masked value (••••), not a secret; send the secret itself',
      '  destinations[0].enabled: a destination cannot be enabled without at least one webhook',
      '  destinations[0].sources[0]: no source named or with id "nope"; there is no source yet',
      '  destinations[0].sources[1]: no source named or with id "nah"; there is no source yet',
      expect.stringMatching(/^ {2}destinations\[0\]\.caFile: /),
    ]);
    // The API answers the first, and the others in problems.
    const api = core.createDestination({ name: 'd2', url: 'http://127.0.0.1:9/h', sources: ['nope', 'nah'] });
    expect(api).toMatchObject({ ok: false, error: { field: 'sources[0]', message: 'sources[0]: no source named or with id "nope"; there is no source yet (and 1 more problem)', problems: [{ field: 'sources[1]' }] } });
  });

  it('a JSON syntax error says its line and column, with the line and a caret', async () => {
    const r = await serveConfigText('{\n  "sources": [\n    {"name": "s", "kind": "web",}\n  ]\n}\n');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `hookbench serve: config ${r.file}: invalid JSON at line 3, column 33 (position 49): trailing comma before '}' (JSON does not allow one)\n` +
        '      {"name": "s", "kind": "web",}\n' +
        '                                  ^\n',
    );
  });
});

/** `hookbench send` in-process, in a throw-away data dir under a temp folder; the exit code and stderr. */
async function send(args: string[]): Promise<{ code: number; err: string; out: string }> {
  const c = captureIO();
  const code = await runCli(['send', 'track', '--data', '{"userId":"u1","event":"E"}', ...args], c.io, { send: { tmpRoot: newDataDir() } });
  return { code, err: c.err(), out: c.out() };
}

describe('webhook URLs (docs/behaviour.md §2 Webhooks)', () => {
  it.each([
    ['a CR/LF inside', 'http://127.0.0.1:9/hook\r\nX-Injected: 1', 'must not contain control characters (CR at position 23)'],
    ['a LF at the end', 'http://127.0.0.1:9/hook\n', 'must not contain control characters (LF at position 23)'],
    ['a tab', 'http://127.0.0.1:9/ho\tok', 'must not contain control characters (tab at position 21)'],
    ['no host (http:///path)', 'http:///hook', 'has no host'],
    ['an empty host after credentials', 'http://user:pw@/hook', 'has no host'],
    ['a bad percent-escape in its credentials', 'http://us%zzer:pw@127.0.0.1:9/hook', 'user name or password'],
    ['a space (requested as %20, shown and stored with the space)', 'http://127.0.0.1:9/ho ok', 'a space at position 21 is not allowed in a URL: write it percent-encoded (%20)'],
    ['a "|"', 'http://127.0.0.1:9/a|b', '"|" at position 20 is not allowed in a URL: write it percent-encoded (%7C)'],
  ])('%s is refused at configuration time, naming the field: API, config file and hookbench send', async (_what, url, message) => {
    const core = newCore();
    expect(core.createDestination({ name: 'd', url })).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'url', message: expect.stringContaining(message) } });
    expect(core.createDestination({ name: 'd', webhooks: [{ url }] })).toMatchObject({ ok: false, error: { field: 'webhooks[0].url' } });
    const d = must(core.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook' }));
    expect(core.updateDestination({ id: d.id, patch: { webhooks: [{ url: 'http://127.0.0.1:9/ok' }, { url }] } })).toMatchObject({ ok: false, error: { field: 'patch.webhooks[1].url' } });
    const refused = await serveWith({ destinations: [{ name: 'd', webhooks: [{ url }] }] }).then(() => null, (e: Error) => e.message);
    expect(refused).toContain('destinations[0].webhooks[0].url: ');
    expect(refused).toContain(message);
    const cli = await send(['--to', url]);
    expect(cli.code).toBe(2);
    expect(cli.err).toContain('webhooks[0].url');
    expect(cli.err).toContain('(--to)');
  });

  it('user:password@ in a URL is sent as Authorization: Basic (as curl does), masked in answers and redacted in exports', async () => {
    const rx = await newReceiver();
    const core = newCore();
    const withCredentials = rx.url.replace('http://', 'http://ada:p%40ss%20word@');
    must(core.createDestination({ name: 'd', enabled: true, url: withCredentials }));
    const id = sendTrack(core, 'd');
    expect((await settled(core, id)).message.status).toBe('delivered');
    const expected = `Basic ${Buffer.from('ada:p@ss word').toString('base64')}`;
    expect(rx.captured[0]!.headers['authorization']).toBe(expected);
    expect(rx.captured[0]!.path).toBe('/hook');
    const handlers = createCommandHandlers(core);
    const detail = (await dispatch(handlers, 'getMessage', { id })) as Result<MessageDetail>;
    const attempt = must(detail).attempts[0]!;
    expect(attempt.url).toBe(rx.url.replace('http://', 'http://ada:••••@'));
    expect(attempt.requestHeaders['authorization']).toBe('Ba••••');
    const exported = must(await dispatch(handlers, 'exportMessages', { ids: [id], format: 'curl' })) as { text: string };
    expect(exported.text).not.toContain(expected.slice('Basic '.length));
    expect(exported.text).not.toContain('p%40ss');
    // A user name alone is a credential too (sent as "ada:"), and masked in answers.
    const userOnly = rx.url.replace('http://', 'http://tok_0123456789@');
    const listed = must(await dispatch(handlers, 'createDestination', { name: 'u', enabled: true, url: userOnly })) as { webhooks: { url: string }[] };
    expect(listed.webhooks[0]!.url).toBe(rx.url.replace('http://', 'http://to••••@'));
    const second = must(core.sendMessage({ type: 'track', call: { userId: 'u', event: 'E' }, destinations: ['u'] })).message.id;
    await settled(core, second);
    expect(rx.captured[1]!.headers['authorization']).toBe(`Basic ${Buffer.from('tok_0123456789:').toString('base64')}`);
  });

  it('updateDestination keeps masked URL credentials sent back unchanged, and refuses other masked values', async () => {
    const core = newCore();
    const handlers = createCommandHandlers(core);
    const created = must(await dispatch(handlers, 'createDestination', { name: 'd', url: 'https://ada:pw_0123456789@example.test/hook' })) as { id: string; webhooks: { url: string }[] };
    const masked = created.webhooks[0]!.url;
    expect(masked).toBe('https://ada:••••@example.test/hook');
    expect((await dispatch(handlers, 'updateDestination', { id: created.id, patch: { webhooks: [{ url: masked }] } })).ok).toBe(true);
    expect(core.findDestination('d')!.webhooks[0]!.url).toBe('https://ada:pw_0123456789@example.test/hook');
    const other = await dispatch(handlers, 'updateDestination', { id: created.id, patch: { webhooks: [{ url: 'https://bob:••••@example.test/hook' }] } });
    expect(other).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'patch.webhooks[0].url' } });
    const header = await dispatch(handlers, 'updateDestination', { id: created.id, patch: { webhooks: [{ url: masked, headers: { 'X-Api-Key': 'ke••••' } }] } });
    expect(header).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'patch.webhooks[0].headers.X-Api-Key' } });
    // Nothing to restore a masked value from: refused when created, in the API and in a config file.
    expect(await dispatch(handlers, 'createDestination', { name: 'e', webhooks: [{ url: 'https://example.test/', headers: { Authorization: 'Be••••' } }] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', field: 'webhooks[0].headers.Authorization', message: expect.stringContaining('masked value') },
    });
    const refused = await serveWith({ destinations: [{ name: 'e', webhooks: [{ url: 'https://ada:••••@example.test/' }] }] }).then(() => null, (e: Error) => e.message);
    expect(refused).toContain('destinations[0].webhooks[0].url: this is a masked value');
  });

  it('hookbench send --to with credentials sends them as Basic auth and prints the URL masked', async () => {
    const rx = await newReceiver();
    const sent = await send(['--to', rx.url.replace('http://', 'http://ada:pw_0123456789@')]);
    expect(sent.code).toBe(0);
    expect(rx.captured[0]!.headers['authorization']).toBe(`Basic ${Buffer.from('ada:pw_0123456789').toString('base64')}`);
    expect(sent.out).toContain(rx.url.replace('http://', 'http://ada:••••@'));
    expect(`${sent.out}${sent.err}`).not.toContain('pw_0123456789');
    const json = await send(['--json', '--to', rx.url.replace('http://', 'http://ada:pw_0123456789@')]);
    expect(json.code).toBe(0);
    expect(`${json.out}${json.err}`).not.toContain('pw_0123456789');
  });

  it('a static Authorization header wins over URL credentials, as with curl -H', async () => {
    const rx = await newReceiver();
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, webhooks: [{ url: rx.url.replace('http://', 'http://ada:pw@'), headers: { Authorization: 'Bearer static' } }] }));
    await settled(core, sendTrack(core, 'd'));
    expect(rx.captured[0]!.headers['authorization']).toBe('Bearer static');
  });
});

describe('static header values (docs/behaviour.md §2 Static headers)', () => {
  const message = 'webhooks[0].headers.X-Name: "✓" (U+2713) at position 5 cannot be sent: HTTP header values carry only Latin-1 characters';

  it('a value HTTP cannot carry is refused at configuration time naming the header: API, config file and hookbench send', async () => {
    const core = newCore();
    const url = 'http://127.0.0.1:9/hook';
    expect(core.createDestination({ name: 'd', webhooks: [{ url, headers: { 'X-Name': 'café ✓' } }] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', field: 'webhooks[0].headers.X-Name', message },
    });
    expect(core.createDestination({ name: 'd', webhooks: [{ url, headers: { 'X-Bell': 'a\u0007b' } }] })).toMatchObject({
      ok: false,
      error: { field: 'webhooks[0].headers.X-Bell', message: expect.stringContaining('U+0007') },
    });
    const d = must(core.createDestination({ name: 'd', url }));
    expect(core.updateDestination({ id: d.id, patch: { webhooks: [{ url, headers: { 'X-Name': 'café ✓' } }] } })).toMatchObject({
      ok: false,
      error: { field: 'patch.webhooks[0].headers.X-Name' },
    });
    const refused = await serveWith({ destinations: [{ name: 'd', webhooks: [{ url, headers: { 'X-Name': 'café ✓' } }] }] }).then(() => null, (e: Error) => e.message);
    expect(refused).toContain(`destinations[0].${message}`);
    const cli = await send(['--to', url, '--header', 'X-Name: café ✓']);
    expect(cli.code).toBe(2);
    expect(cli.err).toContain(`${message} (--header)`);
  });

  it('Latin-1 and tabs are accepted and arrive as sent', async () => {
    const rx = await newReceiver();
    const core = newCore();
    must(core.createDestination({ name: 'd', enabled: true, webhooks: [{ url: rx.url, headers: { 'X-Name': 'café\tdéjà' } }] }));
    expect((await settled(core, sendTrack(core, 'd'))).message.status).toBe('delivered');
    expect(rx.captured[0]!.headers['x-name']).toBe('café\tdéjà');
  });
});

describe('destinations saved under older, looser rules', () => {
  it('are named at serve start, with the field and why, and nothing is changed', async () => {
    const dir = newDataDir();
    const dataDir = join(dir, 'data');
    const core = newCore({ dataDir });
    const saved = must(core.createDestination({ name: 'Old hook', enabled: true, url: 'http://127.0.0.1:9/ok' }));
    // As an older version could have stored it: a URL with CR/LF, and a header value HTTP cannot carry.
    internalsOf(core).store.config.saveDestination({ ...saved, webhooks: [{ url: 'http://127.0.0.1:9/a\r\nX-Evil: 1', headers: {} }, { url: 'http://127.0.0.1:9/b', headers: { 'X-Team': 'Zürich ✓' } }] }, false);
    await core.close();
    const reopened = newCore({ dataDir });
    expect(reopened.destinationProblems().map((p) => p.field)).toEqual(['webhooks[0].url', 'webhooks[1].headers.X-Team']);
    await reopened.close();

    const { io, err } = captureIO();
    const running = await startServe({ data: dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, io);
    onCleanup(() => running.stop());
    const lines = err().split('\n').filter((l) => l.includes('Old hook'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/destination "Old hook" has a webhook today's rules refuse: webhooks\[0\]\.url: .*fix it/);
    expect(lines[1]).toMatch(/webhooks\[1\]\.headers\.X-Team/);
    // Reported, not rewritten.
    expect(running.core.findDestination('Old hook')!.webhooks).toHaveLength(2);
  });
});
