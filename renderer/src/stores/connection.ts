import { create } from 'zustand';
import type { ConnectionState } from '../api/transport';

interface ConnectionStore {
  state: ConnectionState;
  kind: 'http' | 'ipc' | null;
  /** Engine time when this window last (re)connected: shown in the indicator's tooltip. */
  since: number | null;
}

export const useConnection = create<ConnectionStore>(() => ({ state: 'connecting', kind: null, since: null }));
