import { RotateCcw, SkipForward } from 'lucide-react';
import { filterToQuery } from '../features/history/historyQuery';
import { formatOffset, plural } from '../lib/format';
import { TIME_STEPS } from '../lib/timeSteps';
import { useNow } from '../lib/useNow';
import { useEngine, engineNow } from '../stores/engine';
import { useRouter } from '../stores/router';
import { Button } from '../ui/Button';
import { ConnectionIndicator } from './ConnectionIndicator';

export function TopBar() {
  return (
    // At 1024 px everything must fit in one row with its words: tighter gaps below 1280 px.
    <header className="flex h-11 shrink-0 items-center gap-2 border-b border-line bg-panel px-3 whitespace-nowrap xl:gap-3">
      <EngineClock />
      <TimeTravel />
      <div className="h-5 w-px bg-line" aria-hidden />
      <ForwardingSwitch />
      <div className="ml-auto flex items-center gap-1 xl:gap-3">
        <Counters />
        <ConnectionIndicator />
      </div>
    </header>
  );
}

function EngineClock() {
  const clock = useEngine((s) => s.clock);
  const now = useNow(1000);
  const engine = new Date(engineNow(clock, now));
  const moved = (clock?.offsetMs ?? 0) !== 0;
  const time = engine.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  const day = engine.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
  return (
    <div role="group" aria-label="Engine clock" className="flex items-center gap-2" title="Engine time: real time plus the offset that time travel added">
      <div className="flex flex-col leading-none">
        <span className="text-[10px] font-medium tracking-wide text-faint uppercase">Engine · {day}</span>
        <span className="tabular mt-0.5 font-mono text-[13px] font-semibold">{time}</span>
      </div>
      <span
        aria-label={moved ? `offset ${formatOffset(clock?.offsetMs ?? 0)}` : 'real time'}
        className={`rounded px-1.5 py-0.5 font-mono text-[11px] ${moved ? 'bg-warn-soft text-warn' : 'bg-panel-2 text-faint'}`}
      >
        {moved ? formatOffset(clock?.offsetMs ?? 0) : 'real time'}
      </span>
    </div>
  );
}

function TimeTravel() {
  const { busy, advance, nextRetry, reset, clock, overview } = useEngine();
  const moved = (clock?.offsetMs ?? 0) !== 0;
  return (
    <div role="group" aria-label="Time travel" className="flex items-center gap-1.5">
      <div className="flex overflow-hidden rounded-md border border-line">
        {TIME_STEPS.map(({ label, ms, action }) => (
          <button
            key={label}
            type="button"
            disabled={busy !== null}
            aria-busy={busy === action || undefined}
            onClick={() => void advance(ms, action)}
            title={`Move the engine clock forward by ${label.slice(1)}: retries that fall due run now`}
            className={`h-7 border-r border-line px-1 font-mono text-xs last:border-r-0 xl:px-2 hover:bg-hover disabled:opacity-45 ${busy === action ? 'bg-accent-soft text-accent' : ''}`}
          >
            {label}
          </button>
        ))}
      </div>
      <Button
        icon={<SkipForward aria-hidden className="size-3.5" />}
        busy={busy === 'next'}
        disabled={busy !== null || overview?.nextDueAt === null}
        onClick={() => void nextRetry()}
        title={overview?.nextDueAt === null ? 'No retry is waiting' : 'Jump to the next due retry and run it'}
      >
        Next retry
      </Button>
      <Button
        variant="ghost"
        icon={<RotateCcw aria-hidden className="size-3.5" />}
        busy={busy === 'reset'}
        disabled={busy !== null || !moved}
        onClick={() => void reset()}
        title={moved ? 'Go back to real time' : 'The clock is at real time'}
        aria-label="Reset offset"
      >
        <span className="hidden lg:inline">Reset offset</span>
      </Button>
    </div>
  );
}

function ForwardingSwitch() {
  const { paused, busy, setPaused } = useEngine();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={!paused}
      aria-label="Forwarding"
      disabled={busy === 'pause'}
      onClick={() => void setPaused(!paused)}
      title={paused ? 'Forwarding is paused: messages are accepted and wait. Click to resume.' : 'Forwarding is on. Click to pause it (messages keep being accepted).'}
      className={`flex h-7 items-center gap-2 rounded-md border px-2 text-xs font-medium ${paused ? 'border-warn bg-warn-soft text-warn' : 'border-line text-muted hover:bg-hover hover:text-fg'}`}
    >
      <span className={`relative h-3.5 w-6 rounded-full transition-colors ${paused ? 'bg-warn/40' : 'bg-ok'}`} aria-hidden>
        <span className={`absolute top-0.5 size-2.5 rounded-full bg-white transition-all ${paused ? 'left-0.5' : 'left-3'}`} />
      </span>
      {/* Below 1280 px the switch alone says it (its name stays "Forwarding"); paused keeps its word. */}
      <span className={paused ? '' : 'hidden xl:inline'}>{paused ? 'Paused' : 'Forwarding'}</span>
    </button>
  );
}

/**
 * Counters of messages, each opening History with the filter the engine counted with (getOverview's
 * messageCounters), so the list shows exactly the rows the counter counted.
 */
function Counters() {
  const overview = useEngine((s) => s.overview);
  const navigate = useRouter((s) => s.navigate);
  const counters = overview?.messageCounters;
  const items = [
    { label: 'In flight', counter: counters?.inFlight, tone: 'text-info', title: 'Messages being sent now' },
    { label: 'Retrying', counter: counters?.retrying, tone: 'text-warn', title: 'Messages waiting for their next attempt' },
    { label: 'Failed (1 h)', counter: counters?.failedLastHour, tone: 'text-err', title: 'Messages with a delivery that failed in the last hour (engine time)' },
  ];
  return (
    <div role="group" aria-label="Counters" className="flex flex-col items-center leading-none 2xl:flex-row 2xl:gap-1">
      <span aria-hidden className="text-[9px] font-medium tracking-wide text-faint uppercase 2xl:text-[10px]">
        Messages
      </span>
      <div className="flex items-center">
      {items.map(({ label, counter, tone, title }) => (
        <button
          key={label}
          type="button"
          disabled={!counter}
          onClick={() => counter && navigate({ view: 'history', messageId: null, query: filterToQuery(counter.filter) })}
          title={`${title}. Click to list them in History.`}
          aria-label={`${label}: ${counter ? plural(counter.messages, 'message') : 'unknown'}`}
          className="flex h-7 items-center justify-center gap-1 rounded-md px-1 leading-tight hover:bg-hover xl:px-1.5 2xl:gap-1.5"
        >
          <span className={`tabular font-mono text-[13px] font-semibold ${counter?.messages ? tone : 'text-faint'}`}>{counter ? counter.messages.toLocaleString() : '–'}</span>
          <span className="text-[10px] text-muted xl:text-[11px]">{label}</span>
        </button>
      ))}
      </div>
    </div>
  );
}
