/**
 * Whether the database can still keep what it is given (docs/behaviour.md §10). Two things break that
 * silently and are checked here:
 *
 * - The file is deleted or replaced while Hookbench runs. SQLite keeps writing through its open handle, to a
 *   file no restart will find: every 200 after that would be a lie. The path's device and inode are compared
 *   with those the database was opened with: one stat() call, cheap, made once per ingestion
 *   commit and per typed-API write, and every second by `watch` when idle; never once per message.
 * - The file is damaged: checked at open (checkAtOpen; the full check of a large file runs on the
 *   background thread), by `hookbench doctor`, and by the corruption errors met while running.
 *
 * Once a problem is found it stays: writes are refused (`unavailable`, HTTP 503) with a message that names
 * the file and the way out, and listeners (serve's log) hear it once.
 */
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HookbenchError, type ApiError } from '../contract/result.js';
import type { Db } from './openDb.js';

interface Identity {
  dev: number;
  ino: number;
}

function identityOf(file: string): Identity | 'gone' | null {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    return st ? { dev: st.dev, ino: st.ino } : 'gone';
  } catch {
    return null; // not readable (e.g. permissions): cannot tell
  }
}

export class DbHealth {
  private readonly identity: Identity | null;
  private failure: ApiError | null = null;
  private lastWriteFailureLog = Number.NEGATIVE_INFINITY;
  private readonly listeners = new Set<(error: ApiError) => void>();

  constructor(readonly file: string) {
    const id = identityOf(file);
    this.identity = typeof id === 'object' ? id : null;
  }

  /** The problem in force, if any. No system call: safe on every request. */
  get problem(): ApiError | null {
    return this.failure;
  }

  private readonly checks: (() => ApiError | null)[] = [];

  /** Another check verify() makes each time (the data dir's lock: main/app/dataDir.ts). */
  addCheck(check: () => ApiError | null): void {
    this.checks.push(check);
  }

  /** Checks that the file at the path is still the one open (one stat call); returns the problem, if any. */
  verify(): ApiError | null {
    if (this.failure) return this.failure;
    for (const check of this.checks) {
      const problem = check();
      if (problem) this.fail(problem);
    }
    if (this.failure || !this.identity) return this.failure;
    const now = identityOf(this.file);
    if (now === 'gone') {
      this.fail({
        code: 'unavailable',
        message: `database file ${this.file} was deleted while Hookbench was running: nothing more can be stored, so writes are refused. Stop Hookbench and start it again to begin a new database (or restore the file first).`,
      });
    } else if (now && (now.dev !== this.identity.dev || now.ino !== this.identity.ino)) {
      this.fail({
        code: 'unavailable',
        message: `database file ${this.file} was replaced by another file while Hookbench was running: writes are refused so that nothing goes to the old one. Restart Hookbench to open the file that is there now.`,
      });
    }
    return this.failure;
  }

  /** Records a problem (the first one stands) and tells the listeners. */
  fail(error: ApiError): void {
    if (this.failure) return;
    this.failure = error;
    for (const listener of this.listeners) {
      try {
        listener(error);
      } catch (e) {
        console.error('hookbench: a database health listener failed', e);
      }
    }
  }

  /**
   * A write that could not be kept while the file is sound (isWriteFailure: a full disk): the refusal to answer
   * with. Not a lasting problem; said in the log at most once every 10 s, as every request fails alike.
   */
  writeFailed(e: unknown): ApiError {
    const error = writeFailureError(this.file, e);
    const now = Date.now();
    if (now - this.lastWriteFailureLog >= 10_000) {
      this.lastWriteFailureLog = now;
      console.error(`hookbench: ${error.message}`);
    }
    return error;
  }

  /** Hears the first problem (at once if there already is one); returns the unsubscribe function. */
  onFailure(listener: (error: ApiError) => void): () => void {
    if (this.failure) {
      listener(this.failure);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Verifies every `intervalMs` (an unref'd timer), so that a problem is noticed while idle too. */
  watch(intervalMs = 1000): () => void {
    const timer = setInterval(() => {
      if (this.verify()) clearInterval(timer);
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** The database's file name in a data dir. */
export const DATABASE_FILE = 'hookbench.db';

/** SQLite result codes that mean the file is damaged (extended codes start with these). */
export function isCorruptionError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * SQLite result codes that mean this write could not be kept, while the file itself is sound: the disk is full
 * (SQLITE_FULL), or the file could not be written (I/O error, read-only). Unlike damage, these pass: each write
 * is refused on its own (503, `unavailable`), and writes are taken again once there is room.
 */
export function isWriteFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY'));
}

/** The refusal for a write that could not be kept (isWriteFailure): names the file, the cause and what to do. */
export function writeFailureError(file: string, e: unknown): ApiError {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const detail = e instanceof Error ? e.message : String(e);
  const cause =
    code === 'SQLITE_FULL'
      ? `could not grow: the disk is full (SQLite: ${detail})`
      : code.startsWith('SQLITE_READONLY')
        ? `is read-only (SQLite: ${detail})`
        : `could not be written (SQLite: ${detail})`;
  return {
    code: 'unavailable',
    message: `database file ${file} ${cause}. Nothing of this request was stored; send it again once there is room (free disk space, or use another --data-dir).`,
  };
}

/** The refusal for a damaged database: names the file and the way out. */
export function corruptionError(file: string, detail: string): ApiError {
  return {
    code: 'unavailable',
    message: `database file ${file} is damaged (${detail}): Hookbench will not write to it. Run \`hookbench doctor --data-dir ${dirOf(file)}\` for the full check; with Hookbench stopped, \`--salvage\` copies what the file still holds into a fresh database and keeps the damaged one aside.`,
  };
}

/** The refusal for a database that cannot be written because its disk is full: names the file, its data dir and the way out. */
export function diskFullError(file: string, detail: string): ApiError {
  return {
    code: 'unavailable',
    message: `database file ${file} cannot be written: the disk is full (${detail}). Free disk space where the data dir ${dirOf(file)} is, then start again; or start on another data dir with --data-dir.`,
  };
}

function dirOf(file: string): string {
  const i = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return i > 0 ? file.slice(0, i) : '.';
}

// ---------------------------------------------------------------- checks

/**
 * Files up to this size get SQLite's whole quick_check when opened; larger ones get their configuration
 * tables checked at open and the whole check on the background thread, so that start stays fast: the check
 * reads every page, and its cost grows with the file (quick_check(N) bounds the errors reported, not the
 * pages read). At this size it is short even with the file not in the OS page cache.
 */
export const FULL_CHECK_AT_OPEN_BYTES = 16 * 1024 * 1024;

/** The tables a start needs sound (small: configuration, not history). */
const CONFIG_TABLES = ['settings', 'sources', 'destinations', 'destination_sources', 'receivers', 'audiences', 'source_usage', 'deletion_requests'];

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * What is visibly wrong with the file's 100-byte header, or null (also for a missing or empty file: SQLite
 * makes a new database there). Catches a file that is not a database and one cut short.
 */
export function headerProblem(file: string): string | null {
  let size: number;
  const header = Buffer.alloc(100);
  let read = 0;
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st || st.size === 0) return null;
    size = st.size;
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, header, 0, 100, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null; // unreadable: opening it says why
  }
  if (read < 100 || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) return 'it is not a database: it does not start with the SQLite header';
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return `its header gives an invalid page size (${raw})`;
  // The page count in the header is valid when the change counter matches "version-valid-for".
  if (header.readUInt32BE(24) === header.readUInt32BE(92)) {
    const pages = header.readUInt32BE(28);
    // A checkpoint that hit a full disk leaves exactly this (the header written, the file not extended) while
    // the WAL still holds every page: SQLite reads them from there, so only a file without a WAL to complete
    // it is cut short. Real damage behind a WAL is still found: quick_check runs at open.
    if (pages * pageSize > size && !walCompletes(file)) return `it is cut short: its header counts ${pages} pages of ${pageSize} bytes, the file holds ${size} bytes`;
  }
  return null;
}

/** Whether a WAL beside `file` holds frames (more than its 32-byte header). */
function walCompletes(file: string): boolean {
  const wal = statSync(`${file}-wal`, { throwIfNoEntry: false });
  return wal !== undefined && wal.size > 32;
}

/** SQLite's quick_check of the whole database (at most `maxErrors` problems) or of one table: the problems, none when sound. */
export function quickCheck(db: Db, table?: string, maxErrors = 20): string[] {
  const pragma = table === undefined ? `quick_check(${maxErrors})` : `quick_check("${table.replace(/"/g, '""')}")`;
  return (db.pragma(pragma, { simple: false }) as { quick_check: string }[]).map((r) => r.quick_check).filter((m) => m !== 'ok');
}

/** The page cache, in KiB, of a connection that reads each page once: a checkpoint, an integrity check. */
export const ONE_PASS_CACHE_KIB = 256;

/**
 * A read-only connection of its own for a check while running. Its page cache is small: quick_check reads
 * every page once, and better-sqlite3's 16 MB default filled up on each check of a large file, for nothing.
 */
export function openForCheck(file: string): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 1000');
    db.pragma(`cache_size = -${ONE_PASS_CACHE_KIB}`);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/** Whether this file is large enough for its full check to run in the background (see FULL_CHECK_AT_OPEN_BYTES). */
export function checksInBackground(file: string): boolean {
  try {
    return (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > FULL_CHECK_AT_OPEN_BYTES;
  } catch {
    return false;
  }
}

/** What the background thread posts after the background check. */
export interface IntegrityReport {
  type: 'integrity';
  problems: string[];
}

/** Applies a background check's report (any message of the background thread may come here). */
export function applyIntegrityReport(health: DbHealth, message: unknown): void {
  const m = message as Partial<IntegrityReport> | null;
  if (m?.type !== 'integrity' || !Array.isArray(m.problems) || m.problems.length === 0) return;
  health.fail(corruptionError(health.file, `integrity check: ${summarise(m.problems)}`));
}

/** At open, before anything is written: throws a HookbenchError naming the file when it is damaged. */
export function checkAtOpen(db: Db, file: string): void {
  const problems = checkProblems(() => {
    if (!checksInBackground(file)) return quickCheck(db);
    const tables = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]);
    return CONFIG_TABLES.filter((t) => tables.has(t)).flatMap((t) => quickCheck(db, t));
  });
  if (problems.length > 0) throw new HookbenchError(corruptionError(file, `integrity check: ${summarise(problems)}`));
}

/**
 * The problems a check reports. A page too damaged to read makes the check itself fail (SQLITE_CORRUPT:
 * "database disk image is malformed"): that is one problem too. Other errors (I/O, permissions) propagate.
 */
export function checkProblems(check: () => string[]): string[] {
  try {
    return check();
  } catch (e) {
    if (isCorruptionError(e)) return [(e as Error).message];
    throw e;
  }
}

/** A few problems in one line. */
export function summarise(problems: readonly string[]): string {
  const shown = problems.slice(0, 2).join('; ');
  return problems.length > 2 ? `${shown}; and ${problems.length - 2} more problems` : shown;
}

/**
 * A database file this process may not write (SQLite would open it read-only and fail at the first write
 * with "attempt to write a readonly database", naming nothing): the refusal, or null.
 */
export function readOnlyProblem(file: string): ApiError | null {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      accessSync(path, constants.W_OK);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue;
      return {
        code: 'unavailable',
        message: `database file ${path} is read-only for this user (${code ?? String(e)}): Hookbench needs to write to it; fix its permissions (and those of the data dir ${dirOf(file)}) or choose another data dir with --data-dir`,
      };
    }
  }
  return null;
}

/**
 * An error met while opening the database, as one clear line naming the file: damaged, not a database, not
 * writable. Anything else is returned as it is.
 */
export function openFailure(file: string, e: unknown): unknown {
  if (e instanceof HookbenchError) return e;
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const message = e instanceof Error ? e.message : String(e);
  if (isCorruptionError(e)) {
    return new HookbenchError(corruptionError(file, code === 'SQLITE_NOTADB' ? 'it is not a database (SQLite: file is not a database)' : `SQLite: ${message}`));
  }
  if (code === 'SQLITE_FULL') return new HookbenchError(diskFullError(file, `SQLite: ${message}`));
  if (/^(SQLITE_(CANTOPEN|READONLY|PERM|IOERR|FULL|AUTH)|E(ACCES|PERM|ROFS|NOENT|NOSPC))/.test(code)) {
    return new HookbenchError({
      code: 'unavailable',
      message: `cannot use database file ${file} (${message}): the data dir ${dirOf(file)} must exist and be writable by this user, on a disk with free space; fix that or choose another data dir with --data-dir`,
    });
  }
  return e;
}

/**
 * An error met while starting on a data dir (opening the database, the reads and writes a start makes, a
 * config file applied), as one line naming the database file and the way out; anything else as it is.
 * SQLite's own words name no file ("database disk image is malformed", "database or disk is full").
 */
export function startFailure(dataDir: string, e: unknown): unknown {
  if (e instanceof HookbenchError) return e;
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  if (code === 'ENOSPC') {
    return new HookbenchError({
      code: 'unavailable',
      message: `the disk that holds the data dir ${dataDir} is full (${e instanceof Error ? e.message : code}). Free disk space there, then start again; or start on another data dir with --data-dir.`,
    });
  }
  return code.startsWith('SQLITE_') ? openFailure(join(dataDir, DATABASE_FILE), e) : e;
}
