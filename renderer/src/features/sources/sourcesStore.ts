/**
 * The Sources screen's data: usage per source (totals and the last hour per minute), the ingest log
 * (refused requests, newest first, paged), and the ingestion URL SDKs point at. Neither usage nor
 * refusals are pushed as events, so the screen refreshes them while it is open (`POLL_MS`).
 */
import { create } from 'zustand';
import type { IngestRefusal, SourceUsage } from '../../../../main/contract/sources';
import { api } from '../../api/instance';

export const POLL_MS = 2000;
const LOG_PAGE = 200;

interface SourcesState {
  usage: Record<string, SourceUsage>;
  /** getSettings().ingestUrl: null while unknown or when this face has no ingestion listener. */
  ingestUrl: string | null;
  settingsLoaded: boolean;
  log: IngestRefusal[];
  logLoaded: boolean;
  /** Where older refusals continue (listIngestLog's cursor), null when all are loaded. */
  olderCursor: string | null;
  loadingOlder: boolean;
  refresh(): Promise<void>;
  loadSettings(): Promise<void>;
  loadOlder(): Promise<void>;
}

export const useSources = create<SourcesState>((set, get) => ({
  usage: {},
  ingestUrl: null,
  settingsLoaded: false,
  log: [],
  logLoaded: false,
  olderCursor: null,
  loadingOlder: false,
  async refresh() {
    // Polled: a failure here (server gone) is the connection indicator's news, not a toast every 2 s.
    const [usage, log] = await Promise.all([api().call('listSourceUsage', {}, { quiet: true }), api().call('listIngestLog', { limit: LOG_PAGE }, { quiet: true })]);
    if (usage.ok) set({ usage: Object.fromEntries(usage.value.items.map((u) => [u.sourceId, u])) });
    if (log.ok) {
      const newest = log.value.items;
      set((s) => {
        if (!s.logLoaded) return { log: newest, logLoaded: true, olderCursor: log.value.nextCursor };
        // Keep the older pages already loaded below the fresh first page.
        const oldest = newest.at(-1)?.id ?? Number.MAX_SAFE_INTEGER;
        const older = s.log.filter((r) => r.id < oldest);
        return { log: newest.length < LOG_PAGE ? newest : [...newest, ...older] };
      });
    }
  },
  async loadSettings() {
    const settings = await api().call('getSettings', {});
    set({ ingestUrl: settings.ok ? settings.value.ingestUrl : null, settingsLoaded: true });
  },
  async loadOlder() {
    const cursor = get().olderCursor;
    if (cursor === null || get().loadingOlder) return;
    set({ loadingOlder: true });
    const page = await api().call('listIngestLog', { cursor, limit: LOG_PAGE });
    set((s) => (page.ok ? { log: [...s.log, ...page.value.items.filter((r) => r.id < (s.log.at(-1)?.id ?? Infinity))], olderCursor: page.value.nextCursor, loadingOlder: false } : { loadingOlder: false }));
  },
}));
