/**
 * resetClock moves the times of waiting deliveries (queued, retrying) back by the offset it took away, so a
 * retry due in 30 s is still due in 30 s (docs/behaviour.md §5). The server rewrites its rows without an event
 * per delivery: the copies the renderer holds move the same way when its clockAdvanced (byMs < 0) arrives,
 * or every countdown and ghost marker stays off by the old offset until a reload.
 */
import type { DeliveryRecord } from '../../../main/contract/deliveries';
import type { EngineEvent } from '../../../main/contract/events';
import type { MessageDetail, MessageSummary } from '../../../main/contract/messages';

const isWaiting = (status: string) => status === 'queued' || status === 'retrying';

/** Where a batch's first reset lies, and by how much it moved waiting times (negative); null when none. */
export function firstReset(events: readonly EngineEvent[]): { index: number; byMs: number } | null {
  const index = events.findIndex((e) => e.type === 'clockAdvanced' && e.byMs < 0);
  if (index < 0) return null;
  return { index, byMs: (events[index] as Extract<EngineEvent, { type: 'clockAdvanced' }>).byMs };
}

const plus = (at: number | null, byMs: number) => (at === null ? null : at + byMs);

/** A list row with its waiting deliveries' next attempts (and so its own) moved by `byMs`; the same row when none waits. */
export function shiftSummary(m: MessageSummary, byMs: number): MessageSummary {
  if (m.nextAttemptAt === null && !m.deliveries.some((d) => isWaiting(d.status) && d.nextAttemptAt !== null)) return m;
  return {
    ...m,
    nextAttemptAt: plus(m.nextAttemptAt, byMs),
    deliveries: m.deliveries.map((d) => (isWaiting(d.status) ? { ...d, nextAttemptAt: plus(d.nextAttemptAt, byMs) } : d)),
  };
}

/** A delivery moved as the server moves it: a waiting one's next and first attempt times. */
export function shiftDelivery(d: DeliveryRecord, byMs: number): DeliveryRecord {
  if (!isWaiting(d.status)) return d;
  return { ...d, nextAttemptAt: plus(d.nextAttemptAt, byMs), firstAttemptAt: plus(d.firstAttemptAt, byMs) };
}

export function shiftDetail(detail: MessageDetail, byMs: number): MessageDetail {
  return { ...detail, deliveries: detail.deliveries.map((d) => shiftDelivery(d, byMs)) };
}

/** Rows moved; the same array when no row changed. */
export function shiftRows(rows: MessageSummary[], byMs: number): MessageSummary[] {
  let changed = false;
  const out = rows.map((r) => {
    const moved = shiftSummary(r, byMs);
    if (moved !== r) changed = true;
    return moved;
  });
  return changed ? out : rows;
}
