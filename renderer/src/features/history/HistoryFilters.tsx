import { useEffect, useId, useState } from 'react';
import { Search, SlidersHorizontal, X } from 'lucide-react';
import { MESSAGE_TYPES } from '../../../../main/contract/message/messageShapes';
import { formatRowTime, formatTimestamp } from '../../lib/format';
import { parseStatusChoice, statusChoiceOptions, statusChoiceValue } from '../../lib/statusFilter';
import { useCatalog } from '../../stores/catalog';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import type { FilterKey, FilterQuery, ParsedFilter } from '../../lib/historyQuery';

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

/** Filters past the first row: below 900 px of list they fold behind "More filters" unless one is set. */
const SECONDARY: readonly FilterKey[] = ['type', 'sourceId', 'destinationId', 'userId', 'event', 'from', 'to', 'origin'];

/** The filter bar: every listMessages filter, kept in the hash's query. */
export function HistoryFilters({ query, parsed, onChange }: { query: FilterQuery; parsed: ParsedFilter; onChange(patch: FilterQuery, options?: { replace?: boolean }): void }) {
  const { sources, destinations } = useCatalog();
  const errors = parsed.errors;
  const set = (key: FilterKey, replace = true) => (value: string) => onChange({ [key]: value }, { replace });
  const any = Object.values(query).some(Boolean);
  const problems = Object.entries(errors);
  const secondarySet = SECONDARY.filter((k) => query[k]).length;
  const [more, setMore] = useState(false);
  const open = more || secondarySet > 0;
  const choice = { ...(parsed.filter.status ? { status: parsed.filter.status } : {}), ...(parsed.filter.delivery ? { delivery: parsed.filter.delivery } : {}) };
  const since = parsed.filter.deliverySince;
  const failedSince = parsed.filter.failedSince;
  // Folded fields are hidden only while the list is narrow (a container query): wide, they all show.
  const fold = open ? 'contents' : 'hidden @[900px]:contents';
  return (
    <div role="search" aria-label="Filters" className="@container shrink-0 border-b border-line bg-panel">
      <div className="flex flex-col gap-1.5 px-3 py-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
          {/* At least 300 px: beside an open message the other filters wrap below it before its placeholder is cut. */}
          <FilterInput label="Search bodies" icon={<Search className="size-3.5" />} placeholder="Search bodies (any text, e.g. an order ID)" value={query.text ?? ''} onCommit={set('text')} error={errors.text} className="min-w-[300px] flex-[3_1_300px]" />
          <Select
            label="Status"
            value={statusChoiceValue(choice)}
            onChange={(v) => {
              const next = parseStatusChoice(v) ?? {};
              onChange({ status: next.status ?? '', delivery: next.delivery ?? '', deliverySince: '' }, { replace: false });
            }}
            options={statusChoiceOptions('any', choice)}
          />
          {since !== undefined && (
            <span className="flex h-7 items-center gap-1 rounded-md bg-panel-2 pr-0.5 pl-2 text-xs text-muted" title={`Only deliveries that became ${parsed.filter.delivery ?? ''} at or after ${formatTimestamp(since)} (engine time)`}>
              since <span className="tabular font-mono text-fg">{formatRowTime(since, since)}</span>
              <button type="button" aria-label={`Clear: ${parsed.filter.delivery ?? ''} since ${formatTimestamp(since)}`} onClick={() => onChange({ deliverySince: '' }, { replace: false })} className="flex size-6 items-center justify-center rounded text-faint hover:bg-hover hover:text-fg">
                <X aria-hidden className="size-3.5" />
              </button>
            </span>
          )}
          {failedSince !== undefined && (
            <span className="flex h-7 items-center gap-1 rounded-md bg-panel-2 pr-0.5 pl-2 text-xs text-muted" title={`Only messages with a delivery that failed at or after ${formatTimestamp(failedSince)}, real time (time travel does not move it)`}>
              failed since <span className="tabular font-mono text-fg">{formatRowTime(failedSince, failedSince)}</span> <span className="text-faint">real time</span>
              <button type="button" aria-label={`Clear: failed since ${formatTimestamp(failedSince)}`} onClick={() => onChange({ failedSince: '' }, { replace: false })} className="flex size-6 items-center justify-center rounded text-faint hover:bg-hover hover:text-fg">
                <X aria-hidden className="size-3.5" />
              </button>
            </span>
          )}
          <button
            type="button"
            aria-expanded={open}
            onClick={() => setMore(!open)}
            disabled={secondarySet > 0}
            aria-label={`${open ? 'Fewer filters' : 'More filters'}${secondarySet > 0 ? `, ${secondarySet} set` : ''}`}
            title={secondarySet > 0 ? `${secondarySet === 1 ? 'A filter below is set: it stays' : `${secondarySet} filters below are set: they stay`} shown until you clear ${secondarySet === 1 ? 'it' : 'them'}` : undefined}
            className="flex h-7 items-center gap-1 rounded-md px-2 text-xs text-muted hover:bg-hover hover:text-fg disabled:opacity-60 @[900px]:hidden"
          >
            <SlidersHorizontal aria-hidden className="size-3.5" />
            {open ? 'Fewer filters' : 'More filters'}
            {secondarySet > 0 && <span className="rounded-full bg-accent-soft px-1.5 text-[10px] text-accent">{secondarySet}</span>}
          </button>
          <div className={fold}>
            <Select label="Type" value={query.type ?? ''} onChange={set('type', false)} options={[{ value: '', label: 'any' }, ...MESSAGE_TYPES]} />
            <Select label="Source" value={query.sourceId ?? ''} onChange={set('sourceId', false)} options={[{ value: '', label: 'any' }, ...sources.map((s) => ({ value: s.id, label: s.name })), ...unknownOption(query.sourceId, sources)]} />
            <Select label="Destination" value={query.destinationId ?? ''} onChange={set('destinationId', false)} options={[{ value: '', label: 'any' }, ...destinations.map((d) => ({ value: d.id, label: d.name })), ...unknownOption(query.destinationId, destinations)]} />
            <FilterInput label="User ID" value={query.userId ?? ''} onCommit={set('userId')} error={errors.userId} className="min-w-[110px] flex-[1_1_150px]" />
            <FilterInput label="Event" value={query.event ?? ''} onCommit={set('event')} error={errors.event} className="min-w-[110px] flex-[1_1_150px]" />
            <FilterInput label="From" type="datetime-local" value={query.from ?? ''} onCommit={set('from')} error={errors.from} className="w-[220px] shrink-0" />
            <FilterInput label="To" type="datetime-local" value={query.to ?? ''} onCommit={set('to')} error={errors.to} className="w-[206px] shrink-0" />
            {/* A check run's own messages are never mixed with the user's: this shows one or the other. */}
            <Select label="Traffic" value={query.origin ?? ''} onChange={set('origin', false)} options={[{ value: '', label: 'yours' }, { value: 'check', label: 'hookbench check' }]} />
          </div>
          <Button variant="ghost" disabled={!any} title={any ? undefined : 'No filter is set: every message is listed'} icon={<X aria-hidden className="size-3.5" />} onClick={() => onChange(Object.fromEntries(Object.keys(query).map((k) => [k, ''])), { replace: false })}>
            Clear filters
          </Button>
        </div>
        {problems.length > 0 && (
          <p className="text-[11px] text-err">
            {problems.map(([key, message]) => `${LABELS[key as FilterKey]}: ${message}`).join(' · ')} — {problems.length === 1 ? 'this filter is' : 'these filters are'} not applied.
          </p>
        )}
      </div>
    </div>
  );
}

const LABELS: Record<FilterKey, string> = { text: 'Search', status: 'Status', delivery: 'Status', deliverySince: 'Since', failedSince: 'Failed since', type: 'Type', sourceId: 'Source', destinationId: 'Destination', userId: 'User ID', event: 'Event', from: 'From', to: 'To', origin: 'Traffic' };

/** A filter on an id the catalog does not know (deleted, or a shared link from elsewhere) still shows. */
function unknownOption(value: string | undefined, known: { id: string }[]): { value: string; label: string }[] {
  return value && !known.some((k) => k.id === value) ? [{ value, label: `${value.slice(0, 12)}… (not here)` }] : [];
}
