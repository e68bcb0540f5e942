/**
 * Audiences, computed traits and deletion requests: small lists loaded whole (after every change made
 * here), and the identify calls each sync made in this tab (a sync's answer is not stored on the server).
 */
import { create } from 'zustand';
import type { Audience, ComputedTrait, SyncCall } from '../../../../main/contract/audiences';
import type { DeletionRequest } from '../../../../main/contract/messages';
import { api } from '../../api/instance';

export interface SyncRecord {
  /** Engine time of the sync (the definition's syncedAt after it). */
  at: number | null;
  calls: SyncCall[];
  /** `created`: the sync that creating it ran. */
  how: 'created' | 'synced';
}

interface AudiencesState {
  items: (Audience | ComputedTrait)[];
  deletions: DeletionRequest[];
  loaded: boolean;
  /** The last sync made in this tab, per audience or computed trait id. */
  syncs: Record<string, SyncRecord>;
  load(): Promise<void>;
  recordSync(id: string, record: SyncRecord): void;
}

export const useAudiences = create<AudiencesState>((set) => ({
  items: [],
  deletions: [],
  loaded: false,
  syncs: {},
  async load() {
    const [items, deletions] = await Promise.all([api().call('listAudiences', {}), api().call('listDeletionRequests', {})]);
    set((s) => ({
      items: items.ok ? items.value.items : s.items,
      deletions: deletions.ok ? [...deletions.value.items].sort((a, b) => b.id - a.id) : s.deletions,
      loaded: true,
    }));
  },
  recordSync(id, record) {
    set((s) => ({ syncs: { ...s.syncs, [id]: record } }));
  },
}));
