/** A component loaded on first use, like React.lazy, that can be loaded ahead (the first screen does, in main.tsx). */
import { createElement, lazy, useState, type ComponentType } from 'react';

export type Preloadable<P extends object> = ComponentType<P> & {
  /** Loads the module now; resolves once the component can render without suspending. */
  preload(): Promise<unknown>;
  /** Whether it renders without suspending now. */
  loaded(): boolean;
};

/**
 * React.lazy, except that a component whose module is already in renders at once instead of suspending:
 * React reveals a suspended boundary no sooner than 300 ms after its fallback, which a screen loaded while
 * the app started must not pay. A mount that began suspended stays on the lazy path, so it keeps its state.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (e: unknown) => {
        // A failed load (a chunk that did not arrive) may be tried again by the next mount.
        loading = null;
        throw e;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Preloaded(props: P) {
    const [atMount] = useState(() => loaded);
    return createElement((atMount ?? Lazy) as ComponentType<P>, props);
  }
  return Object.assign(Preloaded, { preload, loaded: () => loaded !== null });
}

/** A component that is part of the app's own chunk, under the same interface: it never suspends. */
export function alreadyLoaded<P extends object>(component: ComponentType<P>): Preloadable<P> {
  return Object.assign((props: P) => createElement(component, props), { preload: () => Promise.resolve(component), loaded: () => true });
}
