import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandHandlers } from '../../../main/contract/dispatch.js';
import type { EngineEvent } from '../../../main/contract/events.js';
import { filePage, servePage } from '../../../main/desktop/appPage.js';
import { CHANNELS } from '../../../main/desktop/channels.js';
import { pushEvents, registerIpc, senderRefusal } from '../../../main/desktop/ipc.js';
import type { NativeCapabilities } from '../../../main/desktop/native.js';
import { ipcPair } from '../../helpers/fakeElectron.js';

const own = filePage('/opt/hookbench/dist/renderer/index.html');
const native: NativeCapabilities = {
  openFile: async () => ({ path: '/tmp/c.json', text: '{}' }),
  saveFile: async () => null,
  revealDataDir: async () => undefined,
  openExternal: async () => undefined,
};
// Two commands of the table are enough here (dispatch itself has its own suite); the rest are absent.
const handlers = {
  getClock: () => ({ ok: true as const, value: { now: 1, offsetMs: 0 } }),
  getMessage: (input: { id: number }) => ({ ok: false as const, error: { code: 'not_found' as const, message: `message ${input.id}: not found` } }),
} as unknown as CommandHandlers;

function setup(frameUrl: string, parent: unknown = null) {
  const pair = ipcPair({ url: frameUrl, parent });
  const dispose = registerIpc({ ipcMain: pair.ipcMain, page: () => own, handlers, native });
  return { pair, dispose };
}

describe('IPC registration and sender checks', () => {
  it('registers one handle for calls and one per native capability, and removes them all', () => {
    const { pair, dispose } = setup(own.url);
    expect(pair.ipcMain.channels().sort()).toEqual([CHANNELS.call, CHANNELS.openExternal, CHANNELS.openFile, CHANNELS.revealDataDir, CHANNELS.saveFile].sort());
    dispose();
    expect(pair.ipcMain.channels()).toEqual([]);
  });

  it("the app's own page (its main frame, any hash or query) is answered through dispatch", async () => {
    const { pair } = setup(`${own.url}?api=x#/live`);
    expect(await pair.ipcRenderer.invoke(CHANNELS.call, 'getClock', {})).toEqual({ ok: true, value: { now: 1, offsetMs: 0 } });
    expect(await pair.ipcRenderer.invoke(CHANNELS.call, 'getMessage', { id: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'id' } }); // the schema ran
    expect(await pair.ipcRenderer.invoke(CHANNELS.call, 'getMessage', { id: 7 })).toMatchObject({ ok: false, error: { code: 'not_found', message: 'message 7: not found' } });
    expect(await pair.ipcRenderer.invoke(CHANNELS.call, 'nope', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await pair.ipcRenderer.invoke(CHANNELS.call, 'toString', {})).toMatchObject({ ok: false, error: { code: 'not_found' } }); // own properties only
    expect(await pair.ipcRenderer.invoke(CHANNELS.call, 42, {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await pair.ipcRenderer.invoke(CHANNELS.openFile, { purpose: 'config' })).toEqual({ path: '/tmp/c.json', text: '{}' });
  });

  it.each([
    ['a foreign web page', 'https://evil.example/'],
    ['another file on disk', 'file:///tmp/evil.html'],
    ['a data: URL', 'data:text/html,<script>1</script>'],
    ['about:blank', 'about:blank'],
  ])('%s is refused: calls with an error value, native capabilities with a rejection', async (_name, url) => {
    const { pair } = setup(url);
    const answer = await pair.ipcRenderer.invoke(CHANNELS.call, 'getClock', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    await expect(pair.ipcRenderer.invoke(CHANNELS.openFile, { purpose: 'config' })).rejects.toThrow(/refused/);
    await expect(pair.ipcRenderer.invoke(CHANNELS.openExternal, 'https://example.com')).rejects.toThrow(/refused/);
    await expect(pair.ipcRenderer.invoke(CHANNELS.revealDataDir)).rejects.toThrow(/refused/);
  });

  it('a subframe showing the app page, and a frame that is gone, are refused', async () => {
    const sub = setup(own.url, { url: own.url });
    expect(await sub.pair.ipcRenderer.invoke(CHANNELS.call, 'getClock', {})).toMatchObject({ ok: false, error: { code: 'unauthorized', message: expect.stringMatching(/main frame/) } });
    expect(senderRefusal({ senderFrame: null }, own)).toMatch(/gone/);
  });

  it("an attached serve's origin is the app page then; other origins are not", () => {
    const serve = servePage('http://127.0.0.1:4400/?token=t');
    expect(senderRefusal({ senderFrame: { url: 'http://127.0.0.1:4400/live', parent: null } }, serve)).toBeNull();
    expect(senderRefusal({ senderFrame: { url: 'http://localhost:4400/', parent: null } }, serve)).not.toBeNull();
    expect(senderRefusal({ senderFrame: { url: 'http://127.0.0.1:4401/', parent: null } }, serve)).not.toBeNull();
  });
});

describe('pushed events', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a burst reaches the window as a few bounded batches; nothing is sent once the window is gone or after dispose', () => {
    const pair = ipcPair();
    const batches: { events: EngineEvent[]; dropped?: number }[] = [];
    pair.ipcRenderer.on(CHANNELS.events, (_e, batch) => batches.push(batch as never));
    let emit: (e: EngineEvent) => void = () => undefined;
    let subscribed = 0;
    const dispose = pushEvents({
      subscribe: (l) => {
        emit = l;
        subscribed++;
        return () => subscribed--;
      },
      contents: pair.contents,
      flushMs: 100,
      maxPerFlush: 500,
    });
    const event = (i: number): EngineEvent => ({ type: 'clockAdvanced', clock: { now: i, offsetMs: 0 }, byMs: i });
    for (let i = 0; i < 10_000; i++) emit(event(i));
    vi.advanceTimersByTime(100);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.events).toHaveLength(500);
    expect(batches[0]!.dropped).toBe(9500);

    emit(event(1));
    pair.destroy();
    vi.advanceTimersByTime(100); // the window closed mid-burst: no throw, nothing sent
    expect(batches).toHaveLength(1);

    dispose();
    expect(subscribed).toBe(0);
  });
});
