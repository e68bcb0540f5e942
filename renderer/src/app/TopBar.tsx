import { FastForward, LoaderCircle, RotateCcw, SkipForward, X } from 'lucide-react';
import { useRef } from 'react';
import type { ClockJump } from '../../../main/contract/overview';
import { filterToQuery } from '../lib/historyQuery';
import { formatClock, formatCount, formatDay, formatOffset, formatSpan, jumpProgressParts, jumpProgressText, plural } from '../lib/format';
import { TIME_STEPS } from '../lib/timeSteps';
import { useFocusBack } from '../lib/useFocusBack';
import { useNow } from '../lib/useNow';
import { useEngine } from '../stores/engine';
import { useRouter } from '../stores/router';
import { Button } from '../ui/Button';
import { ConnectionIndicator } from './ConnectionIndicator';

export function TopBar() {
  const bar = useRef<HTMLElement>(null);
  // Time travel and Forwarding disable their controls while they run: the focus comes back once they are done.
  const busy = useEngine((s) => s.busy !== null || s.jump !== null);
  useFocusBack(bar, busy);
  return (
    // At 1024 px everything must fit in one row with its words (Next retry, Reset offset, Forwarding, Live),
    // with an offset and during a jump: below 1280 px the gaps are tighter, the words 11 px and the buttons
    // that have words lose their icons.
    <header ref={bar} className="flex h-11 shrink-0 items-center gap-1.5 border-b border-line bg-panel px-2 whitespace-nowrap xl:gap-3 xl:px-3">
      <EngineClock />
      <TimeTravel />
      <div className="hidden h-5 w-px shrink-0 bg-line xl:block" aria-hidden />
      <ForwardingSwitch />
      <div className="ml-auto flex shrink-0 items-center gap-0.5 xl:gap-3">
        <Counters />
        <ConnectionIndicator />
      </div>
    </header>
  );
}

function EngineClock() {
  const clock = useEngine((s) => s.clock);
  const jump = useEngine((s) => s.jump);
  const now = useNow(1000);
  // While a jump plays, the clock shows how far it got (the store follows its progress events).
  const offsetMs = jump ? jump.reachedOffsetMs : (clock?.offsetMs ?? 0);
  const engine = now + offsetMs;
  const moved = offsetMs !== 0;
  const time = formatClock(engine);
  const day = formatDay(engine);
  return (
    <div role="group" aria-label="Engine clock" className="flex shrink-0 flex-col leading-none" title="Engine time: real time plus the offset that time travel added">
      <span className="text-[10px] font-medium tracking-wide text-faint uppercase">Engine · {day}</span>
      <span className="mt-0.5 flex items-center gap-1.5">
        <span className="tabular font-mono text-[13px] font-semibold">{time}</span>
        {/* As wide for "real time" as for "+59 min 59 s" (12 characters of a fixed width): the offset appearing
            or changing moves nothing in the bar. */}
        <span
          aria-label={moved ? `offset ${formatOffset(offsetMs)}` : 'real time'}
          className={`tabular min-w-[calc(12ch+0.5rem)] rounded px-1 py-px text-center font-mono text-[11px] ${moved ? 'bg-warn-soft text-warn' : 'bg-panel-2 text-faint'}`}
        >
          {moved ? formatOffset(offsetMs) : 'real time'}
        </span>
      </span>
    </div>
  );
}

const JUMPING = 'A jump is playing: wait for it to finish, or Cancel it';

function TimeTravel() {
  const { busy, advance, nextRetry, reset, cancel, clock, overview, jump, paused } = useEngine();
  const moved = (clock?.offsetMs ?? 0) !== 0 || (jump !== null && jump.reachedOffsetMs !== 0);
  const resetting = busy === 'reset' || busy === 'cancel';
  // Why the steps cannot be used now (null: they can).
  const stepsBlocked = jump !== null ? JUMPING : resetting ? 'Wait: the clock is being reset' : busy !== null ? 'Wait for the time action in progress' : null;
  // Unknown (not read yet, or unreadable: a revoked token) is not "waiting": offered only once a retry is known to wait.
  const nextBlocked = stepsBlocked ?? (overview === null ? 'Not known yet whether a retry is waiting' : overview.nextDueAt === null ? 'No retry is waiting' : paused ? 'Forwarding is paused: resume it to play the next retry' : null);
  const resetBlocked = resetting ? 'Wait: the clock is being reset' : !moved && jump === null ? 'The clock is at real time' : null;
  return (
    <div role="group" aria-label="Time travel" className="flex items-center gap-1 xl:gap-1.5">
      {/* While a jump plays its progress takes the place of the steps, which stay in view (disabled, saying
          why) only where there is room for both (1536 px); below, screen readers still find them and why. */}
      <div className={`overflow-hidden rounded-md border border-line ${jump ? 'sr-only 2xl:not-sr-only 2xl:flex' : 'flex'}`}>
        {TIME_STEPS.map(({ label, ms, action }) => (
          <button
            key={label}
            type="button"
            disabled={stepsBlocked !== null}
            aria-busy={busy === action || undefined}
            aria-description={stepsBlocked ?? undefined}
            onClick={() => void advance(ms, action)}
            title={stepsBlocked ?? `Move the engine clock forward by ${label.slice(1)}: retries that fall due run now`}
            className={`h-7 border-r border-line px-1 font-mono text-[11px] last:border-r-0 xl:px-2 xl:text-xs hover:bg-hover disabled:cursor-not-allowed disabled:opacity-45 ${busy === action ? 'bg-accent-soft text-accent' : ''}`}
          >
            {label}
          </button>
        ))}
      </div>
      {jump ? (
        <JumpProgress jump={jump} cancelling={busy === 'cancel'} onCancel={() => void cancel()} />
      ) : (
        <Button
          // Below 1280 px its words alone: the icon's room goes to the words of the rest of the bar.
          icon={<SkipForward aria-hidden className="hidden size-3.5 xl:block" />}
          busy={busy === 'next'}
          disabled={nextBlocked !== null}
          onClick={() => void nextRetry()}
          title={nextBlocked ?? 'Jump to the next due retry and run it'}
          aria-description={nextBlocked ?? undefined}
          aria-label="Next retry"
          className="max-xl:px-1.5 max-xl:text-[11px]"
        >
          Next retry
        </Button>
      )}
      <Button
        // Drawn as a button that can be pressed while the clock is moved: ghost grey read as disabled beside Next retry.
        variant={resetBlocked === null ? 'default' : 'ghost'}
        icon={<RotateCcw aria-hidden className={jump ? 'size-3.5' : 'size-3.5 lg:hidden xl:block'} />}
        // Words without their icon below 1280 px: a border says it is a button.
        className="max-xl:border-line max-xl:px-1.5 max-xl:text-[11px]"
        busy={busy === 'reset'}
        disabled={resetBlocked !== null}
        onClick={() => void reset()}
        title={resetBlocked ?? (jump ? 'Stop the jump and go back to real time' : 'Go back to real time')}
        aria-description={resetBlocked ?? undefined}
        aria-label="Reset offset"
      >
        <span className={jump ? 'hidden xl:inline' : 'hidden lg:inline'}>Reset offset</span>
      </Button>
      {!jump && <FastForwardSwitch />}
    </div>
  );
}

/** "about 35 s left · round 2 of ~8, ~5 s each" and Cancel, while a jump plays. */
function JumpProgress({ jump, cancelling, onCancel }: { jump: ClockJump; cancelling: boolean; onCancel: () => void }) {
  const text = jumpProgressText(jump);
  const [playing, rounds] = jumpProgressParts(jump);
  const toGo = jump.targetOffsetMs - jump.reachedOffsetMs;
  return (
    <div className="flex items-center gap-1.5 rounded-md border border-accent/40 bg-accent-soft py-0.5 pr-0.5 pl-2">
      <LoaderCircle aria-hidden className="size-3.5 shrink-0 animate-spin text-accent" />
      <span
        role="status"
        aria-label={`Jump to ${formatOffset(jump.targetOffsetMs)}: ${text}`}
        className="flex flex-col leading-none"
        title={`Jumping to ${formatOffset(jump.targetOffsetMs)}${jump.fastForward ? ' with Fast-forward unanswered attempts' : ''}: ${formatSpan(toGo)} of engine time to go, ${formatSpan(jump.elapsedMs)} so far. Each round waits for its attempts' answers in real time: an unanswered attempt waits the destination's timeout${jump.fastForward ? ' (here 1 s, fast-forwarded)' : ' (5 s by default)'}, however many messages play.`}
      >
        <span className="tabular text-[11px] font-medium text-fg">{playing}</span>
        <span className="tabular mt-0.5 text-[10px] text-accent">
          {rounds} · to {formatOffset(jump.targetOffsetMs)}
          {/* Its title says it below 1536 px, where these words would push the stream's state off the bar. */}
          {jump.fastForward && <span className="hidden 2xl:inline"> · fast-forward</span>}
        </span>
      </span>
      <Button size="sm" busy={cancelling} onClick={onCancel} icon={<X aria-hidden className="size-3.5" />} aria-label="Cancel jump" title="Cancel the jump: the clock stays where it got to; attempts already sent finish">
        <span className="hidden xl:inline">Cancel</span>
      </Button>
    </div>
  );
}

function FastForwardSwitch() {
  const { fastForward, busy, setFastForward } = useEngine();
  const blocked = busy !== null && busy !== 'fast-forward' ? 'Wait for the time action in progress' : null;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={fastForward}
      aria-label="Fast-forward unanswered attempts"
      aria-description={blocked ?? undefined}
      disabled={blocked !== null}
      onClick={() => void setFastForward(!fastForward)}
      title={
        blocked ??
        (fastForward
          ? 'Fast-forward unanswered attempts is on: during a jump, an attempt without response headers after 1 s ends as timeout, marked fast-forwarded. Click to turn it off.'
          : 'Fast-forward unanswered attempts is off: a jump waits each attempt\'s real timeout (5 s by default). Click to end unanswered attempts of a jump after 1 s instead.')
      }
      className={`flex h-7 shrink-0 items-center gap-1.5 rounded-md border px-1.5 text-xs font-medium xl:px-2 disabled:cursor-not-allowed disabled:opacity-45 ${fastForward ? 'border-accent/50 bg-accent-soft text-accent' : 'border-line text-muted hover:bg-hover hover:text-fg'}`}
    >
      <FastForward aria-hidden className="size-3.5" />
      <span className="hidden 2xl:inline">Fast-forward</span>
    </button>
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
      aria-busy={busy === 'pause' || undefined}
      onClick={() => void setPaused(!paused)}
      title={paused ? 'Forwarding is paused: messages are accepted and wait. Click to resume.' : 'Forwarding is on. Click to pause it (messages keep being accepted).'}
      className={`flex h-7 shrink-0 items-center gap-1.5 rounded-md border px-1.5 text-[11px] font-medium xl:gap-2 xl:px-2 xl:text-xs ${paused ? 'border-warn bg-warn-soft text-warn' : 'border-line text-muted hover:bg-hover hover:text-fg'}`}
    >
      <span className={`relative h-3.5 w-5 shrink-0 rounded-full transition-colors xl:w-6 ${paused ? 'bg-warn/40' : 'bg-ok'}`} aria-hidden>
        <span className={`absolute top-0.5 size-2.5 rounded-full bg-white transition-all ${paused ? 'left-0.5' : 'left-2 xl:left-3'}`} />
      </span>
      <span>{paused ? 'Paused' : 'Forwarding'}</span>
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
    { label: 'Failed (1 h)', counter: counters?.failedLastHour, tone: 'text-err', title: 'Messages with a delivery that failed in the last hour of real time: a jump’s failures count as just now, and Reset offset changes nothing' },
  ];
  return (
    // Below 1536 px each counter is its number over its label: the group is as wide as its words, whatever
    // the numbers grow to, so a busy minute never pushes the stream's state off the bar.
    <div role="group" aria-label="Counters" className="flex shrink-0 flex-col items-center leading-none 2xl:flex-row 2xl:gap-1">
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
            title={counter ? `${title}. Click to list them in History.` : `${title}: counting…`}
            aria-label={`${label}: ${counter ? plural(counter.messages, 'message') : 'unknown'}`}
            className="flex flex-col items-center justify-center rounded-md px-1 py-px leading-none hover:bg-hover xl:px-1.5 2xl:h-7 2xl:flex-row 2xl:gap-1.5 2xl:leading-tight"
          >
            <span className={`tabular font-mono text-[13px] font-semibold ${counter?.messages ? tone : 'text-faint'}`}>{counter ? formatCount(counter.messages) : '–'}</span>
            <span className="text-[10px] text-muted 2xl:text-[11px]">{label}</span>
          </button>
        ))}
      </div>
    </div>
  );
}
