import type { HookbenchBridge } from '../../../main/contract/bridge';

declare global {
  interface Window {
    /** Present in the desktop app only (the preload's contextBridge): main/contract/bridge.ts. */
    hookbench?: HookbenchBridge;
  }
}
