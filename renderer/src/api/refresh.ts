/**
 * The one way a read is kept fresh: run `load` now (or after `delayMs`, for a form being typed into), then
 * every `everyMs` and/or `afterEventsMs` after pushed events settle. The latest call wins: an answer that
 * comes back after the refresh stopped is dropped by `load` through `current()`. useRefresh.ts is this for a
 * component; the session (not a component) starts one itself.
 */
import type { EngineEvent } from '../../../main/contract/events';
import { api } from './instance';

export interface RefreshOptions {
  /** Load again this often (ms); omitted: no polling. */
  everyMs?: number;
  /** Load again this long after pushed events (engine events) arrive, once per burst; omitted: events are not followed. */
  afterEventsMs?: number;
  /** Only these events start the wait of `afterEventsMs`; omitted: any event does. */
  events?: (event: EngineEvent) => boolean;
  /** Wait this long before the first load (a debounce for input that changes as the user types). */
  delayMs?: number;
}

/** Starts refreshing; the function it returns stops it. `load` gets `current()`, false once stopped. */
export function startRefresh(load: (current: () => boolean) => unknown, options: RefreshOptions): () => void {
  const { everyMs, afterEventsMs, events, delayMs } = options;
  let live = true;
  const current = () => live;
  const run = () => void load(current);
  let every: ReturnType<typeof setInterval> | null = null;
  const begin = () => {
    run();
    if (everyMs !== undefined) every = setInterval(run, everyMs);
  };
  const first = delayMs !== undefined ? setTimeout(begin, delayMs) : null;
  if (first === null) begin();
  let pending: ReturnType<typeof setTimeout> | null = null;
  const off =
    afterEventsMs !== undefined
      ? api().subscribe((batch) => {
          if (events && !batch.events.some(events)) return;
          pending ??= setTimeout(() => {
            pending = null;
            run();
          }, afterEventsMs);
        })
      : () => undefined;
  return () => {
    live = false;
    if (first) clearTimeout(first);
    if (every) clearInterval(every);
    if (pending) clearTimeout(pending);
    off();
  };
}
