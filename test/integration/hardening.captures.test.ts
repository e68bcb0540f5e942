/**
 * The mock receiver keeps its newest captures only (10,000 by default), and says so:
 * listCaptures answers the limit and how many older captures were removed to keep within it.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../main/contract/dispatch.js';
import type { Result } from '../../main/contract/result.js';
import { createCommandHandlers } from '../../main/app/commandHandlers.js';
import { must, newCore, newDataDir } from '../helpers/harness.js';

interface CapturesPage {
  items: { body: { text: string | null } }[];
  nextCursor: string | null;
  limit: number;
  pruned: number;
}

async function listCaptures(core: ReturnType<typeof newCore>, input: Record<string, unknown> = {}): Promise<CapturesPage> {
  return must((await dispatch(createCommandHandlers(core), 'listCaptures', input)) as Result<CapturesPage>);
}

describe('captures past the limit (docs/behaviour.md §10 Mock receiver captures)', () => {
  it('listCaptures says how many are kept at most and how many older ones were removed, across restarts', async () => {
    const dataDir = newDataDir();
    const core = newCore({ dataDir, receiver: { maxCaptures: 3 } });
    const { url } = await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(core.receivers.createReceiver({ name: 'p' }));
    expect(await listCaptures(core)).toMatchObject({ items: [], limit: 3, pruned: 0 });
    for (let i = 1; i <= 5; i++) {
      const res = await request(`${url}/r/p`, { method: 'POST', body: `{"n":${i}}` });
      await res.body.dump();
    }
    const page = await listCaptures(core);
    expect(page.items.map((c) => c.body.text)).toEqual(['{"n":5}', '{"n":4}', '{"n":3}']);
    expect(page).toMatchObject({ limit: 3, pruned: 2 });
    expect(await listCaptures(core, { receiver: 'p', limit: 1 })).toMatchObject({ limit: 3, pruned: 2, nextCursor: expect.any(String) });
    await core.close();

    const again = newCore({ dataDir, receiver: { maxCaptures: 3 } });
    expect(await listCaptures(again)).toMatchObject({ limit: 3, pruned: 2 });
    must(again.receivers.clearCaptures({}));
    expect(await listCaptures(again)).toMatchObject({ items: [], limit: 3, pruned: 2 });
  });

  it('the default limit is 10,000', async () => {
    expect(await listCaptures(newCore())).toMatchObject({ limit: 10_000, pruned: 0 });
  });
});
