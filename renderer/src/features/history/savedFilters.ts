/**
 * Saved History filters: named queries kept in this browser's localStorage (per origin, so per workbench
 * URL). Reading tolerates anything: a damaged entry is dropped, never thrown.
 */
import type { FilterQuery } from '../../lib/historyQuery';

export const SAVED_FILTERS_KEY = 'hookbench.history.savedFilters';
export const MAX_SAVED_FILTERS = 50;
export const MAX_FILTER_NAME = 60;

export interface SavedFilter {
  name: string;
  query: FilterQuery;
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

export function readSavedFilters(storage: Storage): SavedFilter[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(SAVED_FILTERS_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (f): f is SavedFilter =>
        typeof f === 'object' && f !== null && typeof (f as SavedFilter).name === 'string' && typeof (f as SavedFilter).query === 'object' && (f as SavedFilter).query !== null,
    );
  } catch {
    return [];
  }
}

/** Adds or replaces (by name) a filter; answers the new list or why not. */
export function saveFilter(list: SavedFilter[], name: string, query: FilterQuery): { ok: true; list: SavedFilter[] } | { ok: false; error: string } {
  const trimmed = name.trim();
  if (!trimmed) return { ok: false, error: 'Name: give the filter a name' };
  if (trimmed.length > MAX_FILTER_NAME) return { ok: false, error: `Name: at most ${MAX_FILTER_NAME} characters (this is ${trimmed.length})` };
  if (Object.keys(query).length === 0) return { ok: false, error: 'Set a filter first: there is nothing to save' };
  const others = list.filter((f) => f.name !== trimmed);
  if (others.length >= MAX_SAVED_FILTERS) return { ok: false, error: `At most ${MAX_SAVED_FILTERS} saved filters: delete one first` };
  return { ok: true, list: [...others, { name: trimmed, query }].sort((a, b) => a.name.localeCompare(b.name)) };
}

export function writeSavedFilters(storage: Storage, list: SavedFilter[]): string | null {
  try {
    storage.setItem(SAVED_FILTERS_KEY, JSON.stringify(list));
    return null;
  } catch (e) {
    return `the browser refused to store it: ${e instanceof Error ? e.message : String(e)}`;
  }
}
