/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): one entry per attempt, oldest first. Hookbench
 * fields are custom fields, prefixed `_`. An attempt without a response (timeout, network or TLS error)
 * has status 0 and its cause in `_error` and the entry's comment, as browsers export failed requests.
 */
import type { Entry, Har, Header, QueryString, Response } from 'har-format';
import type { MessageDetail } from '../../contract/messages.js';
import { attemptRows, describeAttempt, type AttemptRow } from './attempts.js';
import type { Redactor } from './redaction.js';

const HTTP_VERSION = 'HTTP/1.1';

export const REDACTION_NOTE =
  'Secrets (shared secrets, write keys, the API token, credential headers and URL passwords) are replaced by <redacted>; export with includeSecrets to keep them.';

export function toHar(details: readonly MessageDetail[], redactor: Redactor, creatorVersion: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'Hookbench', version: creatorVersion },
      entries: attemptRows(details).map((row) => toEntry(row, redactor)),
      ...(redactor.active ? { comment: REDACTION_NOTE } : {}),
    },
  };
}

function toEntry(row: AttemptRow, redactor: Redactor): Entry {
  const { attempt: a, message } = row;
  const url = redactor.url(a.url);
  const body = redactor.text(message.body);
  return {
    startedDateTime: new Date(a.startedAt).toISOString(),
    time: a.durationMs,
    request: {
      method: 'POST',
      url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: headerList(a.requestHeaders, redactor),
      queryString: queryString(a.url, redactor),
      postData: { mimeType: a.requestHeaders['content-type'] ?? 'application/json', text: body },
      headersSize: -1,
      bodySize: byteLength(message.body),
    },
    response: toResponse(row, redactor),
    cache: {},
    // Hookbench measures from sending to the response headers (or the failure): that is all `wait`.
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: a.durationMs, receive: 0 },
    comment: redactor.text(describeAttempt(row)),
    _messageId: message.id,
    // Where the message came in: an import of this file routes it through that source again.
    _sourceId: message.sourceId,
    _deliveryId: a.deliveryId,
    _destinationId: row.delivery?.destinationId ?? null,
    // By name too: another workbench's destination of that name is where an import of this file sends it.
    _destinationName: row.delivery?.destinationName ?? null,
    _attemptNumber: a.attemptNumber,
    _webhookIndex: a.webhookIndex,
    _outcome: a.outcome,
    _retryable: a.retryable,
  };
}

function toResponse(row: AttemptRow, redactor: Redactor): Response {
  const a = row.attempt;
  if (a.statusCode === null) {
    const failed: Response & { _error: string } = {
      status: 0,
      statusText: '',
      httpVersion: '',
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      comment: redactor.text(a.error ?? a.outcome),
      _error: redactor.text(a.error ?? a.outcome),
    };
    return failed;
  }
  const headers = a.responseHeaders ?? {};
  const text = a.responseBody ?? '';
  const size = byteLength(text);
  return {
    status: a.statusCode,
    statusText: STATUS_TEXT[a.statusCode] ?? '',
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: headerList(headers, redactor),
    content: {
      size,
      mimeType: headers['content-type'] ?? 'x-unknown',
      text: redactor.text(text),
      ...(a.responseTruncated ? { comment: `truncated: the first ${size} bytes were kept` } : {}),
    },
    redirectURL: a.statusCode >= 300 && a.statusCode < 400 ? redactor.url(headers['location'] ?? '') : '',
    headersSize: -1,
    bodySize: a.responseTruncated ? -1 : size,
    ...(a.responseTruncated ? { _truncated: true } : {}),
  };
}

/** Headers in the order they were sent (stored as an object, whose string keys keep insertion order). */
function headerList(headers: Record<string, string>, redactor: Redactor): Header[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value: redactor.header(name, value) }));
}

function queryString(url: string, redactor: Redactor): QueryString[] {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return [];
  }
  return [...params].map(([name, value]) => ({ name: redactor.text(name), value: redactor.param(name, value) }));
}

const encoder = new TextEncoder();
function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/** Reason phrases for the statuses a webhook commonly answers with (HTTP/2 has none; '' elsewhere). */
const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content',
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 413: 'Content Too Large', 422: 'Unprocessable Content',
  429: 'Too Many Requests', 500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout',
};
