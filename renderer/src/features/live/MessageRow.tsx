import { memo } from 'react';
import { summaryTriesWords } from '../../../../main/contract/message/deliveryWords';
import { noSourceReason, type MessageSummary } from '../../../../main/contract/messages';
import { formatClock, formatCountdown, formatDay, formatShortCountdown, formatTimestamp, sameDay } from '../../lib/format';
import { STATUS_TONE, TONE_CLASS } from '../../lib/status';
import { ReceiverVerdictMarker } from '../../ui/ReceiverVerdictMarker';
import { StatusBadge } from '../../ui/StatusBadge';
import { useRowHeight } from '../../stores/density';
import { COLUMNS, columnClass } from './columns';
import { DeliveryChips } from './DeliveryChips';
import { VisibleText } from '../../ui/VisibleText';

export interface MessageRowProps {
  message: MessageSummary;
  index: number;
  top: number;
  active: boolean;
  open: boolean;
  /** Engine time, or the start of its day for a row with no countdown (its text changes only with the day). */
  engineNow: number;
  sourceName: string;
  onClick(id: number): void;
  /** A first cell before the columns (History's checkbox). */
  lead?: React.ReactNode;
  /** A neighbouring row was received in the same second: the milliseconds tell them apart. */
  showMs?: boolean;
  /** Some listed message is from another day: the Time column is wider and dated rows show their date. */
  wideTime?: boolean;
  /** Every delivery it waits on goes to a destination that is off: nothing is due until one is turned on. */
  held?: boolean;
}

/** What a call without an event name is about (the list has no body to show more). */
const WHAT: Record<MessageSummary['type'], string> = {
  track: 'track',
  page: 'page view',
  screen: 'screen view',
  identify: 'user traits',
  group: 'group membership',
  alias: 'alias of a previous ID',
  delete: 'delete user data',
};

/** When it was received: "12:09:28", ".969" where rows share a second, the day when it is not today's. */
function Received({ m, engineNow, showMs, className }: { m: MessageSummary; engineNow: number; showMs: boolean; className: string }) {
  return (
    <span className={`tabular font-mono text-muted ${className}`} title={formatTimestamp(m.receivedAt)}>
      {!sameDay(m.receivedAt, engineNow) && <span className="font-sans text-[10px] text-faint">{formatDay(m.receivedAt)} </span>}
      {formatClock(m.receivedAt)}
      {showMs && <span className="text-[10px] text-faint">.{String(new Date(m.receivedAt).getMilliseconds()).padStart(3, '0')}</span>}
    </span>
  );
}

/**
 * The Attempts cell's words: its rounds and attempts per destination, as the detail pane's cards count them
 * ("1 round · 3 attempts" with several webhooks), the destination named when there are several.
 */
export function attemptsWords(m: Pick<MessageSummary, 'deliveries'>): string {
  if (m.deliveries.length === 1) return summaryTriesWords(m.deliveries[0]!);
  return m.deliveries.map((d) => `${d.destinationName}: ${summaryTriesWords(d)}`).join('; ');
}

/** An unnamed call's cell read whole, for when a narrow list cuts it: `user traits · user-265@example.com`. */
function whoseCall(m: MessageSummary): string {
  const who = m.userId ?? m.anonymousId;
  return who === null ? WHAT[m.type] : `${WHAT[m.type]} · ${who}`;
}

function cells(m: MessageSummary, engineNow: number, sourceName: string, showMs: boolean, held: boolean): Record<(typeof COLUMNS)[number]['key'], React.ReactNode> {
  return {
    time: <Received m={m} engineNow={engineNow} showMs={showMs} className="" />,
    type: <span className="font-mono text-muted">{m.type}</span>,
    event: (
      // Below 680 px (no Time column) the time is a second line under the event.
      <span className="flex min-w-0 flex-col leading-tight @[680px]:block">
        <span className="flex min-w-0 items-center gap-1.5">
          {m.event ? (
            <VisibleText text={m.event} className="truncate font-medium" title={m.event} />
          ) : (
            <span className="truncate text-faint" title={whoseCall(m)}>
              {WHAT[m.type]}
              {/* Without the User column (a narrow list), rows of unnamed calls say whose they are, or they all read alike. */}
              {(m.userId ?? m.anonymousId) !== null && (
                <span className="@[760px]:hidden">
                  {' · '}
                  <VisibleText text={(m.userId ?? m.anonymousId)!} className="font-mono" />
                </span>
              )}
            </span>
          )}
          <ReceiverVerdictMarker verdict={m.receiverVerdict} compact />
        </span>
        <Received m={m} engineNow={engineNow} showMs={showMs} className="truncate text-[11px] @[680px]:hidden" />
      </span>
    ),
    user: m.userId ? (
      <VisibleText text={m.userId} className="font-mono text-muted" title={m.userId} />
    ) : m.anonymousId ? (
      <span className="font-mono text-faint" title={`Anonymous ID: ${m.anonymousId}`}>
        <VisibleText text={m.anonymousId} />
      </span>
    ) : (
      <span className="text-faint">—</span>
    ),
    source: sourceName ? <VisibleText text={sourceName} className="text-muted" title={sourceName} /> : <span className="text-faint" title={`No source: ${noSourceReason(m.origin)}`}>none</span>,
    status: <StatusBadge status={m.status} />,
    deliveries: <DeliveryChips deliveries={m.deliveries} />,
    // Every POST counts (a round to three webhooks is 3), as the column's name says; rounds are in its title.
    attempts: m.webhookAttempts ? (
      <span className="tabular font-mono text-muted" title={attemptsWords(m)}>
        {m.webhookAttempts}
      </span>
    ) : (
      <span className="text-faint">–</span>
    ),
    next: held ? (
      <span className="text-faint" title="Its destination is off (or has no webhook URL): nothing is sent until it is turned on">
        held
      </span>
    ) : m.nextAttemptAt !== null && m.status === 'retrying' ? (
        <span className="tabular font-mono text-warn" title={`Next attempt ${formatCountdown(m.nextAttemptAt, engineNow)}`}>
          {formatShortCountdown(m.nextAttemptAt, engineNow)}
        </span>
      ) : (
        <span className="text-faint">–</span>
      ),
  };
}

export const MessageRow = memo(function MessageRow({ message, index, top, active, open, engineNow, sourceName, onClick, lead, showMs = false, wideTime = false, held = false }: MessageRowProps) {
  const rowHeight = useRowHeight('live');
  const content = cells(message, engineNow, sourceName, showMs, held);
  return (
    <div
      role="row"
      id={`message-row-${message.id}`}
      aria-rowindex={index + 2}
      aria-selected={open}
      data-message-id={message.id}
      onClick={() => onClick(message.id)}
      // Each row is laid out on its own: a row's new text never makes the browser lay out the whole grid.
      style={{ height: rowHeight, transform: `translateY(${top}px)`, contain: 'strict' }}
      className={`absolute top-0 left-0 flex w-full cursor-default items-center gap-2 border-b border-line/60 pr-3 text-xs @[680px]:gap-3 ${
        open ? 'bg-selected' : active ? 'bg-hover' : 'hover:bg-hover'
      } ${active ? 'shadow-[inset_0_0_0_1px_var(--accent)]' : ''}`}
    >
      <span aria-hidden className={`h-full w-[3px] shrink-0 ${TONE_CLASS[STATUS_TONE[message.status]].solid}`} />
      {lead !== undefined && (
        <div role="gridcell" className="flex w-5 shrink-0 items-center">
          {lead}
        </div>
      )}
      {COLUMNS.map((c) => (
        <div key={c.key} role="gridcell" className={`truncate ${columnClass(c, wideTime)}`}>
          {content[c.key]}
        </div>
      ))}
    </div>
  );
});
