/**
 * Mock receiver endpoints that refuse invalid signatures: a request whose X-Signature is invalid or missing
 * gets 401 with a JSON error before the script answers (the script does not move on), and is still captured
 * with its verdict and that answer. Off by default; it cannot be on without a secret. Also endpointForUrl,
 * which tells whether a URL is one of these endpoints.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../main/contract/receiver/receiver.js';
import { commandSchemas } from '../../../main/contract/commands.js';
import { configJsonSchema } from '../../../main/contract/config.js';
import type { Result } from '../../../main/contract/result.js';
import { parseWith } from '../../../main/contract/schemas.js';
import type { Core } from '../../../main/app/createCore.js';
import { hostnamesReaching } from '../../../main/receiver/listeners.js';
import { ReceiverStore } from '../../../main/receiver/receiverStore.js';
import { applyConfigFile } from '../../../main/server/workbench.js';
import { MIGRATIONS } from '../../../main/store/migrations/index.js';
import { openDb, schemaVersion } from '../../../main/store/openDb.js';
import { must, newCore, newDataDir, onCleanup, sendTrack, settled } from '../../helpers/harness.js';

const hmac = (secret: string, body: string) => createHmac('sha1', secret).update(body).digest('hex');
const BODY = '{"type":"track","userId":"u1","event":"Paid","messageId":"m-1"}';

/** A core whose own mock receiver listens on a free HTTP port; `captured` fills from requestCaptured events. */
async function receiverCore(options: { dataDir?: string; tls?: boolean } = {}): Promise<{ core: Core; captured: CaptureRecord[]; waitForCaptures(n: number): Promise<void> }> {
  const core = newCore(options.dataDir ? { dataDir: options.dataDir } : {});
  const captured: CaptureRecord[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  core.onEvent((e) => {
    if (e.type !== 'requestCaptured') return;
    captured.push(e.capture);
    for (const w of waiters.filter((w) => captured.length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  onCleanup(() => core.receivers.stop()); // registered after the core's close: runs before it
  await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: options.tls ? 0 : null });
  return { core, captured, waitForCaptures: (n) => (captured.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))) };
}

/** One POST; a hung answer fails the test within seconds instead of at its timeout. */
async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, headersTimeout: 4000 });
  return { status: res.statusCode, contentType: res.headers['content-type'], text: await res.body.text() };
}

function failure<T>(result: Result<T>) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('Refuse invalid signatures: 401 before the script', () => {
  it('invalid and missing signatures get 401 with a JSON error saying which; the script is not consumed; the captures keep the verdict and the 401', async () => {
    const { core, captured, waitForCaptures } = await receiverCore();
    const created = must(core.createReceiver({ name: 'strict', secret: 's3cret', refuseInvalidSignatures: true, script: '503,202' }));
    expect(created.refuseInvalidSignatures).toBe(true);
    const url = must(core.receivers.urlFor('strict'));

    const invalid = await post(url, BODY, { 'x-signature': hmac('another secret', BODY) });
    expect(invalid.status).toBe(401);
    expect(invalid.contentType).toBe('application/json');
    const invalidBody = JSON.parse(invalid.text) as { error: string; verdict: string; detail: string };
    expect(invalidBody).toMatchObject({ error: 'invalid signature', verdict: 'invalid' });
    expect(invalidBody.detail).toContain('X-Signature does not match');

    const missing = await post(url, BODY);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.text)).toMatchObject({ error: 'missing signature', verdict: 'missing', detail: expect.stringContaining('no X-Signature header') });

    // Neither answer gives the expected signature away (nor the diagnosis, which would help a forger).
    for (const answer of [invalid.text, missing.text]) expect(answer).not.toContain(hmac('s3cret', BODY));

    // The script still starts at its first step: the refused requests did not move it on.
    expect(must(core.receivers.getReceiver({ name: 'strict' })).answered).toBe(0);
    expect((await post(url, BODY, { 'x-signature': hmac('s3cret', BODY) })).status).toBe(503);
    expect((await post(url, BODY, { 'x-signature': hmac('s3cret', BODY).toUpperCase() })).status).toBe(202); // hex case is not significant
    expect(must(core.receivers.getReceiver({ name: 'strict' })).answered).toBe(2);

    await waitForCaptures(4);
    const [first, second, third, fourth] = captured;
    expect(first).toMatchObject({ receiver: 'strict', matched: true, messageId: 'm-1', signature: { verdict: 'invalid', given: hmac('another secret', BODY) } });
    expect(first!.step).toEqual({ index: null, request: null, label: 'refused, signature invalid: 401', action: 'respond', status: 401, delayMs: 0 });
    expect(second!.signature).toMatchObject({ verdict: 'missing', given: null });
    expect(second!.step).toMatchObject({ index: null, request: null, label: 'refused, signature missing: 401', status: 401 });
    expect(third!.step).toMatchObject({ index: 0, request: 1, label: 'step 1 of 2: 503' });
    expect(fourth!.step).toMatchObject({ index: 1, request: 2, label: 'step 2 of 2: 202' });
    // The stored records say the same as the events.
    expect(must(core.receivers.listCaptures({ receiver: 'strict' })).items.reverse()).toEqual(captured);
  });

  it('a refused request is answered at once: a scripted delay or "never" is not spent on it', async () => {
    const { core } = await receiverCore();
    must(core.createReceiver({ name: 'hangs', secret: 's3cret', refuseInvalidSignatures: true, script: 'never' }));
    must(core.createReceiver({ name: 'slow', secret: 's3cret', refuseInvalidSignatures: true, script: { status: 200, delayMs: 600_000 } }));
    expect((await post(must(core.receivers.urlFor('hangs')), BODY)).status).toBe(401);
    expect((await post(must(core.receivers.urlFor('slow')), BODY, { 'x-signature': 'sha1=0000' })).status).toBe(401);
  });

  it('off by default: an invalid signature is answered by the script as before, with its verdict captured', async () => {
    const { core, captured, waitForCaptures } = await receiverCore();
    expect(must(core.createReceiver({ name: 'lenient', secret: 's3cret', script: '500,200' })).refuseInvalidSignatures).toBe(false);
    const url = must(core.receivers.urlFor('lenient'));
    expect((await post(url, BODY, { 'x-signature': hmac('wrong', BODY) })).status).toBe(500);
    expect((await post(url, BODY)).status).toBe(200);
    await waitForCaptures(2);
    expect(captured.map((c) => [c.signature?.verdict, c.step.label])).toEqual([
      ['invalid', 'step 1 of 2: 500'],
      ['missing', 'step 2 of 2: 200'],
    ]);
  });

  it('the engine signing with another secret gets a permanent 401: failed, not retried, the capture linked to the attempt', async () => {
    const { core, captured, waitForCaptures } = await receiverCore();
    must(core.createReceiver({ name: 'strict', secret: 's3cret', refuseInvalidSignatures: true, script: 200 }));
    must(core.createDestination({ name: 'Wrong secret', enabled: true, sharedSecret: 'not-the-one', url: 'receiver:strict' }));
    must(core.createDestination({ name: 'Right secret', enabled: true, sharedSecret: 's3cret', url: 'receiver:strict' }));

    const refused = await settled(core, sendTrack(core, 'Wrong secret'));
    expect(refused.message.status).toBe('failed');
    expect(refused.deliveries[0]!.reason).toBe('permanent: HTTP 401');
    expect(refused.attempts).toHaveLength(1);
    expect(refused.attempts[0]).toMatchObject({ outcome: 'http_error', statusCode: 401, retryable: false });
    await waitForCaptures(1);
    expect(captured[0]).toMatchObject({ signature: { verdict: 'invalid' }, step: { status: 401 }, attempt: { messageRef: refused.message.id, attemptNumber: 1 } });

    const delivered = await settled(core, sendTrack(core, 'Right secret'));
    expect(delivered.message.status).toBe('delivered');
    expect(delivered.attempts[0]!.statusCode).toBe(200);
  });
});

describe('Refuse invalid signatures needs a secret', () => {
  it('createReceiver, updateReceiver and the typed API refuse it without one, naming the field', async () => {
    const { core } = await receiverCore();
    expect(failure(core.createReceiver({ name: 'bare', refuseInvalidSignatures: true }))).toMatchObject({
      code: 'invalid_input',
      field: 'refuseInvalidSignatures',
      message: expect.stringMatching(/^refuseInvalidSignatures: needs a secret/),
    });
    expect(failure(parseWith(commandSchemas.createReceiver, { name: 'bare', secret: null, refuseInvalidSignatures: true }))).toMatchObject({ field: 'refuseInvalidSignatures' });
    expect(failure(parseWith(commandSchemas.updateReceiver, { name: 'bare', patch: { refuseInvalidSignatures: 'yes' } }))).toMatchObject({
      field: 'patch.refuseInvalidSignatures',
      message: 'patch.refuseInvalidSignatures: must be true or false (got the string "yes")',
    });
    expect(must(core.receivers.listReceivers()).items).toEqual([]);

    must(core.createReceiver({ name: 'bare' }));
    expect(failure(core.updateReceiver({ name: 'bare', patch: { refuseInvalidSignatures: true } }))).toMatchObject({
      code: 'invalid_input',
      field: 'patch.refuseInvalidSignatures',
      message: expect.stringContaining('needs a secret'),
    });
    // A secret and the option in one patch: fine.
    expect(must(core.updateReceiver({ name: 'bare', patch: { secret: 'k', refuseInvalidSignatures: true } }))).toMatchObject({ secret: 'k', refuseInvalidSignatures: true });
    // Taking the secret away from under it is refused, naming the secret; with the option off in the same patch it is not.
    expect(failure(core.updateReceiver({ name: 'bare', patch: { secret: null } }))).toMatchObject({
      code: 'invalid_input',
      field: 'patch.secret',
      message: 'patch.secret: "bare" refuses invalid signatures, so it cannot be left without a secret: set refuseInvalidSignatures to false in the same patch',
    });
    expect(must(core.receivers.getReceiver({ name: 'bare' }))).toMatchObject({ secret: 'k', refuseInvalidSignatures: true });
    expect(must(core.updateReceiver({ name: 'bare', patch: { secret: null, refuseInvalidSignatures: false } }))).toMatchObject({ secret: null, refuseInvalidSignatures: false });
  });
});

describe('Refuse invalid signatures in the config file', () => {
  it('round trip: the file turns it on, it survives a restart, a later file without it turns it off; errors name the path', async () => {
    const dataDir = newDataDir();
    const dir = newDataDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ receivers: [{ name: 'strict', secret: 's3cret', refuseInvalidSignatures: true, script: 200 }] }));
    const one = newCore({ dataDir });
    expect(applyConfigFile(one, file)).toEqual({ created: ['receiver strict'], updated: [] });
    expect(must(one.receivers.getReceiver({ name: 'strict' }))).toMatchObject({ secret: 's3cret', refuseInvalidSignatures: true });
    // Applying the same file again changes nothing.
    expect(applyConfigFile(one, file)).toEqual({ created: [], updated: [] });
    await one.close();

    const { core: two } = await receiverCore({ dataDir });
    expect(must(two.receivers.getReceiver({ name: 'strict' })).refuseInvalidSignatures).toBe(true);
    expect((await post(must(two.receivers.urlFor('strict')), BODY)).status).toBe(401);

    writeFileSync(file, JSON.stringify({ receivers: [{ name: 'strict', secret: 's3cret', script: 200 }] }));
    expect(applyConfigFile(two, file)).toEqual({ created: [], updated: ['receiver strict'] });
    expect(must(two.receivers.getReceiver({ name: 'strict' })).refuseInvalidSignatures).toBe(false);
    expect((await post(must(two.receivers.urlFor('strict')), BODY)).status).toBe(200);

    writeFileSync(file, JSON.stringify({ receivers: [{ name: 'ok', script: 200 }, { name: 'bare', refuseInvalidSignatures: true }] }));
    expect(() => applyConfigFile(two, file)).toThrow(/receivers\[1\]\.refuseInvalidSignatures: needs a secret/);
    writeFileSync(file, JSON.stringify({ receivers: [{ name: 'typo', secret: 'k', refuseInvalidSignatures: 'yes' }] }));
    expect(() => applyConfigFile(two, file)).toThrow('receivers[0].refuseInvalidSignatures: must be true or false');
    expect(must(two.receivers.listReceivers()).items.map((r) => r.name)).toEqual(['strict']); // nothing of a refused file applied
  });

  it('the shipped JSON Schema describes it', () => {
    const schema = configJsonSchema() as { properties: { receivers: { items: { properties: Record<string, { type: string; description: string }> } } } };
    expect(schema.properties.receivers.items.properties['refuseInvalidSignatures']).toMatchObject({ type: 'boolean', description: expect.stringContaining('401') });
  });
});

describe('migration 012', () => {
  it('upgrades a populated version-11 database: its endpoints kept, answering by script as before', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v11 = openDb(file, MIGRATIONS.slice(0, 11));
    v11.prepare(`INSERT INTO receivers (name, secret, script, answered, created_at, updated_at) VALUES ('orders', 's3cret', '{"mode":"sequence","steps":[],"after":"repeat-last"}', 3, 1, 2)`).run();
    v11.close();
    const v12 = openDb(file, MIGRATIONS.slice(0, 12));
    try {
      expect(schemaVersion(v12)).toBe(12);
      expect(v12.prepare('SELECT name, refuse_invalid_signatures AS refuse, answered FROM receivers').all()).toEqual([{ name: 'orders', refuse: 0, answered: 3 }]);
    } finally {
      v12.close();
    }
    // And as the store reads it, once every later migration has run too (its statements are today's).
    const db = openDb(file, MIGRATIONS);
    try {
      expect(new ReceiverStore(db).listReceivers()).toEqual([
        { name: 'orders', secret: 's3cret', refuseInvalidSignatures: false, script: { mode: 'sequence', steps: [], after: 'repeat-last' }, answered: 3, createdAt: 1, updatedAt: 2 },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('endpointForUrl: is this URL one of the mock receiver endpoints, and does it refuse forgeries?', () => {
  it('matches the listener\'s own host names, scheme, port and /r/<name> path; anything else is null', async () => {
    const { core } = await receiverCore({ tls: true });
    must(core.createReceiver({ name: 'strict', secret: 's3cret', refuseInvalidSignatures: true }));
    must(core.createReceiver({ name: 'lenient', secret: 's3cret' }));
    must(core.createReceiver({ name: 'open' }));
    const { url: http, tlsUrl: https } = core.receivers.urls();
    const httpPort = new URL(http!).port;
    const httpsPort = new URL(https!).port;
    const strict = { name: 'strict', refuseInvalidSignatures: true, hasSecret: true };

    expect(core.receivers.endpointForUrl(`${http}/r/strict`)).toEqual(strict);
    expect(core.receivers.endpointForUrl(`http://localhost:${httpPort}/r/strict`)).toEqual(strict);
    expect(core.receivers.endpointForUrl(`http://LOCALHOST:${httpPort}/r/strict/orders?x=1`)).toEqual(strict); // the receiver reads /r/<name>/… as <name> too
    expect(core.receivers.endpointForUrl(`https://127.0.0.1:${httpsPort}/r/strict`)).toEqual(strict);
    expect(core.receivers.endpointForUrl('receiver:strict')).toEqual(strict);
    expect(core.receivers.endpointForUrl('receiver+tls:strict')).toEqual(strict);
    expect(core.receivers.endpointForUrl(`${http}/r/lenient`)).toEqual({ name: 'lenient', refuseInvalidSignatures: false, hasSecret: true });
    expect(core.receivers.endpointForUrl(`${http}/r/open`)).toEqual({ name: 'open', refuseInvalidSignatures: false, hasSecret: false });

    for (const other of [
      `${http}/r/nobody`, // no such endpoint
      `${http}/hooks/strict`, // not an endpoint path
      `https://127.0.0.1:${httpPort}/r/strict`, // the HTTP port, another scheme
      `http://127.0.0.1:${httpsPort}/r/strict`, // the HTTPS port, another scheme
      `http://127.0.0.1:${Number(httpPort) === 65535 ? 65534 : Number(httpPort) + 1}/r/strict`,
      `http://[::1]:${httpPort}/r/strict`, // it listens on 127.0.0.1 only: ::1 does not reach it
      `http://example.test:${httpPort}/r/strict`,
      'receiver:nobody',
      'not a url',
    ]) {
      expect(core.receivers.endpointForUrl(other), other).toBeNull();
    }
    // A rename and a change of the option are seen at once.
    must(core.updateReceiver({ name: 'strict', patch: { name: 'renamed', refuseInvalidSignatures: false } }));
    expect(core.receivers.endpointForUrl(`${http}/r/strict`)).toBeNull();
    expect(core.receivers.endpointForUrl(`${http}/r/renamed`)).toEqual({ name: 'renamed', refuseInvalidSignatures: false, hasSecret: true });

    // Once the receiver stops, nothing is its URL (a receiver: reference still names the endpoint).
    await core.receivers.stop();
    expect(core.receivers.endpointForUrl(`${http}/r/renamed`)).toBeNull();
    expect(core.receivers.endpointForUrl('receiver:renamed')).toMatchObject({ name: 'renamed' });
  });
});

describe('hostnamesReaching: the host names a URL may use for a listener bound to a host', () => {
  it('loopback and wildcard listeners are reached as localhost and their loopback address(es)', () => {
    expect(hostnamesReaching('127.0.0.1').sort()).toEqual(['127.0.0.1', 'localhost']);
    expect(hostnamesReaching('0.0.0.0').sort()).toEqual(['127.0.0.1', 'localhost']);
    expect(hostnamesReaching('::1').sort()).toEqual(['[::1]', 'localhost']);
    expect(hostnamesReaching('::').sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect(hostnamesReaching('localhost').sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect(hostnamesReaching('192.168.1.20')).toEqual(['192.168.1.20']);
    expect(hostnamesReaching('fe80::1')).toEqual(['[fe80::1]']);
  });
});
