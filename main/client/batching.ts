/**
 * Request bodies: `{"batch":[...],"sentAt":"..."}` assembled from the messages' JSON as serialised at the
 * call (never re-serialised), and the split that keeps every body within the 500 KiB request limit.
 */
import { LIMITS } from '../contract/message/messageShapes.js';

/** `{"batch":[],"sentAt":""}`: the body without messages and without the sentAt string's characters. */
const ENVELOPE_BYTES = Buffer.byteLength('{"batch":[],"sentAt":""}', 'utf8');
/** Room for the sentAt string (24 characters for years 0000-9999, 27 for the extended years). */
const SENT_AT_RESERVE = 27;

/** Upper bound of the body size of a request holding `count` messages of `messageBytes` bytes in all. */
export function requestBytes(messageBytes: number, count: number): number {
  return ENVELOPE_BYTES + SENT_AT_RESERVE + messageBytes + Math.max(0, count - 1);
}

export function batchBody(jsons: readonly string[], sentAt: string): string {
  return `{"batch":[${jsons.join(',')}],"sentAt":${JSON.stringify(sentAt)}}`;
}

/**
 * Splits messages, in order, into the fewest consecutive runs whose request body stays within `limit`
 * bytes. A message is at most 32 KiB (refused at the call otherwise), so each one fits a request.
 */
export function splitIntoRequests<T extends { bytes: number }>(items: readonly T[], limit: number = LIMITS.requestBytes): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length > 0 && requestBytes(bytes + item.bytes, current.length + 1) > limit) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.bytes;
  }
  if (current.length > 0) out.push(current);
  return out;
}
