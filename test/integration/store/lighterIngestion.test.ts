/**
 * What ingestion stores lighter since migration 007 (docs/architecture.md, Store): the call as received kept
 * compact beside its body, and "which sources saw this user" answered without an index on user_id. Each
 * reads back exactly what a plain reading of the calls and rows says.
 */
import { seededRandom } from '../../../bench/seededRandom.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildMessage } from '../../../main/domain/messages.js';
import type { MessageType } from '../../../main/contract/message/messageShapes.js';
import { HistoryIndex } from '../../../main/store/historyIndex.js';
import { MIGRATIONS } from '../../../main/store/migrations/index.js';
import { openDb, schemaVersion } from '../../../main/store/openDb.js';
import { Store } from '../../../main/store/store.js';
import { compactCall, parseStoredCall, UNREADABLE_KEY } from '../../../main/store/storedJson.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

const build = (type: MessageType, call: Record<string, unknown>, clientIp?: string) => {
  const built = buildMessage(type, call, { receivedAt: Date.UTC(2026, 10, 22), newMessageId: () => 'generated-id', ...(clientIp ? { clientIp } : {}) });
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
};

describe('the compact call (store/storedJson.ts)', () => {
  it('reads back the call as received, key for key and in order, for an SDK track call', () => {
    const call = {
      type: 'track',
      userId: 'u1',
      event: 'Order Completed',
      properties: { total: 42.5, products: [{ sku: 'a' }] },
      context: { ip: '203.0.113.7', library: { name: 'analytics-node', version: '2.1.0' } },
      integrations: { All: false, Webhooks: true },
      messageId: 'node-next-1-abc',
      timestamp: '2026-11-22T10:00:00.000Z',
      _metadata: { nodeVersion: 'v20.20.2' },
    };
    const built = build('track', call);
    const stored = compactCall(call, built.body)!;
    expect(stored.startsWith('[')).toBe(true);
    // Only what the body does not repeat is stored, and integrations (SQL reads it) always.
    expect(JSON.parse(stored)).toEqual([Object.keys(call), { integrations: call.integrations, _metadata: call._metadata }]);
    expect(stored).not.toContain('analytics-node');
    expect(stored).not.toContain('Order Completed');
    const read = parseStoredCall(stored, built.bytes);
    expect(JSON.stringify(read)).toBe(JSON.stringify(call));
  });

  it('keeps its own value wherever the body changed it: a timestamp normalised, an ip filled in, an alias, an empty or null id', () => {
    const call = { userId: '', anonymousId: 'a1', name: 'Home', traits: { path: '/' }, timestamp: '2026-11-22T10:00:00Z', context: { locale: 'fr' }, version: null };
    const built = build('page', call, '198.51.100.1');
    expect(built.body['timestamp']).not.toBe(call.timestamp);
    expect(built.body['context']).not.toBe(call.context);
    const stored = compactCall(call, built.body)!;
    const [, own] = JSON.parse(stored) as [string[], Record<string, unknown>];
    expect(own).toEqual({ userId: '', traits: { path: '/' }, timestamp: call.timestamp, context: { locale: 'fr' }, version: null });
    expect(JSON.stringify(parseStoredCall(stored, built.bytes))).toBe(JSON.stringify(call));
  });

  it('is not used when nothing is shared, and a key named __proto__ stays a key', () => {
    const call = JSON.parse('{"anonymousId":"a1","__proto__":{"polluted":true},"event":"E"}') as Record<string, unknown>;
    const built = build('track', call);
    const stored = compactCall(call, built.body)!;
    const read = parseStoredCall(stored, built.bytes);
    expect(Object.keys(read)).toEqual(['anonymousId', '__proto__', 'event']);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(compactCall({ x: { a: 1 } }, { x: { a: 1 } })).toBeNull(); // equal, but not the body's own value
  });

  it('round-trips random calls exactly, whatever the body shares', () => {
    const r = seededRandom(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const values = [null, '', 'x', 0, 1.5, true, [], [1, 'a'], {}, { a: { b: [null] } }, '2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000Z'];
    const keys = ['userId', 'anonymousId', 'event', 'name', 'properties', 'traits', 'context', 'timestamp', 'messageId', 'integrations', 'extra', '0', '__proto__'];
    let compact = 0;
    for (let i = 0; i < 500; i++) {
      const call: Record<string, unknown> = { anonymousId: `a${i}` };
      for (const key of keys) if (r() < 0.5) Object.defineProperty(call, key, { value: pick(values), enumerable: true, writable: true, configurable: true });
      if (typeof call['anonymousId'] !== 'string' || call['anonymousId'] === '') call['anonymousId'] = `a${i}`;
      const type = pick(['track', 'page', 'screen', 'identify', 'group'] as const);
      const built = buildMessage(type, call, { receivedAt: 1, newMessageId: () => 'g' });
      if (!built.ok) continue;
      const stored = compactCall(call, built.value.body);
      if (stored) compact++;
      expect(JSON.stringify(parseStoredCall(stored ?? JSON.stringify(call), built.value.bytes))).toBe(JSON.stringify(call));
    }
    expect(compact).toBeGreaterThan(20); // both forms were tried
  });

  it('a stored call in neither form reads as an object that says so', () => {
    expect(parseStoredCall('[1, 2]', '{}')).toHaveProperty(UNREADABLE_KEY);
    expect(parseStoredCall('{"userId":"u"}', 'not read')).toEqual({ userId: 'u' });
  });
});

describe('inserting a batch of messages, many rows a statement', () => {
  it('stores every message, payload and delivery under the ids it returns, whatever the batch size', () => {
    const store = new Store(join(newDataDir(), 'hookbench.db'));
    onCleanup(() => store.close());
    let n = 0;
    // What a run of rows shares is bound once per statement (BulkInsert): here source, time and replay
    // change every 7 to 30 rows, inside statements of 25 rows and between them.
    const message = (k: number) => ({
      messageId: `m${++n}`, sourceId: n % 30 < 15 ? null : `s${Math.floor(n / 30)}`, type: 'track' as const, userId: `u${n}`, anonymousId: n % 2 ? `a${n}` : null, event: `E${n}`,
      receivedAt: Math.floor(n / 7), body: Buffer.from(`{"n":${n}}`), callJson: `{"k":${k}}`, status: n % 5 ? ('queued' as const) : ('filtered' as const),
      statusReason: n % 5 ? null : 'no destination', replayOf: n % 11 < 5 ? null : n - 1,
    });
    for (const size of [0, 1, 24, 25, 26, 51, 100]) {
      const batch = Array.from({ length: size }, (_, k) => ({
        message: message(k),
        deliveries: Array.from({ length: k % 3 }, (_, j) => ({ destinationId: `d${j}`, destinationName: `D${j}`, nextAttemptAt: Math.floor(k / 4) })),
      }));
      const ids = store.messages.insertMessages(batch);
      expect(ids).toHaveLength(size);
      for (const [k, { id, deliveryIds }] of ids.entries()) {
        const m = batch[k]!.message;
        const read = store.messages.getMessage(id)!;
        expect([read.messageId, read.userId, read.body, read.call]).toEqual([m.messageId, m.userId, m.body.toString(), { k }]);
        const row = store.db.prepare('SELECT message_id, source_id, type, user_id, anonymous_id, event, received_at, status, status_reason, replay_of FROM messages WHERE id = ?').get(id);
        expect(row).toEqual({
          message_id: m.messageId, source_id: m.sourceId, type: m.type, user_id: m.userId, anonymous_id: m.anonymousId, event: m.event,
          received_at: m.receivedAt, status: m.status, status_reason: m.statusReason, replay_of: m.replayOf,
        });
        const rows = store.db.prepare('SELECT id, destination_id, destination_name, status, next_attempt_at, updated_at FROM deliveries WHERE message_id = ? ORDER BY id').all(id);
        expect(rows).toEqual(
          deliveryIds.map((d, j) => ({ id: d, destination_id: `d${j}`, destination_name: `D${j}`, status: 'queued', next_attempt_at: Math.floor(k / 4), updated_at: m.receivedAt })),
        );
      }
    }
    expect(store.db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(227);
    // The newest message deleted: its id is given again, as SQLite itself would.
    const newest = store.db.prepare('SELECT max(id) FROM messages').pluck().get() as number;
    store.db.prepare('DELETE FROM messages WHERE id = ?').run(newest);
    expect(store.messages.insertMessages([{ message: message(0), deliveries: [] }])[0]!.id).toBe(newest);
  });
});

describe('which sources saw a user, without an index on user_id (migration 007)', () => {
  it('reads the indexed messages through the history index and the newer ones past its watermark', () => {
    const store = new Store(join(newDataDir(), 'hookbench.db'));
    onCleanup(() => store.close());
    for (const id of ['s1', 's2', 's3', 's4']) store.config.insertSource({ id, name: id, kind: 'web', writeKey: `wk-${id}`, createdAt: 1 });
    const add = (sourceId: string | null, userId: string, type: MessageType = 'track') =>
      store.messages.insertMessage(
        { messageId: `m-${Math.random()}`, sourceId, type, userId, anonymousId: null, event: null, receivedAt: 1, body: Buffer.from('{}'), callJson: '{}', status: 'queued', statusReason: null, replayOf: null },
        [],
      );
    add('s1', 'u1');
    add('s4', 'u1', 'delete'); // a deletion notice is not a sighting
    add(null, 'u1');
    add('s2', 'u2');
    const index = new HistoryIndex(store.db);
    expect(index.indexNext(100)).toBe(4);
    add('s3', 'u1'); // past the watermark
    add('s2', 'u1', 'delete');
    expect(store.queries.sourcesThatSaw('u1').sort()).toEqual(['s1', 's3']);
    expect(store.queries.sourcesThatSaw('u2')).toEqual(['s2']);
    expect(store.queries.sourcesThatSaw('nobody')).toEqual([]);
    index.indexNext(100);
    expect(store.queries.sourcesThatSaw('u1').sort()).toEqual(['s1', 's3']);
  });

  it('finds the messages past the watermark through the history tail, not by reading them in id order, and answers what the rows say', () => {
    const store = new Store(join(newDataDir(), 'hookbench.db'));
    onCleanup(() => store.close());
    const sources = ['s1', 's2', 's3'];
    for (const id of sources) store.config.insertSource({ id, name: id, kind: 'web', writeKey: `wk-${id}`, createdAt: 1 });
    const batch = Array.from({ length: 3000 }, (_, i) => ({
      message: {
        messageId: `m-${i}`,
        sourceId: i % 17 === 0 ? null : sources[(i * 7) % 3]!,
        type: (i % 13 === 0 ? 'delete' : 'track') as MessageType,
        userId: `u${(i * 31) % 97}`,
        anonymousId: null,
        event: null,
        receivedAt: 1,
        body: Buffer.from('{}'),
        callJson: '{}',
        status: 'queued' as const,
        statusReason: null,
        replayOf: null,
      },
      deliveries: [],
    }));
    store.transaction(() => {
      for (let i = 0; i < batch.length; i += 500) store.messages.insertMessages(batch.slice(i, i + 500));
    });
    const plain = store.db.prepare<[string], string>(`SELECT DISTINCT source_id FROM messages WHERE user_id = ? AND source_id IS NOT NULL AND type != 'delete'`).pluck();
    const index = new HistoryIndex(store.db);
    for (const indexed of [0, 1000, 3000]) {
      while (index.covered() < indexed) index.indexNext(indexed - index.covered());
      for (const user of ['u0', 'u5', 'u96', 'nobody']) {
        expect(store.queries.sourcesThatSaw(user).sort()).toEqual(plain.all(user).sort());
        const rowByRow = store.queries
          .statementsOf(() => store.queries.sourcesThatSaw(user))
          .flatMap((s) => s.plan)
          .filter((l) => /^SEARCH m USING INTEGER PRIMARY KEY \(rowid>\?/.test(l) || /^SCAN m\b/.test(l));
        expect({ indexed, user, rowByRow }).toEqual({ indexed, user, rowByRow: [] });
      }
    }
  });

  it('008 upgrades a populated version-7 database: the dedupe index holds the messageId alone, and dedupe still tells sources and times apart', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v7 = openDb(file, MIGRATIONS.slice(0, 7));
    v7.prepare(`INSERT INTO sources (id, name, kind, write_key, created_at) VALUES ('s1', 'web', 'web', 'wk1', 1), ('s2', 'app', 'web', 'wk2', 1)`).run();
    const add = v7.prepare(`INSERT INTO messages (message_id, source_id, type, received_at, status) VALUES (?, ?, 'track', ?, 'delivered')`);
    add.run('m1', 's1', 100);
    add.run('m2', 's2', 100);
    add.run('m3', 's1', 10);
    v7.close();
    const db = openDb(file, MIGRATIONS.slice(0, 8));
    try {
      expect(schemaVersion(db)).toBe(8);
      expect(db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'messages_dedupe'`).pluck().get()).toBe('CREATE INDEX messages_dedupe ON messages (message_id)');
    } finally {
      db.close();
    }
    const store = new Store(file);
    onCleanup(() => store.close());
    const plan = (store.db.prepare(`EXPLAIN QUERY PLAN SELECT DISTINCT message_id FROM messages WHERE message_id IN (SELECT value FROM json_each('["m1"]')) AND source_id IS 's1' AND received_at >= 0`).all() as { detail: string }[]).map((p) => p.detail).join(' ');
    expect(plan).toContain('messages_dedupe');
    // m1 from s1 (seen), m2 only from another source, m3 from s1 but before the window.
    expect([...store.messages.seenMessageIds(['m1', 'm2', 'm3', 'm4'], 's1', 50)]).toEqual(['m1']);
    expect([...store.messages.seenMessageIds(['m1', 'm2'], 's2', 50)]).toEqual(['m2']);
  });

  it('007 upgrades a populated version-6 database: the user index is gone, the rows and their readers stay', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v6 = openDb(file, MIGRATIONS.slice(0, 6));
    v6.prepare(`INSERT INTO sources (id, name, kind, write_key, created_at) VALUES ('s1', 'web', 'web', 'wk', 1)`).run();
    v6.prepare(`INSERT INTO messages (id, message_id, source_id, type, user_id, received_at, status) VALUES (1, 'm', 's1', 'track', 'u1', 1, 'delivered')`).run();
    v6.prepare(`INSERT INTO message_payloads (message_id, body, call) VALUES (1, '{"type":"track"}', '{"userId":"u1"}')`).run();
    const indexes = (db: typeof v6) => db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'`).pluck().all();
    expect(indexes(v6)).toContain('messages_user');
    v6.close();
    const db = openDb(file, MIGRATIONS.slice(0, 7));
    expect(schemaVersion(db)).toBe(7);
    expect(indexes(db)).not.toContain('messages_user');
    expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(1);
    db.close();
    const store = new Store(file);
    onCleanup(() => store.close());
    expect(store.queries.sourcesThatSaw('u1')).toEqual(['s1']);
    expect(store.messages.getMessage(1)?.call).toEqual({ userId: 'u1' }); // a call stored whole, as every earlier version did
  });
});
