import { useEffect, useState, type DependencyList } from 'react';

export type AsyncValue<T> = { state: 'idle' } | { state: 'pending' } | { state: 'done'; value: T } | { state: 'error'; message: string };

/**
 * The value of an async computation, recomputed when `deps` change; an answer that arrives after newer deps
 * is dropped. `run` returning null means there is nothing to compute (idle).
 */
export function useAsyncValue<T>(run: () => Promise<T> | null, deps: DependencyList): AsyncValue<T> {
  const [value, setValue] = useState<AsyncValue<T>>({ state: 'idle' });
  useEffect(() => {
    const promise = run();
    if (promise === null) {
      setValue({ state: 'idle' });
      return;
    }
    let current = true;
    setValue({ state: 'pending' });
    promise.then(
      (v) => current && setValue({ state: 'done', value: v }),
      (e: unknown) => current && setValue({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      current = false;
    };
  }, deps);
  return value;
}
