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
