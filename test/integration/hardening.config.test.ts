/**
 * Issue 13, defect 8: configuration that can never work is refused when it is given, naming the field, through
 * every door: the config file (`hookbench serve --config`, applyConfig), the typed API and `hookbench send`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../main/cli/serve.js';
import type { HookbenchConfig } from '../../main/contract/config.js';
import { applyConfig } from '../../main/engine/config.js';
import { must, newCore, newDataDir, onCleanup } from '../helpers/harness.js';

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
