/** Damaged databases for the hardening tests (issue 13, defect 5). */
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createCore } from '../../main/engine/createCore.js';

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
