/**
 * The local mock receiver against real engine deliveries over loopback: response scripts drive the
 * engine's outcomes, every request is captured with its signature verdict, and captures and the HTTPS
 * certificate persist in the data dir. Retries are played with core.advanceClock, never by sleeping.
 */
import { commandSchemas } from '../../../main/contract/commands.js';
import { parseWith } from '../../../main/contract/schemas.js';
import { createHmac } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { CaptureRecord, ReceiverInput } from '../../../main/contract/receiver/receiver.js';
import type { Result } from '../../../main/contract/result.js';
import { internalsOf, type Core } from '../../../main/app/createCore.js';
import { ReceiverService, type ReceiverListenOptions } from '../../../main/receiver/receiverService.js';
import { MIGRATIONS } from '../../../main/store/migrations/index.js';
import { openDb } from '../../../main/store/openDb.js';
import { ReceiverStore } from '../../../main/receiver/receiverStore.js';
import { entered, type Entered } from '../../helpers/entered.js';
import { must, newCore, newDataDir, onCleanup, sendTrack, settled } from '../../helpers/harness.js';

const fastRetry = { schedule: [1000], windowMs: 60_000, jitter: 0 };
const hmac = (secret: string, body: string | Buffer) => createHmac('sha1', secret).update(body).digest('hex');

interface Bench {
  core: Core;
  /** Its commands called as the core calls them (test/helpers/entered.ts). */
  service: Entered<ReceiverService>;
  captured: CaptureRecord[];
  /** Resolves when `n` requestCaptured events have arrived in total. */
  waitForCaptures(n: number): Promise<void>;
}

async function bench(options: { dataDir?: string; listen?: ReceiverListenOptions } = {}): Promise<Bench> {
  const core = newCore(options.dataDir ? { dataDir: options.dataDir } : {});
  const captured: CaptureRecord[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const service = entered(new ReceiverService({
    store: new ReceiverStore(internalsOf(core).store.db),
    clock: core.clock,
    dataDir: core.dataDir,
    emit: (event) => {
      if (event.type !== 'requestCaptured') return;
      captured.push(event.capture);
      for (const w of waiters.filter((w) => captured.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
  }));
  onCleanup(() => service.stop()); // registered after the core's close: runs before it
  await service.start({ host: '127.0.0.1', port: 0, tlsPort: null, ...options.listen });
  return {
    core,
    service,
    captured,
    waitForCaptures: (n) => (captured.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
  };
}

function endpoint(b: Bench, input: ReceiverInput, destination: Record<string, unknown> = {}, tls = false): string {
  must(b.service.createReceiver(input));
  const url = must(b.service.urlFor(input.name, { tls }));
  must(b.core.createDestination({ name: input.name, enabled: true, url, retry: fastRetry, ...destination }));
  return url;
}

function failure<T>(result: Result<T>) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe('response scripts drive the engine (real deliveries over loopback)', () => {
  it('500, 500, 200: three attempts, delivered; each capture names its step and links to the message', async () => {
    const b = await bench();
    endpoint(b, { name: 'orders', script: '500,500,200' });
    const id = sendTrack(b.core, 'orders');
    expect((await settled(b.core, id)).message.status).toBe('retrying');
    must(await b.core.advanceClock({ ms: 10_000 }));
    const detail = must(b.core.getMessage({ id }));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
      ['http_error', 500],
      ['http_error', 500],
      ['success', 200],
    ]);

    const page = must(b.service.listCaptures({ receiver: 'orders' }));
    expect(page.items.map((c) => c.step.label)).toEqual(['step 3 of 3: 200', 'step 2 of 3: 500', 'step 1 of 3: 500']); // newest first
    for (const c of page.items) {
      expect(c).toMatchObject({ receiver: 'orders', matched: true, listener: 'http', method: 'POST', path: '/r/orders', messageId: detail.message.messageId, signature: null });
      expect(c.body.text).toBe(detail.message.body); // the exact bytes the engine sent
      expect(Buffer.from(c.body.base64, 'base64').toString('utf8')).toBe(detail.message.body);
      expect(c.headers['user-agent']).toBe('Hookbench/1.0');
      expect(c.rawHeaders).toContainEqual(['content-type', 'application/json']);
    }
    // Arrival times are engine time: each request arrived once its attempt had started, and the retries
    // started 1 s of virtual time apart (how long each took to arrive is the machine's, so it is not compared).
    const [first, second, third] = [...page.items].reverse();
    expect(first!.arrivedAt).toBeGreaterThanOrEqual(detail.message.receivedAt);
    const started = detail.attempts.map((a) => a.startedAt);
    expect([second!, third!].map((c, i) => c.arrivedAt >= started[i + 1]!)).toEqual([true, true]);
    expect(started[2]! - started[1]!).toBeGreaterThanOrEqual(1000);
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(1000);
    // Every capture was pushed as an event, identical to what the list returns.
    expect(b.captured).toEqual([...page.items].reverse());
    expect(must(b.service.getCapture({ id: first!.id }))).toEqual(first);
    expect(must(b.service.listCaptures({ messageId: detail.message.messageId })).items).toHaveLength(3);
    expect(must(b.service.listReceivers()).items[0]).toMatchObject({ name: 'orders', answered: 3 });
  });

  it('a 6000 ms delay makes the 5 s timeout fire; after the script drops the delay, the retry succeeds', async () => {
    const b = await bench();
    endpoint(b, { name: 'slow', script: { status: 200, delayMs: 6000 } }, { retry: { schedule: [5000], windowMs: 60_000, jitter: 0 } });
    const id = sendTrack(b.core, 'slow');
    const first = await settled(b.core, id);
    expect(first.attempts[0]).toMatchObject({ outcome: 'timeout', retryable: true, statusCode: null });
    expect(first.attempts[0]!.durationMs).toBeGreaterThanOrEqual(5000);
    expect(b.captured).toHaveLength(1); // captured on arrival, before its (never sent) answer
    expect(b.captured[0]!.step).toMatchObject({ label: '200 after 6000 ms', action: 'respond', status: 200, delayMs: 6000 });

    must(b.service.updateReceiver({ name: 'slow', patch: { script: 200 } }));
    must(await b.core.advanceClock({ ms: 5000 }));
    const detail = must(b.core.getMessage({ id }));
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts.map((a) => a.outcome)).toEqual(['timeout', 'success']);
    expect(b.captured[1]!.step).toMatchObject({ index: 0, request: 1, label: '200', delayMs: 0 }); // a new script starts over
  }, 15_000);

  it('never answer: the engine times out (a 1 s timeout here) and the request is still captured', async () => {
    const b = await bench();
    endpoint(b, { name: 'void', script: 'never' }, { timeoutMs: 1000 });
    const detail = await settled(b.core, sendTrack(b.core, 'void'));
    expect(detail.attempts[0]).toMatchObject({ outcome: 'timeout', error: 'no response headers within 1000 ms' });
    expect(detail.deliveries[0]!.status).toBe('retrying');
    expect(b.captured.map((c) => c.step)).toEqual([{ index: 0, request: 1, label: 'never answer', action: 'never', status: null, delayMs: 0 }]);
  });

  it('reset and close-without-response: network_error, retried; then 200 delivers', async () => {
    const b = await bench();
    endpoint(b, { name: 'flaky', script: 'reset,close,200' });
    const id = sendTrack(b.core, 'flaky');
    const first = await settled(b.core, id);
    expect(first.attempts[0]).toMatchObject({ outcome: 'network_error', retryable: true, statusCode: null });
    expect(first.attempts[0]!.error).toMatch(/ECONNRESET|reset/i);
    must(await b.core.advanceClock({ ms: 10_000 }));
    const detail = must(b.core.getMessage({ id }));
    expect(detail.attempts.map((a) => a.outcome)).toEqual(['network_error', 'network_error', 'success']);
    expect(detail.message.status).toBe('delivered');
    expect(b.captured.map((c) => c.step.action)).toEqual(['reset', 'close', 'respond']);
  });

  it.each([503, 429])('Retry-After on %i makes the engine wait that long before its next attempt', async (code) => {
    const b = await bench();
    endpoint(b, { name: 'busy', script: { steps: [{ status: code, retryAfter: 600 }, 200] } }, { retry: {} });
    const id = sendTrack(b.core, 'busy');
    const first = await settled(b.core, id);
    expect(first.attempts[0]!.responseHeaders!['retry-after']).toBe('600');
    expect(first.deliveries[0]!.nextAttemptAt! - first.attempts[0]!.finishedAt).toBe(600_000);
    must(await b.core.advanceClock({ ms: 590_000 }));
    expect(b.captured).toHaveLength(1);
    must(await b.core.advanceClock({ ms: 15_000 }));
    expect(must(b.core.getMessage({ id })).message.status).toBe('delivered');
    expect(b.captured).toHaveLength(2);
    expect(b.captured[1]!.arrivedAt - b.captured[0]!.arrivedAt).toBeGreaterThanOrEqual(600_000);
  });

  it('a failure-rate script with a seed fails the same requests on every run', async () => {
    const statuses = async () => {
      const b = await bench();
      must(b.service.createReceiver({ name: 'dice', script: { mode: 'failureRate', rate: 0.5, seed: 42 } }));
      const url = must(b.service.urlFor('dice'));
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await post(url, '{}')).status);
      return out;
    };
    const run = await statuses();
    expect(run).toEqual(await statuses());
    expect(run).toContain(500);
    expect(run).toContain(200);
  });
});

describe('HTTPS listener with a self-signed certificate', () => {
  it('the engine refuses it: tls_error, no request sent, nothing captured; naming the cert as caFile delivers', async () => {
    const b = await bench({ listen: { tlsPort: 0 } });
    const tlsUrl = endpoint(b, { name: 'secure' }, {}, true);
    expect(tlsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/r\/secure$/);
    const refused = await settled(b.core, sendTrack(b.core, 'secure'));
    expect(refused.message.status).toBe('failed');
    expect(refused.deliveries[0]!.reason).toBe('tls: self-signed certificate');
    expect(refused.attempts[0]).toMatchObject({ outcome: 'tls_error', retryable: false, statusCode: null });
    must(await b.core.advanceClock({ ms: 60_000 }));
    expect(must(b.service.listCaptures({})).items).toEqual([]);
    expect(b.captured).toEqual([]);

    // A deliberate choice (docs/behaviour.md §2): trusting the receiver's own certificate.
    const cert = b.service.tlsCertificate()!;
    must(b.core.createDestination({ name: 'trusting', enabled: true, url: tlsUrl, caFile: cert.certFile }));
    const trusted = await settled(b.core, sendTrack(b.core, 'trusting'));
    expect(trusted.message.status).toBe('delivered');
    expect(b.captured).toHaveLength(1);
    expect(b.captured[0]).toMatchObject({ listener: 'https', receiver: 'secure', messageId: trusted.message.messageId });
  });

  it('the certificate is generated once, kept in <data>/receiver-tls with mode 0600, and reused', async () => {
    const dataDir = newDataDir();
    const one = await bench({ dataDir, listen: { tlsPort: 0 } });
    const first = one.service.tlsCertificate()!;
    const dir = join(dataDir, 'receiver-tls');
    expect(first.certFile).toBe(join(dir, 'cert.pem'));
    expect(readFileSync(first.certFile, 'utf8')).toBe(first.cert);
    if (process.platform !== 'win32') {
      expect(statSync(join(dir, 'key.pem')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'cert.pem')).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    const keyBefore = readFileSync(join(dir, 'key.pem'), 'utf8');
    await one.service.stop();
    await one.core.close();

    const two = await bench({ dataDir, listen: { tlsPort: 0 } });
    expect(two.service.tlsCertificate()!.fingerprint256).toBe(first.fingerprint256);
    expect(readFileSync(join(dir, 'key.pem'), 'utf8')).toBe(keyBefore);
    await two.service.stop();
    await two.core.close();

    // An unusable pair (here: a damaged certificate) is replaced rather than failing the start.
    writeFileSync(join(dir, 'cert.pem'), 'not a certificate');
    const three = await bench({ dataDir, listen: { tlsPort: 0 } });
    expect(three.service.tlsCertificate()!.fingerprint256).not.toBe(first.fingerprint256);
  });
});

describe('signature verdicts', () => {
  it('valid from the engine; wrong secret, missing and re-serialised bodies from hand-made posts', async () => {
    const b = await bench();
    const url = endpoint(b, { name: 'signed', secret: 's3cret' }, { sharedSecret: 's3cret' });
    const detail = await settled(b.core, sendTrack(b.core, 'signed', { properties: { plan: 'pro', seats: 3 } }));
    expect(detail.message.status).toBe('delivered');
    const body = detail.message.body;
    expect(b.captured[0]!.signature).toEqual({ verdict: 'valid', given: hmac('s3cret', body), expected: hmac('s3cret', body), diagnosis: null });

    await post(url, body, { 'x-signature': hmac('wrong', body) });
    await post(url, body);
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    await post(url, reserialised, { 'x-signature': hmac('s3cret', body) });
    await b.waitForCaptures(4);
    const [, wrong, missing, pretty] = b.captured;

    expect(wrong!.signature).toMatchObject({ verdict: 'invalid', given: hmac('wrong', body), expected: hmac('s3cret', body) });
    expect(wrong!.signature!.diagnosis!.explanation).toContain('check the shared secret');
    expect(missing!.signature).toEqual({ verdict: 'missing', given: null, expected: hmac('s3cret', body), diagnosis: null });
    expect(pretty!.signature).toMatchObject({ verdict: 'invalid', expected: hmac('s3cret', reserialised), diagnosis: { mistakes: ['reserialised'] } });
    expect(pretty!.signature!.diagnosis!.explanation).toContain('re-serialised');
    // All four belong to the engine's message (messageId from the JSON body).
    expect(must(b.service.listCaptures({ messageId: detail.message.messageId })).items).toHaveLength(4);
    // The stored record says the same as the event.
    expect(must(b.service.getCapture({ id: pretty!.id })).signature).toEqual(pretty!.signature);
  });
});

describe('unknown endpoints', () => {
  it('404 with the known endpoints in a JSON body; captured and flagged as unmatched', async () => {
    const b = await bench();
    must(b.service.createReceiver({ name: 'orders' }));
    const base = b.service.urls().url!;
    const res = await post(`${base}/r/ordrs`, '{"messageId":"m-9"}');
    expect(res.status).toBe(404);
    const answer = JSON.parse(res.text) as { error: { code: string; message: string }; receivers: { name: string; url: string }[] };
    expect(answer.error.code).toBe('unknown_receiver');
    expect(answer.error.message).toContain('/r/orders');
    expect(answer.receivers).toEqual([{ name: 'orders', url: `${base}/r/orders` }]);
    await post(`${base}/elsewhere`, 'x');
    await b.waitForCaptures(2);
    expect(b.captured[0]).toMatchObject({ receiver: 'ordrs', matched: false, messageId: 'm-9', step: { label: 'unknown endpoint: 404', status: 404, index: null } });
    expect(b.captured[1]).toMatchObject({ receiver: null, matched: false, path: '/elsewhere', body: { text: 'x' } });
    expect(must(b.service.listReceivers()).items[0]!.answered).toBe(0);
  });
});

describe('persistence', () => {
  it('endpoints, their sequence position and captures survive a restart of the data dir', async () => {
    const dataDir = newDataDir();
    const one = await bench({ dataDir });
    must(one.service.createReceiver({ name: 'keep', script: '500,201,202' }));
    const url = must(one.service.urlFor('keep'));
    expect((await post(url, '{"messageId":"a"}')).status).toBe(500);
    expect((await post(url, '{"messageId":"b"}')).status).toBe(201);
    await one.service.stop();
    await one.core.close();

    const two = await bench({ dataDir });
    const items = must(two.service.listCaptures({})).items;
    expect(items.map((c) => [c.messageId, c.step.status, c.body.text])).toEqual([
      ['b', 201, '{"messageId":"b"}'],
      ['a', 500, '{"messageId":"a"}'],
    ]);
    expect(must(two.service.listReceivers()).items).toMatchObject([{ name: 'keep', answered: 2 }]);
    expect((await post(must(two.service.urlFor('keep')), '{}')).status).toBe(202); // the sequence continues
  });

  it('migration 003 upgrades a populated version-2 database', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v2 = openDb(file, MIGRATIONS.slice(0, 2));
    v2.prepare(`INSERT INTO messages (id, message_id, type, received_at, status) VALUES (1, 'm', 'track', 1, 'delivered')`).run();
    v2.prepare(`INSERT INTO message_payloads (message_id, body, call) VALUES (1, x'7b7d', '{}')`).run();
    v2.close();
    const db = openDb(file, MIGRATIONS.slice(0, 3));
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(3);
      expect(db.prepare('SELECT message_id FROM messages').all()).toEqual([{ message_id: 'm' }]);
      expect(db.prepare('SELECT count(*) AS n FROM receivers').get()).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM captures').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('commands: results and errors naming the field', () => {
  it('create, update (rename, rewind), delete, urlFor, and their errors', async () => {
    const b = await bench();
    expect(must(b.service.createReceiver({ name: 'a', script: '500,200' }))).toMatchObject({ name: 'a', secret: null, answered: 0, tlsUrl: null });
    expect(failure(b.service.createReceiver({ name: 'a' }))).toMatchObject({ code: 'conflict', field: 'name' });
    expect(failure(b.service.createReceiver({ name: 'bad name' }))).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(failure(b.service.updateReceiver({ name: 'zz', patch: {} }))).toMatchObject({ code: 'not_found', message: 'no receiver named "zz" (known: a)' });
    expect(failure(b.service.updateReceiver({ name: 'a', patch: { script: '500,700' } }))).toMatchObject({ field: 'patch.script', message: 'patch.script: item 2 ("700"): must be an HTTP status code from 200 to 599 (got 700)' });
    expect(failure(b.service.updateReceiver({ name: 'a', patch: { secret: '' } }))).toMatchObject({ field: 'patch.secret', limit: 1 });

    const url = must(b.service.urlFor('a'));
    expect((await post(url, '{}')).status).toBe(500);
    expect((await post(url, '{}')).status).toBe(200);
    expect((await post(must(b.service.urlFor('a')), '{}')).status).toBe(200);
    must(b.service.updateReceiver({ name: 'a', patch: { rewind: true } }));
    expect((await post(url, '{}')).status).toBe(500);

    const renamed = must(b.service.updateReceiver({ name: 'a', patch: { name: 'b', secret: 'k' } }));
    expect(renamed).toMatchObject({ name: 'b', secret: 'k', answered: 1, url: `${b.service.urls().url}/r/b` });
    expect(must(b.service.listCaptures({ receiver: 'b' })).items).toHaveLength(4); // captures follow the rename
    expect(failure(b.service.urlFor('a'))).toMatchObject({ code: 'not_found' });
    expect(failure(b.service.urlFor('b', { tls: true }))).toMatchObject({ code: 'conflict', message: expect.stringContaining('HTTPS listener is not running') });
    expect(must(b.service.resolveWebhookUrl('receiver:b'))).toBe(`${b.service.urls().url}/r/b`);
    expect(must(b.service.resolveWebhookUrl('https://example.test/hook'))).toBe('https://example.test/hook');

    expect(must(b.service.deleteReceiver({ name: 'b' }))).toEqual({ name: 'b' });
    expect(must(b.service.listReceivers()).items).toEqual([]);
    expect(must(b.service.listCaptures({ receiver: 'b' })).items).toHaveLength(4); // history is kept
    expect(must(b.service.clearCaptures({ receiver: 'b' }))).toEqual({ deleted: 4 });
  });

  it('listCaptures pages newest first with a cursor; bad input names the field and the limit', async () => {
    const b = await bench();
    must(b.service.createReceiver({ name: 'p' }));
    const url = must(b.service.urlFor('p'));
    for (let i = 1; i <= 3; i++) await post(url, `{"n":${i}}`);
    const first = must(b.service.listCaptures({ limit: 2 }));
    expect(first.items.map((c) => c.body.text)).toEqual(['{"n":3}', '{"n":2}']);
    const second = must(b.service.listCaptures({ limit: 2, cursor: first.nextCursor }));
    expect(second.items.map((c) => c.body.text)).toEqual(['{"n":1}']);
    expect(second.nextCursor).toBeNull();
    // Input types and bounds are the command table's (checked by dispatch before any handler runs).
    expect(failure(parseWith(commandSchemas.listCaptures, { limit: 0 }))).toMatchObject({ code: 'invalid_input', field: 'limit', limit: 1 });
    expect(failure(parseWith(commandSchemas.listCaptures, { limit: 1001 }))).toMatchObject({ code: 'invalid_input', field: 'limit', limit: 1000 });
    expect(failure(b.service.listCaptures({ cursor: 'abc' }))).toMatchObject({ field: 'cursor' });
    expect(failure(b.service.getCapture({ id: 999 }))).toMatchObject({ code: 'not_found', field: 'id' });
    expect(must(b.service.clearCaptures())).toEqual({ deleted: 3 });
  });

  it('applyConfig creates, updates and keeps by name; errors name the config path', async () => {
    const b = await bench();
    must(b.service.createReceiver({ name: 'same', script: 200 }));
    must(b.service.createReceiver({ name: 'edit', script: 200 }));
    must(b.service.createReceiver({ name: 'untouched' }));
    const applied = must(
      b.service.applyConfig([
        { name: 'same', script: 200 },
        { name: 'edit', script: '503', secret: 'k' },
        { name: 'fresh', script: { mode: 'failureRate', rate: 0.1, seed: 3 } },
      ]),
    );
    expect(applied).toEqual({ created: ['fresh'], updated: ['edit'], unchanged: ['same'] });
    expect(must(b.service.listReceivers()).items.map((r) => r.name)).toEqual(['edit', 'fresh', 'same', 'untouched']);
    expect(must(b.service.getReceiver({ name: 'edit' }))).toMatchObject({ secret: 'k', script: { steps: [{ status: 503 }] } });
    expect(failure(b.service.applyConfig([{ name: 'x', script: '200,99' }]))).toMatchObject({
      field: 'receivers[0].script',
      message: 'receivers[0].script: item 2 ("99"): must be an HTTP status code from 200 to 599 (got 99)',
    });
    expect(failure(b.service.applyConfig([{ name: 'x' }, { name: 'x' }]))).toMatchObject({ field: 'receivers[1].name' });
    expect(must(b.service.listReceivers()).items).toHaveLength(4); // nothing applied from a refused config
  });

  it('only the newest maxCaptures are kept', async () => {
    const core = newCore();
    const service = entered(new ReceiverService({ store: new ReceiverStore(internalsOf(core).store.db, 3), clock: core.clock, dataDir: core.dataDir, emit: () => undefined }));
    onCleanup(() => service.stop());
    await service.start({ port: 0, tlsPort: null });
    must(service.createReceiver({ name: 'p' }));
    for (let i = 1; i <= 5; i++) await post(must(service.urlFor('p')), `{"n":${i}}`);
    expect(must(service.listCaptures({})).items.map((c) => c.body.text)).toEqual(['{"n":5}', '{"n":4}', '{"n":3}']);
  });

  it('a port in use is refused with an error naming it', async () => {
    const b = await bench();
    const port = Number(new URL(b.service.urls().url!).port);
    const other = new ReceiverService({ store: new ReceiverStore(internalsOf(b.core).store.db), clock: b.core.clock, dataDir: b.core.dataDir, emit: () => undefined });
    await expect(other.start({ port, tlsPort: null })).rejects.toMatchObject({ error: { code: 'conflict', field: 'port', value: port } });
    expect(other.urls()).toEqual({ url: null, tlsUrl: null });
  });
});
