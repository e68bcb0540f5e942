/**
 * The mock receiver keeps its newest captures only (10,000 by default, and 64 MiB of their bodies), and says
 * so: listCaptures answers the limits and how many older captures were removed to keep within them.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/contract/dispatch.js';
import type { Result } from '../../../main/contract/result.js';
import { createCommandHandlers } from '../../../main/app/commandHandlers.js';
import { must, newCore, newDataDir } from '../../helpers/harness.js';

interface CapturesPage {
  items: { body: { text: string | null } }[];
  nextCursor: string | null;
  limit: number;
  limitBytes: number;
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
    must(core.createReceiver({ name: 'p' }));
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

  it('the default limits are 10,000 captures and 64 MiB of their bodies', async () => {
    expect(await listCaptures(newCore())).toMatchObject({ limit: 10_000, limitBytes: 64 * 1024 * 1024, pruned: 0 });
  });

  it('past the bytes bound the oldest go first, the newest always stays, and listCaptures counts them, across restarts', async () => {
    const dataDir = newDataDir();
    const kib = (n: number, c: string): string => `{"p":"${c.repeat(n * 1024 - 8)}"}`;
    const post = async (url: string | null, body: string) => (await request(`${url!}/r/p`, { method: 'POST', body })).body.dump();
    const core = newCore({ dataDir, receiver: { maxCaptureBytes: 10 * 1024 } });
    const { url } = await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(core.createReceiver({ name: 'p' }));
    for (const c of ['a', 'b', 'c']) await post(url, kib(4, c));
    // 12 KiB in three bodies of 4 KiB: the oldest goes.
    let page = await listCaptures(core);
    expect(page.items.map((x) => x.body.text?.[6])).toEqual(['c', 'b']);
    expect(page).toMatchObject({ limit: 10_000, limitBytes: 10 * 1024, pruned: 1 });
    // One body larger than the bound alone: it is kept, everything older goes.
    await post(url, kib(11, 'd'));
    page = await listCaptures(core);
    expect(page.items.map((x) => x.body.text?.[6])).toEqual(['d']);
    expect(page.pruned).toBe(3);
    await core.close();

    // The bodies' size is counted again at start: the next capture still keeps within the bound.
    const again = newCore({ dataDir, receiver: { maxCaptureBytes: 10 * 1024 } });
    const restarted = await again.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    await post(restarted.url, kib(1, 'e'));
    page = await listCaptures(again);
    expect(page.items.map((x) => x.body.text?.[6])).toEqual(['e']);
    expect(page.pruned).toBe(4);
    // Cleared captures free their bytes: two small ones fit again.
    must(again.receivers.clearCaptures({}));
    for (const c of ['f', 'g']) await post(restarted.url, kib(2, c));
    expect((await listCaptures(again)).items.map((x) => x.body.text?.[6])).toEqual(['g', 'f']);
  });
});
