import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../main/store/migrations/index.js';
import { migrate, openDb, schemaVersion } from '../../main/store/openDb.js';
import { Store } from '../../main/store/store.js';
import { newDataDir } from '../helpers/harness.js';

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
