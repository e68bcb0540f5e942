import { useConnection } from '../stores/connection';

const LOOK = {
  open: { dot: 'bg-ok', text: 'Live', title: 'Receiving events as they happen' },
  connecting: { dot: 'bg-warn animate-pulse', text: 'Connecting', title: 'Connecting to the event stream…' },
  closed: { dot: 'bg-err', text: 'Offline', title: 'The event stream is closed; reconnecting by itself' },
  // As short as "Offline": the top bar has no room for more at 1024 px; the title says the rest.
  revoked: { dot: 'bg-err', text: 'Rotated', title: 'The API token was rotated, so this window can no longer reach Hookbench: open the new link that hookbench info prints' },
} as const;

export function ConnectionIndicator() {
  const state = useConnection((s) => s.state);
  const look = LOOK[state];
  return (
    <div role="status" aria-label={`Event stream: ${look.text}`} title={look.title} className="flex shrink-0 items-center gap-1 rounded-md px-1 text-[11px] text-muted xl:gap-1.5 xl:px-1.5">
      <span aria-hidden className={`size-2 rounded-full ${look.dot}`} />
      {/* Below 1280 px a live stream is the green dot alone (its name says Live); a problem keeps its word. */}
      <span>{look.text}</span>
    </div>
  );
}
