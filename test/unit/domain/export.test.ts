import type { Har } from 'har-format';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../../../main/contract/deliveries.js';
import type { Destination } from '../../../main/contract/destinations.js';
import type { MessageDetail } from '../../../main/contract/messages.js';
import { exportMessages, type ExportOptions } from '../../../main/domain/export.js';
import { createRedactor, redactUrlCredentials } from '../../../main/domain/export/redaction.js';
import { shellQuote } from '../../../main/domain/export/curl.js';
import { signBody } from '../../../main/domain/signature.js';
import { har12Schema } from '../../helpers/har12.js';

const SHARED = 's3cr3t-shared';
const WRITE_KEY = 'wk_live_123';
const TOKEN = 'api-token-999';
const BEARER = 'Bearer static-bearer-xyz';
const URL_PASSWORD = 'p4ss-in-url';
const T0 = Date.UTC(2026, 10, 22, 11, 0, 0);

const body = JSON.stringify({
  version: 1,
  type: 'track',
  userId: 'u1',
  event: 'Bought',
  properties: { note: `it's "quoted" $HOME \\ path\nline 😀 ü`, echoedKey: WRITE_KEY },
});
const url = `https://hook:${URL_PASSWORD}@example.test/in?token=tok123&x=1`;
// As the socket carried them (docs/behaviour.md §2): host and connection first, content-length last.
const requestHeaders = {
  host: 'example.test',
  connection: 'keep-alive',
  'content-type': 'application/json',
  'user-agent': 'Hookbench/1.0',
  'x-signature': signBody(SHARED, Buffer.from(body)),
  'X-Env': 'dev',
  Authorization: BEARER,
  'content-length': String(Buffer.byteLength(body)),
};

const destination: Destination = {
  id: 'dest-1',
  name: 'orders',
  enabled: true,
  sourceIds: [],
  sharedSecret: SHARED,
  webhooks: [{ url, headers: { 'X-Env': 'dev', Authorization: BEARER } }],
  caFile: null,
  timeoutMs: 5000,
  retry: { schedule: [5000], windowMs: 60_000, jitter: 0 },
  filters: { allowEvents: [], blockEvents: [] },
  createdAt: T0,
  updatedAt: T0,
};

function attempt(over: Partial<AttemptRecord>): AttemptRecord {
  return {
    id: 1,
    deliveryId: 7,
    messageId: 12,
    attemptNumber: 1,
    webhookIndex: 0,
    url,
    outcome: 'success',
    retryable: false,
    statusCode: 200,
    error: null,
    startedAt: T0,
    finishedAt: T0 + 20,
    durationMs: 12.5,
    requestHeaders,
    signature: requestHeaders['x-signature'],
    responseHeaders: { 'content-type': 'text/plain' },
    responseBody: 'ok',
    responseTruncated: false,
    ...over,
  };
}

const detail: MessageDetail = {
  message: {
    id: 12,
    messageId: 'm-12',
    type: 'track',
    sourceId: null,
    userId: 'u1',
    event: 'Bought',
    status: 'delivered',
    statusReason: null,
    receivedAt: T0,
    body,
    call: { userId: 'u1', event: 'Bought', properties: { echoedKey: WRITE_KEY } },
    replayOf: null,
  },
  deliveries: [
    {
      id: 7,
      messageId: 12,
      destinationId: 'dest-1',
      destinationName: 'orders',
      status: 'delivered',
      reason: null,
      attempts: 3,
      firstAttemptAt: T0,
      nextAttemptAt: null,
      pendingUrls: [],
      updatedAt: T0 + 60_000,
    },
  ],
  // Stored out of time order on purpose: exports list attempts oldest first.
  attempts: [
    attempt({ id: 3, attemptNumber: 3, startedAt: T0 + 40_000 }),
    attempt({ id: 1, outcome: 'timeout', retryable: true, statusCode: null, error: 'timeout after 5000 ms', durationMs: 5000, responseHeaders: null, responseBody: null }),
    attempt({
      id: 2,
      attemptNumber: 2,
      startedAt: T0 + 5_000,
      outcome: 'http_error',
      retryable: true,
      statusCode: 500,
      error: 'HTTP 500',
      responseHeaders: { 'content-type': 'text/plain', 'set-cookie': 'sid=abc', 'x-echo': TOKEN },
      responseBody: `oops ${SHARED} echoed`,
    }),
  ],
};

const secretsOf = [SHARED, WRITE_KEY, TOKEN, BEARER, 'static-bearer-xyz', URL_PASSWORD, 'tok123', 'sid=abc'];
const run = (format: ExportOptions['format'], includeSecrets = false, details: MessageDetail[] = [detail]) =>
  exportMessages(details, [destination], { format, includeSecrets, secrets: [WRITE_KEY, TOKEN], creatorVersion: '0.1.0' });

describe('export: JSON lines', () => {
  it('one message per line with its deliveries and attempts, the body as its exact text', () => {
    const other: MessageDetail = { ...detail, message: { ...detail.message, id: 13 }, attempts: [] };
    const out = run('json', true, [detail, other]);
    expect(out).toMatchObject({ mimeType: 'application/x-ndjson', fileExtension: 'jsonl' });
    const lines = out.text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual(detail);
    expect((JSON.parse(lines[0]!) as MessageDetail).message.body).toBe(body);
    expect((JSON.parse(lines[1]!) as MessageDetail).message.id).toBe(13);
  });
});

describe('export: HAR 1.2', () => {
  const har = (includeSecrets = true) => JSON.parse(run('har', includeSecrets).text) as Har;

  it('validates against the HAR 1.2 structure', () => {
    const out = run('har', true);
    expect(out).toMatchObject({ mimeType: 'application/json', fileExtension: 'har' });
    const parsed = har12Schema.safeParse(JSON.parse(out.text));
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(har12Schema.safeParse(JSON.parse(run('har', false).text)).success).toBe(true);
  });

  it('the schema is not vacuous: a missing timing, a missing field or an unknown field is refused', () => {
    const broken = (edit: (h: Har) => void) => {
      const h = har();
      edit(h);
      return har12Schema.safeParse(h).success;
    };
    expect(broken(() => undefined)).toBe(true);
    expect(broken((h) => delete (h.log.entries[0]!.timings as Partial<Har['log']['entries'][0]['timings']>).wait)).toBe(false);
    expect(broken((h) => delete (h.log.entries[0]!.response as Partial<Har['log']['entries'][0]['response']>).content)).toBe(false);
    expect(broken((h) => delete (h.log.entries[0]!.request as Partial<Har['log']['entries'][0]['request']>).queryString)).toBe(false);
    expect(broken((h) => Object.assign(h.log.entries[0]!, { outcome: 'x' }))).toBe(false);
    expect(broken((h) => Object.assign(h.log, { version: '1.1' }))).toBe(false);
  });

  it('one entry per attempt, oldest first, with Hookbench custom fields', () => {
    const { log } = har();
    expect(log.version).toBe('1.2');
    expect(log.creator).toEqual({ name: 'Hookbench', version: '0.1.0' });
    expect(log.comment).toBeUndefined();
    expect(log.entries.map((e) => e._attemptNumber)).toEqual([1, 2, 3]);
    const e = log.entries[1]!;
    expect(e).toMatchObject({ _messageId: 12, _deliveryId: 7, _destinationId: 'dest-1', _destinationName: 'orders', _attemptNumber: 2, _outcome: 'http_error', _webhookIndex: 0 });
    expect(e.startedDateTime).toBe(new Date(T0 + 5_000).toISOString());
    expect(e.comment).toBe('message 12 attempt 2 → http_error 500 (destination "orders", webhook 1)');
  });

  it('the request: headers in the order sent, the exact body, its size in bytes, the query string', () => {
    const { request } = har().log.entries[0]!;
    expect(request).toMatchObject({ method: 'POST', url, httpVersion: 'HTTP/1.1', headersSize: -1, bodySize: Buffer.byteLength(body) });
    expect(request.headers).toEqual(Object.entries(requestHeaders).map(([name, value]) => ({ name, value })));
    expect(request.postData).toEqual({ mimeType: 'application/json', text: body });
    expect(request.queryString).toEqual([{ name: 'token', value: 'tok123' }, { name: 'x', value: '1' }]);
  });

  it('the response: status, headers and body; an attempt without one has status 0 and its cause', () => {
    const [timedOut, failed, ok] = har().log.entries;
    expect(failed!.response).toMatchObject({ status: 500, statusText: 'Internal Server Error', bodySize: Buffer.byteLength(`oops ${SHARED} echoed`) });
    expect(failed!.response.content).toEqual({ size: Buffer.byteLength(`oops ${SHARED} echoed`), mimeType: 'text/plain', text: `oops ${SHARED} echoed` });
    expect(failed!.response.headers[1]).toEqual({ name: 'set-cookie', value: 'sid=abc' });
    expect(ok!.response.status).toBe(200);
    expect(timedOut!.response).toMatchObject({ status: 0, _error: 'timeout after 5000 ms', comment: 'timeout after 5000 ms', headers: [] });
    expect(timedOut!.timings).toEqual({ blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 5000, receive: 0 });
    expect(timedOut!.time).toBe(5000);
  });

  it('a truncated response body says so and has an unknown body size', () => {
    const big = 'x'.repeat(100);
    const truncated = { ...detail, attempts: [attempt({ responseBody: big, responseTruncated: true })] };
    const [entry] = (JSON.parse(run('har', true, [truncated]).text) as Har).log.entries;
    expect(entry!.response.bodySize).toBe(-1);
    expect(entry!.response.content).toMatchObject({ size: 100, text: big });
    expect((entry!.response as { _truncated?: boolean })._truncated).toBe(true);
  });
});

describe('export: cURL', () => {
  it('a comment line, then one command per attempt with the headers in the order sent and the body quoted', () => {
    const out = run('curl', true);
    expect(out).toMatchObject({ mimeType: 'application/x-sh', fileExtension: 'sh' });
    const lines = out.text.split('\n');
    expect(lines[0]).toBe('#!/bin/sh');
    expect(out.text.match(/^curl /gm)).toHaveLength(3);
    expect(out.text).toContain('# message 12 attempt 1 → timeout: timeout after 5000 ms (destination "orders", webhook 1)\ncurl -sS -g -X POST ');
    const first = out.text.split('\n\n')[1]!;
    expect(first.split(' \\\n  ')).toEqual([
      `# message 12 attempt 1 → timeout: timeout after 5000 ms (destination "orders", webhook 1)\ncurl -sS -g -X POST '${url}'`,
      "-H 'content-type: application/json'",
      "-H 'user-agent: Hookbench/1.0'",
      `-H 'x-signature: ${requestHeaders['x-signature']}'`,
      "-H 'X-Env: dev'",
      `-H 'Authorization: ${BEARER}'`,
      "-H 'Accept:' -H 'Expect:'",
      `--data-binary ${shellQuote(body)}`,
    ]);
    expect(out.text.endsWith(`--data-binary ${shellQuote(body)}\n`)).toBe(true);
  });

  it('an attempt that sent nothing gets a comment instead of a command; a CA file becomes --cacert', () => {
    const unsent = { ...detail, attempts: [attempt({ outcome: 'network_error', statusCode: null, error: 'receiver "r" is not listening', requestHeaders: {} })] };
    expect(run('curl', true, [unsent]).text).toContain('# (no request was sent, so there is nothing to replay)');
    const withCa = exportMessages([detail], [{ ...destination, caFile: "/tmp/it's ca.pem" }], { format: 'curl', includeSecrets: true, secrets: [], creatorVersion: '0' });
    expect(withCa.text).toContain(`--cacert '/tmp/it'\\''s ca.pem'`);
  });
});

describe('export: redaction', () => {
  it.each(['json', 'har', 'curl'] as const)('%s: no secret appears unless includeSecrets; they all do when asked', (format) => {
    const redacted = run(format, false).text;
    for (const s of secretsOf) expect(redacted, s).not.toContain(s);
    expect(redacted).toContain('<redacted>');
    // The signature is an HMAC of the body, not a secret: it stays.
    expect(redacted).toContain(requestHeaders['x-signature']);
    const kept = run(format, true).text;
    // (cURL has no responses, where the shared secret and the token were echoed.)
    const present = [WRITE_KEY, BEARER, URL_PASSWORD, 'tok123', ...(format === 'curl' ? [] : [SHARED, TOKEN])];
    for (const s of present) expect(kept, s).toContain(s);
    expect(kept).not.toContain('<redacted>');
  });

  it('HAR says so in log.comment; credential headers, URL passwords and credential query values are redacted whole', () => {
    const { log } = JSON.parse(run('har', false).text) as Har;
    expect(log.comment).toMatch(/<redacted>/);
    const { request, response } = log.entries[1]!;
    expect(request.url).toBe('https://hook:<redacted>@example.test/in?token=<redacted>&x=1');
    expect(request.headers.find((h) => h.name === 'Authorization')!.value).toBe('<redacted>');
    expect(request.headers.find((h) => h.name === 'X-Env')!.value).toBe('dev');
    expect(request.queryString).toEqual([{ name: 'token', value: '<redacted>' }, { name: 'x', value: '1' }]);
    expect(request.postData!.text).toBe(body.replace(WRITE_KEY, '<redacted>'));
    expect(response.headers.find((h) => h.name === 'set-cookie')!.value).toBe('<redacted>');
    expect(response.content.text).toBe('oops <redacted> echoed');
  });

  it('finds secrets as written, JSON-escaped and percent-encoded; never touches the inserted marker', () => {
    const r = createRedactor({ includeSecrets: false, secrets: ['a"b\\c', 'x y/z', 'dact', ''], destinations: [] });
    expect(r.text(JSON.stringify({ k: 'a"b\\c' }))).toBe('{"k":"<redacted>"}');
    expect(r.url('http://h/p?q=x%20y%2Fz')).toBe('http://h/p?q=<redacted>');
    expect(r.text('redact dact')).toBe('re<redacted> <redacted>');
    expect(r.text('no secrets here')).toBe('no secrets here');
  });

  it('URL credentials: the password, or a lone user name (often a token)', () => {
    expect(redactUrlCredentials('https://u:p@h/x')).toBe('https://u:<redacted>@h/x');
    expect(redactUrlCredentials('https://tok@h/x')).toBe('https://<redacted>@h/x');
    expect(redactUrlCredentials('https://h/x?api_key=1&b=2#f')).toBe('https://h/x?api_key=<redacted>&b=2#f');
    expect(redactUrlCredentials('https://h/x?a=1')).toBe('https://h/x?a=1');
  });
});
