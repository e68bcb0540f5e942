import { Pause, Play } from 'lucide-react';
import { MESSAGE_TYPES } from '../../../../main/contract/messageShapes';
import { MESSAGE_STATUSES } from '../../../../main/contract/models';
import { plural } from '../../lib/format';
import { useLive, type LiveFilter } from '../../stores/live';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';

export function LiveToolbar({ shown, total }: { shown: number; total: number }) {
  const { filter, setFilter, streamPaused, setStreamPaused, held } = useLive();
  const filtered = filter.status !== 'all' || filter.type !== 'all';
  return (
    <div className="flex h-10 shrink-0 items-center gap-2 border-b border-line bg-panel px-3 whitespace-nowrap">
      <Select label="Status" value={filter.status} onChange={(v) => setFilter({ status: v as LiveFilter['status'] })} options={['all', ...MESSAGE_STATUSES]} />
      <Select label="Type" value={filter.type} onChange={(v) => setFilter({ type: v as LiveFilter['type'] })} options={['all', ...MESSAGE_TYPES]} />
      {filtered && (
        <Button variant="ghost" onClick={() => setFilter({ status: 'all', type: 'all' })}>
          Clear filters
        </Button>
      )}
      <div className="ml-auto flex items-center gap-3">
        <span className="tabular text-xs text-muted" aria-live="polite">
          {filtered ? `${shown.toLocaleString()} of ${plural(total, 'message')}` : plural(total, 'message')}
          {streamPaused && held.length > 0 && <span className="text-warn"> · {held.length.toLocaleString()} waiting</span>}
        </span>
        <Button
          variant={streamPaused ? 'primary' : 'default'}
          icon={streamPaused ? <Play aria-hidden className="size-3.5" /> : <Pause aria-hidden className="size-3.5" />}
          onClick={() => setStreamPaused(!streamPaused)}
          title={streamPaused ? 'Show the messages that arrived while paused, and keep following' : 'Freeze the list (the engine keeps forwarding)'}
        >
          {streamPaused ? 'Resume stream' : 'Pause stream'}
        </Button>
      </div>
    </div>
  );
}
