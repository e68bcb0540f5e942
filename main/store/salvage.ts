/**
 * Salvaging a damaged database (`hookbench doctor --salvage`, docs/behaviour.md §10): copies what a damaged
 * file still holds into a fresh database made by the normal Store (migrations), table by table, with
 * nothing but the SQLite Hookbench ships. The sqlite3 shell's `.recover` is not needed, nor always there
 * (Debian 12's 3.40.1 fails with "SQL logic error" even on a sound copy).
 *
 * Each table is read in rowid order, a chunk at a time. A read that meets a page it cannot read ends its
 * chunk there; the rows from there on are found again by splitting the range past the last row read in two
 * (exponentially wider, then by halves) until a read succeeds, so that only the unreadable pages' rows are
 * skipped, whatever the gap in rowids. Only the user's data is copied: the history index (history_*,
 * message_search) is derived and rebuilds itself on the background thread at the next start.
 */
import Database from 'better-sqlite3';
import { isCorruptionError } from './integrity.js';
import type { Db } from './openDb.js';
import { Store } from './store.js';

/** The tables holding the user's data, parents before children (foreign keys are on while copying). */
export const SALVAGED_TABLES = [
  'sources',
  'destinations',
  'destination_sources',
  'receivers',
  'settings',
  'messages',
  'message_payloads',
  'deliveries',
  'attempts',
  'captures',
  'check_runs',
  'ingest_log',
  'source_usage',
  'user_traits',
  'audiences',
  'audience_state',
  'deletion_requests',
] as const;

export type SalvagedTable = (typeof SALVAGED_TABLES)[number];

/** Settings that are derived state, rebuilt rather than copied (the history index keeps its own in history_state, which is not copied either). */
const DERIVED_SETTING = /^history[._]/;

/** Rows read per chunk: bounded memory with 64 KiB response bodies, few statements for a million rows. */
const CHUNK = 256;
const MIN_ROWID = -(2n ** 63n);
const MAX_ROWID = 2n ** 63n - 1n;

export interface TableSalvage {
  table: SalvagedTable;
  /** Rows copied into the fresh database. */
  salvaged: number;
  /** Rows the damaged file held: counted when it could be (`exact`), else estimated from the rowids around the unreadable pages; null when unknown. */
  about: number | null;
  exact: boolean;
  /** Rows not copied because their parent was lost (a delivery whose message could not be read). */
  orphans: number;
  /** Messages whose body (message_payloads) was lost: without it they can be neither shown nor sent. */
  withoutBody: number;
  /** Rows the fresh schema refused for another reason (a value damage made invalid). */
  refused: number;
  /** Settings that are derived state, left out to be rebuilt. */
  derived: number;
  /** Whether any of it could be read; false also when the damaged file has no such table (`missing`). */
  readable: boolean;
  missing: boolean;
}

export interface SalvageResult {
  tables: TableSalvage[];
  /** Whether anything at all could be read. */
  readable: boolean;
}

/** Errors that mean "this part of the file cannot be read": damaged pages, a file cut short. */
function unreadable(e: unknown): boolean {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  return isCorruptionError(e) || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_RANGE';
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Opens the damaged file read-only, so that nothing of it changes. Throws when it cannot be read at all (the reason is the error). */
export function openDamaged(file: string): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // Damage inside a page is caught by SQLite rather than read as rows.
    db.pragma('cell_size_check = ON');
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * Copies what `damaged` (opened with openDamaged) still holds into a fresh database at `file`, created by the
 * Store (the file must not exist). `onTable` hears each table as it is done.
 */
export function salvageInto(damaged: Db, file: string, onTable: (t: TableSalvage) => void = () => undefined): SalvageResult {
  const present = new Set(damaged.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]);
  const store = new Store(file);
  // Enforced here, unlike in the engine (store/openDb.ts): a row whose parent was lost is refused and counted as an orphan.
  store.db.pragma('foreign_keys = ON');
  const tables: TableSalvage[] = [];
  try {
    for (const table of SALVAGED_TABLES) {
      const result = present.has(table) ? copyTable(damaged, store.db, table) : { ...emptyResult(table), missing: true };
      tables.push(result);
      if (table === 'message_payloads') {
        // A message is its row and its exact bytes: without them it can be neither shown nor sent. It goes,
        // and its deliveries, copied next, are left out as orphans.
        const messages = tables.find((t) => t.table === 'messages')!;
        messages.withoutBody = store.db.prepare('DELETE FROM messages WHERE id NOT IN (SELECT message_id FROM message_payloads)').run().changes;
        messages.salvaged -= messages.withoutBody;
        onTable(messages);
      }
      if (table !== 'messages') onTable(result);
    }
  } finally {
    store.close();
  }
  return { tables, readable: tables.some((t) => t.readable) };
}

function emptyResult(table: SalvagedTable): TableSalvage {
  return { table, salvaged: 0, about: null, exact: false, orphans: 0, withoutBody: 0, refused: 0, derived: 0, readable: false, missing: false };
}

function columnsOf(db: Db, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${quote(table)})`).all() as { name: string }[]).map((c) => c.name);
}

function copyTable(damaged: Db, target: Db, table: SalvagedTable): TableSalvage {
  const result = emptyResult(table);
  let sourceColumns: string[];
  try {
    sourceColumns = columnsOf(damaged, table);
  } catch (e) {
    if (!unreadable(e)) throw e;
    return result;
  }
  // The columns both schemas have: a file of an older version lacks the newer ones, which take their defaults.
  const columns = columnsOf(target, table).filter((c) => sourceColumns.includes(c));
  const list = columns.map(quote).join(', ');
  // `>= after + 1`, not `> after`: SQLite seeks to the bound itself, and the row before a gap may sit at the edge of the damaged page.
  const read = damaged.prepare(`SELECT rowid, ${list} FROM ${quote(table)} WHERE rowid >= ? ORDER BY rowid LIMIT ?`).raw().safeIntegers();
  const probe = damaged.prepare(`SELECT rowid, ${list} FROM ${quote(table)} WHERE rowid >= ? ORDER BY rowid LIMIT 1`).raw().safeIntegers();
  const insert = target.prepare(`INSERT INTO ${quote(table)} (${list}) VALUES (${columns.map(() => '?').join(', ')})`);
  const keyAt = columns.indexOf('key');
  const copy = target.transaction((rows: unknown[][]) => {
    for (const row of rows) {
      if (table === 'settings' && DERIVED_SETTING.test(String(row[keyAt]))) {
        result.derived++;
        continue;
      }
      try {
        insert.run(row);
        result.salvaged++;
      } catch (e) {
        const code = String((e as { code?: unknown }).code ?? '');
        if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') result.orphans++;
        else if (code.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_MISMATCH' || code === 'SQLITE_TOOBIG') result.refused++;
        else throw e;
      }
    }
  });

  const readableFrom = (at: bigint): boolean => {
    try {
      probe.get(at);
      return true;
    } catch (e) {
      if (!unreadable(e)) throw e;
      return false;
    }
  };

  /** Rowids strictly between the pairs were in pages that could not be read. */
  const gaps: [bigint, bigint | null][] = [];
  /** The rowids read, in order: how dense they are around a gap says how many rows it held. */
  const rowids: number[] = [];
  let after = MIN_ROWID;
  for (;;) {
    const rows: unknown[][] = [];
    let failed = false;
    try {
      for (const row of read.iterate(after + 1n, CHUNK) as IterableIterator<unknown[]>) {
        rows.push(row.slice(1));
        after = row[0] as bigint;
        rowids.push(Number(after));
      }
      result.readable = true;
    } catch (e) {
      if (!unreadable(e)) throw e;
      failed = true;
    }
    if (rows.length > 0) {
      result.readable = true;
      copy(rows);
    }
    if (!failed) {
      if (rows.length < CHUNK) break;
      continue;
    }
    let resume = nextReadable(after, readableFrom);
    // The chunk could not read the row the probe could: skip that row rather than read it again forever.
    if (resume === after + 1n && rows.length === 0) resume = nextReadable(after + 1n, readableFrom);
    gaps.push([after, resume]);
    if (resume === null) break;
    result.readable = true;
    after = resume - 1n;
  }

  const counted = countRows(damaged, table);
  if (counted !== null) {
    result.about = counted;
    result.exact = true;
  } else {
    result.about = gaps.length === 0 ? rowids.length : estimate(rowids, gaps);
  }
  return result;
}

/**
 * The smallest rowid past `after` from which rows can be read again, or null when none can: wider and wider
 * steps until a read succeeds, then halving the step between the last failure and that success.
 */
export function nextReadable(after: bigint, readableFrom: (rowid: bigint) => boolean): bigint | null {
  let bad = after;
  let step = 1n;
  let good: bigint;
  for (;;) {
    const at = after + step >= MAX_ROWID ? MAX_ROWID : after + step;
    if (readableFrom(at)) {
      good = at;
      break;
    }
    if (at === MAX_ROWID) return null;
    bad = at;
    step *= 2n;
  }
  while (good - bad > 1n) {
    const mid = bad + (good - bad) / 2n;
    if (readableFrom(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/** How many rows the table holds, when SQLite can still count them (the table or one of its full indexes is sound). */
function countRows(db: Db, table: string): number | null {
  const ways = [''];
  try {
    const indexes = db.prepare(`PRAGMA index_list(${quote(table)})`).all() as { name: string; partial: number }[];
    for (const index of indexes) if (index.partial === 0) ways.push(` INDEXED BY ${quote(index.name)}`);
  } catch (e) {
    if (!unreadable(e)) throw e;
  }
  for (const way of ways) {
    try {
      return db.prepare(`SELECT count(*) FROM ${quote(table)}${way}`).pluck().get() as number;
    } catch (e) {
      if (!unreadable(e)) throw e;
    }
  }
  return null;
}

/**
 * The rows read plus those the unreadable rowid ranges held, each at the density of the rows read around it
 * (as many rowids on each side as the gap is wide): ids are handed out in order, so mostly densely.
 */
function estimate(rowids: readonly number[], gaps: [bigint, bigint | null][]): number | null {
  let lost = 0;
  for (const [from, to] of gaps) {
    if (to === null) return null; // the end of the table could not be read: how far it went is unknown
    // Hookbench's rowids start at 1: a gap from the very start counts from there.
    const low = from < 0n ? 0 : Number(from);
    const width = Number(to) - low - 1;
    if (width <= 0) continue;
    const near = countBetween(rowids, low - width, low) + countBetween(rowids, Number(to), Number(to) + width);
    const span = Math.min(width, low) + width;
    lost += span > 0 ? Math.min(1, near / span) * width : width;
  }
  return rowids.length + Math.round(lost);
}

/** How many of the sorted `values` lie in [lo, hi]. */
function countBetween(values: readonly number[], lo: number, hi: number): number {
  const firstAtLeast = (x: number) => {
    let a = 0;
    let b = values.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (values[m]! < x) a = m + 1;
      else b = m;
    }
    return a;
  };
  return firstAtLeast(hi + 1) - firstAtLeast(lo);
}
