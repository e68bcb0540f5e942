import type { AttemptRecord, DeliveryRecord } from '../../contract/deliveries.js';
import type { MessageDetail, MessageRecord } from '../../contract/messages.js';

/** One attempt with the message and delivery it belongs to. */
export interface AttemptRow {
  message: MessageRecord;
  delivery: DeliveryRecord | null;
  attempt: AttemptRecord;
}

/** Every attempt of the given messages, oldest first (engine time, then id). */
export function attemptRows(details: readonly MessageDetail[]): AttemptRow[] {
  const rows: AttemptRow[] = [];
  for (const d of details) {
    const deliveries = new Map(d.deliveries.map((x) => [x.id, x]));
    for (const attempt of d.attempts) rows.push({ message: d.message, delivery: deliveries.get(attempt.deliveryId) ?? null, attempt });
  }
  return rows.sort((a, b) => a.attempt.startedAt - b.attempt.startedAt || a.attempt.id - b.attempt.id);
}

/** `message 12 attempt 2 → http_error 500 (destination "d", webhook 1)`, on one line. */
export function describeAttempt(row: AttemptRow): string {
  const a = row.attempt;
  const result = a.statusCode !== null ? `${a.outcome} ${a.statusCode}` : a.error ? `${a.outcome}: ${a.error}` : a.outcome;
  const where = row.delivery ? ` (destination "${row.delivery.destinationName}", webhook ${a.webhookIndex + 1})` : '';
  return `message ${row.message.id} attempt ${a.attemptNumber} → ${result}${where}`.replace(/[\r\n]+/g, ' ');
}
