/**
 * The messageId Hookbench gives a call that has none: a UUID version 7 (RFC 9562), whose first 48 bits are
 * the time in ms. Ids made one after the other sort together, so the dedupe index on messages grows at its
 * end instead of touching a random page per message (a random v4 id made each commit of 100 messages write
 * twice the pages). The other 74 bits come from crypto.randomUUID, which is buffered and fast.
 */
import { randomUUID } from 'node:crypto';

export function newMessageId(nowMs: number = Date.now()): string {
  const time = Math.max(0, Math.floor(nowMs)).toString(16).padStart(12, '0').slice(-12);
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; keep everything after its version digit.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}
