import { Filter, Pause, Radio } from 'lucide-react';
import { useCatalog } from '../../stores/catalog';
import { useLive } from '../../stores/live';
import { useRouter } from '../../stores/router';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { FirstRunButton } from '../destinations/FirstRunButton';
import { formatCount } from '../../lib/format';

/** The reasons a list can be empty, each with its way out (named for what it shows: the toolbar has Resume stream and Clear filters). */
export function LiveEmpty({ total }: { total: number }) {
  const { streamPaused, setStreamPaused, setFilter, held } = useLive();
  const navigate = useRouter((s) => s.navigate);
  const firstRun = useCatalog((s) => s.loaded && s.destinations.length === 0);
  if (total === 0 && streamPaused) {
    return (
      <EmptyState icon={<Pause />} title="The stream is paused" action={<Button variant="primary" onClick={() => setStreamPaused(false)} title="Resume the stream">Show new messages</Button>}>
        {held.length ? `${formatCount(held.length)} new messages are waiting. ` : 'New messages wait until you resume. '}The engine keeps forwarding meanwhile.
      </EmptyState>
    );
  }
  if (total === 0 && firstRun) {
    return (
      <EmptyState icon={<Radio />} title="Nothing to watch yet" action={<div className="flex flex-col items-center gap-2"><FirstRunButton /><Button onClick={() => navigate({ view: 'destinations', sub: ['new'] })}>New destination</Button></div>}>
        Messages appear here as they happen, with every delivery attempt. There is no destination to deliver to yet: set one up to the built-in mock receiver and send a test event in one click, or step by step.
      </EmptyState>
    );
  }
  if (total === 0) {
    return (
      <EmptyState icon={<Radio />} title="No messages yet" action={<Button variant="primary" onClick={() => navigate({ view: 'compose' })}>Compose a message</Button>}>
        Send one from Compose, or point an SDK at this workbench’s ingestion API (<code className="font-mono">POST /v1/batch</code> with a source’s write key). Every message and each delivery attempt appear here as they happen.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<Filter />} title="No message matches these filters" action={<Button onClick={() => setFilter({ status: 'all', type: 'all' })} title="Clear the status and type filters">Show all messages</Button>}>
      {formatCount(total)} messages are hidden by the status and type filters{streamPaused ? ', and the stream is paused' : ''}.
    </EmptyState>
  );
}
