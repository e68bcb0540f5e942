/**
 * `hookbench doctor [--data-dir DIR] [--move-aside | --salvage]`: checks a data dir's database fully (SQLite's
 * integrity_check, read-only: a running serve may keep running) and says how to recover from what it finds
 * (docs/behaviour.md §10). `--move-aside` renames a database and its -wal/-shm files out of the way, so
 * that the next start begins a fresh one; `--salvage` does the same, then copies what the moved file still
 * holds into a fresh database in its place (store/salvage.ts). Both refuse while a Hookbench process holds
 * the data dir.
 */
import Database from 'better-sqlite3';
import { existsSync, renameSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HookbenchError } from '../../contract/result.js';
import { lockDataDir, resolveDataDir, type DataDirLock } from '../../app/dataDir.js';
import { DATABASE_FILE, headerProblem } from '../../store/integrity.js';
import { openDamaged, salvageInto, type SalvagedTable, type TableSalvage } from '../../store/salvage.js';
import { EXIT, type CliIO } from '../io.js';

export interface DoctorOptions {
  dataDir?: string | undefined;
  moveAside?: boolean | undefined;
  salvage?: boolean | undefined;
}

const DB_FILE = DATABASE_FILE;
/** Problems listed at most (integrity_check stops there). */
const MAX_PROBLEMS = 100;

export function runDoctor(options: DoctorOptions, io: CliIO): number {
  const dir = resolveDataDir(options.dataDir);
  const file = join(dir, DB_FILE);
  if (options.moveAside && options.salvage) {
    io.stderr('hookbench doctor: give --move-aside or --salvage, not both (--salvage moves the files aside too)\n');
    return EXIT.usage;
  }
  if (options.salvage) return salvage(dir, file, io);
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
  out(`  2. Salvage what the file still holds: hookbench doctor --data-dir ${dir} --salvage`);
  out(`     (${DB_FILE} and its -wal and -shm files are renamed to ${DB_FILE}.damaged-<time>, a fresh database is made in their place,`);
  out('     and every row that can still be read is copied into it, table by table; it says how many of each came back).');
  out(`  Or start over, keeping nothing: hookbench doctor --data-dir ${dir} --move-aside (the next start begins a fresh, empty database).`);
  return EXIT.failed;
}

/** Takes the data dir's lock for `action` (what the refusal says it waits for), or says who holds it: null then. */
function withLock(dir: string, action: string, io: CliIO): DataDirLock | null {
  try {
    return lockDataDir(dir);
  } catch (e) {
    const message = e instanceof HookbenchError ? e.error.message : e instanceof Error ? e.message : String(e);
    const held = e instanceof HookbenchError && e.error.code === 'data_dir_locked';
    // "Choose another data dir" is the way out for a start, not for repairing this one: only stopping it is.
    const said = held ? `${message.replace(/; stop it or choose another data dir$/, '')}; stop it before ${action} (hookbench doctor without --move-aside or --salvage checks it while it runs)` : message;
    io.stderr(`hookbench doctor: ${said}\n`);
    return null;
  }
}

/** Renames the database and its -wal and -shm files to `<file>.damaged-<time>`, saying each; returns that name. */
function moveFilesAside(file: string, io: CliIO): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.damaged-${stamp}`;
  // The -wal and -shm files keep SQLite's naming (<db>-wal), so the moved database opens with its journal.
  for (const suffix of ['', '-wal', '-shm']) {
    if (!existsSync(`${file}${suffix}`)) continue;
    renameSync(`${file}${suffix}`, `${target}${suffix}`);
    io.stdout(`moved ${file}${suffix} -> ${target}${suffix}\n`);
  }
  return target;
}

function moveAside(dir: string, file: string, io: CliIO): number {
  if (!existsSync(file)) {
    io.stderr(`hookbench doctor: no database at ${file}: nothing to move\n`);
    return EXIT.failed;
  }
  const lock = withLock(dir, 'moving its database aside', io);
  if (!lock) return EXIT.failed;
  try {
    const target = moveFilesAside(file, io);
    io.stdout(`the next start on ${dir} begins a fresh database; the old one is kept at ${target}\n`);
    return EXIT.ok;
  } catch (e) {
    io.stderr(`hookbench doctor: could not move ${file} aside (${e instanceof Error ? e.message : String(e)})\n`);
    return EXIT.failed;
  } finally {
    lock.release();
  }
}

/** What a lost parent of each table's rows is called. */
const PARENT: Partial<Record<SalvagedTable, string>> = {
  destination_sources: 'destination or source',
  message_payloads: 'message',
  deliveries: 'message',
  attempts: 'delivery',
  source_usage: 'source',
  audiences: 'source',
  audience_state: 'audience',
};

function tableLine(t: TableSalvage): string {
  const name = t.table.padEnd(19);
  if (t.missing) return `  ${name} not in the damaged file (an older version made it)`;
  if (!t.readable) return `  ${name} salvaged 0 rows: none could be read`;
  const of = t.about === null ? ' rows (how many it held is unknown: its last pages cannot be read)' : ` of ${t.exact ? '' : 'about '}${count(Math.max(t.about, t.salvaged))} rows`;
  const notes = [
    t.withoutBody > 0 ? `${count(t.withoutBody)} left out: their body (message_payloads) was lost` : '',
    t.orphans > 0 ? `${count(t.orphans)} left out: their ${PARENT[t.table] ?? 'parent'} was lost` : '',
    t.refused > 0 ? `${count(t.refused)} left out: the schema refused their damaged values` : '',
    t.derived > 0 ? `${count(t.derived)} left out: derived, rebuilt by Hookbench` : '',
  ].filter(Boolean);
  return `  ${name} salvaged ${count(t.salvaged)}${of}${notes.length ? `; ${notes.join('; ')}` : ''}`;
}

function salvage(dir: string, file: string, io: CliIO): number {
  const out = (line = '') => io.stdout(`${line}\n`);
  if (!existsSync(file)) {
    io.stderr(`hookbench doctor: no database at ${file}: nothing to salvage\n`);
    return EXIT.failed;
  }
  const lock = withLock(dir, 'salvaging its database', io);
  if (!lock) return EXIT.failed;
  try {
    // Read before anything moves: a file nothing can be read from is left as it is.
    try {
      openDamaged(file).close();
    } catch (e) {
      const why = headerProblem(file) ?? (e instanceof Error ? e.message : String(e));
      io.stderr(`hookbench doctor: nothing can be read from ${file} (${why}); nothing was changed. To start over without it: hookbench doctor --data-dir ${dir} --move-aside\n`);
      return EXIT.failed;
    }
    // The copy holds at most what the file does (the history index is not copied): refused before anything moves.
    const needed = statSync(file).size;
    const free = freeBytes(dir);
    if (free !== null && free < needed) {
      io.stderr(`hookbench doctor: the salvage needs up to ${formatBytes(needed)} of free disk space for its copy, and the disk of ${dir} has ${formatBytes(free)}; nothing was changed. Free some space and run it again.\n`);
      return EXIT.failed;
    }
    let target: string;
    try {
      target = moveFilesAside(file, io);
    } catch (e) {
      io.stderr(`hookbench doctor: could not move ${file} aside (${e instanceof Error ? e.message : String(e)})\n`);
      return EXIT.failed;
    }
    out(`salvaging what ${target} still holds into a fresh database at ${file}:`);
    const started = performance.now();
    let damaged: Database.Database | null = null;
    let readable: boolean;
    let salvaged = 0;
    let about = 0;
    try {
      damaged = openDamaged(target);
      const result = salvageInto(damaged, file, (t) => {
        out(tableLine(t));
        salvaged += t.salvaged;
        about += Math.max(t.about ?? 0, t.salvaged);
      });
      readable = result.readable;
    } catch (e) {
      io.stderr(
        `hookbench doctor: the salvage stopped (${e instanceof Error ? e.message : String(e)}); the damaged file is kept at ${target}, and ${file} holds what was copied before that. To try again once the cause is fixed (a full disk?), put the damaged file (and its -wal and -shm files) back at ${file} and run --salvage again.\n`,
      );
      return EXIT.failed;
    } finally {
      damaged?.close();
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (!readable) {
      out(`nothing could be read from ${target}: ${file} is a fresh, empty database (${seconds} s)`);
      return EXIT.failed;
    }
    out(`salvaged ${count(salvaged)} of about ${count(about)} rows in ${seconds} s into ${file}`);
    out(`the damaged file is kept at ${target} (with its -wal and -shm files, if any): remove it once you have checked the salvaged data`);
    out('the history index (History\'s search and filters) is rebuilt in the background when Hookbench next starts');
    return EXIT.ok;
  } finally {
    lock.release();
  }
}

/** Free bytes for this user on the disk that holds `dir`; null when the system cannot say. */
function freeBytes(dir: string): number | null {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function formatBytes(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} bytes`;
}
