/**
 * The one way a screen keeps a read fresh: startRefresh (refresh.ts) while the component is mounted, started
 * again when its `key` changes. `load` may change on every render; the newest one is called.
 */
import { useEffect, useRef } from 'react';
import { startRefresh, type RefreshOptions } from './refresh';

export type { RefreshOptions };

/** `key`: what the load depends on; a new key starts again. `load` gets `current()`, false once its answer is stale. */
export function useRefresh(key: string, load: (current: () => boolean) => unknown, options: RefreshOptions): void {
  const latest = useRef(load);
  latest.current = load;
  const filter = useRef(options.events);
  filter.current = options.events;
  const { everyMs, afterEventsMs, delayMs } = options;
  const follows = options.events !== undefined;
  useEffect(
    () =>
      startRefresh((current) => latest.current(current), {
        everyMs,
        afterEventsMs,
        delayMs,
        ...(follows ? { events: (e) => filter.current?.(e) ?? true } : {}),
      }),
    [key, everyMs, afterEventsMs, delayMs, follows],
  );
}
