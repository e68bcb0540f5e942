/**
 * The client library against a real HTTP server on 127.0.0.1:0 (test/helpers/receiver.ts), with the
 * flushAfter timer and retry backoff on an injected manual clock: no test sleeps.
 */
import { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, ClientError, type BatchBody, type ClientOptions, type FetchLike } from '../../../main/client/index.js';
import { ManualTime } from '../../helpers/manualTime.js';
import { startReceiver, status, type Captured, type Respond, type TestReceiver } from '../../helpers/receiver.js';


const WRITE_KEY = 'wk_test';
const OK: Respond = status(200, { 'content-type': 'application/json' }, '{"success":true}');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

interface Setup {
  client: Client;
  receiver: TestReceiver;
  time: ManualTime;
  /** fetch calls the client has made so far. */
  fetches: () => number;
  bodies: () => BatchBody[];
}

async function setup(options: ClientOptions = {}, respond: Respond = OK): Promise<Setup> {
  const receiver = await startReceiver(respond);
  cleanups.push(() => receiver.close());
  const time = new ManualTime();
  let fetches = 0;
  const countingFetch: FetchLike = (url, init) => {
    fetches++;
    return fetch(url, init);
  };
  const client = new Client(WRITE_KEY, {
    endpoint: new URL(receiver.url).origin,
    clock: time,
    timers: time,
    random: () => 0.5,
    fetch: countingFetch,
    debug: false,
    ...options,
  });
  cleanups.push(() => client.close());
  return { client, receiver, time, fetches: () => fetches, bodies: () => receiver.captured.map(parse) };
}

const parse = (c: Captured): BatchBody => JSON.parse(c.body.toString('utf8')) as BatchBody;

describe('client: flushing', () => {
  it('flushAt defaults to 20: 19 calls send nothing, the 20th sends one batch of 20, in order', async () => {
    const { client, receiver, fetches, bodies } = await setup();
    expect(client.flushAt).toBe(20);
    for (let i = 0; i < 19; i++) client.track({ userId: 'u1', event: `E${i}` });
    expect(client.queued).toBe(19);
    expect(fetches()).toBe(0);

    client.track({ userId: 'u1', event: 'E19' });
    expect(client.queued).toBe(0);
    await receiver.waitFor(1);
    await client.close();
    expect(receiver.captured).toHaveLength(1);
    const [body] = bodies();
    expect(body!.batch.map((m) => m.event)).toEqual(Array.from({ length: 20 }, (_, i) => `E${i}`));
  });

  it('posts to /v1/batch with the exact Basic auth header, JSON content type and {batch, sentAt}', async () => {
    const { client, receiver, time, bodies } = await setup({ flushAt: 1 });
    const id = client.identify({ userId: 'u1', traits: { plan: 'pro' } });
    await client.flush();
    const [req] = receiver.captured;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v1/batch');
    expect(req!.headers['authorization']).toBe('Basic d2tfdGVzdDo=');
    expect(Buffer.from('d2tfdGVzdDo=', 'base64').toString()).toBe('wk_test:');
    expect(req!.headers['content-type']).toBe('application/json');
    const body = bodies()[0]!;
    expect(Object.keys(body)).toEqual(['batch', 'sentAt']);
    expect(body.sentAt).toBe(new Date(time.now()).toISOString());
    expect(body.batch[0]).toMatchObject({
      type: 'identify',
      messageId: id,
      userId: 'u1',
      traits: { plan: 'pro' },
      timestamp: new Date(time.now()).toISOString(),
      context: { library: { name: 'hookbench-client' } },
    });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('flushAfter 5000: one call, 4999 ms later nothing, at 5000 ms it is sent', async () => {
    const { client, receiver, time, fetches, bodies } = await setup();
    expect(client.flushAfter).toBe(5000);
    client.track({ anonymousId: 'a1', event: 'Viewed' });
    time.advance(4999);
    expect(client.queued).toBe(1);
    expect(fetches()).toBe(0);
    time.advance(1);
    expect(client.queued).toBe(0);
    await receiver.waitFor(1);
    expect(bodies()[0]!.batch.map((m) => m.event)).toEqual(['Viewed']);
  });

  it('flushAfter counts from the last flush', async () => {
    const { client, receiver, time } = await setup({ flushAt: 2, flushAfter: 5000 });
    time.advance(1000);
    client.track({ userId: 'u1', event: 'A' });
    client.track({ userId: 'u1', event: 'B' }); // flushAt: the last flush is now t=1000
    await receiver.waitFor(1);
    time.advance(3000);
    client.track({ userId: 'u1', event: 'C' }); // at t=4000: due at 1000 + 5000
    expect(time.nextDelay()).toBe(2000);
    time.advance(1999);
    expect(client.queued).toBe(1);
    time.advance(1);
    expect(client.queued).toBe(0);
    await receiver.waitFor(2);
    expect(time.pending).toBe(0);
  });

  it('size is an alias of flushAt', async () => {
    const { client, receiver, fetches, bodies } = await setup({ size: 3 });
    expect(client.flushAt).toBe(3);
    client.page({ userId: 'u1', name: 'Home' });
    client.screen({ userId: 'u1', name: 'Main' });
    expect(fetches()).toBe(0);
    client.group({ userId: 'u1', groupId: 'g1' });
    await receiver.waitFor(1);
    expect(bodies()[0]!.batch.map((m) => m.type)).toEqual(['page', 'screen', 'group']);
  });

  it('flushAt 1 sends every call at once, one request each, in order', async () => {
    const { client, receiver, fetches, bodies, time } = await setup({ flushAt: 1 });
    client.track({ userId: 'u1', event: 'One' });
    expect(client.queued).toBe(0);
    client.track({ userId: 'u1', event: 'Two' });
    client.track({ userId: 'u1', event: 'Three' });
    await receiver.waitFor(3);
    expect(fetches()).toBe(3);
    expect(bodies().map((b) => b.batch.map((m) => m.event))).toEqual([['One'], ['Two'], ['Three']]);
    expect(time.pending).toBe(0);
  });

  it('splits batches at 512,000 bytes: 40 messages of ~20 KB arrive in order, every body within the limit', async () => {
    const { client, receiver } = await setup({ flushAt: 100 });
    const pad = 'x'.repeat(20_000);
    for (let i = 0; i < 40; i++) client.track({ userId: 'u1', event: `Big ${i}`, properties: { i, pad } });
    await client.flush();
    expect(receiver.captured.length).toBeGreaterThanOrEqual(2);
    for (const c of receiver.captured) expect(c.body.length).toBeLessThanOrEqual(512_000);
    const events = receiver.captured.flatMap((c) => parse(c).batch.map((m) => m.event));
    expect(events).toEqual(Array.from({ length: 40 }, (_, i) => `Big ${i}`));
    // the split fills requests: the first one carries as many as fit
    expect(receiver.captured[0]!.body.length).toBeGreaterThan(512_000 - 21_000);
  });

  it('refuses a call over 32 KiB at the call, naming its size and the 32768 limit', async () => {
    const { client, fetches } = await setup({ flushAt: 1 });
    let error: unknown;
    try {
      client.track({ userId: 'u1', event: 'Huge', properties: { blob: 'x'.repeat(33_000) } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ClientError);
    const e = error as ClientError;
    expect(e.code).toBe('message_too_large');
    expect(e.limit).toBe(32_768);
    expect(e.size).toBeGreaterThan(33_000);
    expect(e.message).toContain(`${e.size} bytes`);
    expect(e.message).toContain('32768');
    expect(client.queued).toBe(0);
    expect(fetches()).toBe(0);
  });

  it('close() drains the queue, stops the timer and refuses later calls', async () => {
    const { client, receiver, time, bodies } = await setup();
    for (let i = 0; i < 5; i++) client.alias({ previousId: `anon-${i}`, userId: `user-${i}` });
    expect(time.pending).toBe(1); // the flushAfter timer
    await client.close();
    expect(time.pending).toBe(0);
    expect(receiver.captured).toHaveLength(1);
    expect(bodies()[0]!.batch.map((m) => m.previousId)).toEqual(['anon-0', 'anon-1', 'anon-2', 'anon-3', 'anon-4']);
    expect(client.closed).toBe(true);
    expect(() => client.track({ userId: 'u1', event: 'Late' })).toThrow('track: the client is closed');
    await client.close();
    expect(receiver.captured).toHaveLength(1);
  });

  it('close() waits for a batch that is being retried', async () => {
    let n = 0;
    const { client, receiver, time } = await setup({ flushAt: 1 }, (req, res) => (n++ === 0 ? status(503)(req, res) : OK(req, res)));
    client.track({ userId: 'u1', event: 'A' });
    const closed = client.close();
    await time.fireNext();
    await closed;
    expect(receiver.captured).toHaveLength(2);
  });
});

describe('client: retries and refusals', () => {
  it('retries a 503 after the backoff, then succeeds: exactly 2 requests', async () => {
    let n = 0;
    const onError = vi.fn();
    const { client, receiver, time, bodies } = await setup({ flushAt: 1, onError }, (req, res) =>
      n++ === 0 ? status(503)(req, res) : OK(req, res),
    );
    client.track({ userId: 'u1', event: 'Retried' });
    const flushed = client.flush();
    await time.untilPending();
    expect(time.nextDelay()).toBe(100); // 100 ms, no jitter at random() = 0.5
    time.advance(99);
    expect(receiver.captured).toHaveLength(1);
    time.advance(1);
    await flushed;
    expect(receiver.captured).toHaveLength(2);
    const [first, second] = bodies();
    expect(second!.batch).toEqual(first!.batch);
    expect(onError).not.toHaveBeenCalled();
  });

  it('does not retry a 400: exactly 1 request, onError gets the status and the server error', async () => {
    const refusal = { error: { code: 'missing_field', message: 'batch[0].event: is required', index: 0, field: 'batch[0].event' } };
    const onError = vi.fn<(e: ClientError) => void>();
    const { client, receiver, time } = await setup({ flushAt: 1, onError }, status(400, { 'content-type': 'application/json' }, JSON.stringify(refusal)));
    const id = client.track({ userId: 'u1', event: 'Refused' });
    await client.flush();
    expect(receiver.captured).toHaveLength(1);
    expect(time.pending).toBe(0);
    expect(onError).toHaveBeenCalledTimes(1);
    const e = onError.mock.calls[0]![0];
    expect(e).toBeInstanceOf(ClientError);
    expect(e.code).toBe('rejected');
    expect(e.status).toBe(400);
    expect(e.body).toEqual(refusal);
    expect(e.serverError).toEqual(refusal.error);
    expect(e.attempts).toBe(1);
    expect(e.messages?.map((m) => m.messageId)).toEqual([id]);
    expect(e.message).toContain('HTTP 400');
    expect(e.message).toContain('batch[0].event: is required');
  });

  it('does not retry a 401 (bad write key)', async () => {
    const onError = vi.fn<(e: ClientError) => void>();
    const { client, receiver } = await setup({ flushAt: 1, onError }, status(401, { 'content-type': 'application/json' }, '{"error":{"code":"unauthorized","message":"unknown write key"}}'));
    client.track({ userId: 'u1', event: 'X' });
    await client.flush();
    expect(receiver.captured).toHaveLength(1);
    expect(onError.mock.calls[0]![0].status).toBe(401);
  });

  it('retries 5xx up to maxRetries, then reports the batch through onError', async () => {
    const onError = vi.fn<(e: ClientError) => void>();
    const { client, receiver, time } = await setup({ flushAt: 1, maxRetries: 2, onError }, status(500));
    client.track({ userId: 'u1', event: 'X' });
    const flushed = client.flush();
    expect(await time.fireNext()).toBe(100);
    expect(await time.fireNext()).toBe(200);
    await flushed;
    expect(receiver.captured).toHaveLength(3);
    const e = onError.mock.calls[0]![0];
    expect(e.code).toBe('delivery_failed');
    expect(e.status).toBe(500);
    expect(e.attempts).toBe(3);
  });

  it('retries a 429 no sooner than its Retry-After', async () => {
    let n = 0;
    const { client, receiver, time } = await setup({ flushAt: 1 }, (req, res) =>
      n++ === 0 ? status(429, { 'retry-after': '2' })(req, res) : OK(req, res),
    );
    client.track({ userId: 'u1', event: 'X' });
    const flushed = client.flush();
    expect(await time.fireNext()).toBe(2000);
    await flushed;
    expect(receiver.captured).toHaveLength(2);
  });

  it('retries network errors, then reports them with no status', async () => {
    const dead = await startReceiver();
    const endpoint = new URL(dead.url).origin;
    await dead.close();
    const onError = vi.fn<(e: ClientError) => void>();
    const time = new ManualTime();
    const client = new Client(WRITE_KEY, { endpoint, flushAt: 1, maxRetries: 1, clock: time, timers: time, random: () => 0.5, onError, debug: false });
    cleanups.push(() => client.close());
    client.track({ userId: 'u1', event: 'X' });
    const flushed = client.flush();
    await time.fireNext();
    await flushed;
    const e = onError.mock.calls[0]![0];
    expect(e.code).toBe('delivery_failed');
    expect(e.status).toBeUndefined();
    expect(e.attempts).toBe(2);
    expect(e.message).toContain('network error');
  });

  it('keeps order: a batch being retried holds back the next one', async () => {
    let n = 0;
    const { client, receiver, time, bodies } = await setup({ flushAt: 1 }, (req, res) => (n++ === 0 ? status(503)(req, res) : OK(req, res)));
    client.track({ userId: 'u1', event: 'A' });
    client.track({ userId: 'u1', event: 'B' });
    const flushed = client.flush();
    await time.fireNext();
    await flushed;
    expect(bodies().map((b) => b.batch[0]!.event)).toEqual(['A', 'A', 'B']);
    expect(receiver.captured).toHaveLength(3);
  });

  it('sends through an undici dispatcher when one is given', async () => {
    const receiver = await startReceiver(OK);
    cleanups.push(() => receiver.close());
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const client = new Client(WRITE_KEY, { endpoint: new URL(receiver.url).origin, flushAt: 1, dispatcher: agent, debug: false });
    client.track({ userId: 'u1', event: 'Via undici' });
    await client.close();
    expect(receiver.captured).toHaveLength(1);
    expect(parse(receiver.captured[0]!).batch[0]!.event).toBe('Via undici');
  });
});

describe('client: DEBUG=analytics', () => {
  const stderrLines = () => {
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    return () =>
      spy.mock.calls.map((c) => String(c[0])).filter((line) => line.startsWith('analytics '));
  };

  it('logs queueing, flushing, responses and retries to stderr, never the write key', async () => {
    vi.stubEnv('DEBUG', 'express:*,analytics');
    const lines = stderrLines();
    let n = 0;
    const { client, time } = await setup({ flushAt: 1, debug: undefined }, (req, res) => (n++ === 0 ? status(503)(req, res) : OK(req, res)));
    expect(client.debug).toBe(true);
    client.track({ userId: 'u1', event: 'Logged' });
    const flushed = client.flush();
    await time.fireNext();
    await flushed;
    const log = lines().join('');
    expect(log).toContain('analytics queued track');
    expect(log).toContain('analytics flushing 1 message');
    expect(log).toContain('analytics response 503');
    expect(log).toContain('analytics retrying 1 message in 100 ms after HTTP 503');
    expect(log).toContain('analytics response 200');
    expect(log).not.toContain(WRITE_KEY);
    expect(log).not.toContain('d2tfdGVzdDo=');
  });

  it('logs dropped batches', async () => {
    vi.stubEnv('DEBUG', 'analytics');
    const lines = stderrLines();
    const onError = vi.fn();
    const { client } = await setup({ flushAt: 1, debug: undefined, onError }, status(400));
    client.track({ userId: 'u1', event: 'X' });
    await client.flush();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(lines().join('')).toContain('analytics hookbench-client: dropped 1 message: HTTP 400 (not retried)');
  });

  it('is silent without DEBUG', async () => {
    vi.stubEnv('DEBUG', '');
    const lines = stderrLines();
    const { client } = await setup({ flushAt: 1, debug: undefined });
    expect(client.debug).toBe(false);
    client.track({ userId: 'u1', event: 'Quiet' });
    await client.flush();
    expect(lines()).toEqual([]);
  });
});
