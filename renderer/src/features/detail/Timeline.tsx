import { SkipForward } from 'lucide-react';
import { useState } from 'react';
import { isFastForwarded, type AttemptRecord } from '../../../../main/contract/deliveries';
import { formatCountdown, formatDuration, formatRowTime, formatSpan } from '../../lib/format';
import { ghostWords, type GhostAttempt } from '../../lib/retryLadder';
import { OUTCOME_TONE, TONE_CLASS } from '../../lib/status';
import { useEngine } from '../../stores/engine';
import { useRouter } from '../../stores/router';
import type { SignatureVerdict } from '../../../../main/contract/receiver/receiver';
import { ReceiverVerdictMarker } from '../../ui/ReceiverVerdictMarker';
import { FastForwardedBadge, OutcomeBadge } from '../../ui/StatusBadge';

interface TimelineProps {
  deliveryId: number;
  webhookIndex: number;
  /** Whose timeline this is ("Orders", "Orders, webhook 2"): a message's timelines side by side name their controls apart. */
  scope: string;
  url: string;
  configuredUrl: string | undefined;
  attempts: AttemptRecord[];
  ghosts: GhostAttempt[];
  /** The number of the attempt out on the network to this webhook now, or null. */
  inFlight?: number | null;
  now: number;
  selectedAttemptId: number | null;
  /** The mock receiver's signature verdict per attempt id (getMessage's receiverChecks). */
  receiverVerdicts?: ReadonlyMap<number, SignatureVerdict | null>;
}

/**
 * One webhook's attempts, oldest first, joined by a line: past attempts are buttons that open their
 * detail; the retries still to come are ghost markers with their countdowns.
 */
/** Ghost markers shown before "show the rest of the ladder". */
const GHOSTS_SHOWN = 3;

export function Timeline({ webhookIndex, scope, url, configuredUrl, attempts, ghosts, inFlight = null, now, selectedAttemptId, receiverVerdicts }: TimelineProps) {
  const navigate = useRouter((s) => s.navigate);
  const [allGhosts, setAllGhosts] = useState(false);
  const shownGhosts = allGhosts ? ghosts : ghosts.slice(0, GHOSTS_SHOWN);
  const hidden = ghosts.length - shownGhosts.length;
  return (
    <div>
      <div className="mb-1.5 flex min-w-0 items-baseline gap-2 text-xs">
        <span className="shrink-0 font-medium text-muted">Webhook {webhookIndex + 1}</span>
        <span className="truncate font-mono text-fg" title={url}>
          {url}
        </span>
        {configuredUrl && configuredUrl !== url && <span className="shrink-0 font-mono text-faint">({configuredUrl})</span>}
      </div>
      {/* A container: a ghost's words ("if it fails again") show only where they fit whole, not as "if it f…". */}
      <ol aria-label={`Timeline of webhook ${webhookIndex + 1}`} className="@container relative ml-1.5 border-l border-line">
        {attempts.map((a) => {
          const selected = a.id === selectedAttemptId;
          const tone = TONE_CLASS[OUTCOME_TONE[a.outcome]];
          const verdict = receiverVerdicts?.get(a.id) ?? undefined;
          const refused = verdict === 'invalid' || verdict === 'missing' ? `, receiver: signature ${verdict}` : '';
          return (
            <li key={a.id} className="relative pl-4">
              <span aria-hidden className={`absolute top-1/2 -left-[5px] size-[9px] -translate-y-1/2 rounded-full ring-2 ring-panel ${tone.solid}`} />
              <button
                type="button"
                data-attempt-id={a.id}
                aria-pressed={selected}
                aria-label={`Attempt ${a.attemptNumber}: ${a.outcome}${isFastForwarded(a) ? ' (fast-forwarded)' : ''}${a.statusCode ? `, HTTP ${a.statusCode}` : ''}, ${formatDuration(a.durationMs)}${refused} (${scope})`}
                onClick={() => navigate({ attemptId: selected ? null : a.id })}
                className={`my-0.5 flex h-7 w-full items-center gap-2.5 rounded-md px-2 text-left text-xs ${selected ? 'bg-selected' : 'hover:bg-hover'}`}
              >
                <span className="w-5 shrink-0 font-mono text-faint">#{a.attemptNumber}</span>
                <span className="tabular w-16 shrink-0 font-mono text-muted">{formatRowTime(a.startedAt, now)}</span>
                <OutcomeBadge outcome={a.outcome} />
                {/* A fast-forwarded attempt never has a status: its badge takes the status's place (else the row overflows a narrow pane). */}
                {isFastForwarded(a) ? <FastForwardedBadge /> : <span className={`w-16 shrink-0 font-mono ${tone.text}`}>{a.statusCode ? `HTTP ${a.statusCode}` : '—'}</span>}
                {/* In a narrow pane the shield alone (its tooltip says the rest), so that the duration stays in view. */}
                <ReceiverVerdictMarker verdict={verdict} wordsClassName="hidden @min-[400px]:inline" />
                <span className="tabular ml-auto shrink-0 font-mono text-muted">{formatDuration(a.durationMs)}</span>
              </button>
            </li>
          );
        })}
        {inFlight !== null && (
          <li aria-label={`Attempt ${inFlight} in flight, waiting for the response (${scope})`} className="relative pl-4">
            <span aria-hidden className="absolute top-1/2 -left-[5px] size-[9px] -translate-y-1/2 animate-pulse rounded-full bg-info ring-2 ring-panel" />
            <div className="my-0.5 flex h-7 items-center gap-2.5 rounded-md px-2 text-xs text-muted">
              <span className="w-5 shrink-0 font-mono text-faint">#{inFlight}</span>
              <span>in flight, waiting for the response</span>
            </div>
          </li>
        )}
        {shownGhosts.map((g) => (
          <li key={`ghost-${g.attemptNumber}`} aria-label={`Scheduled attempt ${g.attemptNumber} at ${g.exact ? '' : 'about '}${formatRowTime(g.at, now)}, ${formatCountdown(g.at, now)}`} className="relative pl-4">
            <span aria-hidden className="absolute top-1/2 -left-[5px] size-[9px] -translate-y-1/2 rounded-full border border-dashed border-warn bg-panel opacity-70" />
            <div className="group my-0.5 flex h-7 items-center gap-2.5 rounded-md border border-dashed border-line pr-0.5 pl-2 text-xs text-muted">
              <span className="w-5 shrink-0 font-mono text-faint opacity-70">#{g.attemptNumber}</span>
              <span className="tabular w-16 shrink-0 font-mono opacity-80">
                {g.exact ? '' : '≈'}
                {formatRowTime(g.at, now)}
              </span>
              <span className="hidden truncate text-faint @min-[460px]:block">{ghostWords(g).label}</span>
              <span className="tabular ml-auto shrink-0 font-mono text-warn">
                {formatCountdown(g.at, now)}
                {g.spreadMs > 0 && <span className="text-faint"> ±{formatSpan(g.spreadMs)}</span>}
              </span>
              <AdvanceToRetry ghost={g} now={now} scope={scope} />
            </div>
          </li>
        ))}
        {hidden > 0 && (
          <li className="relative pl-4">
            {/* Only the next retry is scheduled; the ones after it come only if it keeps failing. */}
            <button type="button" onClick={() => setAllGhosts(true)} aria-label={`${hidden} more ${hidden === 1 ? 'retry' : 'retries'} if it keeps failing, the last ${formatCountdown(ghosts[ghosts.length - 1]!.at, now)} (${scope})`} className="my-0.5 h-6 rounded-md px-2 text-xs text-muted hover:bg-hover hover:text-fg">
              {hidden} more {hidden === 1 ? 'retry' : 'retries'} if it keeps failing, the last <span className="whitespace-nowrap">{formatCountdown(ghosts[ghosts.length - 1]!.at, now)}</span>
            </button>
          </li>
        )}
        {attempts.length === 0 && ghosts.length === 0 && inFlight === null && <li className="pl-4 text-xs text-faint">No attempt yet.</li>}
      </ol>
    </div>
  );
}

/**
 * Moves the clock to a ghost marker's due time (the top bar's Next retry moves it to the earliest of all):
 * what falls due on the way plays, this retry included; a projected one plays if the retries before it fail.
 */
function AdvanceToRetry({ ghost, now, scope }: { ghost: GhostAttempt; now: number; scope: string }) {
  const { busy, jump, advanceTo, paused } = useEngine();
  const blocked =
    jump !== null
      ? 'A jump is playing: wait for it to finish, or Cancel it in the top bar'
      : busy !== null
        ? 'Wait for the time action in progress'
        : paused
          ? `Forwarding is paused: resume it to play ${ghostWords(ghost).target}`
          : ghost.at <= now
          ? 'Already due: it runs without moving the clock'
          : null;
  return (
    <button
      type="button"
      aria-label={`Advance to attempt ${ghost.attemptNumber} (${scope})`}
      aria-description={blocked ?? undefined}
      aria-busy={busy === 'to-retry' || undefined}
      disabled={blocked !== null}
      onClick={() => void advanceTo(ghost.at)}
      title={blocked ?? `Move the engine clock forward ${formatSpan(ghost.at - now)}, to ${ghostWords(ghost).target}, and play what falls due on the way`}
      className="flex h-6 shrink-0 items-center gap-1 rounded px-1.5 text-[11px] font-medium text-muted hover:bg-hover hover:text-fg disabled:cursor-not-allowed disabled:opacity-45"
    >
      <SkipForward aria-hidden className="size-3" />
      <span className="hidden xl:inline">Advance</span>
    </button>
  );
}
