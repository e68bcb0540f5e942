/**
 * Electron's IPC, in memory: a fake ipcMain and ipcRenderer connected to each other, a fake web contents
 * that pushes to the renderer side, and the preload compiled as the build compiles it and run the way a
 * sandboxed preload runs (a CommonJS function whose `require` knows 'electron' only). Arguments and results
 * cross by structured clone, as they do over real IPC.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import type { HookbenchBridge } from '../../main/contract/bridge.js';

type Handler = (event: { senderFrame: FakeFrame; sender: unknown }, ...args: unknown[]) => unknown;
type Listener = (event: unknown, ...args: unknown[]) => void;

export interface FakeFrame {
  url: string;
  parent: unknown;
}

export function ipcPair(frame: FakeFrame = { url: 'file:///app/index.html', parent: null }) {
  const handlers = new Map<string, Handler>();
  const listeners = new Map<string, Set<Listener>>();
  let destroyed = false;
  const listenersOf = (channel: string) => {
    let set = listeners.get(channel);
    if (!set) listeners.set(channel, (set = new Set()));
    return set;
  };
  const contents = {
    send(channel: string, ...args: unknown[]) {
      if (destroyed) throw new Error('Object has been destroyed');
      const cloned = structuredClone(args);
      for (const l of listenersOf(channel)) l({ sender: 'main' }, ...cloned);
    },
    isDestroyed: () => destroyed,
  };
  const ipcMain = {
    handle(channel: string, handler: Handler) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      handlers.delete(channel);
    },
    channels: () => [...handlers.keys()],
  };
  const ipcRenderer = {
    async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
      const cloned = structuredClone(args); // a function or other uncloneable input throws here, as in Electron
      try {
        return structuredClone(await handler({ senderFrame: frame, sender: contents }, ...cloned));
      } catch (e) {
        throw new Error(`Error invoking remote method '${channel}': ${String(e)}`);
      }
    },
    on(channel: string, listener: Listener) {
      listenersOf(channel).add(listener);
      return ipcRenderer;
    },
    removeListener(channel: string, listener: Listener) {
      listenersOf(channel).delete(listener);
      return ipcRenderer;
    },
    listenerCount: (channel: string) => listenersOf(channel).size,
  };
  return {
    ipcMain,
    ipcRenderer,
    contents,
    frame,
    destroy() {
      destroyed = true;
    },
  };
}

const PRELOAD = new URL('../../main/desktop/preload.cts', import.meta.url);

/** The preload compiled with the build's module settings (a .cts file becomes CommonJS). */
export function compiledPreload(): string {
  const config = ts.readConfigFile(new URL('../../tsconfig.build.json', import.meta.url).pathname, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, new URL('../../', import.meta.url).pathname);
  return ts.transpileModule(readFileSync(PRELOAD, 'utf8'), { fileName: 'preload.cts', compilerOptions: { ...options, sourceMap: false } }).outputText;
}

/**
 * Runs a compiled preload as Electron's sandboxed renderer does: wrapped in a function of require, process,
 * Buffer, global, setImmediate, clearImmediate, exports and module, with a require that knows 'electron' only.
 * Returns what it exposed to the main world and which modules it required.
 */
export function runPreload(code: string, ipcRenderer: ReturnType<typeof ipcPair>['ipcRenderer']): { world: Record<string, unknown>; required: string[] } {
  const world: Record<string, unknown> = {};
  const required: string[] = [];
  const electron = {
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown) {
        world[key] = api;
      },
    },
    ipcRenderer,
  };
  const require = (id: string) => {
    required.push(id);
    if (id === 'electron') return electron;
    throw new Error(`module not found: ${id} (a sandboxed preload may require 'electron' only)`);
  };
  const module = { exports: {} };
  // The sandbox's own wrapper (lib/sandboxed_renderer/init.ts in Electron).
  const wrapper = new Function('require', 'process', 'Buffer', 'global', 'setImmediate', 'clearImmediate', 'exports', 'module', code);
  wrapper(require, {}, undefined, {}, setImmediate, clearImmediate, module.exports, module);
  return { world, required };
}

/** The bridge the real preload exposes over an in-memory IPC pair. */
export function bridgeOver(pair: ReturnType<typeof ipcPair>): HookbenchBridge {
  const { world } = runPreload(compiledPreload(), pair.ipcRenderer);
  return world['hookbench'] as HookbenchBridge;
}
