import { summaryTriesWords } from '../../../../main/contract/message/deliveryWords';
import type { DeliverySummary } from '../../../../main/contract/messages';
import { STATUS_TONE, TONE_CLASS } from '../../lib/status';
import { VisibleText } from '../../ui/VisibleText';

/** A glyph per status, so a chip reads without its colour. */
const GLYPH: Record<DeliverySummary['status'], string> = { queued: '·', delivering: '…', retrying: '↻', delivered: '✓', failed: '✕', cancelled: '⊘' };

/** Beyond this many destinations a row shows counts per status instead of one chip each. */
const MAX_CHIPS = 3;

/**
 * Names join the chips only where the cell (the `chips` container, columns.ts) has room for every chip's
 * name, 100 px a chip (a name of 8 characters or so before its ellipsis): else "O… ✓ 200" next to a chip
 * whose name has vanished. Indexed by count.
 */
const NAMES_FROM = ['', '@min-[100px]/chips:inline', '@min-[200px]/chips:inline', '@min-[300px]/chips:inline'];

/** What a delivery's newest attempt got, in a few characters: the HTTP status, else what went wrong. */
export function lastResult(d: DeliverySummary): string {
  if (d.lastStatusCode !== null) return String(d.lastStatusCode);
  switch (d.lastOutcome) {
    case 'tls_error':
      return 'TLS';
    case 'timeout':
      return 'timeout';
    case 'network_error':
      return 'conn';
    default:
      return d.status === 'delivering' ? '…' : '–';
  }
}

/**
 * One delivery in words, for the chip's name and tooltip: "Billing: retrying, last HTTP 503, 2 attempts",
 * or with several webhooks "…, 1 round · 3 attempts", as the detail pane's card counts them.
 */
export function describeDelivery(d: DeliverySummary): string {
  const last = d.lastStatusCode !== null ? `last HTTP ${d.lastStatusCode}` : d.lastOutcome ? `last ${d.lastOutcome.replace('_', ' ')}` : 'not attempted yet';
  const why = d.reason ? ` (${d.reason})` : '';
  return `${d.destinationName}: ${d.status}${why}, ${last}, ${summaryTriesWords(d)}`;
}

/** Counts per delivery status, in the order of the contract's statuses ("2 delivered · 1 failed"). */
export function countByStatus(deliveries: readonly DeliverySummary[]): [DeliverySummary['status'], number][] {
  const counts = new Map<DeliverySummary['status'], number>();
  for (const d of deliveries) counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  return [...counts.entries()];
}

/**
 * Each destination's outcome at a glance: a chip per delivery (its status colour and last HTTP status; the
 * name where the cell has room for all of them), or counts per status past three destinations. The group's
 * accessible name says it all in words.
 */
export function DeliveryChips({ deliveries }: { deliveries: readonly DeliverySummary[] }) {
  if (deliveries.length === 0) return <span className="text-faint">none</span>;
  const label = deliveries.map(describeDelivery).join('; ');
  if (deliveries.length > MAX_CHIPS) {
    return (
      <span role="img" aria-label={label} title={deliveries.map(describeDelivery).join('\n')} className="flex items-center gap-1">
        {countByStatus(deliveries).map(([status, n]) => (
          <span key={status} title={`${n} ${status}`} className={`tabular flex items-center gap-0.5 rounded px-1 font-mono text-[11px] ${TONE_CLASS[STATUS_TONE[status]].soft}`}>
            {n}
            <span aria-hidden>{GLYPH[status]}</span>
          </span>
        ))}
      </span>
    );
  }
  return (
    <span role="img" aria-label={label} className="flex min-w-0 items-center gap-1">
      {deliveries.map((d, i) => (
        <span key={`${d.destinationId}-${i}`} title={describeDelivery(d)} className={`flex min-w-0 items-center gap-1 rounded px-1 font-mono text-[11px] ${TONE_CLASS[STATUS_TONE[d.status]].soft}`}>
          <VisibleText text={d.destinationName} className={`hidden max-w-[10rem] truncate font-sans ${NAMES_FROM[deliveries.length]}`} />
          <span aria-hidden className="shrink-0">{GLYPH[d.status]}</span>
          <span className="tabular shrink-0">{lastResult(d)}</span>
        </span>
      ))}
    </span>
  );
}
