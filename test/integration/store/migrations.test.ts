import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../../main/store/historyIndex.js';
import { IngestLogStore } from '../../../main/store/ingestLogStore.js';
import { MIGRATIONS } from '../../../main/store/migrations/index.js';
import { migrate, openDb, schemaVersion } from '../../../main/store/openDb.js';
import { ReceiverStore } from '../../../main/receiver/receiverStore.js';
import { Store } from '../../../main/store/store.js';
import { newDataDir } from '../../helpers/harness.js';

describe('migrations', () => {
  it('are numbered 1..n without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('001 creates the schema in WAL mode; a populated database survives reopening and re-migrating', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const store = new Store(file);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(schemaVersion(store.db)).toBe(MIGRATIONS.length);
    const body = Buffer.from('{"type":"track"}');
    store.config.saveDestination(
      {
        id: 'd1',
        name: 'd',
        enabled: true,
        sourceIds: [],
        sharedSecret: 's',
        webhooks: [{ url: 'http://x/', headers: {} }],
        caFile: null,
        timeoutMs: 5000,
        retry: { schedule: [1000], windowMs: 1000, jitter: 0 },
        filters: { allowEvents: [], blockEvents: [] },
        createdAt: 1,
        updatedAt: 1,
      },
      true,
    );
    const { id } = store.messages.insertMessage(
      { messageId: 'm', sourceId: null, type: 'track', userId: 'u', anonymousId: null, event: 'E', receivedAt: 1, body, callJson: '{"userId":"u"}', status: 'queued', statusReason: null, replayOf: null },
      [{ destinationId: 'd1', destinationName: 'd', nextAttemptAt: 1 }],
    );
    store.close();

    const db = openDb(file);
    expect(migrate(db)).toBe(MIGRATIONS.length);
    const row = db.prepare('SELECT body, status FROM messages m JOIN message_payloads p ON p.message_id = m.id WHERE m.id = ?').get(id) as { body: Buffer; status: string };
    expect(row.body.equals(body)).toBe(true);
    expect(row.status).toBe('queued');
    expect(db.prepare('SELECT count(*) AS n FROM deliveries').get()).toEqual({ n: 1 });
    db.close();
  });

  it('002 upgrades a populated version-1 database: messages kept, new tables and the user index added', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v1 = openDb(file, MIGRATIONS.slice(0, 1));
    v1.prepare(`INSERT INTO sources (id, name, kind, write_key, created_at) VALUES ('s1', 'web', 'web', 'wk', 1)`).run();
    v1.prepare(
      `INSERT INTO messages (id, message_id, source_id, type, user_id, received_at, status) VALUES (7, 'm', 's1', 'track', 'u1', 1, 'delivered')`,
    ).run();
    v1.prepare(`INSERT INTO message_payloads (message_id, body, call) VALUES (7, x'7b7d', '{}')`).run();
    v1.close();
    const db = openDb(file, MIGRATIONS.slice(0, 2));
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare('SELECT user_id, status FROM messages WHERE id = 7').get()).toEqual({ user_id: 'u1', status: 'delivered' });
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT DISTINCT source_id FROM messages WHERE user_id = 'u1'`).all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('messages_user');
    db.prepare(`INSERT INTO source_usage (source_id, received) VALUES ('s1', 1)`).run();
    db.prepare(`INSERT INTO audiences (id, source_id, kind, name, trait_key, definition, created_at) VALUES ('a', 's1', 'audience', 'VIP', 'vip', '{}', 1)`).run();
    db.close();
  });

  it('004 upgrades a populated version-3 database: rows kept, the two delivery-path indexes gone, the remaining ones used', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v3 = openDb(file, MIGRATIONS.slice(0, 3));
    v3.prepare(`INSERT INTO messages (id, message_id, type, received_at, status) VALUES (3, 'm', 'track', 1, 'delivered')`).run();
    v3.prepare(`INSERT INTO message_payloads (message_id, body, call) VALUES (3, x'7b7d', '{}')`).run();
    v3.prepare(`INSERT INTO deliveries (id, message_id, destination_id, destination_name, status, updated_at) VALUES (5, 3, 'd1', 'd', 'delivered', 1)`).run();
    v3.prepare(
      `INSERT INTO attempts (delivery_id, message_id, attempt_number, webhook_index, url, outcome, retryable, started_at, finished_at, duration_ms, request_headers)
       VALUES (5, 3, 1, 0, 'http://x', 'success', 0, 1, 2, 1.0, '{}')`,
    ).run();
    v3.close();
    const db = openDb(file, MIGRATIONS.slice(0, 4));
    try {
      expect(schemaVersion(db)).toBe(4);
      const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'`).pluck().all();
      expect(indexes).not.toContain('attempts_delivery');
      expect(indexes).not.toContain('deliveries_destination');
      expect(indexes).toEqual(expect.arrayContaining(['attempts_message', 'deliveries_message', 'deliveries_due']));
      expect(db.prepare('SELECT delivery_id, outcome FROM attempts WHERE message_id = 3').all()).toEqual([{ delivery_id: 5, outcome: 'success' }]);
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT * FROM attempts WHERE message_id = 3').all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain('attempts_message');
    } finally {
      db.close();
    }
  });

  it('005 upgrades a populated version-4 database: rows kept, status and time indexes used, the history index filled afterwards and left by a deleted message', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v4 = openDb(file, MIGRATIONS.slice(0, 4));
    v4.prepare(`INSERT INTO sources (id, name, kind, write_key, created_at) VALUES ('s1', 'web', 'web', 'wk', 1)`).run();
    for (const [id, status, at] of [[1, 'delivered', 10], [2, 'failed', 20], [3, 'delivered', 5]] as const) {
      v4.prepare(`INSERT INTO messages (id, message_id, source_id, type, user_id, event, received_at, status) VALUES (?, ?, 's1', 'track', 'u1', 'Signed Up', ?, ?)`).run(id, `m${id}`, at, status);
      v4.prepare(`INSERT INTO message_payloads (message_id, body, call) VALUES (?, ?, '{}')`).run(id, Buffer.from(`{"note":"Espresso ${id}"}`));
      v4.prepare(`INSERT INTO deliveries (message_id, destination_id, destination_name, status, updated_at) VALUES (?, 'd1', 'd', ?, ?)`).run(id, status, at);
    }
    v4.close();
    const db = openDb(file, MIGRATIONS.slice(0, 5));
    try {
      expect(schemaVersion(db)).toBe(5);
      expect(db.prepare('SELECT id, status FROM messages ORDER BY id').all()).toEqual([
        { id: 1, status: 'delivered' },
        { id: 2, status: 'failed' },
        { id: 3, status: 'delivered' },
      ]);
      const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((p) => p.detail).join(' ');
      expect(plan(`SELECT id FROM messages WHERE status = 'failed' ORDER BY id DESC`)).toContain('messages_status');
      expect(plan('SELECT id FROM messages WHERE received_at >= 7 ORDER BY received_at')).toContain('messages_received');
      expect(plan(`SELECT count(*) FROM deliveries WHERE status = 'failed' AND updated_at >= 7`)).toContain('deliveries_failed');
      // The history index starts empty and is filled afterwards (by the history indexer, off the hot path).
      const index = new HistoryIndex(db);
      expect(index.covered()).toBe(0);
      expect(index.indexNext(10)).toBe(3);
      expect(index.covered()).toBe(3);
      expect(db.prepare('SELECT id FROM history_late').pluck().all()).toEqual([3]); // received before message 2
      expect(db.prepare(`SELECT rowid FROM message_search WHERE message_search MATCH '"ESP" AND "sso"' ORDER BY rowid`).pluck().all()).toEqual([1, 2, 3]);
      const facets = () => db.prepare('SELECT k.facet, f.id FROM history_facets f JOIN history_keys k USING (key) ORDER BY k.facet, f.id').all();
      expect(facets()).toEqual(expect.arrayContaining([{ facet: 'dest:d1', id: 2 }, { facet: 'event:Signed Up', id: 3 }, { facet: 'user:u1', id: 1 }]));
      expect(facets()).toHaveLength(15);
      db.prepare('DELETE FROM messages WHERE id = 2').run();
      expect(facets()).toHaveLength(10);
      expect(db.prepare(`SELECT rowid FROM message_search WHERE message_search MATCH '"ESP"'`).pluck().all()).toEqual([1, 3]);
      db.prepare('DELETE FROM messages WHERE id = 3').run();
      expect(index.covered()).toBe(1); // id 2 and 3 can be given again: they are no longer covered
      expect(db.prepare('SELECT count(*) FROM history_late').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('006 upgrades a populated version-5 database: refusals kept (without a limit), new ones keep the limit they exceeded', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v5 = openDb(file, MIGRATIONS.slice(0, 5));
    v5.prepare(
      `INSERT INTO ingest_log (received_at, route, http_status, code, message, field, item_index) VALUES (1, '/v1/batch', 400, 'message_too_large', 'batch[0]: 40000 bytes > 32768', 'batch[0]', 0)`,
    ).run();
    v5.close();
    const db = openDb(file, MIGRATIONS.slice(0, 6));
    try {
      expect(schemaVersion(db)).toBe(6);
      const log = new IngestLogStore(db);
      log.logRefusal({ receivedAt: 2, sourceId: null, route: '/v1/batch', clientIp: null, httpStatus: 400, code: 'request_too_large', message: 'request: more than 512000 bytes', field: null, index: null, limit: 512000, bodyBytes: null });
      expect(log.listRefusals({ limit: 10 }).map((r) => [r.code, r.limit])).toEqual([
        ['request_too_large', 512000],
        ['message_too_large', null],
      ]);
    } finally {
      db.close();
    }
  });

  it('009 upgrades a populated version-8 database: failed deliveries already stored are found by message through the new partial index', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v8 = openDb(file, MIGRATIONS.slice(0, 8));
    for (const id of [1, 2, 3]) {
      v8.prepare(`INSERT INTO messages (id, message_id, type, received_at, status) VALUES (?, ?, 'track', 1, 'failed')`).run(id, `m${id}`);
      v8.prepare(`INSERT INTO deliveries (message_id, destination_id, destination_name, status, updated_at) VALUES (?, 'd1', 'd', ?, 1)`).run(id, id === 2 ? 'delivered' : 'failed');
    }
    v8.close();
    const db = openDb(file, MIGRATIONS.slice(0, 9));
    try {
      expect(schemaVersion(db)).toBe(9);
      const sql = `SELECT message_id FROM deliveries INDEXED BY deliveries_failed_message WHERE status = 'failed' AND message_id < 10 ORDER BY message_id DESC`;
      expect(db.prepare(sql).pluck().all()).toEqual([3, 1]);
    } finally {
      db.close();
    }
  });

  it('013 upgrades a populated version-12 database: messages an earlier check run sent become check traffic, the user\'s stay theirs', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v12 = openDb(file, MIGRATIONS.slice(0, 12));
    const deliveries: [number, string][] = [[1, 'hookbench check'], [2, 'orders'], [3, 'hookbench check (another secret)'], [4, 'hookbench send']];
    for (const [id, name] of deliveries) {
      v12.prepare(`INSERT INTO messages (id, message_id, type, received_at, status) VALUES (?, ?, 'track', 1, 'failed')`).run(id, `m${id}`);
      v12.prepare(`INSERT INTO deliveries (message_id, destination_id, destination_name, status, updated_at) VALUES (?, ?, ?, 'failed', 1)`).run(id, `d${id}`, name);
    }
    v12.close();
    const db = openDb(file, MIGRATIONS.slice(0, 13));
    try {
      expect(schemaVersion(db)).toBe(13);
      expect(db.prepare('SELECT id, origin FROM messages ORDER BY id').all()).toEqual([
        { id: 1, origin: 'check' },
        { id: 2, origin: null },
        { id: 3, origin: 'check' },
        { id: 4, origin: null },
      ]);
      const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT status, count(*) FROM messages INDEXED BY messages_origin WHERE origin IS NOT NULL GROUP BY status`).all() as { detail: string }[]).map((r) => r.detail);
      expect(plan.join(' ')).toContain('messages_origin');
    } finally {
      db.close();
    }
  });

  it('014 upgrades a populated version-13 database: failed deliveries keep their time as the real time they failed, found through the new partial index', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v13 = openDb(file, MIGRATIONS.slice(0, 13));
    for (const [id, status] of [[1, 'failed'], [2, 'delivered'], [3, 'failed']] as const) {
      v13.prepare(`INSERT INTO messages (id, message_id, type, received_at, status) VALUES (?, ?, 'track', 1, ?)`).run(id, `m${id}`, status);
      v13.prepare(`INSERT INTO deliveries (message_id, destination_id, destination_name, status, updated_at) VALUES (?, 'd1', 'd', ?, ?)`).run(id, status, id * 1000);
    }
    v13.close();
    const db = openDb(file, MIGRATIONS.slice(0, 14));
    try {
      expect(schemaVersion(db)).toBe(14);
      const sql = `SELECT message_id, failed_real_at FROM deliveries INDEXED BY deliveries_failed_real WHERE status = 'failed' AND failed_real_at >= 0 ORDER BY message_id`;
      expect(db.prepare(sql).all()).toEqual([
        { message_id: 1, failed_real_at: 1000 },
        { message_id: 3, failed_real_at: 3000 },
      ]);
    } finally {
      db.close();
    }
  });

  it('015 upgrades a populated version-14 database: what a deleted row owned goes with it by trigger, the connection enforcing no foreign key', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v14 = openDb(file, MIGRATIONS.slice(0, 14));
    v14.exec(`
      INSERT INTO sources (id, name, kind, write_key, created_at) VALUES ('src_a', 'a', 'server', 'wk_a', 1), ('src_b', 'b', 'server', 'wk_b', 1);
      INSERT INTO destinations (id, name, enabled, config, created_at, updated_at) VALUES ('dst_a', 'a', 1, '{}', 1, 1), ('dst_b', 'b', 1, '{}', 1, 1);
      INSERT INTO destination_sources (destination_id, source_id) VALUES ('dst_a', 'src_a'), ('dst_b', 'src_a'), ('dst_b', 'src_b');
      INSERT INTO source_usage (source_id, received) VALUES ('src_a', 3), ('src_b', 4);
      INSERT INTO audiences (id, source_id, kind, name, trait_key, definition, created_at) VALUES ('aud_a', 'src_a', 'audience', 'vips', 'vips', '{}', 1);
      INSERT INTO audience_state (audience_id, user_id, value) VALUES ('aud_a', 'u1', 'true');
    `);
    for (const id of [1, 2]) {
      v14.prepare(`INSERT INTO messages (id, message_id, type, received_at, status) VALUES (?, ?, 'track', 1, 'delivered')`).run(id, `m${id}`);
      v14.prepare(`INSERT INTO message_payloads (message_id, body, call) VALUES (?, x'7b7d', '{}')`).run(id);
      for (const delivery of [id * 10, id * 10 + 1]) {
        v14.prepare(`INSERT INTO deliveries (id, message_id, destination_id, destination_name, status, updated_at) VALUES (?, ?, 'dst_a', 'a', 'delivered', 1)`).run(delivery, id);
        v14.prepare(
          `INSERT INTO attempts (delivery_id, message_id, attempt_number, webhook_index, url, outcome, retryable, started_at, finished_at, duration_ms, request_headers)
           VALUES (?, ?, 1, 0, 'http://x', 'success', 0, 1, 1, 1, '{}')`,
        ).run(delivery, id);
      }
    }
    v14.close();
    const db = openDb(file, MIGRATIONS.slice(0, 15));
    try {
      expect(schemaVersion(db)).toBe(15);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(0);
      const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();

      db.prepare('DELETE FROM messages WHERE id = 1').run();
      expect([count('messages'), count('message_payloads'), count('deliveries'), count('attempts')]).toEqual([1, 1, 2, 2]);
      expect(db.prepare('SELECT DISTINCT message_id FROM attempts').pluck().all()).toEqual([2]);
      db.prepare('DELETE FROM deliveries WHERE id = 20').run();
      expect(db.prepare('SELECT delivery_id FROM attempts').pluck().all()).toEqual([21]);

      db.prepare(`DELETE FROM destinations WHERE id = 'dst_a'`).run();
      expect(db.prepare('SELECT destination_id || source_id FROM destination_sources ORDER BY 1').pluck().all()).toEqual(['dst_bsrc_a', 'dst_bsrc_b']);
      db.prepare(`DELETE FROM sources WHERE id = 'src_a'`).run();
      expect(db.prepare('SELECT destination_id || source_id FROM destination_sources').pluck().all()).toEqual(['dst_bsrc_b']);
      expect(db.prepare('SELECT source_id FROM source_usage').pluck().all()).toEqual(['src_b']);
      expect([count('audiences'), count('audience_state')]).toEqual([0, 0]);
      // Nothing was left pointing at a row that is gone.
      expect(db.pragma('foreign_key_check')).toEqual([]);

      // A delivery's attempts are found through attempts_message (there is no index by delivery), not by reading them all.
      const cascade = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'deliveries_cascade'`).pluck().get() as string;
      const statement = /DELETE FROM attempts WHERE [^;]+/.exec(cascade)![0].replaceAll(/old\.\w+/g, '?');
      expect(db.prepare(`EXPLAIN QUERY PLAN ${statement}`).all(1, 1).map((r) => (r as { detail: string }).detail)).toEqual([expect.stringContaining('USING INDEX attempts_message')]);
    } finally {
      db.close();
    }
  });

  it('010 upgrades a populated version-9 database: captures kept, linked to no attempt; new captures keep their attempt', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const v9 = openDb(file, MIGRATIONS.slice(0, 9));
    v9.prepare(
      `INSERT INTO captures (receiver, matched, listener, method, path, raw_headers, body, body_size, body_truncated, arrived_at, step, message_id)
       VALUES ('orders', 1, 'http', 'POST', '/r/orders', '[]', x'7b7d', 2, 0, 1, '{}', 'm1')`,
    ).run();
    v9.close();
    const db = openDb(file, MIGRATIONS.slice(0, 10));
    try {
      expect(schemaVersion(db)).toBe(10);
      // The store's statements are today's: they need the later migrations too.
      migrate(db);
      const captures = new ReceiverStore(db);
      expect(captures.getCapture(1)).toMatchObject({ receiver: 'orders', messageId: 'm1', attempt: null });
      const attempt = { messageRef: 7, deliveryId: 8, destinationName: null, attemptNumber: 2, webhookIndex: 0 };
      const step = { index: 0, request: 1, label: '200', action: 'respond' as const, status: 200, delayMs: 0 };
      const id = captures.insertCapture(
        { receiver: 'orders', matched: true, listener: 'http', method: 'POST', path: '/r/orders', rawHeaders: [], body: Buffer.from('{}'), bodySize: 2, bodyTruncated: false, arrivedAt: 2, remoteAddress: null, step, signature: null, messageId: 'm2', attempt, sentBy: null },
        null,
      );
      expect(captures.capturesOfMessage(7).map((c) => [c.id, c.attempt])).toEqual([[id, attempt]]);
    } finally {
      db.close();
    }
  });

  it('refuses a database from a newer Hookbench, saying so', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openDb(file)).toThrow(/newer than this Hookbench knows/);
  });

  it('a migration that fails leaves the database at the previous version', () => {
    const file = join(newDataDir(), 'hookbench.db');
    const broken = [...MIGRATIONS, { version: MIGRATIONS.length + 1, name: 'broken', up: 'CREATE TABLE t (x); SELECT nope FROM nowhere;' }];
    expect(() => openDb(file, broken)).toThrow();
    const db = new Database(file);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 't'`).get()).toEqual({ n: 0 });
    db.close();
  });
});
