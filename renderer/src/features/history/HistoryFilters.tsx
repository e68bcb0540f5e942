import { useEffect, useId, useState } from 'react';
import { Search, X } from 'lucide-react';
import { MESSAGE_TYPES } from '../../../../main/contract/messageShapes';
import { MESSAGE_STATUSES } from '../../../../main/contract/models';
import { useCatalog } from '../../stores/catalog';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import type { FilterKey, FilterQuery, ParsedFilter } from './historyQuery';

/** Text typed into a filter reaches the hash (and the server) once typing pauses. */
const TYPING_MS = 300;

/** An inline-labelled input of the filter bar; its value follows the hash, edits go back after a pause. */
function FilterInput({ label, value, onCommit, error, type = 'text', placeholder, className = '', icon }: { label: string; value: string; onCommit(value: string): void; error?: string | undefined; type?: 'text' | 'datetime-local'; placeholder?: string; className?: string; icon?: React.ReactNode }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return;
    const t = setTimeout(() => onCommit(draft), type === 'text' ? TYPING_MS : 0);
    return () => clearTimeout(t);
  }, [draft, value, onCommit, type]);
  return (
    <div className={`flex min-w-0 items-center gap-1.5 ${className}`}>
      <label htmlFor={id} className={icon ? 'sr-only' : 'shrink-0 text-xs text-muted'}>
        {label}
      </label>
      <div className="relative min-w-0 flex-1">
        {icon && <span aria-hidden className="pointer-events-none absolute top-1/2 left-2 -translate-y-1/2 text-faint">{icon}</span>}
        <input
          id={id}
          type={type}
          value={draft}
          placeholder={placeholder}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') onCommit(draft);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          spellCheck={false}
          autoComplete="off"
          className={`h-7 w-full min-w-0 rounded-md border bg-panel text-xs ${icon ? 'pr-2 pl-7' : 'px-2'} ${type === 'text' ? 'font-mono' : 'tabular'} ${error ? 'border-err' : 'border-line hover:border-line-strong focus-visible:border-accent'}`}
        />
      </div>
      {error && (
        <span id={`${id}-error`} role="alert" className="sr-only">
          {label}: {error}
        </span>
      )}
    </div>
  );
}

/** The filter bar: every listMessages filter, kept in the hash's query. */
export function HistoryFilters({ query, parsed, onChange }: { query: FilterQuery; parsed: ParsedFilter; onChange(patch: FilterQuery, options?: { replace?: boolean }): void }) {
  const { sources, destinations } = useCatalog();
  const errors = parsed.errors;
  const set = (key: FilterKey, replace = true) => (value: string) => onChange({ [key]: value }, { replace });
  const any = Object.values(query).some(Boolean);
  const problems = Object.entries(errors);
  return (
    <div role="search" aria-label="Filters" className="flex shrink-0 flex-col gap-1.5 border-b border-line bg-panel px-3 py-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <FilterInput label="Search bodies" icon={<Search className="size-3.5" />} placeholder="Search message bodies (any text, e.g. an order ID)" value={query.text ?? ''} onCommit={set('text')} error={errors.text} className="min-w-[220px] flex-[3_1_260px]" />
        <Select label="Status" value={query.status ?? ''} onChange={set('status', false)} options={[{ value: '', label: 'any' }, ...MESSAGE_STATUSES]} />
        <Select label="Type" value={query.type ?? ''} onChange={set('type', false)} options={[{ value: '', label: 'any' }, ...MESSAGE_TYPES]} />
        <Select label="Source" value={query.sourceId ?? ''} onChange={set('sourceId', false)} options={[{ value: '', label: 'any' }, ...sources.map((s) => ({ value: s.id, label: s.name })), ...unknownOption(query.sourceId, sources)]} />
        <Select label="Destination" value={query.destinationId ?? ''} onChange={set('destinationId', false)} options={[{ value: '', label: 'any' }, ...destinations.map((d) => ({ value: d.id, label: d.name })), ...unknownOption(query.destinationId, destinations)]} />
        <FilterInput label="User ID" value={query.userId ?? ''} onCommit={set('userId')} error={errors.userId} className="min-w-[150px] flex-[1_1_170px]" />
        <FilterInput label="Event" value={query.event ?? ''} onCommit={set('event')} error={errors.event} className="min-w-[150px] flex-[1_1_170px]" />
        <FilterInput label="From" type="datetime-local" value={query.from ?? ''} onCommit={set('from')} error={errors.from} className="w-[206px] shrink-0" />
        <FilterInput label="To" type="datetime-local" value={query.to ?? ''} onCommit={set('to')} error={errors.to} className="w-[192px] shrink-0" />
        <Button variant="ghost" disabled={!any} icon={<X aria-hidden className="size-3.5" />} onClick={() => onChange(Object.fromEntries(Object.keys(query).map((k) => [k, ''])), { replace: false })}>
          Clear filters
        </Button>
      </div>
      {problems.length > 0 && (
        <p className="text-[11px] text-err">
          {problems.map(([key, message]) => `${LABELS[key as FilterKey]}: ${message}`).join(' · ')} — {problems.length === 1 ? 'this filter is' : 'these filters are'} not applied.
        </p>
      )}
    </div>
  );
}

const LABELS: Record<FilterKey, string> = { text: 'Search', status: 'Status', type: 'Type', sourceId: 'Source', destinationId: 'Destination', userId: 'User ID', event: 'Event', from: 'From', to: 'To' };

/** A filter on an id the catalog does not know (deleted, or a shared link from elsewhere) still shows. */
function unknownOption(value: string | undefined, known: { id: string }[]): { value: string; label: string }[] {
  return value && !known.some((k) => k.id === value) ? [{ value, label: `${value.slice(0, 12)}… (not here)` }] : [];
}
