/**
 * `hookbench doctor [--data-dir DIR] [--move-aside]`: checks a data dir's database fully (SQLite's
 * integrity_check, read-only: a running serve may keep running) and says how to recover from what it finds
 * (docs/behaviour.md §10). `--move-aside` renames a database and its -wal/-shm files out of the way, so
 * that the next start begins a fresh one; it refuses while a Hookbench process holds the data dir.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HookbenchError } from '../../contract/result.js';
import { lockDataDir, resolveDataDir } from '../../app/dataDir.js';
import { headerProblem } from '../../store/integrity.js';
import { EXIT, type CliIO } from '../io.js';

export interface DoctorOptions {
  dataDir?: string | undefined;
  moveAside?: boolean | undefined;
}

const DB_FILE = 'hookbench.db';
/** Problems listed at most (integrity_check stops there). */
const MAX_PROBLEMS = 100;

export function runDoctor(options: DoctorOptions, io: CliIO): number {
  const dir = resolveDataDir(options.dataDir);
  const file = join(dir, DB_FILE);
  return options.moveAside ? moveAside(dir, file, io) : check(dir, file, io);
}

function check(dir: string, file: string, io: CliIO): number {
  const out = (line = '') => io.stdout(`${line}\n`);
  if (!existsSync(file)) {
    out(`no database at ${file}: nothing to check (Hookbench creates one when it first starts with --data-dir ${dir})`);
    return EXIT.failed;
  }
  out(file);
  const size = statSync(file).size;
  let problems: string[];
  const header = headerProblem(file);
  let facts = `${formatBytes(size)}`;
  let tookMs = 0;
  if (header) {
    problems = [header];
  } else {
    let db: Database.Database | null = null;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const pages = db.pragma('page_count', { simple: true }) as number;
      facts += `, ${pages.toLocaleString('en-US')} pages of ${pageSize} bytes, schema version ${String(db.pragma('user_version', { simple: true }))}`;
      const started = performance.now();
      problems = (db.pragma(`integrity_check(${MAX_PROBLEMS})`, { simple: false }) as { integrity_check: string }[]).map((r) => r.integrity_check).filter((m) => m !== 'ok');
      tookMs = performance.now() - started;
    } catch (e) {
      const code = (e as { code?: string }).code;
      problems = [code === 'SQLITE_NOTADB' ? 'it is not a database (SQLite: file is not a database)' : `it cannot be read: ${e instanceof Error ? e.message : String(e)}${code ? ` (${code})` : ''}`];
    } finally {
      db?.close();
    }
  }
  out(`  ${facts}`);
  if (problems.length === 0) {
    out(`  integrity check: ok (${Math.round(tookMs)} ms)`);
    return EXIT.ok;
  }
  out(`  integrity check: the database is damaged (${problems.length}${problems.length >= MAX_PROBLEMS ? '+' : ''} problem${problems.length === 1 ? '' : 's'}):`);
  for (const p of problems.slice(0, 20)) out(`    - ${p}`);
  if (problems.length > 20) out(`    - ... and ${problems.length - 20} more`);
  out();
  out('How to recover:');
  out('  1. Stop Hookbench (hookbench serve or the app) if it runs on this data dir.');
  out(`  2. Move the damaged files aside: hookbench doctor --data-dir ${dir} --move-aside`);
  out(`     (${DB_FILE} and its -wal and -shm files are renamed to ${DB_FILE}.damaged-<time>); the next start begins a fresh, empty database.`);
  out('  3. To salvage what the damaged file still holds, with the sqlite3 command-line shell:');
  out(`     sqlite3 ${dir}/${DB_FILE}.damaged-<time> ".recover" | sqlite3 salvaged.db`);
  out('     then look through salvaged.db (messages, message_payloads, deliveries, attempts); configuration can be re-applied with serve --config.');
  return EXIT.failed;
}

function moveAside(dir: string, file: string, io: CliIO): number {
  if (!existsSync(file)) {
    io.stderr(`hookbench doctor: no database at ${file}: nothing to move\n`);
    return EXIT.failed;
  }
  let lock;
  try {
    lock = lockDataDir(dir);
  } catch (e) {
    const message = e instanceof HookbenchError ? e.error.message : e instanceof Error ? e.message : String(e);
    io.stderr(`hookbench doctor: ${message}; stop it before moving its database aside\n`);
    return EXIT.failed;
  }
  try {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const target = `${file}.damaged-${stamp}`;
    // The -wal and -shm files keep SQLite's naming (<db>-wal), so the moved database opens with its journal.
    for (const suffix of ['', '-wal', '-shm']) {
      if (!existsSync(`${file}${suffix}`)) continue;
      renameSync(`${file}${suffix}`, `${target}${suffix}`);
      io.stdout(`moved ${file}${suffix} -> ${target}${suffix}\n`);
    }
    io.stdout(`the next start on ${dir} begins a fresh database; the old one is kept at ${target}\n`);
    return EXIT.ok;
  } catch (e) {
    io.stderr(`hookbench doctor: could not move ${file} aside (${e instanceof Error ? e.message : String(e)})\n`);
    return EXIT.failed;
  } finally {
    lock.release();
  }
}

function formatBytes(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} bytes`;
}
