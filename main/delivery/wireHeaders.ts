/**
 * The request headers exactly as the socket carried them (docs/behaviour.md §2), read from undici's
 * diagnostics channel.
 */
import { subscribe } from 'node:diagnostics_channel';

/** A request that wants to know the header block written for it. */
export interface WireWatcher {
  wroteHeaders(block: string): void;
}

/**
 * What the socket carried. undici announces each request's header block on a diagnostics channel just
 * after it calls the request's handler (onRequestStart), in the same synchronous step and before any other
 * request is written: the exchange that started last is the one whose block this is. undici appends
 * `content-length` to that block as it writes a buffer body, so the record adds it last, as the wire has it.
 * Subscribed on the thread that sends (each worker has its own channels).
 */
let writing: WireWatcher | null = null;
let observing = false;

export function willWrite(exchange: WireWatcher): void {
  writing = exchange;
}

/** The request is over: a header block written after this is not its own. */
export function doneWriting(exchange: WireWatcher): void {
  if (writing === exchange) writing = null;
}

export function observeWire(): void {
  if (observing) return;
  observing = true;
  subscribe('undici:client:sendHeaders', (message) => {
    const exchange = writing;
    writing = null;
    const m = message as { request: { method?: string }; headers: string };
    if (exchange && m.request.method === 'POST') exchange.wroteHeaders(m.headers);
  });
}

/** `POST /p HTTP/1.1\r\nhost: h\r\n...` (a header block without its blank line) → the headers in order, content-length last. */
export function wireHeaders(block: string, contentLength: number): Record<string, string> {
  const out: Record<string, string> = {};
  let start = block.indexOf('\r\n') + 2;
  while (start > 1 && start < block.length) {
    const end = block.indexOf('\r\n', start);
    if (end < 0) break;
    const colon = block.indexOf(':', start);
    if (colon > start && colon < end) out[block.slice(start, colon)] = block.slice(block.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1, end);
    start = end + 2;
  }
  out['content-length'] = String(contentLength);
  return out;
}
