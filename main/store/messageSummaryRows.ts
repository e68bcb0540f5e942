/**
 * A message's list row as SQL reads it: the columns of a summary (no body), each delivery with its newest
 * attempt and the mock receiver's verdict gathered in subqueries, and the one conversion of such a row into a
 * MessageSummary.
 */
import type { AttemptOutcome, DeliveryStatus } from '../contract/deliveries.js';
import { deliverySummary, messageSummary } from '../contract/message/messageSummary.js';
import type { MessageSummary } from '../contract/messages.js';
import type { SignatureVerdict } from '../contract/receiver/receiver.js';
import { messageFields, type MessageRow } from './messageStore.js';

export type SummaryRow = Omit<MessageRow, 'body' | 'call'> & {
  bytes: number;
  /** JSON: one array per delivery, [destinationId, name, status, reason, attempts, webhookAttempts, nextAttemptAt, [outcome, statusCode] | null]. */
  deliveries: string | null;
  receiver_verdict: SignatureVerdict | null;
};

type DeliveryCells = [string, string, DeliveryStatus, string | null, number, number, number | null, [AttemptOutcome, number | null] | null];

// A row's deliveries in one subquery (deliveries_message), each with its newest attempt (attempts_message,
// read backwards), or for a delivered one its newest success (any one of its webhooks succeeding delivers it,
// and a 429 from another beside "delivered" reads as a failure): what a list row shows of every destination,
// with no query per row from JavaScript. `d.attempts` counts rounds; the count of its attempt rows is the POSTs
// (webhookAttempts), read here so that a row read from the list and one an event brings say the same.
export const SUMMARY_COLUMNS = `m.id, m.message_id, m.type, m.source_id, m.user_id, m.anonymous_id, m.event, m.status, m.status_reason,
  m.received_at, m.replay_of, m.origin, length(p.body) AS bytes,
  (SELECT json_group_array(json_array(d.destination_id, d.destination_name, d.status, d.reason, d.attempts,
     (SELECT count(*) FROM attempts a WHERE a.message_id = m.id AND a.delivery_id = d.id), d.next_attempt_at,
     json((SELECT json_array(a.outcome, a.status_code) FROM attempts a WHERE a.message_id = m.id AND a.delivery_id = d.id
       ORDER BY d.status = 'delivered' AND a.outcome = 'success' DESC, a.id DESC LIMIT 1))))
   FROM deliveries d WHERE d.message_id = m.id) AS deliveries,
  (SELECT CASE WHEN sum(c.signature_verdict = 'invalid') > 0 THEN 'invalid' WHEN sum(c.signature_verdict = 'missing') > 0 THEN 'missing' WHEN count(*) > 0 THEN 'valid' END
     FROM captures c WHERE c.attempt_message = m.id AND c.id = (SELECT max(x.id) FROM captures x
       WHERE x.attempt_message = m.id AND x.attempt_delivery = c.attempt_delivery AND x.signature_verdict IS NOT NULL)) AS receiver_verdict
  FROM messages m JOIN message_payloads p ON p.message_id = m.id`;

export function toSummary(r: SummaryRow): MessageSummary {
  const cells = r.deliveries ? (JSON.parse(r.deliveries) as DeliveryCells[]) : [];
  return messageSummary(
    messageFields(r),
    { anonymousId: r.anonymous_id, bytes: r.bytes, receiverVerdict: r.receiver_verdict },
    cells.map(([destinationId, destinationName, status, reason, attempts, webhookAttempts, nextAttemptAt, last]) =>
      deliverySummary({ destinationId, destinationName, status, reason, attempts, webhookAttempts, nextAttemptAt, lastOutcome: last?.[0] ?? null, lastStatusCode: last?.[1] ?? null }),
    ),
  );
}
