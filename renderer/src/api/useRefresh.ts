/**
 * The one way a screen keeps a read fresh: run `load` when mounted (after `delayMs`, for a form being typed
 * into), then every `everyMs` and/or `afterEventsMs` after pushed events settle. The latest call wins: an
 * answer that comes back after the screen left or its `key` changed is dropped by `load` through `current()`.
 */
import { useEffect, useRef } from 'react';
import { api } from './instance';

export interface RefreshOptions {
  /** Load again this often (ms); omitted: no polling. */
  everyMs?: number;
  /** Load again this long after pushed events (engine events) arrive, once per burst; omitted: events are not followed. */
  afterEventsMs?: number;
  /** Wait this long before the first load (a debounce for input that changes as the user types). */
  delayMs?: number;
}

/** `key`: what the load depends on; a new key starts again. `load` gets `current()`, false once its answer is stale. */
export function useRefresh(key: string, load: (current: () => boolean) => unknown, options: RefreshOptions): void {
  const latest = useRef(load);
  latest.current = load;
  const { everyMs, afterEventsMs, delayMs } = options;
  useEffect(() => {
    let live = true;
    const current = () => live;
    const run = () => void latest.current(current);
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
        ? api().subscribe(() => {
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
  }, [key, everyMs, afterEventsMs, delayMs]);
}
