/**
 * Pushed events reach the stores in batches, at most every ~100 ms: a burst of deliveries becomes a few
 * store updates (and renders), never one per event.
 */
import type { EngineEvent } from '../../../main/contract/events';
import type { EventFrame } from '../api/transport';

export const APPLY_EVERY_MS = 100;

export interface EventPump {
  push(batch: EventFrame): void;
  /** Applies what is buffered now (tests, and before a resync). */
  flush(): void;
  close(): void;
}

export function createEventPump(apply: (events: EngineEvent[]) => void, onDropped: () => void, everyMs: number = APPLY_EVERY_MS): EventPump {
  let buffer: EngineEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!buffer.length) return;
    const events = buffer;
    buffer = [];
    apply(events);
  };
  return {
    push(batch) {
      for (const event of batch.events) buffer.push(event);
      if (batch.dropped) {
        flush();
        onDropped();
        return;
      }
      timer ??= setTimeout(flush, everyMs);
    },
    flush,
    close() {
      if (timer) clearTimeout(timer);
      timer = null;
      buffer = [];
    },
  };
}
