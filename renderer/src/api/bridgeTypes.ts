/**
 * The preload bridge's type, as the plan fixes it (main/contract/bridge.ts, written by the desktop work).
 * Declared here until that file lands on main; then this file re-exports it and goes.
 */
import type { EngineEvent } from '../../../main/contract/events';
import type { Result } from '../../../main/contract/result';

export interface HookbenchBridge {
  /** Calls a command through the main process' dispatch. Never throws: errors are values. */
  call(name: string, input: unknown): Promise<Result<unknown>>;
  /** Batches of pushed events, as the HTTP WebSocket sends them ({events, dropped?}). */
  onEvents(listener: (batch: { events: EngineEvent[]; dropped?: number }) => void): () => void;
  /** Native capabilities (desktop only). */
  openFile(options: { purpose: 'config' | 'caFile' | 'import'; title?: string }): Promise<{ path: string; text?: string } | null>;
  saveFile(options: { defaultName: string; content: string }): Promise<{ path: string } | null>;
  revealDataDir(): Promise<void>;
  openExternal(url: string): Promise<void>;
}

declare global {
  interface Window {
    /** Present in the desktop app only (the preload's contextBridge). */
    hookbench?: HookbenchBridge;
  }
}
