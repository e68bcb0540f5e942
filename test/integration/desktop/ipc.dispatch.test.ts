/**
 * The desktop's IPC end to end, without Electron: the real preload (compiled as the build compiles it, run as
 * a sandboxed preload runs) talks over an in-memory ipcMain/ipcRenderer pair to the real registration, which
 * dispatches to a real workbench on a temp data dir.
 */
import { internalsOf } from '../../../main/app/createCore.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookbenchBridge } from '../../../main/contract/bridge.js';
import type { EventFrame } from '../../../main/contract/events.js';
import type { EngineEvent } from '../../../main/contract/events.js';
import { filePage } from '../../../main/desktop/appPage.js';
import { pushEvents, registerIpc } from '../../../main/desktop/ipc.js';
import type { NativeCapabilities } from '../../../main/desktop/native.js';
import { startWorkbench, type RunningWorkbench } from '../../../main/server/workbench.js';
import { describeDispatchSuite } from '../../helpers/dispatchSuite.js';
import { bridgeOver, ipcPair } from '../../helpers/fakeElectron.js';
import { newDataDir, newReceiver, onCleanup } from '../../helpers/harness.js';
import { never, status } from '../../helpers/receiver.js';

const INDEX = '/opt/hookbench/dist/renderer/index.html';
const noNative: NativeCapabilities = {
  openFile: async () => null,
  saveFile: async () => null,
  revealDataDir: async () => undefined,
  openExternal: async () => undefined,
};

async function desktop(frameUrl = filePage(INDEX).url): Promise<{ workbench: RunningWorkbench; bridge: HookbenchBridge; pair: ReturnType<typeof ipcPair>; closeWindow(): void }> {
  const dataDir = newDataDir();
  const workbench = await startWorkbench({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0, uiDir: null });
  onCleanup(() => workbench.stop());
  const pair = ipcPair({ url: frameUrl, parent: null });
  const unregister = registerIpc({ ipcMain: pair.ipcMain, page: () => filePage(INDEX), handlers: workbench.handlers, native: noNative });
  const stopPushing = pushEvents({ subscribe: (l) => workbench.core.onEvent(l), contents: pair.contents, flushMs: 20 });
  onCleanup(() => {
    stopPushing();
    unregister();
  });
  return {
    workbench,
    bridge: bridgeOver(pair),
    pair,
    closeWindow() {
      stopPushing();
      pair.destroy();
    },
  };
}

/** Resolves with the first pushed event that matches (waits on batches, never sleeps). */
function nextEvent<T extends EngineEvent>(bridge: HookbenchBridge, match: (e: EngineEvent) => e is T): Promise<{ event: T; batches: EventFrame[] }> {
  const batches: EventFrame[] = [];
  return new Promise((resolve) => {
    const off = bridge.onEvents((batch) => {
      batches.push(batch);
      const event = batch.events.find(match);
      if (event) {
        off();
        resolve({ event, batches });
      }
    });
  });
}

// The command-table issue's suite, over this transport: what every face of the typed API must do alike.
describeDispatchSuite('Electron IPC (in-memory pair, the real preload)', async () => {
  const { bridge, workbench } = await desktop();
  return { call: (name, input) => bridge.call(name, input), close: () => workbench.stop() };
});

describe('commands over the in-memory IPC pair, through dispatch, to a real workbench', () => {
  it('calls answer with values, and every error is a value (unknown command, invalid input, uncloneable input)', async () => {
    const { bridge } = await desktop();
    const created = await bridge.call('createDestination', { name: 'd', url: 'http://127.0.0.1:9/hook', sharedSecret: 's' });
    expect(created).toMatchObject({ ok: true, value: { name: 'd' } });
    expect(await bridge.call('listDestinations', {})).toMatchObject({ ok: true, value: { items: [{ name: 'd', sharedSecret: expect.not.stringMatching(/^s$/) }] } }); // masked, as over HTTP
    expect(await bridge.call('noSuchCommand', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await bridge.call('__proto__', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await bridge.call('createDestination', { name: 'e', url: 'http://x/', timeoutMs: -1 })).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'timeoutMs' } });
    expect(await bridge.call('getMessage', { id: 999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // a function cannot cross IPC: the bridge still answers with a value instead of throwing
    expect(await bridge.call('listDestinations', { f: () => 1 })).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('a foreign page gets refusals, whatever it calls', async () => {
    const { bridge, workbench } = await desktop('https://evil.example/');
    expect(await bridge.call('createDestination', { name: 'd', url: 'http://127.0.0.1:9/hook' })).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(internalsOf(workbench.core).store.config.listDestinations()).toEqual([]);
    await expect(bridge.revealDataDir()).rejects.toThrow(/refused/);
  });

  it('pushes the engine events of a delivery as batches, until the listener unsubscribes', async () => {
    const { bridge, pair } = await desktop();
    const rx = await newReceiver(status(200));
    expect(await bridge.call('createDestination', { name: 'd', enabled: true, url: rx.url })).toMatchObject({ ok: true });
    const delivered = nextEvent(bridge, (e): e is Extract<EngineEvent, { type: 'deliveryUpdated' }> => e.type === 'deliveryUpdated' && e.delivery.status === 'delivered');
    const sent = await bridge.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'E' }, destinations: ['d'] });
    expect(sent.ok).toBe(true);
    const { event, batches } = await delivered;
    expect(event.delivery.status).toBe('delivered');
    const types = batches.flatMap((b) => b.events.map((e) => e.type));
    expect(types).toEqual(expect.arrayContaining(['messageAccepted', 'attemptStarted', 'attemptFinished', 'deliveryUpdated']));
    expect(pair.ipcRenderer.listenerCount('hookbench:events')).toBe(0); // nextEvent unsubscribed
  });

  it('closing the window mid-delivery, then quitting: the attempt in flight is recorded and the data dir reopens consistent', async () => {
    const { bridge, workbench, closeWindow } = await desktop();
    const rx = await newReceiver(never);
    await bridge.call('createDestination', { name: 'd', enabled: true, url: rx.url, timeoutMs: 300 });
    const started = nextEvent(bridge, (e): e is Extract<EngineEvent, { type: 'attemptStarted' }> => e.type === 'attemptStarted');
    const sent = await bridge.call('sendMessage', { type: 'track', call: { userId: 'u1', event: 'E' }, destinations: ['d'] });
    expect(sent.ok).toBe(true);
    await started; // in flight now
    closeWindow();
    await workbench.stop(); // what the app's before-quit does

    const db = new Database(join(workbench.dataDir, 'hookbench.db'), { readonly: true });
    onCleanup(() => void db.close());
    const delivery = db.prepare('SELECT status, attempts FROM deliveries').get() as { status: string; attempts: number };
    const attempts = db.prepare('SELECT outcome FROM attempts').all() as { outcome: string }[];
    expect(delivery).toEqual({ status: 'retrying', attempts: 1 });
    expect(attempts).toEqual([{ outcome: 'timeout' }]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
