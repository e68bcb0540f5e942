/**
 * A command's input is checked once, where the command enters the core, and refused alike whichever way it
 * came: HTTP (`/api/<command>` of a running workbench), Electron IPC (the real preload over the in-memory
 * pair, to the same workbench's handlers) and the core's own methods (`core.<name>()`). The same bad
 * inputs, across features, get the same error through all three: code, field, limit and message.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../main/app/createCore.js';
import { API_LIMITS, COMMANDS } from '../../../main/contract/commands.js';
import type { CommandName } from '../../../main/contract/api.js';
import type { HookbenchBridge } from '../../../main/contract/bridge.js';
import type { ApiError, Result } from '../../../main/contract/result.js';
import { filePage } from '../../../main/desktop/appPage.js';
import { registerIpc } from '../../../main/desktop/ipc.js';
import type { NativeCapabilities } from '../../../main/desktop/native.js';
import { startWorkbench, type RunningWorkbench } from '../../../main/server/workbench.js';
import { bridgeOver, ipcPair } from '../../helpers/fakeElectron.js';
import { tempDir } from '../../helpers/tempDir.js';

const INDEX = '/opt/hookbench/dist/renderer/index.html';
const noNative: NativeCapabilities = { openFile: async () => null, saveFile: async () => null, revealDataDir: async () => undefined, openExternal: async () => undefined };

interface Case {
  what: string;
  name: CommandName;
  input: unknown;
  /** What the error must say (the rest of it must be the same through every face). */
  expected: Partial<ApiError>;
}

const CASES: Case[] = [
  { what: 'a wrong type', name: 'createDestination', input: { name: 42 }, expected: { code: 'invalid_input', field: 'name' } },
  { what: 'a number out of range', name: 'createDestination', input: { name: 'd', url: 'http://127.0.0.1:9/hook', timeoutMs: 0 }, expected: { code: 'invalid_input', field: 'timeoutMs', limit: 1 } },
  { what: 'an unknown field, with a suggestion', name: 'createDestination', input: { name: 'd', secret: 's' }, expected: { code: 'invalid_input', field: 'secret', message: 'secret: unknown field (did you mean "sharedSecret"?)' } },
  // The patch is checked before the destination is looked up, through every face alike.
  { what: 'a bad patch of a destination that does not exist', name: 'updateDestination', input: { id: 'nope', patch: { timeoutMs: 'slow' } }, expected: { code: 'invalid_input', field: 'patch.timeoutMs' } },
  { what: 'a missing required field', name: 'updateAudience', input: { id: 'a1' }, expected: { code: 'invalid_input', field: 'patch' } },
  { what: 'an unknown field in a patch', name: 'updateAudience', input: { id: 'a1', patch: { members: ['u1'], colour: 'red' } }, expected: { code: 'invalid_input', field: 'patch.colour' } },
  { what: 'a rule of the schema across two fields', name: 'createReceiver', input: { name: 'bare', refuseInvalidSignatures: true }, expected: { code: 'invalid_input', field: 'refuseInvalidSignatures' } },
  { what: 'a status out of range in a script', name: 'createReceiver', input: { name: 'rx', script: '200,99' }, expected: { code: 'invalid_input', field: 'script' } },
  { what: 'an empty secret in a patch', name: 'updateReceiver', input: { name: 'rx', patch: { secret: '' } }, expected: { code: 'invalid_input', field: 'patch.secret', limit: 1 } },
  { what: 'neither of two fields', name: 'retryNow', input: {}, expected: { code: 'invalid_input', field: 'id' } },
  { what: 'a row id that is not whole', name: 'retryNow', input: { id: 1.5 }, expected: { code: 'invalid_input', field: 'id' } },
  { what: 'a negative jump (a command that answers later)', name: 'advanceClock', input: { ms: -1 }, expected: { code: 'invalid_input', field: 'ms', limit: 0, message: 'ms: must be at least 0 (got -1)' } },
  { what: 'a jump without its ms', name: 'advanceClock', input: {}, expected: { code: 'invalid_input', field: 'ms', message: 'ms: is required' } },
  { what: 'a jump given as a string', name: 'advanceClock', input: { ms: '5000' }, expected: { code: 'invalid_input', field: 'ms', message: 'ms: must be a number of milliseconds (got the string "5000")' } },
  { what: 'a jump past the limit', name: 'advanceClock', input: { ms: API_LIMITS.advanceMs + 1 }, expected: { code: 'invalid_input', field: 'ms', limit: API_LIMITS.advanceMs } },
  { what: 'an input for a command that takes none', name: 'getClock', input: { now: 1 }, expected: { code: 'invalid_input', field: 'now' } },
  { what: 'a page size out of range', name: 'listMessages', input: { limit: 0 }, expected: { code: 'invalid_input', field: 'limit', limit: 1 } },
  { what: 'an id of the wrong type', name: 'getMessage', input: { id: '7' }, expected: { code: 'invalid_input', field: 'id' } },
  { what: 'a format the export does not write', name: 'exportMessages', input: { format: 'xml' }, expected: { code: 'invalid_input', field: 'format' } },
  { what: 'a user id that is blank once trimmed', name: 'createDeletionRequest', input: { userId: '   ' }, expected: { code: 'invalid_input', field: 'userId' } },
  { what: 'no input at all where one is required', name: 'getReceiver', input: undefined, expected: { code: 'invalid_input', field: 'name' } },
];

// One workbench for the whole file: every face of it reaches the same core.
let workbench: RunningWorkbench;
let bridge: HookbenchBridge;
let closeAll: () => Promise<void>;

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  workbench = await startWorkbench({ dataDir: dir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0, uiDir: null });
  const pair = ipcPair({ url: filePage(INDEX).url, parent: null });
  const unregister = registerIpc({ ipcMain: pair.ipcMain, page: () => filePage(INDEX), handlers: workbench.handlers, native: noNative });
  bridge = bridgeOver(pair);
  closeAll = async () => {
    unregister();
    await workbench.stop();
    cleanup();
  };
});

afterAll(() => closeAll());

async function overHttp(name: string, input: unknown): Promise<{ status: number; body: Result<unknown> }> {
  const res = await request(`${workbench.info.url}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${workbench.info.token}` },
    body: input === undefined ? '' : JSON.stringify(input),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Result<unknown> };
}

/** `core.<name>(input)`, with what it returned before it is awaited (a promise only for the commands that answer later). */
function onCore(core: Core, name: CommandName, input: unknown): { answer: unknown } {
  const method = core[name] as (input?: unknown) => unknown;
  return { answer: method.call(core, input) };
}

function errorOf(result: Result<unknown>): ApiError {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('bad input is refused where a command enters, the same way over HTTP, IPC and core.<name>()', () => {
  it.each(CASES)('$name: $what', async ({ name, input, expected }) => {
    const http = await overHttp(name, input);
    const ipc = (await bridge.call(name, input)) as Result<unknown>;
    const { answer } = onCore(workbench.core, name, input);
    // A command that answers later refuses with a promise of the error, as it answers everything else.
    expect(answer instanceof Promise).toBe(COMMANDS[name].answers.later);
    const core = await (answer as Result<unknown> | Promise<Result<unknown>>);

    const error = errorOf(http.body);
    expect(error).toMatchObject(expected);
    expect(error.message.startsWith(`${error.field}: `)).toBe(true);
    expect(http.status).toBe(400);
    expect(errorOf(ipc)).toEqual(error);
    expect(errorOf(core)).toEqual(error);
  });

  it('nothing a refused input asked for was done', async () => {
    for (const { name, input } of CASES) await overHttp(name, input);
    const core = workbench.core;
    expect(core.listDestinations({ owner: 'all' })).toMatchObject({ ok: true, value: { items: [] } });
    expect(core.listReceivers()).toMatchObject({ ok: true, value: { items: [] } });
    expect(core.listDeletionRequests()).toMatchObject({ ok: true, value: { items: [] } });
    expect(core.getClock()).toMatchObject({ ok: true, value: { offsetMs: 0 } });
  });
});

describe('the input a service is given is the schema’s output, through every face', () => {
  it('a name trimmed and defaults filled by the schema are what is stored, whichever face created it', async () => {
    const core = workbench.core;
    const viaCore = core.createSource({ name: '  core-made  ', kind: 'web' });
    const viaHttp = await overHttp('createSource', { name: '  http-made  ', kind: 'server' });
    const viaIpc = (await bridge.call('createSource', { name: '  ipc-made  ', kind: 'mobile' })) as Result<{ name: string }>;
    expect(viaCore).toMatchObject({ ok: true, value: { name: 'core-made' } });
    expect(viaHttp.body).toMatchObject({ ok: true, value: { name: 'http-made' } });
    expect(viaIpc).toMatchObject({ ok: true, value: { name: 'ipc-made' } });
    // createDestination's defaults (disabled, 5 s, the default retry policy, no filters) come from its schema.
    const made = core.createDestination({ name: '  defaults  ' });
    expect(made).toMatchObject({ ok: true, value: { name: 'defaults', enabled: false, timeoutMs: 5000, webhooks: [], filters: { allowEvents: [], blockEvents: [] } } });
  });
});
