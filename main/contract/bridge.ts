/**
 * What the desktop app's preload exposes to the renderer as `window.hookbench` (main/desktop/preload.ts).
 * Capabilities only, never `ipcRenderer` itself (HTTP Toolkit's lesson). In a browser it is absent and the
 * renderer talks HTTP + WebSocket to `hookbench serve` instead.
 */
import type { EventFrame } from './events.js';
import type { Result } from './result.js';


export type OpenFilePurpose = 'config' | 'caFile' | 'import';

export interface HookbenchBridge {
  /** Calls a command through the main process' dispatch. Never throws: errors are values. */
  call(name: string, input: unknown): Promise<Result<unknown>>;
  /** Batches of pushed events, as the HTTP WebSocket sends them ({events, dropped?}). Returns the unsubscribe. */
  onEvents(listener: (batch: EventFrame) => void): () => void;
  /** Native capabilities (desktop only). Null when the user cancels the dialog. */
  openFile(options: { purpose: OpenFilePurpose; title?: string }): Promise<{ path: string; text?: string } | null>;
  saveFile(options: { defaultName: string; content: string }): Promise<{ path: string } | null>;
  revealDataDir(): Promise<void>;
  /** Opens an http(s) URL in the system browser; other schemes are refused. */
  openExternal(url: string): Promise<void>;
}
