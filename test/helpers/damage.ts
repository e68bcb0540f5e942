/** Damaged databases for the hardening tests. */
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, mkdirSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../../main/app/createCore.js';

export const dbFileOf = (dataDir: string) => join(dataDir, 'hookbench.db');

/** A data dir whose hookbench.db is not a SQLite file at all. */
export function notADatabase(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(dbFileOf(dataDir), 'this is not a SQLite database. '.repeat(200));
  return dbFileOf(dataDir);
}

/**
 * A data dir with a real Hookbench database whose `table`'s root page is overwritten with garbage.
 * `fillBytes` adds that many bytes of payload rows first (to make the file large).
 */
export async function damagedTable(dataDir: string, table: string, fillBytes = 0): Promise<string> {
  const core = createCore({ dataDir, autoStart: false });
  for (let i = 0; i < 50; i++) core.sendMessage({ type: 'track', call: { userId: `u${i}`, event: 'Before', properties: { pad: 'x'.repeat(200) } } });
  await core.close();
  const file = dbFileOf(dataDir);
  const db = new Database(file);
  db.pragma('foreign_keys = OFF'); // payload rows without their message: only their size matters here
  if (fillBytes > 0) {
    const row = db.prepare('INSERT INTO message_payloads (message_id, body, call) VALUES (?, ?, ?)');
    const blob = Buffer.alloc(1 << 20, 0x61);
    db.transaction(() => {
      for (let i = 0; i < Math.ceil(fillBytes / blob.length); i++) row.run(1_000_000 + i, blob, '{}');
    })();
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  const root = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').pluck().get(table) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
  return file;
}

/**
 * The state a checkpoint leaves when the disk fills during it: the main file's header already counts every
 * page, the file was not extended to hold them, and the WAL still holds them all (SQLite reads them from
 * there). A data dir at `to`, copied from a live `from` as a crash would leave it.
 */
export async function checkpointCutShort(from: string, to: string, messages: number): Promise<string> {
  const core = createCore({ dataDir: from, autoStart: false });
  for (let i = 0; i < messages; i++) core.sendMessage({ type: 'track', call: { userId: `u${i}`, event: 'Before', properties: { pad: 'x'.repeat(400) } } });
  await core.close();
  const db = new Database(dbFileOf(from));
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('foreign_keys = OFF');
  const row = db.prepare('INSERT INTO message_payloads (message_id, body, call) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 200; i++) row.run(1_000_000 + i, Buffer.alloc(2000, 0x61), '{}');
  })();
  mkdirSync(to, { recursive: true });
  copyFileSync(dbFileOf(from), dbFileOf(to));
  copyFileSync(`${dbFileOf(from)}-wal`, `${dbFileOf(to)}-wal`);
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.close();
  const fd = openSync(dbFileOf(to), 'r+');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    header.writeUInt32BE(pages, 28);
    writeSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  return dbFileOf(to);
}

/** The tables `hookbench doctor --salvage` copies (main/store/salvage.ts), counted. */
export function rowCounts(file: string, tables: readonly string[]): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]));
  } finally {
    db.close();
  }
}

/**
 * A data dir whose database holds `messages` delivered messages (each with its payload, delivery, attempt and
 * the mock receiver's capture) and a row or more in each configuration table, then has `pages` consecutive
 * pages in the middle of the file overwritten with garbage, as a failing disk leaves it, from a page of
 * messages on. Returns the file and the rows each table held before the damage. Each message's properties
 * hold `needle-<n>`, a word of its own.
 */
export async function populatedThenDamaged(dataDir: string, tables: readonly string[], messages = 3000, pages = 12): Promise<{ file: string; before: Record<string, number> }> {
  const core = createCore({ dataDir });
  const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  try {
    await core.receivers.start({ host: '127.0.0.1', port: 0, tlsPort: null });
    must(core.createReceiver({ name: 'inbox', secret: 'salvage-secret', script: 200 }));
    must(core.createSource({ name: 'web', kind: 'web' }));
    must(core.createDestination({ name: 'd', enabled: true, sources: ['web'], url: 'receiver:inbox', sharedSecret: 'salvage-secret' }));
    core.apiToken();
    for (let sent = 0; sent < messages; sent += 250) {
      const batch = Array.from({ length: Math.min(250, messages - sent) }, (_, i) => {
        const n = sent + i;
        return { type: n % 10 === 0 ? ('identify' as const) : ('track' as const), source: 'web', call: { userId: `user-${n % 97}`, event: 'Order Completed', traits: { plan: 'pro' }, properties: { note: `needle-${n} ${'x'.repeat(300)}` } } };
      });
      must(core.sendMessages({ messages: batch }));
      await core.idle();
    }
    must(core.createAudience({ source: 'web', name: 'Kept', members: ['user-1', 'user-2'] }));
    must(core.createDeletionRequest({ userId: 'user-3' }));
    await core.idle();
  } finally {
    await core.close();
  }
  const file = dbFileOf(dataDir);
  const db = new Database(file);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const count = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  // From the first page of messages past the middle: the damage costs messages, and so leaves rows without their parent.
  const first = db.prepare("SELECT min(pageno) FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf' AND pageno >= ?").pluck().get(Math.floor(count / 2)) as number;
  db.close();
  const before = rowCounts(file, tables);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(pages * pageSize, 0xab), 0, pages * pageSize, (first - 1) * pageSize);
  closeSync(fd);
  return { file, before };
}
