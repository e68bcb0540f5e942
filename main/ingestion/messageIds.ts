/**
 * The messageId Hookbench gives a call that has none: a UUID version 7 (RFC 9562), whose first 48 bits are
 * the time in ms. Ids made one after the other sort together, so the dedupe index on messages grows at its
 * end instead of touching a random page per message (a random v4 id made each commit of 100 messages write
 * twice the pages). The other 74 bits come from crypto.randomUUID, which is buffered and fast.
 */
import { randomUUID } from 'node:crypto';

/** The time part of the last id made (`xxxxxxxx-xxxx-7`), and its ms: ids of one batch share it. */
let lastMs = -1;
let lastPrefix = '';

export function newMessageId(nowMs: number = Date.now()): string {
  const ms = Math.max(0, Math.floor(nowMs));
  if (ms !== lastMs) {
    const time = ms.toString(16).padStart(12, '0').slice(-12);
    lastPrefix = `${time.slice(0, 8)}-${time.slice(8)}-7`;
    lastMs = ms;
  }
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; keep everything after its version digit.
  return `${lastPrefix}${randomUUID().slice(15)}`;
}
