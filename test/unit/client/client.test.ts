/** The Client with a fake fetch and a manual clock: options, the queue, and how failures are reported. */
import { describe, expect, it, vi } from 'vitest';
import { ManualTime } from '../../helpers/manualTime.js';
import { Client, ClientError, type BatchBody, type ClientOptions, type FetchInit, type FetchLike, type Logger } from '../../../main/client/index.js';


interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

function fakeFetch(replies: (Reply | Error)[] = []) {
  const calls: { url: string; init: FetchInit; body: BatchBody }[] = [];
  const fn: FetchLike = (url, init) => {
    calls.push({ url, init, body: JSON.parse(init.body) as BatchBody });
    const reply = replies.shift() ?? { status: 200, body: '{"success":true}' };
    if (reply instanceof Error) return Promise.reject(reply);
    return Promise.resolve({ status: reply.status, headers: new Headers(reply.headers ?? {}), text: () => Promise.resolve(reply.body ?? '') });
  };
  return { fn, calls };
}

function make(options: ClientOptions = {}, replies: (Reply | Error)[] = []) {
  const time = new ManualTime();
  const http = fakeFetch(replies);
  const lines: string[] = [];
  const logger: Logger = { debug: (m) => lines.push(`debug ${m}`), error: (m) => lines.push(`error ${m}`) };
  const client = new Client('wk', { clock: time, timers: time, random: () => 0.5, fetch: http.fn, logger, debug: false, ...options });
  return { client, time, http, lines };
}

/** What `new Client` refuses `options` with (an invalid_option's field and message); a test fails when it accepts them. */
function refusal(options: unknown): { field: string | undefined; message: string } {
  try {
    new Client('wk', options as ClientOptions);
  } catch (e) {
    if (e instanceof ClientError && e.code === 'invalid_option') return { field: e.field, message: e.message };
    throw e;
  }
  throw new Error('accepted');
}

describe('client: options', () => {
  it('has the defaults of docs/behaviour.md §11', () => {
    const { client } = make();
    expect(client.endpoint).toBe('http://127.0.0.1:4400');
    expect(client.flushAt).toBe(20);
    expect(client.flushAfter).toBe(5000);
    expect(client.maxRetries).toBe(3);
  });

  it('refuses bad options with a ClientError naming the option', () => {
    const bad = (writeKey: string, options: ClientOptions) => {
      try {
        new Client(writeKey, options);
      } catch (e) {
        if (e instanceof ClientError && e.code === 'invalid_option') return `${e.field}: ${e.message}`;
        throw e;
      }
      throw new Error('accepted');
    };
    expect(bad('', {})).toMatch(/^writeKey: Client: a write key is required/);
    expect(bad('wk', { flushAt: 0 })).toMatch(/^flushAt: Client: flushAt must be an integer ≥ 1 \(got 0\)/);
    expect(bad('wk', { size: 2.5 })).toMatch(/^size: /);
    expect(bad('wk', { flushAt: 10, size: 5 })).toMatch(/size is an alias of flushAt/);
    expect(bad('wk', { flushAfter: 0 })).toMatch(/^flushAfter: /);
    expect(bad('wk', { maxRetries: -1 })).toMatch(/^maxRetries: /);
    expect(bad('wk', { endpoint: 'localhost:4400' })).toMatch(/^endpoint: /);
    expect(bad('wk', { endpoint: 'ftp://host' })).toMatch(/^endpoint: /);
  });

  it('refuses an option it does not have, naming it and the one meant, instead of ignoring it', () => {
    expect(refusal({ flushat: 1 })).toEqual({ field: 'flushat', message: expect.stringMatching(/^Client: flushat is not an option \(did you mean flushAt\?\); the options are endpoint, flushAt, /) });
    expect(refusal({ backoff: { initial: 5 } })).toEqual({ field: 'backoff.initial', message: expect.stringContaining('backoff.initial is not an option (did you mean backoff.initialMs?)') });
    expect(refusal({ onError: 'log' })).toEqual({ field: 'onError', message: 'Client: onError must be a function (got the string "log")' });
    expect(refusal({ debug: 'true' })).toEqual({ field: 'debug', message: 'Client: debug must be true or false (got the string "true")' });
    expect(refusal(5)).toEqual({ field: 'options', message: 'Client: options must be an object (got number 5)' });
  });

  it('refuses an object option without the methods it calls, at construction rather than at first use', () => {
    expect(refusal({ clock: () => 5 })).toEqual({ field: 'clock', message: 'Client: clock must be an object with now() (got a function)' });
    expect(refusal({ timers: 5 })).toEqual({ field: 'timers', message: 'Client: timers must be an object with setTimeout() and clearTimeout() (got number 5)' });
    expect(refusal({ logger: { error: () => undefined } })).toEqual({ field: 'logger', message: 'Client: logger must be an object with debug() and error() (got an object without debug())' });
    expect(refusal({ dispatcher: 'agent' })).toEqual({ field: 'dispatcher', message: 'Client: dispatcher must be an object with dispatch() (got the string "agent")' });
    // What the options' types describe is taken: console as the logger, an object clock.
    expect(() => new Client('wk', { logger: console, clock: { now: () => 0 } }).close()).not.toThrow();
  });

  it('names the type of a value that is not a number, so a string with a unit reads as one', () => {
    expect(() => new Client('wk', { flushAfter: '5s' as unknown as number })).toThrow('Client: flushAfter must be a number ≥ 1 (got the string "5s")');
    expect(() => new Client(undefined as unknown as string)).toThrow('Client: a write key is required (new Client(writeKey, options); got undefined)');
    expect(() => make().client.track(undefined as never)).toThrow('track: the message must be an object (got undefined)');
  });

  it('posts to the endpoint path + /v1/batch', async () => {
    const { client, http } = make({ endpoint: 'https://collect.example/prefix/', flushAt: 1 });
    client.track({ userId: 'u1', event: 'E' });
    await client.flush();
    expect(http.calls[0]!.url).toBe('https://collect.example/prefix/v1/batch');
    expect(http.calls[0]!.init.headers).toMatchObject({ Authorization: `Basic ${Buffer.from('wk:').toString('base64')}`, 'Content-Type': 'application/json' });
  });

  it('flushAfter Infinity turns the timer off; flush() still sends', async () => {
    const { client, time, http } = make({ flushAfter: Infinity });
    client.track({ userId: 'u1', event: 'E' });
    expect(time.pending).toBe(0);
    await client.flush();
    expect(http.calls).toHaveLength(1);
  });
});

describe('client: the queue', () => {
  it('stamps timestamps and sentAt from the injected clock', async () => {
    const { client, time, http } = make();
    client.track({ userId: 'u1', event: 'E' });
    time.advance(1234);
    await client.flush();
    const body = http.calls[0]!.body;
    expect(body.batch[0]!.timestamp).toBe('2026-11-22T06:00:00.000Z');
    expect(body.sentAt).toBe('2026-11-22T06:00:01.234Z');
  });

  it('sends a full request early rather than let the queue outgrow 512,000 bytes', async () => {
    const { client, http } = make({ flushAt: 1000 });
    const pad = 'x'.repeat(29_000); // ~29.2 KB each: 17 fit in a request, 18 do not
    for (let i = 0; i < 17; i++) client.track({ userId: 'u1', event: `E${i}`, properties: { pad } });
    expect(client.queued).toBe(17);
    client.track({ userId: 'u1', event: 'E17', properties: { pad } });
    expect(client.queued).toBe(1);
    await client.flush();
    expect(http.calls.map((c) => c.body.batch.length)).toEqual([17, 1]);
    for (const c of http.calls) expect(Buffer.byteLength(c.init.body)).toBeLessThanOrEqual(512_000);
  });

  it('flush() on an empty queue resolves; flush() awaits earlier requests too', async () => {
    const { client, http } = make({ flushAt: 1 });
    await client.flush();
    client.track({ userId: 'u1', event: 'E' });
    await client.flush();
    expect(http.calls).toHaveLength(1);
  });

  it('refuses calls after close(), whatever the type', async () => {
    const { client } = make();
    await client.close();
    expect(() => client.identify({ userId: 'u1' })).toThrow(ClientError);
    expect(() => client.group({ userId: 'u1', groupId: 'g' })).toThrow('group: the client is closed');
  });
});

describe('client: failures are never silent', () => {
  it('without onError, a dropped batch goes to logger.error', async () => {
    const { client, lines } = make({ flushAt: 1 }, [{ status: 413, body: 'too big' }]);
    client.track({ userId: 'u1', event: 'E' });
    await client.flush();
    expect(lines).toEqual(['error hookbench-client: dropped 1 message: HTTP 413 (not retried)']);
  });

  it('a redirect is not followed and not retried', async () => {
    const onError = vi.fn<(e: ClientError) => void>();
    const { client, http } = make({ flushAt: 1, onError }, [{ status: 301, headers: { location: 'https://elsewhere/' } }]);
    client.track({ userId: 'u1', event: 'E' });
    await client.flush();
    expect(http.calls).toHaveLength(1);
    expect(http.calls[0]!.init.redirect).toBe('manual');
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'rejected', status: 301 });
  });

  it('an onError that throws is caught and logged', async () => {
    const { client, lines } = make({ flushAt: 1, onError: () => { throw new Error('boom'); } }, [{ status: 400 }]);
    client.track({ userId: 'u1', event: 'E' });
    await client.flush();
    expect(lines[0]).toMatch(/^error onError threw: boom/);
  });

  it('network errors are retried with doubling backoff, then reported with their cause', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:4400') });
    const onError = vi.fn<(e: ClientError) => void>();
    const { client, time, http } = make({ flushAt: 1, onError }, [refused, refused, refused, refused]);
    client.track({ userId: 'u1', event: 'E' });
    const flushed = client.flush();
    for (const delay of [100, 200, 400]) {
      await time.untilPending();
      time.advance(delay - 1);
      expect(time.pending).toBe(1);
      time.advance(1);
    }
    await flushed;
    expect(http.calls).toHaveLength(4);
    const e = onError.mock.calls[0]![0];
    expect(e.code).toBe('delivery_failed');
    expect(e.attempts).toBe(4);
    expect(e.cause).toBe(refused);
    expect(e.message).toBe('hookbench-client: dropped 1 message: network error: fetch failed: connect ECONNREFUSED 127.0.0.1:4400 (after 4 attempts)');
  });

  it('debug logging goes to the logger when on', async () => {
    const { client, lines } = make({ flushAt: 1, debug: true });
    client.track({ userId: 'u1', event: 'E' });
    await client.flush();
    expect(lines.some((l) => l.startsWith('debug queued track'))).toBe(true);
    expect(lines.some((l) => l.startsWith('debug response 200'))).toBe(true);
  });
});
