/**
 * How the renderer reaches the core: one call verb (command → Result) and one event stream (batches).
 * Two implementations: HTTP + WebSocket in a browser, the preload bridge in the desktop app.
 */
import type { EventFrame } from '../../../main/contract/events';
import type { Result } from '../../../main/contract/result';

export type { EventFrame };

/** `revoked`: the API token this window holds was rotated; nothing reconnects with it (open the new link). */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'revoked';

export interface Transport {
  readonly kind: 'http' | 'ipc';
  /** Never throws: a failure to reach the server is an error value too. */
  call(name: string, input: unknown): Promise<Result<unknown>>;
  subscribe(listener: (batch: EventFrame) => void): () => void;
  connectionState(): ConnectionState;
  /** Called on every state change; a reconnect after `open` means events were missed (resync). */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

/** A tiny observable set of listeners. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  emit(value: T): void {
    for (const listener of [...this.set]) listener(value);
  }
}
