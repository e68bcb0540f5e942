import { useCallback, useEffect, useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { ROUTING_INPUTS_LIMIT, type RoutingInputs } from '../../../../main/contract/diagnostics';
import type { Destination, EventFilters } from '../../../../main/contract/destinations';
import { api } from '../../api/instance';
import { formatCount, plural } from '../../lib/format';
import { Button } from '../../ui/Button';
import { FieldNote, type Errors } from './fields';
import { previewFilters } from './model';

/** The newest messages the preview looks at. */
export const PREVIEW_MESSAGES = ROUTING_INPUTS_LIMIT;

export function FilterFields({ allow, block, onChange, errors, destination, filters }: { allow: string; block: string; onChange(patch: { allow?: string; block?: string }): void; errors: Errors; destination: Destination; filters: EventFilters }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-2">
        <EventsArea label="Allow events" slot="filters.allowEvents" value={allow} onChange={(v) => onChange({ allow: v })} error={errors['filters.allowEvents']} help="When not empty, only track calls with these event names are delivered. One per line." />
        <EventsArea label="Block events" slot="filters.blockEvents" value={block} onChange={(v) => onChange({ block: v })} error={errors['filters.blockEvents']} help="Track calls with these event names are never delivered. One per line." />
      </div>
      <FilterPreviewBox destination={destination} filters={filters} />
    </div>
  );
}

function EventsArea({ label, slot, value, onChange, error, help }: { label: string; slot: string; value: string; onChange(v: string): void; error: string | undefined; help: string }) {
  const id = label.replace(/\s/g, '-').toLowerCase();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs text-muted">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={3}
        spellCheck={false}
        data-slot={slot}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note`}
        placeholder="e.g. Order Completed"
        className={`min-h-16 resize-y rounded-md border bg-panel px-2 py-1 font-mono text-xs ${error ? 'border-err' : 'border-line focus-visible:border-accent'}`}
      />
      <FieldNote id={`${id}-note`} error={error}>
        {help}
      </FieldNote>
    </div>
  );
}

/**
 * What these filters would have dropped among the newest 1,000 messages: those of its sources that their
 * integrations route to it (listRoutingInputs and the engine's rules, routing.ts).
 */
function FilterPreviewBox({ destination, filters }: { destination: Destination; filters: EventFilters }) {
  const [recent, setRecent] = useState<RoutingInputs | null>(null);
  const [loading, setLoading] = useState(false);
  const sources = destination.sourceIds.join('\n');
  const load = useCallback(async () => {
    setLoading(true);
    const result = await api().call('listRoutingInputs', { sourceIds: sources ? sources.split('\n') : [], limit: PREVIEW_MESSAGES });
    setLoading(false);
    if (result.ok) setRecent(result.value);
  }, [sources]);
  useEffect(() => {
    void load();
  }, [load]);
  const preview = recent ? previewFilters(destination, filters, recent) : null;
  return (
    <section aria-label="Filter preview" className="rounded-md border border-line bg-panel-2 p-2 text-xs">
      <div className="mb-1 flex items-center gap-2">
        <h4 className="text-[11px] font-semibold text-muted">Preview over the last {formatCount(PREVIEW_MESSAGES)} messages</h4>
        <Button variant="ghost" className="ml-auto" aria-label="Refresh preview" title="Read the newest messages again" busy={loading} onClick={() => void load()} icon={<RefreshCw aria-hidden className="size-3.5" />} />
      </div>
      {!preview ? (
        <p className="text-faint">Reading the newest messages…</p>
      ) : preview.relevant === 0 ? (
        <p className="text-muted" role="status">
          None of the newest {plural(preview.looked, 'message')} came from its sources and was routed to it: nothing to preview yet.
        </p>
      ) : (
        <div role="status" aria-label="Would drop" className="flex flex-col gap-1">
          <p className="text-fg">
            These filters would drop <strong className="tabular">{preview.droppedTotal}</strong> of {plural(preview.relevant, 'message')} from its sources
            <span className="text-muted"> (the saved filters drop {preview.droppedNow})</span>.
            {preview.skipped > 0 && (
              <span className="text-muted">
                {' '}
                {preview.skipped === 1 ? '1 other message from its sources never reaches it: its integrations leave it out.' : `${formatCount(preview.skipped)} other messages from its sources never reach it: their integrations leave it out.`}
              </span>
            )}
          </p>
          {preview.dropped.length > 0 && (
            <ul aria-label="Dropped events" className="flex flex-wrap gap-1">
              {preview.dropped.map((d) => (
                <li key={d.event} title={d.reason} className="flex h-5 items-center gap-1 rounded bg-panel px-1.5 font-mono text-[11px]">
                  <span className="text-fg">{d.event}</span>
                  <span className="tabular text-faint">× {d.count}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
