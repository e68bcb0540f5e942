/**
 * One masking rule for every face (docs/behaviour.md §9): against a fixture full of secret-looking values
 * (URL passwords and user names, credential query parameters, credential headers, a receiver's credential
 * response headers, shared, receiver and write keys, and write keys in calls spelled `writeKey`, `WriteKey`,
 * `write_key` or with JSON escapes), EVERY
 * command of the command table, every event type, every export format and the CLI's `show`, `tail` and
 * `info` print no secret. The command and event lists come from the contract, so a new one is swept too (or
 * fails here until the sweep knows what input it needs). And editing a destination whose URL carries an
 * `api_key` keeps the key: what the form sends back masked is restored from what is stored.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, type CommandName } from '../../../main/contract/api.js';
import { COMMAND_NAMES } from '../../../main/contract/commands.js';
import { ENGINE_EVENT_TYPES } from '../../../main/contract/events.js';
import type { Destination } from '../../../main/contract/destinations.js';
import type { MessageDetail, Page } from '../../../main/contract/messages.js';
import { runCli, type CliDeps } from '../../../main/cli/program.js';
import { startServe, type RunningServe } from '../../../main/cli/commands/serve.js';
import { dispatch } from '../../../main/contract/dispatch.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { captureIO } from '../../helpers/cliIO.js';
import { startCommand } from '../../helpers/cliRun.js';
import { openEventSocket } from '../../helpers/eventSocket.js';
import { must, newCore, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

const S = {
  writeKey: 'wk_SECRET_WRITE_KEY_01',
  shared: 'SECRET_SHARED_02',
  receiver: 'SECRET_RECEIVER_03',
  apiKeyHeader: 'SECRET_API_KEY_HEADER_04',
  bearer: 'SECRET_BEARER_05',
  session: 'SECRET_SESSION_06',
  password: 'SECRET_PASSWORD_07',
  userOnly: 'SECRET_USER_ONLY_08',
  queryApiKey: 'SECRET_QUERY_API_KEY_09',
  queryToken: 'SECRET_QUERY_TOKEN_10',
  queryAccessKey: 'SECRET_QUERY_ACCESS_KEY_11',
  cookie: 'SECRET_COOKIE_12',
  newWriteKey: 'wk_SECRET_NEW_WRITE_KEY_13',
  newShared: 'SECRET_NEW_SHARED_14',
  newQuery: 'SECRET_NEW_QUERY_15',
  newReceiver: 'SECRET_NEW_RECEIVER_16',
  flakyQuery: 'SECRET_FLAKY_QUERY_17',
  receiverQuery: 'SECRET_RECEIVER_QUERY_18',
  responseCookie: 'SECRET_RESPONSE_COOKIE_19',
  echoToken: 'SECRET_ECHO_TOKEN_20',
} as const;
const SECRETS = Object.values(S);

/** The one command that shows a secret in clear, on purpose. */
const REVEALS: readonly CommandName[] = ['revealSecret'];

const silent = { stdout: () => undefined, stderr: () => undefined };
const DEPS: CliDeps = { tail: { retryMs: { min: 10, max: 50 }, timeZone: 'UTC' } };

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) expect.soft(text, `${where} shows ${secret}`).not.toContain(secret);
}

const startCli = (argv: string[]) => startCommand(argv, DEPS);

async function post(url: string, path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.body.dump();
  return res.statusCode;
}

describe('one masking rule: no secret in any answer, event, export or CLI output (docs/behaviour.md §9)', () => {
  it('every command of the command table, every event type, every export format, and show, tail and info', async () => {
    // The receiver answers with credentials of its own: the request rule masks response headers too.
    const rx = await newReceiver(status(200, { 'Set-Cookie': `sid=${S.responseCookie}; HttpOnly`, 'X-Echo-Token': S.echoToken }));
    const failing = await newReceiver(status(500));
    const dir = newDataDir();
    const config = join(dir, 'config.json');
    const hook = new URL(rx.url);
    writeFileSync(
      config,
      JSON.stringify({
        sources: [{ name: 'web', kind: 'web', writeKey: S.writeKey }],
        receivers: [{ name: 'rx', secret: S.receiver, script: 200 }],
        destinations: [
          {
            name: 'd',
            enabled: true,
            sources: ['web'],
            sharedSecret: S.shared,
            webhooks: [
              {
                url: `http://ada:${S.password}@${hook.host}/hook?api_key=${S.queryApiKey}&keep=plain&Token=${S.queryToken}`,
                headers: { 'X-Api-Key': S.apiKeyHeader, 'X-Session-Id': S.session },
              },
              { url: 'receiver:rx', headers: { Authorization: `Bearer ${S.bearer}`, Cookie: `sid=${S.cookie}` } },
              { url: `http://${S.userOnly}@${hook.host}/user-only?access_key=${S.queryAccessKey}` },
            ],
          },
          { name: 'flaky', enabled: true, sources: ['web'], url: `${failing.url}?token=${S.flakyQuery}` },
        ],
      }),
    );
    const running: RunningServe = await startServe({ config, dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silent);
    onCleanup(() => running.stop());
    const { url } = running.info;
    let token = running.info.token;
    // The mock receiver's own URL with a credential in its query: the capture's path holds it.
    must(running.core.createDestination({ name: 'rxq', enabled: true, sources: ['web'], url: `${running.info.receiverUrl}/r/rx?api_key=${S.receiverQuery}` }));

    // Every frame of the event stream, from before the first call.
    const frames: string[] = [];
    const ws = await openEventSocket(url, token);
    ws.on('message', (data) => frames.push(String(data)));
    const human = startCli(['tail', '--data-dir', running.dataDir]);
    const json = startCli(['tail', '--json', '--data-dir', running.dataDir]);
    await human.c.waitForErr('tailing Hookbench at');
    await json.c.waitForErr('tailing Hookbench at');

    // Calls carrying the write key under every spelling: accepted ones (Basic auth; the key in the body, its
    // name escaped) and refused ones (the ingest log keeps a preview of the body; an unknown key).
    const basic = { authorization: `Basic ${Buffer.from(`${S.writeKey}:`).toString('base64')}` };
    expect(await post(url, '/v1/track', JSON.stringify({ userId: 'u1', event: 'Signed Up', WriteKey: S.writeKey, write_key: S.writeKey, 'Write-Key': S.writeKey }), basic)).toBe(200);
    expect(await post(url, '/v1/track', `{"write\\u004bey":"${S.writeKey}","userId":"u2","event":"Escaped"}`)).toBe(200);
    expect(await post(url, '/v1/track', `{"write\\u004bey":"${S.writeKey}","WriteKey":"${S.writeKey}","write_key":"${S.writeKey}","userId":"u3"}`)).toBe(400);
    expect(await post(url, '/v1/track', `{"wri\\u0074e_key":"${S.writeKey}","userId":"u3"}`, basic)).toBe(400);
    expect(await post(url, '/v1/track', `{"writeKey":"${S.writeKey}x","userId":"u4","event":"E"}`)).toBe(401);
    const ids = must(running.core.listMessages({})).items.map((m) => m.id);
    const [escapedId, firstId] = ids;
    for (const id of ids) await settled(running.core, id!);
    await rx.waitFor(4);
    await expect.poll(() => must(running.core.receivers.listCaptures({})).items.length).toBeGreaterThanOrEqual(4);
    // A client that gives up before a delayed answer: the capture's update is masked as the capture is.
    must(running.core.receivers.createReceiver({ name: 'slowrx', secret: null, refuseInvalidSignatures: false, script: { mode: 'sequence', after: 'repeat-last', steps: [{ action: 'respond', status: 200, headers: {}, body: '', delayMs: 60_000, retryAfter: null }] } }));
    const gaveUp = request(`${running.info.receiverUrl}/r/slowrx?api_key=${S.receiverQuery}`, { method: 'POST', body: '{}', headers: { authorization: `Bearer ${S.bearer}` }, headersTimeout: 50 });
    await gaveUp.then(() => undefined, () => undefined);
    await expect.poll(() => frames.some((f) => f.includes('"captureUpdated"'))).toBe(true);

    const api = async (command: string, input: unknown) => {
      const res = await request(`${url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(input) });
      return { status: res.statusCode, text: await res.body.text() };
    };
    const value = <T>(text: string) => (JSON.parse(text) as { value: T }).value;
    const captureId = value<Page<{ id: number }>>((await api('listCaptures', {})).text).items[0]!.id;
    const exported = must(running.core.exportMessages({ format: 'json', ids: [firstId!] })).text;
    const audience = must(running.core.createAudience({ source: 'web', name: 'Kept', members: ['u1'] })).audience;
    const trait = must(running.core.createComputedTrait({ source: 'web', name: 'Score', values: { u1: 1 } })).computedTrait;
    let created = { audience: '', trait: '', checkRun: 0, runningCheck: 0 };

    // Every command, in the table's order (create, update, delete of one object follow each other), the token
    // rotated last. An input each: a command the table gains fails here until it has one.
    const inputs: { [K in CommandName]: () => unknown } = {
      sendMessage: () => ({ type: 'track', source: 'web', call: { userId: 'u5', event: 'Composed', WriteKey: S.writeKey, write_key: S.writeKey } }),
      sendMessages: () => ({ messages: [{ type: 'track', source: 'web', call: { userId: 'u6', event: 'Composed', WriteKey: S.writeKey } }] }),
      listMessages: () => ({}),
      getMessage: () => ({ id: firstId }),
      retryNow: () => ({ id: firstId }),
      cancelMessage: () => ({ id: firstId }),
      exportMessages: () => ({ format: 'json' }),
      replayMessage: () => ({ id: firstId }),
      importMessages: () => ({ text: exported }),
      getRetention: () => ({}),
      setRetention: () => ({ maxMessages: 100_000 }),
      getDiagnostics: () => ({}),
      explainMessage: () => ({ id: firstId }),
      listRoutingInputs: () => ({}),
      advanceClock: () => ({ ms: 1000 }),
      advanceToNextRetry: () => ({}),
      cancelClockAdvance: () => ({}),
      resetClock: () => ({}),
      getClock: () => ({}),
      setFastForward: () => ({ enabled: false }),
      getOverview: () => ({}),
      pauseForwarding: () => ({}),
      resumeForwarding: () => ({}),
      getSettings: () => ({}),
      rotateToken: () => ({}),
      revealSecret: () => ({ kind: 'destination', id: 'd' }),
      useOneSecret: () => ({ destinationId: 'd', receiver: 'rx' }),
      listDestinations: () => ({}),
      createDestination: () => ({
        name: 'new',
        sources: ['web'],
        sharedSecret: S.newShared,
        webhooks: [{ url: `${rx.url}?apikey=${S.newQuery}`, headers: { 'X-Auth-Token': S.newQuery } }],
      }),
      updateDestination: () => ({ id: 'new', patch: { name: 'renamed' } }),
      deleteDestination: () => ({ id: 'renamed' }),
      listDestinationStats: () => ({}),
      getDestinationTimeline: () => ({ id: 'd' }),
      listSources: () => ({}),
      createSource: () => ({ name: 'second', kind: 'server', writeKey: S.newWriteKey }),
      updateSource: () => ({ id: 'second', patch: { kind: 'mobile' } }),
      deleteSource: () => ({ id: 'second' }),
      listSourceUsage: () => ({}),
      listIngestLog: () => ({}),
      createDeletionRequest: () => ({ userId: 'u1' }),
      listDeletionRequests: () => ({}),
      createAudience: () => ({ source: 'web', name: 'Made here', members: ['u1', 'u2'] }),
      updateAudience: () => ({ id: created.audience, patch: { members: ['u2'] } }),
      syncAudience: () => ({ id: audience.id }),
      deleteAudience: () => ({ id: created.audience }),
      listAudiences: () => ({}),
      getAudience: () => ({ id: audience.id }),
      previewAudience: () => ({ source: 'web', members: ['u1'] }),
      createComputedTrait: () => ({ source: 'web', name: 'Made here too', values: { u1: 2 } }),
      updateComputedTrait: () => ({ id: created.trait, values: { u1: 3 } }),
      syncComputedTrait: () => ({ id: trait.id }),
      deleteComputedTrait: () => ({ id: created.trait }),
      listReceivers: () => ({}),
      getReceiver: () => ({ name: 'rx' }),
      createReceiver: () => ({ name: 'rx2', secret: S.newReceiver, script: 200 }),
      updateReceiver: () => ({ name: 'rx2', patch: { script: 201 } }),
      deleteReceiver: () => ({ name: 'rx2' }),
      listCaptures: () => ({}),
      getCapture: () => ({ id: captureId }),
      clearCaptures: () => ({}),
      runCheck: () => ({ url: `${rx.url}?api_key=${S.newQuery}`, secret: S.newShared, headers: { 'X-Api-Key': S.newQuery }, only: ['shapes.track'], capacity: { seconds: 1 }, wait: true }),
      stopCheckRun: () => ({ id: created.runningCheck }),
      getCheckRun: () => ({ id: created.checkRun }),
      listCheckRuns: () => ({}),
    };
    expect(Object.keys(inputs).sort()).toEqual([...COMMAND_NAMES].sort());
    const order = [...COMMAND_NAMES.filter((n) => n !== 'rotateToken'), 'rotateToken' as const];
    const answers = new Map<CommandName, string>();
    for (const name of order) {
      if (name === 'rotateToken') {
        // tail follows server.json; its output is checked before the token changes under it.
        await human.c.waitForOut('#');
        // The event stream's batches before the token changes under it (the check's events come last).
        await expect.poll(() => frames.some((f) => f.includes('"checkRunFinished"')), { timeout: 10_000 }).toBe(true);
      }
      // A run to stop: five minutes of capacity, surely still running when the stop comes.
      if (name === 'stopCheckRun') created = { ...created, runningCheck: value<{ id: number }>((await api('runCheck', { url: rx.url, only: ['capacity.sustained-rate'], capacity: { seconds: 300 } })).text).id };
      const res = await api(name, inputs[name]());
      expect(res.status, `${name}: ${res.text.slice(0, 300)}`).toBe(200);
      answers.set(name, res.text);
      if (name === 'createAudience') created = { ...created, audience: value<{ audience: { id: string } }>(res.text).audience.id };
      if (name === 'createComputedTrait') created = { ...created, trait: value<{ computedTrait: { id: string } }>(res.text).computedTrait.id };
      if (name === 'runCheck') created = { ...created, checkRun: value<{ id: number }>(res.text).id };
      if (name === 'rotateToken') token = value<{ token: string }>(res.text).token;
      if (!REVEALS.includes(name)) expectNoSecret(res.text, name);
    }
    for (const format of EXPORT_FORMATS) expectNoSecret((await api('exportMessages', { format })).text, `export ${format}`);

    // What the masked answers look like: the mask keeps the first two characters, the rest of a URL as written.
    const listed = value<Page<Destination>>(answers.get('listDestinations')!).items.find((d) => d.name === 'd')!;
    expect(listed.webhooks[0]!.url).toBe(`http://ada:••••@${hook.host}/hook?api_key=SE••••&keep=plain&Token=SE••••`);
    expect(listed.webhooks[0]!.headers).toEqual({ 'X-Api-Key': 'SE••••', 'X-Session-Id': 'SE••••' });
    expect(listed.webhooks[2]!.url).toBe(`http://SE••••@${hook.host}/user-only?access_key=SE••••`);
    const detail = value<MessageDetail>(answers.get('getMessage')!);
    expect(detail.message.call).toMatchObject({ WriteKey: 'wk••••', write_key: 'wk••••', 'Write-Key': 'wk••••' });
    // Destination d's first webhook (the failing one's URL is /hook? too, and its attempt may be recorded first).
    expect(detail.attempts.find((a) => a.url.includes('/hook?api_key='))!.responseHeaders).toMatchObject({ 'set-cookie': 'si••••', 'x-echo-token': 'SE••••' });
    expect(answers.get('getCheckRun')).toMatch(/"set-cookie":"si••••"/);
    const log = answers.get('listIngestLog')!;
    expect(log).toContain('wk_…01');
    expect(escapedId).toBeGreaterThan(0);

    // Every event type went by, none with a secret.
    const seen = new Set(frames.flatMap((f) => (JSON.parse(f) as { events?: { type: string }[] }).events?.map((e) => e.type) ?? []));
    // messagesRemoved carries one number (how many retention removed): no text that could hold a secret.
    const numbersOnly: readonly string[] = ['messagesRemoved'] satisfies (typeof ENGINE_EVENT_TYPES)[number][];
    expect([...ENGINE_EVENT_TYPES].filter((t) => !seen.has(t) && !numbersOnly.includes(t))).toEqual([]);
    for (const frame of frames) expectNoSecret(frame, 'an event');
    expectNoSecret(human.c.out() + human.c.err(), 'tail');
    expectNoSecret(json.c.out() + json.c.err(), 'tail --json');
    expect(json.c.out()).toContain('"attemptFinished"');

    // show, through the running serve and (below) from the data dir alone; info.
    for (const argv of [['show', String(firstId)], ['show', String(firstId), '--json'], ['show', String(firstId), '--body'], ['info'], ['info', '--json']]) {
      const c = captureIO();
      expect(await runCli([...argv, '--data-dir', running.dataDir], c.io, DEPS), argv.join(' ')).toBe(0);
      expectNoSecret(c.out() + c.err(), argv.join(' '));
    }
    // check --json through the serve: an exchange through the engine and one sent directly (a tampered body,
    // which this receiver takes: the check fails, exit 1).
    const checked = captureIO();
    expect(await runCli(['check', `${rx.url}/check`, '--secret', 'check_secret_123', '--only', 'shapes.track,signature.tampered', '--json', '--data-dir', running.dataDir], checked.io, DEPS)).toBe(1);
    expectNoSecret(checked.out() + checked.err(), 'check --json');
    expect(checked.out().match(/"set-cookie": ?"si••••"/g)).toHaveLength(2);
    await running.stop();
    for (const argv of [['show', String(firstId)], ['show', String(firstId), '--json']]) {
      const c = captureIO();
      expect(await runCli([...argv, '--data-dir', running.dataDir], c.io, DEPS), `${argv.join(' ')} without a serve`).toBe(0);
      expect(c.out()).toContain('Signed Up');
      expectNoSecret(c.out() + c.err(), `${argv.join(' ')} without a serve`);
    }
  });
});

describe('editing a destination keeps the credentials its form only ever saw masked', () => {
  it('saving a new name with the masked URL and headers as listed delivers with the api_key, password and header intact; an edited path keeps the masked api_key', async () => {
    const rx = await newReceiver();
    const core = newCore();
    const handlers = createCommandHandlers(core);
    const call = async <T>(name: string, input: unknown) => must(await dispatch(handlers, name, input)) as T;
    const hook = new URL(rx.url);
    const url = `http://ada:pass_1234567@${hook.host}/hook?api_key=KEY_1234567&v=1`;
    await call('createDestination', { name: 'd', enabled: true, webhooks: [{ url, headers: { 'X-Api-Key': 'HDR_1234567', 'X-Env': 'dev' } }] });

    // What the editor loads, and what it sends back when only the name changed (it sends every field).
    const listed = (await call<Page<Destination>>('listDestinations', {})).items[0]!;
    expect(listed.webhooks[0]).toEqual({ url: `http://ada:••••@${hook.host}/hook?api_key=KE••••&v=1`, headers: { 'X-Api-Key': 'HD••••', 'X-Env': 'dev' } });
    const saved = await call<Destination>('updateDestination', { id: listed.id, patch: { name: 'renamed', webhooks: listed.webhooks } });
    expect(saved.name).toBe('renamed');
    expect(saved.webhooks).toEqual(listed.webhooks);
    const first = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'E' }, destinations: ['renamed'] })).message.id;
    expect((await settled(core, first)).message.status).toBe('delivered');
    expect(rx.captured[0]!.path).toBe('/hook?api_key=KEY_1234567&v=1');
    expect(rx.captured[0]!.headers['x-api-key']).toBe('HDR_1234567');
    expect(rx.captured[0]!.headers['authorization']).toBe(`Basic ${Buffer.from('ada:pass_1234567').toString('base64')}`);

    // The path edited, the masked parameter and password left as they were shown.
    const edited = listed.webhooks[0]!.url.replace('/hook?', '/other?');
    await call('updateDestination', { id: listed.id, patch: { webhooks: [{ url: edited, headers: listed.webhooks[0]!.headers }] } });
    const second = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'E' }, destinations: ['renamed'] })).message.id;
    expect((await settled(core, second)).message.status).toBe('delivered');
    expect(rx.captured[1]!.path).toBe('/other?api_key=KEY_1234567&v=1');
    expect(rx.captured[1]!.headers['authorization']).toBe(`Basic ${Buffer.from('ada:pass_1234567').toString('base64')}`);

    // A masked value that is not the mask of what is stored cannot be meant: refused, naming it.
    const wrong = await dispatch(handlers, 'updateDestination', { id: listed.id, patch: { webhooks: [{ url: edited.replace('KE••••', 'XY••••') }] } });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'patch.webhooks[0].url' } });
  });
});

describe('a mask with no stored secret behind it is refused, never saved as the secret', () => {
  it('createDestination, a config file and createReceiver refuse a masked secret, naming the field', () => {
    const core = newCore({ autoStart: false });
    expect(core.createDestination({ name: 'copied', url: 'http://127.0.0.1:9/x', sharedSecret: 'ab••••' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', field: 'sharedSecret', message: 'sharedSecret: this is a masked value (••••), not a secret; send the secret itself' },
    });
    expect(must(core.listDestinations({})).items).toEqual([]);
    expect(core.createReceiver({ name: 'inbox', secret: 'ab••••', script: 200 as never })).toMatchObject({ ok: false, error: { field: 'secret' } });
    must(core.createReceiver({ name: 'inbox', secret: 'real-secret', script: 200 as never }));
    expect(core.updateReceiver({ name: 'inbox', patch: { secret: 'zz••••' } })).toMatchObject({ ok: false, error: { field: 'patch.secret' } });
    expect(must(core.receivers.receiverSecret('inbox'))).toBe('real-secret');
  });
});
