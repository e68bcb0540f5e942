import { useState } from 'react';
import { Bookmark, Trash2 } from 'lucide-react';
import { Button } from '../../ui/Button';
import { DropPanel } from '../../ui/DropPanel';
import type { FilterQuery } from '../../lib/historyQuery';
import { readSavedFilters, saveFilter, writeSavedFilters, type SavedFilter } from './savedFilters';

const storage = () => window.localStorage;

/** Named filters kept in this browser: save the current one, apply or delete a saved one. */
export function SavedFilters({ query, onApply }: { query: FilterQuery; onApply(query: FilterQuery): void }) {
  const [list, setList] = useState<SavedFilter[]>(() => readSavedFilters(storage()));
  return (
    <DropPanel label="Saved filters" icon={<Bookmark aria-hidden className="size-3.5" />} align="right" width={340}>
      {(close) => <SavedFiltersForm list={list} setList={setList} query={query} onApply={(q) => { onApply(q); close(); }} />}
    </DropPanel>
  );
}

function SavedFiltersForm({ list, setList, query, onApply }: { list: SavedFilter[]; setList(list: SavedFilter[]): void; query: FilterQuery; onApply(query: FilterQuery): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const store = (next: SavedFilter[]) => {
    const problem = writeSavedFilters(storage(), next);
    if (problem) return setError(problem);
    setList(next);
    setError(null);
  };
  const save = () => {
    const saved = saveFilter(list, name, query);
    if (!saved.ok) return setError(saved.error);
    store(saved.list);
    setName('');
  };
  const describe = (q: FilterQuery) => Object.entries(q).map(([k, v]) => `${k}=${v}`).join(' ');
  return (
    <div className="flex flex-col gap-3 text-xs">
      {list.length === 0 ? (
        <p className="text-muted">No saved filter yet. Set some filters, name them below and save: they stay in this browser.</p>
      ) : (
        <ul aria-label="Saved filters" className="flex max-h-56 flex-col gap-1 overflow-y-auto">
          {list.map((f) => (
            <li key={f.name} className="flex items-center gap-1 rounded-md hover:bg-hover">
              <button type="button" onClick={() => onApply(f.query)} className="flex min-w-0 flex-1 flex-col px-2 py-1 text-left" title="Apply this filter">
                <span className="truncate font-medium">{f.name}</span>
                <span className="truncate font-mono text-[11px] text-faint">{describe(f.query)}</span>
              </button>
              <button type="button" aria-label={`Delete saved filter ${f.name}`} onClick={() => store(list.filter((x) => x.name !== f.name))} className="flex size-7 shrink-0 items-center justify-center rounded-md text-faint hover:bg-err-soft hover:text-err">
                <Trash2 aria-hidden className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex items-end gap-2 border-t border-line pt-3"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="text-muted">Name of this filter</span>
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Failed orders of ada" className="h-7 rounded-md border border-line bg-panel px-2 text-xs focus-visible:border-accent" />
        </label>
        <Button type="submit" variant="primary">
          Save filter
        </Button>
      </form>
      {error && (
        <p role="alert" className="text-err">
          {error}
        </p>
      )}
    </div>
  );
}
