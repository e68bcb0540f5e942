/**
 * The deliveries' and attempts' rows as SQLite returns them, and the records the API answers with: the one
 * place that knows both shapes (JSON columns parsed, 0/1 as booleans, a failed delivery's window).
 */
import type { AttemptRecord, DeliveryRecord, DeliveryStatus } from '../contract/deliveries.js';
import { deliveryRecord } from '../contract/message/messageSummary.js';

export interface DeliveryRow {
  id: number;
  message_id: number;
  destination_id: string;
  destination_name: string;
  status: DeliveryStatus;
  reason: string | null;
  attempts: number;
  first_attempt_at: number | null;
  next_attempt_at: number | null;
  pending_urls: string | null;
  updated_at: number;
  window_ends_at: number | null;
}

export interface AttemptRow {
  id: number;
  delivery_id: number;
  message_id: number;
  attempt_number: number;
  webhook_index: number;
  url: string;
  outcome: AttemptRecord['outcome'];
  retryable: number;
  status_code: number | null;
  error: string | null;
  started_at: number;
  finished_at: number;
  duration_ms: number;
  request_headers: string;
  signature: string | null;
  response_headers: string | null;
  response_body: Buffer | null;
  response_truncated: number;
}

export function toDelivery(r: DeliveryRow): DeliveryRecord {
  return deliveryRecord({
    id: r.id,
    messageId: r.message_id,
    destinationId: r.destination_id,
    destinationName: r.destination_name,
    status: r.status,
    reason: r.reason,
    attempts: r.attempts,
    firstAttemptAt: r.first_attempt_at,
    nextAttemptAt: r.next_attempt_at,
    pendingUrls: r.pending_urls ? (JSON.parse(r.pending_urls) as string[]) : [],
    updatedAt: r.updated_at,
    pastWindow: r.status === 'failed' && r.window_ends_at !== null && r.next_attempt_at !== null ? { dueAt: r.next_attempt_at, windowEndsAt: r.window_ends_at } : null,
  });
}

/**
 * Headers as an attempt row stores them, the JSON of an object, read back. The forwarder's thread writes
 * that same text (delivery/webhookRequests.ts, SendResult), so a result not stored yet reads the same way.
 */
export function storedHeaders(json: string): Record<string, string> {
  return JSON.parse(json) as Record<string, string>;
}

export function toAttempt(r: AttemptRow): AttemptRecord {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    messageId: r.message_id,
    attemptNumber: r.attempt_number,
    webhookIndex: r.webhook_index,
    url: r.url,
    outcome: r.outcome,
    retryable: r.retryable === 1,
    statusCode: r.status_code,
    error: r.error,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    durationMs: r.duration_ms,
    requestHeaders: storedHeaders(r.request_headers),
    signature: r.signature,
    responseHeaders: r.response_headers ? storedHeaders(r.response_headers) : null,
    responseBody: r.response_body ? r.response_body.toString('utf8') : null,
    responseTruncated: r.response_truncated === 1,
  };
}
