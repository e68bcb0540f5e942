/**
 * The dispatch suite (test/helpers/dispatchSuite.ts) over each transport the headless core has: the
 * contract's dispatch called in memory, and HTTP against a real `hookbench serve`.
 */
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../../main/cli/commands/serve.js';
import { dispatch } from '../../../main/contract/dispatch.js';
import type { Result } from '../../../main/contract/result.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { createCore } from '../../../main/app/createCore.js';
import { describeDispatchSuite } from '../../helpers/dispatchSuite.js';
import { newDataDir } from '../../helpers/harness.js';

const silentIO = { stdout: () => undefined, stderr: () => undefined };

describeDispatchSuite('dispatch in memory', async () => {
  const core = createCore({ dataDir: newDataDir(), seed: 1 });
  const handlers = createCommandHandlers(core);
  return { call: (name, input) => dispatch(handlers, name, input, { onInternalError: () => undefined }), close: () => core.close() };
});

describeDispatchSuite('HTTP (hookbench serve)', async () => {
  const running = await startServe({ data: join(newDataDir(), 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
  return {
    async call(name, input) {
      const res = await request(`${running.info.url}/api/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${running.info.token}` },
        body: JSON.stringify(input),
      });
      const body = (await res.body.json()) as Result<unknown>;
      // The status agrees with the answer: 200 for values, 4xx for refusals, 500 only for internal errors.
      if (body.ok) expect(res.statusCode).toBe(200);
      else expect(res.statusCode, `${name}: ${body.error.message}`).toBe(body.error.code === 'internal' ? 500 : res.statusCode < 500 ? res.statusCode : -1);
      return body;
    },
    close: () => running.stop(),
  };
});

describe('dispatch', () => {
  it('turns a handler that throws into an internal error value, and reports it', async () => {
    const core = createCore({ dataDir: newDataDir(), seed: 1 });
    try {
      const reported: string[] = [];
      const handlers = { ...createCommandHandlers(core), getClock: () => { throw new Error('boom'); } };
      const r = await dispatch(handlers, 'getClock', {}, { onInternalError: (name) => reported.push(name) });
      expect(r).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect(reported).toEqual(['getClock']);
    } finally {
      await core.close();
    }
  });

  it('an absent input is an empty object', async () => {
    const core = createCore({ dataDir: newDataDir(), seed: 1 });
    try {
      const handlers = createCommandHandlers(core);
      expect(await dispatch(handlers, 'getClock', undefined)).toMatchObject({ ok: true });
      expect(await dispatch(handlers, 'getMessage', undefined)).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'id' } });
    } finally {
      await core.close();
    }
  });
});
