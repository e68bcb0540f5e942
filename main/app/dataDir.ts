import Database from 'better-sqlite3';
import { chmodSync, mkdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HookbenchError } from '../contract/result.js';

export const APP_NAME = 'Hookbench';

/**
 * docs/behaviour.md §10: `--data-dir DIR`, else `$HOOKBENCH_DATA`, else the per-user app-data folder named Hookbench
 * (the same folder Electron uses as userData for that product name).
 */
export function resolveDataDir(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (explicit) return explicit;
  if (env['HOOKBENCH_DATA']) return env['HOOKBENCH_DATA'];
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), APP_NAME);
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), APP_NAME);
}

/** Creates the folder with mode 0700 (it holds secrets) and tightens an existing one. */
export function ensureDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.platform !== 'win32') chmodSync(dir, 0o700);
  } catch (e) {
    throw unusableDataDir(dir, e);
  }
}

/**
 * One line for a data dir the file system refuses (read-only, another user's, not a folder): what and why,
 * and the way out. Docs: docs/behaviour.md §10.
 */
export function unusableDataDir(dir: string, e: unknown): HookbenchError {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  const full = code === 'ENOSPC' || code === 'SQLITE_FULL';
  const why = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'permission denied' : code === 'ENOTDIR' || code === 'EEXIST' ? 'not a folder' : full ? 'the disk is full' : (e as Error).message;
  return new HookbenchError({
    code: 'unavailable',
    message: full
      ? `data dir ${dir} cannot be used (${why}, ${code}): free disk space there, then start again; or choose another data dir with --data-dir`
      : `data dir ${dir} cannot be used (${why}${code ? `, ${code}` : ''}): it must be a folder this user can write to; fix its permissions or choose another with --data-dir`,
  });
}

export interface DataDirLock {
  readonly file: string;
  /**
   * Whether this process still holds the data dir: false once hookbench.lock was deleted or replaced under it
   * and another process took the new one (it is taken again when nobody has).
   */
  check(): { ok: true } | { ok: false; message: string };
  release(): void;
}

/** `<data>/server.json`: how other commands, scripts and the desktop shell find a running serve. */
export const SERVER_INFO_FILE = 'server.json';
export const LOCK_FILE = 'hookbench.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a running serve wrote in server.json, when it is alive and not this process. */
function liveServePid(dir: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(join(dir, SERVER_INFO_FILE), 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid !== process.pid && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

const locked = (dir: string, pid: number | null, how = ''): HookbenchError =>
  new HookbenchError({
    code: 'data_dir_locked',
    message:
      pid === process.pid
        ? `data dir ${dir} is already open in this process (pid ${pid})`
        : `data dir ${dir} is in use by another Hookbench process${pid !== null ? ` (pid ${pid})` : ''}${how}; stop it or choose another data dir`,
    ...(pid !== null ? { value: pid } : {}),
  });

/** Open lock files of this process, by path: a second open in one process is refused, as in another. */
const heldHere = new Set<string>();

/** The file's identity: a deleted and re-created lock file is another file. */
function inodeOf(file: string): string | null {
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/**
 * Versions before this lock wrote their pid as text: such a file is refused while that pid runs (an older
 * Hookbench may), and otherwise removed (left by a crash, or its pid now someone else's).
 */
function takeOverLegacyLock(dir: string, file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch {
    return; // none
  }
  if (text.startsWith('SQLite format 3\0') || text.length === 0) return;
  const pid = /^\s*(\d+)\s*$/.exec(text) ? Number(text.trim()) : null;
  if (pid !== null && pid !== process.pid && isAlive(pid)) throw locked(dir, pid, ' (an older Hookbench, by its lock file)');
  try {
    unlinkSync(file);
  } catch (e) {
    throw unusableDataDir(dir, e);
  }
}

/** The pid the lock file names, or null when it names none or cannot be read. */
function holderPid(db: Database.Database): number | null {
  try {
    return (db.prepare('SELECT pid FROM holder').pluck().get() as number | undefined) ?? null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock file's write lock and writes this pid in it for others to read; false when another process
 * holds it. The pid is committed, then the lock taken again at once: a process that slips in between holds it
 * instead, and this one says so, so never both.
 */
function takeLock(db: Database.Database): boolean {
  const busy = (e: unknown) => (e as { code?: string }).code === 'SQLITE_BUSY';
  try {
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL)');
    db.exec('BEGIN IMMEDIATE');
  } catch (e) {
    if (busy(e)) return false;
    throw e;
  }
  db.prepare('DELETE FROM holder').run();
  db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
  db.exec('COMMIT');
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (e) {
    if (busy(e)) return false;
    throw e;
  }
  return true;
}

/**
 * One engine process per data dir, held by a lock the operating system releases when the process ends, however
 * it ends: `hookbench.lock` is a small SQLite file whose write lock (a reserved lock, taken with BEGIN
 * IMMEDIATE and never committed) this process keeps while it runs. A crash leaves nothing to clean up, and a
 * pid reused by an unrelated process (after a reboot, pid 1 in a container) does not hold it. The holder's pid
 * is in the file for the message; others can read it while the lock is held.
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = join(dir, LOCK_FILE);
  if (heldHere.has(file)) throw locked(dir, process.pid);
  takeOverLegacyLock(dir, file);
  const existed = inodeOf(file) !== null;
  let db: Database.Database;
  try {
    db = new Database(file, { timeout: 0 });
  } catch (e) {
    throw unusableDataDir(dir, e);
  }
  try {
    if (!takeLock(db)) {
      const pid = holderPid(db);
      db.close();
      throw locked(dir, pid);
    }
  } catch (e) {
    if (db.open) db.close();
    if (e instanceof HookbenchError) throw e;
    throw unusableDataDir(dir, e);
  }
  // A lock file deleted under a running serve leaves nothing to refuse a second one: the serve's server.json does.
  const serve = existed ? null : liveServePid(dir);
  if (serve !== null) {
    db.close();
    throw locked(dir, serve, ' (its hookbench.lock was deleted)');
  }
  try {
    chmodSync(file, 0o600);
  } catch {
    // not ours to tighten (another user's file would not have opened)
  }
  heldHere.add(file);
  let inode = inodeOf(file);
  let released = false;
  return {
    file,
    check() {
      if (released || inodeOf(file) === inode) return { ok: true };
      // Deleted or replaced under us: take the new one, unless another process has.
      let other: Database.Database | null = null;
      let taken = false;
      try {
        other = new Database(file, { timeout: 0 });
        taken = takeLock(other);
      } catch {
        taken = false;
      }
      if (!taken) {
        const pid = other ? holderPid(other) : null;
        other?.close();
        return { ok: false, message: `${file} was deleted or replaced, and another Hookbench process${pid !== null ? ` (pid ${pid})` : ''} now holds data dir ${dir}: two engines share its database; stop one of them` };
      }
      db.close();
      db = other!;
      inode = inodeOf(file);
      return { ok: true };
    },
    release() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      // The file stays: removing it could let a process that opened it meanwhile hold a file no longer there.
      if (db.open) db.close();
    },
  };
}
