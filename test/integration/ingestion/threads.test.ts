/**
 * Ingestion parses and builds large requests on a thread of its own (ingestion/ingest.ts). Whichever thread
 * does it, the answer and what is stored must be the same, byte for byte; and a thread that dies must not
 * lose the request it was given.
 */
import { gzipSync } from 'node:zlib';
import { MessageChannel, type Transferable, type Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { internalsOf, type Core } from '../../../main/app/createCore.js';
import { IngestService, type IngestOptions, type IngestRequest } from '../../../main/ingestion/ingest.js';
import { createClock } from '../../../main/platform/clock.js';
import { must, newCore, onCleanup } from '../../helpers/harness.js';

const WRITE_KEY = 'wk_threads';
const basic = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;

function setUp(options: IngestOptions): { core: Core; ingest: IngestService } {
  // The same engine time for both runs, so that default timestamps and receivedAt agree.
  const core = newCore({ autoStart: false, clock: createClock({ realNow: () => Date.parse('2026-11-22T10:00:00.000Z') }) });
  const source = must(core.createSource({ name: 'app', kind: 'server', writeKey: WRITE_KEY }));
  must(core.createDestination({ name: 'hook', enabled: true, url: 'http://127.0.0.1:9/hook', sources: [source.id], filters: { blockEvents: ['Blocked'] } }));
  const ingest = new IngestService(core.ingestion, options);
  onCleanup(() => ingest.close());
  return { core, ingest };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}): IngestRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json', authorization: basic, ...headers },
  body: Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body)),
  clientIp: '198.51.100.4',
});

const track = (i: number, extra: Record<string, unknown> = {}) => ({
  type: 'track',
  userId: `u${i}`,
  event: i % 10 === 9 ? 'Blocked' : 'Order Completed',
  messageId: `m-${i}`,
  timestamp: '2026-11-22T09:59:00+01:00',
  properties: { i, note: 'é ✓ "quoted"' },
  ...extra,
});

/** Requests that cover each outcome: accepted (with dedupe, filters, merged context), and each refusal. */
const REQUESTS: IngestRequest[] = [
  post('/v1/batch', { batch: Array.from({ length: 60 }, (_, i) => track(i)), context: { app: { name: 'shop' } } }),
  post('/v1/batch', { batch: [track(1), track(1000), { type: 'identify', userId: 'u1', traits: { plan: 'pro' } }] }),
  post('/v1/batch', gzipSync(JSON.stringify({ batch: Array.from({ length: 40 }, (_, i) => track(2000 + i, { messageId: undefined })) })), { 'content-encoding': 'gzip' }),
  post('/v1/batch', { batch: [track(3000), { type: 'track', userId: 'u', properties: {} }] }),
  post('/v1/batch', { batch: [track(3001), { type: 'nope' }] }),
  post('/v1/batch', { batch: [track(3002, { properties: { big: 'x'.repeat(40_000) } })] }),
  post('/v1/batch', '{"batch": [', {}),
  post('/v1/batch', { batch: [track(3003)] }, { authorization: `Basic ${Buffer.from('wk_unknown:').toString('base64')}` }),
  post('/v1/track', { userId: 'single', event: 'Signed Up' }),
  { method: 'OPTIONS', path: '/v1/batch', headers: {}, body: Buffer.alloc(0), clientIp: null },
];

function snapshot(core: Core): unknown {
  const db = internalsOf(core).store.db;
  return {
    messages: db.prepare('SELECT m.message_id, m.type, m.user_id, m.event, m.received_at, m.status, m.status_reason, CAST(p.body AS TEXT) AS body, p.call FROM messages m JOIN message_payloads p ON p.message_id = m.id ORDER BY m.id').all(),
    deliveries: db.prepare('SELECT message_id, destination_name, status FROM deliveries ORDER BY id').all(),
    refusals: db.prepare('SELECT source_id IS NOT NULL AS has_source, route, http_status, code, message, field, item_index, body_bytes, CAST(body_preview AS TEXT) AS body_preview FROM ingest_log ORDER BY id').all(),
    usage: db.prepare('SELECT received, accepted, refused, filtered FROM source_usage').all(),
    traits: db.prepare('SELECT user_id, traits FROM user_traits ORDER BY user_id').all(),
  };
}

describe('ingestion on its own thread', () => {
  it('answers and stores exactly what the main thread does, for every outcome', async () => {
    const inline = setUp({ thread: 'inline' });
    const threaded = setUp({ thread: 'worker', workerMinBytes: 0 });
    for (const req of REQUESTS) {
      const a = await inline.ingest.handle(req);
      const b = await threaded.ingest.handle(req);
      expect(b, `${req.method} ${req.path}`).toEqual(a);
    }
    const stored = snapshot(inline.core) as { messages: unknown[]; refusals: unknown[] };
    // Messages without a messageId get a random one: compare everything else.
    const withoutGenerated = (s: unknown) => JSON.stringify(s).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<generated>');
    expect(withoutGenerated(snapshot(threaded.core))).toEqual(withoutGenerated(stored));
    // And the comparison compared something: accepted calls, a duplicate, filtered ones, and refusals.
    expect(stored.messages.length).toBe(60 + 3 + 40 + 1);
    expect(stored.refusals.length).toBe(5);
  });

  it('a batch whose thread dies is handled on the main thread, and the next request starts a new thread', async () => {
    const { core, ingest } = setUp({ thread: 'worker', workerMinBytes: 0 });
    expect((await ingest.handle(post('/v1/batch', { batch: [track(1)] }))).status).toBe(200);
    const thread = (ingest as unknown as { worker: { started: { terminate(): Promise<number> } | null } }).worker;
    await thread.started!.terminate();
    expect((await ingest.handle(post('/v1/batch', { batch: [track(2)] }))).status).toBe(200);
    expect((await ingest.handle(post('/v1/batch', { batch: [track(3)] }))).status).toBe(200);
    expect(thread.started).not.toBeNull();
    expect(internalsOf(core).store.db.prepare('SELECT message_id FROM messages ORDER BY id').pluck().all()).toEqual(['m-1', 'm-2', 'm-3']);
  });

  it('a body moved to the thread (a buffer of its own, with a way to read it again) is read again when the thread dies', async () => {
    const { core, ingest } = setUp({ thread: 'worker', workerMinBytes: 0 });
    expect((await ingest.handle(post('/v1/batch', { batch: [track(1)] }))).status).toBe(200); // the thread is up
    const thread = (ingest as unknown as { worker: { started: Worker | null } }).worker;
    // The thread dies with the job in hand. Terminating it just after the job was posted would race: a
    // thread quick enough answers first, and nothing needs reading again. So the job is moved, as posting
    // moves it, to a port nobody reads, and the thread is terminated instead of receiving it.
    const dying = thread.started!;
    const nowhere = new MessageChannel();
    onCleanup(() => nowhere.port1.close());
    dying.postMessage = (message: unknown, transfer?: readonly Transferable[]) => {
      nowhere.port1.postMessage(message, transfer as Transferable[]);
      void dying.terminate();
    };
    const sent = Buffer.from(JSON.stringify({ batch: [track(2), track(3)] }));
    const own = Buffer.alloc(sent.length, sent); // not a slice of Node's pool: it can be moved
    let readAgain = 0;
    const answer = ingest.handle({ ...post('/v1/batch', own), bodyAgain: () => (readAgain++, Buffer.from(sent)) });
    await Promise.resolve(); // the job leaves in a microtask
    expect(own.length).toBe(0); // moved, not copied
    expect((await answer).status).toBe(200);
    expect(thread.started).toBeNull(); // the dead thread is gone; the next request starts another
    expect(readAgain).toBe(1);
    // Without a way to read it again, a body is copied and stays readable here.
    const other = Buffer.from(JSON.stringify({ batch: [track(4)] }));
    const kept = Buffer.alloc(other.length, other);
    expect((await ingest.handle(post('/v1/batch', kept))).status).toBe(200);
    expect(kept.equals(other)).toBe(true);
    expect(internalsOf(core).store.db.prepare('SELECT message_id FROM messages ORDER BY id').pluck().all()).toEqual(['m-1', 'm-2', 'm-3', 'm-4']);
  });

  it('concurrent requests committed together: all stored, and a messageId sent twice at once is stored once as sent', async () => {
    const { core, ingest } = setUp({ thread: 'worker', workerMinBytes: 0 });
    const requests = Array.from({ length: 12 }, (_, r) => post('/v1/batch', { batch: Array.from({ length: 10 }, (_, i) => track(r * 10 + i)) }));
    requests.push(post('/v1/batch', { batch: [track(5)] })); // the same messageId as a call of the first request
    const answers = await Promise.all(requests.map((r) => ingest.handle(r)));
    expect(answers.map((a) => a.status)).toEqual(requests.map(() => 200));
    const rows = internalsOf(core).store.db.prepare<[], { message_id: string; status: string; status_reason: string | null }>('SELECT message_id, status, status_reason FROM messages ORDER BY id').all();
    expect(rows).toHaveLength(121);
    const copies = rows.filter((r) => r.message_id === 'm-5');
    expect(copies.map((c) => c.status_reason)).toEqual([null, 'duplicate messageId']);
  });
});

