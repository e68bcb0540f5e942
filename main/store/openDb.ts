import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/types.js';
import { HookbenchError } from '../contract/result.js';
import { checkAtOpen, corruptionError, headerProblem, openFailure, readOnlyProblem } from './integrity.js';

export type Db = Database.Database;

/**
 * Open (or create) the database in WAL mode, check it (store/integrity.ts: a damaged file is refused before
 * anything is written to it) and bring it to the newest schema. Every error names the file.
 */
export function openDb(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  const header = headerProblem(file);
  if (header) throw new HookbenchError(corruptionError(file, header));
  const readOnly = readOnlyProblem(file);
  if (readOnly) throw new HookbenchError(readOnly);
  let db: Db | null = null;
  try {
    ownerOnly(file);
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a commit survives a process crash; only an OS crash may lose the last transactions.
    db.pragma('synchronous = NORMAL');
    // Declared, not enforced (better-sqlite3 turns enforcement on): a parent lookup for every row inserted, and
    // cascades that scanned attempts; triggers do the cascades (migration 015).
    db.pragma('foreign_keys = OFF');
    db.pragma('busy_timeout = 5000');
    // Checkpoints run on the background thread (app/checkpoints.ts); the engine's own automatic one is
    // only the backstop, rarely reached.
    db.pragma('wal_autocheckpoint = 20000');
    // better-sqlite3's default page cache is 16 MB; the engine's hot pages (due deliveries, the newest
    // messages) fit in 4 MB, and the OS caches the file besides (the benches measure no difference).
    db.pragma('cache_size = -4096');
    checkAtOpen(db, file);
    migrate(db, migrations);
    return db;
  } catch (e) {
    try {
      db?.close();
    } catch {
      // closing a connection that failed to open: nothing more to say
    }
    throw openFailure(file, e);
  }
}

/**
 * docs/behaviour.md §9 Files: the database holds secrets, so it and its `-wal`/`-shm` files are 0600 whatever
 * the umask. The file is created 0600 before SQLite opens it, and SQLite gives the `-wal` and `-shm` files it
 * creates later the database file's mode; files left 0644 by an older Hookbench are tightened here.
 */
function ownerOnly(file: string): void {
  if (process.platform === 'win32' || file === ':memory:' || file === '') return;
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch {
      // not there yet (SQLite creates it with the database's mode), or not ours to change: the 0700 folder still guards it
    }
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  let current = schemaVersion(db);
  const newest = migrations.at(-1)?.version ?? 0;
  if (current > newest) {
    throw new Error(`database schema version ${current} is newer than this Hookbench knows (${newest}); upgrade Hookbench`);
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    if (m.version !== current + 1) throw new Error(`migration ${m.version} follows ${current}: numbers must be consecutive`);
    db.transaction(() => {
      if (typeof m.up === 'string') db.exec(m.up);
      else m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
    current = m.version;
  }
  return current;
}
