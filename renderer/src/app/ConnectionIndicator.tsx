import { useConnection } from '../stores/connection';

const LOOK = {
  open: { dot: 'bg-ok', text: 'Live', title: 'Receiving events as they happen' },
  connecting: { dot: 'bg-warn animate-pulse', text: 'Connecting', title: 'Connecting to the event stream…' },
  closed: { dot: 'bg-err', text: 'Offline', title: 'The event stream is closed; reconnecting by itself' },
} as const;

export function ConnectionIndicator() {
  const state = useConnection((s) => s.state);
  const look = LOOK[state];
  return (
    <div role="status" aria-label={`Event stream: ${look.text}`} title={look.title} className="flex items-center gap-1.5 rounded-md px-1.5 text-[11px] text-muted">
      <span aria-hidden className={`size-2 rounded-full ${look.dot}`} />
      {/* Below 1280 px a live stream is the green dot alone (its name says Live); a problem keeps its word. */}
      <span className={state === 'open' ? 'hidden xl:inline' : ''}>{look.text}</span>
    </div>
  );
}
