/** The desktop transport: the preload bridge (`window.hookbench`). IPC has no connection to lose. */
import type { HookbenchBridge } from '../../../main/contract/bridge';
import { Listeners, type ConnectionState, type Transport } from './transport';

export function createIpcTransport(bridge: HookbenchBridge): Transport {
  const states = new Listeners<ConnectionState>();
  const unsubscribers = new Set<() => void>();
  let state: ConnectionState = 'open';
  return {
    kind: 'ipc',
    async call(name, input) {
      try {
        return await bridge.call(name, input ?? {});
      } catch (e) {
        return { ok: false, error: { code: 'internal', message: `${name}: ${e instanceof Error ? e.message : String(e)}` } };
      }
    },
    subscribe(listener) {
      const off = bridge.onEvents(listener);
      unsubscribers.add(off);
      return () => {
        unsubscribers.delete(off);
        off();
      };
    },
    connectionState: () => state,
    onConnectionChange: (listener) => states.add(listener),
    close() {
      for (const off of unsubscribers) off();
      unsubscribers.clear();
      state = 'closed';
      states.emit(state);
    },
  };
}
