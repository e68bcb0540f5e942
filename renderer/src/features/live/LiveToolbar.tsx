import { ArrowRight, Pause, Play } from 'lucide-react';
import { MESSAGE_TYPES } from '../../../../main/contract/message/messageShapes';
import { formatCount, plural } from '../../lib/format';
import { parseStatusChoice, statusChoiceOptions } from '../../lib/statusFilter';
import { useEngine } from '../../stores/engine';
import { useLive, type LiveFilter } from '../../stores/live';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';

/**
 * What Live holds, said as it is: Live keeps the newest messages only, so past them the count names how
 * many are stored and links to History (with the same filter), which has them all.
 */
export function liveCountText(shown: number, held: number, stored: number | null, filtered: boolean): string {
  const partial = stored !== null && stored > held;
  if (!partial) return filtered ? `${formatCount(shown)} of ${plural(held, 'message')}` : plural(held, 'message');
  const newest = `newest ${formatCount(held)} of ${formatCount(stored)}`;
  return filtered ? `${formatCount(shown)} of the ${newest}` : newest;
}

/** Live's filter as History's query, for the link to the whole history. */
export function historyQueryOf(filter: LiveFilter): Record<string, string> {
  const query: Record<string, string> = {};
  const choice = filter.status === 'all' ? {} : parseStatusChoice(filter.status);
  if (choice?.status) query['status'] = choice.status;
  if (choice?.delivery) query['delivery'] = choice.delivery;
  if (filter.type !== 'all') query['type'] = filter.type;
  return query;
}

/** A select as wide as the option it shows (Chromium's field-sizing), up to a width that leaves room for the rest. */
const SELECT = '[field-sizing:content] max-w-40';

export function LiveToolbar({ shown, total }: { shown: number; total: number }) {
  const { filter, setFilter, streamPaused, setStreamPaused, held } = useLive();
  const stored = useEngine((s) => s.overview?.totalMessages ?? null);
  const filtered = filter.status !== 'all' || filter.type !== 'all';
  const text = liveCountText(shown, total, stored, filtered);
  const partial = stored !== null && stored > total;
  const status = filter.status === 'all' ? '' : filter.status;
  const historyHref = `#/history${Object.keys(historyQueryOf(filter)).length ? `?${new URLSearchParams(historyQueryOf(filter)).toString()}` : ''}`;
  return (
    // A container: beside an open message (a narrow list, below 640 px) the count and Pause/Resume stream take a
    // second line, so the filters keep their labels, the button stays whole and the count is never cut.
    <div className="@container shrink-0 border-b border-line bg-panel">
      <div className="flex min-h-10 flex-wrap items-center gap-x-2 gap-y-1 px-3 py-1.5 whitespace-nowrap">
        <Select
          label="Status"
          selectClassName={SELECT}
          value={status}
          onChange={(v) => setFilter({ status: v === '' ? 'all' : (v as LiveFilter['status']) })}
          options={statusChoiceOptions('all', filter.status === 'all' ? {} : (parseStatusChoice(filter.status) ?? {}))}
        />
        <Select label="Type" selectClassName={SELECT} value={filter.type} onChange={(v) => setFilter({ type: v as LiveFilter['type'] })} options={['all', ...MESSAGE_TYPES]} />
        {filtered && (
          <Button variant="ghost" onClick={() => setFilter({ status: 'all', type: 'all' })}>
            Clear filters
          </Button>
        )}
        <div aria-hidden className="basis-full @[640px]:hidden" />
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 @[640px]:ml-auto">
          <span className="tabular text-xs text-muted" aria-live="polite" title={partial ? `Live keeps the newest ${formatCount(total)} messages; History has all ${stored === undefined ? '' : formatCount(stored)}` : undefined}>
            {text}
            {streamPaused && held.length > 0 && <span className="text-warn"> · {formatCount(held.length)} waiting</span>}
          </span>
          {partial && (
            <a href={historyHref} className="flex shrink-0 items-center gap-1 text-xs font-medium text-accent hover:underline">
              Open in History
              <ArrowRight aria-hidden className="size-3" />
            </a>
          )}
        </div>
        <Button
          variant={streamPaused ? 'primary' : 'default'}
          icon={streamPaused ? <Play aria-hidden className="size-3.5" /> : <Pause aria-hidden className="size-3.5" />}
          onClick={() => setStreamPaused(!streamPaused)}
          title={streamPaused ? 'Show the messages that arrived while paused, and keep following' : 'Freeze the list (the engine keeps forwarding)'}
          className="ml-auto @[640px]:ml-0"
        >
          {streamPaused ? 'Resume stream' : 'Pause stream'}
        </Button>
      </div>
    </div>
  );
}
