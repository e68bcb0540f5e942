/**
 * The preload: exposes `window.hookbench` (HookbenchBridge) and nothing else; never ipcRenderer itself. It runs
 * sandboxed, where a preload is a CommonJS script that may require 'electron' only, hence .cts and the channel
 * names spelled out (main/desktop/channels.ts; test/unit/desktop/preload.test.ts keeps them equal). No logic.
 */
import electron = require('electron');
import type { HookbenchBridge } from '../contract/bridge.js';
import type { EventFrame } from '../contract/events.js';

const { contextBridge, ipcRenderer } = electron;

const bridge: HookbenchBridge = {
  // A rejected invoke (an input that cannot be cloned) becomes an error value too: call never throws.
  call: (name, input) =>
    ipcRenderer.invoke('hookbench:call', name, input).catch((e: unknown) => ({ ok: false, error: { code: 'internal', message: String(e) } })),
  onEvents(listener) {
    const forward = (_event: unknown, batch: EventFrame) => listener(batch);
    ipcRenderer.on('hookbench:events', forward);
    return () => void ipcRenderer.removeListener('hookbench:events', forward);
  },
  openFile: (options) => ipcRenderer.invoke('hookbench:openFile', options),
  saveFile: (options) => ipcRenderer.invoke('hookbench:saveFile', options),
  revealDataDir: () => ipcRenderer.invoke('hookbench:revealDataDir'),
  openExternal: (url) => ipcRenderer.invoke('hookbench:openExternal', url),
};

contextBridge.exposeInMainWorld('hookbench', bridge);
