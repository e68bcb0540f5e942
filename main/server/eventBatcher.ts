/**
 * Pushed events leave in batches (docs/architecture.md, "Data flow of one message"): a burst of deliveries becomes
 * a few frames, never a flood, which a UI can render without falling behind. The HTTP server's WebSocket and the desktop's IPC both use it.
 *
 * A frame goes out `flushMs` after the first event it holds (no timer runs while nothing happens) and carries at
 * most `maxPerFlush` events: the newest ones. Older ones are dropped and counted, so a receiver knows to
 * refetch instead of trusting its incremental state.
 */
import type { EngineEvent, EventFrame } from '../contract/events.js';

export interface EventBatcherOptions {
  flushMs: number;
  maxPerFlush: number;
  send(frame: EventFrame): void;
  /** A send that threw (the frame is lost, the stream goes on); default: console.error. */
  onSendError?: (error: unknown) => void;
}

export interface EventBatcher {
  push(event: EngineEvent): void;
  /** Sends what is pending now (nothing when nothing is). */
  flush(): void;
  /** Forgets what is pending and stops the timer; later pushes are ignored. */
  close(): void;
}

export function createEventBatcher(options: EventBatcherOptions): EventBatcher {
  const { flushMs, maxPerFlush, send } = options;
  if (!(maxPerFlush >= 1)) throw new RangeError(`maxPerFlush: must be at least 1 (got ${maxPerFlush})`);
  let pending: EngineEvent[] = [];
  let dropped = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    if (pending.length > maxPerFlush) {
      dropped += pending.length - maxPerFlush;
      pending = pending.slice(-maxPerFlush);
    }
    const frame: EventFrame = dropped ? { events: pending, dropped } : { events: pending };
    pending = [];
    dropped = 0;
    try {
      send(frame);
    } catch (e) {
      // This runs from a timer: an exception here would end the process.
      (options.onSendError ?? ((error) => console.error('hookbench: sending events failed', error)))(e);
    }
  };

  return {
    push(event) {
      if (closed) return;
      pending.push(event);
      // Trim in amortised O(1): let the buffer reach twice the cap, then cut it back to the cap.
      if (pending.length >= 2 * maxPerFlush) {
        dropped += pending.length - maxPerFlush;
        pending = pending.slice(-maxPerFlush);
      }
      if (!timer) {
        timer = setTimeout(flush, flushMs);
        timer.unref?.();
      }
    },
    flush,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      pending = [];
      dropped = 0;
    },
  };
}
