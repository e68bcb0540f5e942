/**
 * What a destination is configured with has a length limit, through the typed API and config files alike: the
 * error names the field, the limit and the length given (docs/hardening.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../../main/cli/commands/serve.js';
import { CONFIG_LIMITS } from '../../../main/contract/message/messageShapes.js';
import { must, newCore, newDataDir, onCleanup } from '../../helpers/harness.js';

const silentIO = { stdout: () => undefined, stderr: () => undefined };

describe('configuration lengths are bounded', () => {
  it('a 3 MB URL, header value, header name, name, caFile path and event name are each refused, naming the limit and the length', () => {
    const core = newCore();
    const big = 'a'.repeat(3_000_000);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'd', url: `http://127.0.0.1:9/${big}` }, 'url', `url: must be at most 8,192 characters (got 3,000,019)`],
      [{ name: 'd', webhooks: [{ url: 'http://127.0.0.1:9/h', headers: { 'X-Big': big } }] }, 'webhooks[0].headers.X-Big', 'webhooks[0].headers.X-Big: header value must be at most 8,192 characters (got 3,000,000)'],
      [{ name: 'd', webhooks: [{ url: 'http://127.0.0.1:9/h', headers: { [`X-${'n'.repeat(300)}`]: 'v' } }] }, `webhooks[0].headers.X-${'n'.repeat(38)}`, 'header name must be at most 256 characters (got 302)'],
      [{ name: 'n'.repeat(101), url: 'http://127.0.0.1:9/h' }, 'name', 'name: must be at most 100 characters (got 101)'],
      [{ name: 'd', url: 'https://127.0.0.1:9/h', caFile: `/${big}` }, 'caFile', 'caFile: must be at most 4,096 characters (got 3,000,001)'],
      [{ name: 'd', url: 'http://127.0.0.1:9/h', filters: { allowEvents: [big] } }, 'filters.allowEvents[0]', 'filters.allowEvents[0]: must be at most 1,024 characters (got 3,000,000)'],
    ];
    for (const [input, field, message] of cases) {
      const result = core.createDestination(input as never);
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', field } });
      if (!result.ok) expect(result.error.message).toContain(message);
    }
    expect(must(core.listDestinations()).items).toEqual([]);
    // At the limit is fine.
    must(core.createDestination({ name: 'n'.repeat(CONFIG_LIMITS.nameChars), webhooks: [{ url: `http://127.0.0.1:9/${'a'.repeat(CONFIG_LIMITS.urlChars - 19)}`, headers: { 'X-Big': 'v'.repeat(CONFIG_LIMITS.headerValueChars) } }] }));
  });

  it('a config file is held to the same limits, naming the path in the file', async () => {
    const dir = newDataDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ destinations: [{ name: 'd', webhooks: [{ url: 'http://127.0.0.1:9/h', headers: { 'X-Big': 'v'.repeat(10_000) } }] }] }));
    const start = startServe({ config: file, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
    start.then((r) => onCleanup(() => r.stop()), () => undefined);
    await expect(start).rejects.toThrow('destinations[0].webhooks[0].headers.X-Big: header value must be at most 8,192 characters (got 10,000)');
  });
});

describe('names in a config file', () => {
  it('two sources (or destinations, or receivers) of one name are refused, naming both positions; nothing is applied', async () => {
    const dir = newDataDir();
    const cases: [Record<string, unknown>, string][] = [
      [{ sources: [{ name: 's', kind: 'server' }, { name: 'x', kind: 'web' }, { name: 's', kind: 'web' }] }, 'sources[2].name: "s" is also the name of sources[0]: names must be unique in a config file (objects are matched by name)'],
      [{ destinations: [{ name: 'd', url: 'http://127.0.0.1:9/a' }, { name: ' d ', url: 'http://127.0.0.1:9/b' }] }, 'destinations[1].name: "d" is also the name of destinations[0]'],
      [{ receivers: [{ name: 'r' }, { name: 'r' }] }, 'receivers[1].name: "r" is also the name of receivers[0]'],
    ];
    for (const [config, message] of cases) {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify(config));
      const start = startServe({ config: file, data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
      start.then((r) => onCleanup(() => r.stop()), () => undefined);
      await expect(start).rejects.toThrow(message);
    }
  });
});
