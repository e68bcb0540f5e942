/**
 * Exports of messages with their deliveries and attempts (pure: the caller reads the messages and writes
 * the text). Three formats:
 * - `json`: JSON lines, one `MessageDetail` ({message, deliveries, attempts}) per line, the body as its text;
 * - `har`: HAR 1.2, one entry per attempt (see ./export/har.ts);
 * - `curl`: a shell script with one cURL command per attempt that sends it again byte for byte.
 * Unless `includeSecrets`, secrets are replaced by `<redacted>` everywhere (see ./export/redaction.ts).
 */
import type { ExportFormat } from '../contract/api.js';
import type { Destination } from '../contract/destinations.js';
import type { MessageDetail } from '../contract/messages.js';
import { toCurl } from './export/curl.js';
import { toHar } from './export/har.js';
import { createRedactor, type Redactor } from './export/redaction.js';

export { EXPORT_FORMATS, type ExportFormat } from '../contract/api.js';

export interface ExportOptions {
  format: ExportFormat;
  /** Keep secrets as they are (default in the command: false). */
  includeSecrets: boolean;
  /**
   * Values to redact wherever they appear: write keys, the API token, receiver secrets, ... The
   * destinations' shared secrets and credential-like static header values are added from `destinations`.
   */
  secrets: readonly string[];
  /** Hookbench's version, for HAR's `log.creator`. */
  creatorVersion: string;
}

export interface ExportResult {
  text: string;
  mimeType: string;
  fileExtension: string;
}

export function exportMessages(details: readonly MessageDetail[], destinations: readonly Destination[], options: ExportOptions): ExportResult {
  return build(details, destinations, options, createRedactor({ includeSecrets: options.includeSecrets, secrets: options.secrets, destinations }));
}

const encoder = new TextEncoder();
const bytesOf = (text: string): number => encoder.encode(text).byteLength;

/**
 * An export kept within `maxBytes` of UTF-8: messages are offered newest first, one at a time, and taken
 * while their text still fits, so a bounded export never builds more than it keeps (a message's share is
 * measured alone, which never underestimates what it adds to the whole).
 */
export function createBoundedExport(destinations: readonly Destination[], options: ExportOptions, maxBytes: number) {
  const redactor = createRedactor({ includeSecrets: options.includeSecrets, secrets: options.secrets, destinations });
  const empty = bytesOf(build([], destinations, options, redactor).text);
  const kept: MessageDetail[] = [];
  let bytes = empty;
  return {
    /** Takes the message when it fits, else false (and the export is full). `bytes`: its share alone. */
    offer(detail: MessageDetail): { taken: boolean; bytes: number } {
      const share = bytesOf(build([detail], destinations, options, redactor).text) - empty;
      if (bytes + share > maxBytes) return { taken: false, bytes: share + empty };
      kept.push(detail);
      bytes += share;
      return { taken: true, bytes: share };
    },
    /** The text of the messages taken; the measure is checked once more on the whole text. */
    finish(): ExportResult & { messages: number; notSent: number } {
      for (;;) {
        const result = build(kept, destinations, options, redactor);
        if (bytesOf(result.text) <= maxBytes || kept.length === 0) {
          // HAR and cURL list attempts: a message never sent (filtered, waiting) has nothing in them.
          const notSent = options.format === 'json' ? 0 : kept.filter((d) => d.attempts.length === 0).length;
          return { ...result, messages: kept.length - notSent, notSent };
        }
        kept.pop();
      }
    },
  };
}

function build(details: readonly MessageDetail[], destinations: readonly Destination[], options: ExportOptions, redactor: Redactor): ExportResult {
  switch (options.format) {
    case 'json':
      return {
        text: details.map((d) => `${JSON.stringify(redactor.active ? redactDetail(d, redactor) : d)}\n`).join(''),
        mimeType: 'application/x-ndjson',
        fileExtension: 'jsonl',
      };
    case 'har':
      return { text: `${JSON.stringify(toHar(details, redactor, options.creatorVersion), null, 2)}\n`, mimeType: 'application/json', fileExtension: 'har' };
    case 'curl':
      return { text: toCurl(details, redactor, destinations), mimeType: 'application/x-sh', fileExtension: 'sh' };
  }
}

/** Strings redacted throughout; headers by name (credential headers whole, X-Signature kept) and URLs as URLs. */
function redactDetail(d: MessageDetail, r: Redactor): MessageDetail {
  const headers = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([n, v]) => [r.text(n), r.header(n, v)]));
  return {
    message: r.json(d.message),
    deliveries: d.deliveries.map((x) => ({ ...r.json(x), pendingUrls: x.pendingUrls.map(r.url) })),
    attempts: d.attempts.map((a) => ({
      ...r.json(a),
      url: r.url(a.url),
      requestHeaders: headers(a.requestHeaders),
      signature: a.signature,
      responseHeaders: a.responseHeaders && headers(a.responseHeaders),
    })),
  };
}
