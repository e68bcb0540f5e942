/**
 * Statements that write many rows at once, for the hot paths (intake's messages, the scheduler's rounds): one
 * statement for ROWS_PER_STATEMENT rows costs less than that many statements (measured: docs/performance.md).
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './openDb.js';

/** Rows per multi-row statement; the rows left over go one by one. */
export const ROWS_PER_STATEMENT = 25;

/**
 * A multi-row INSERT. A row's own values are anonymous parameters (`?`); the values a run of rows shares
 * (at most four: a request's source and time, a replay's original, a check's origin) are named ones (`@sourceId`), written in every row of the
 * statement but bound once per statement: binding was a fifth of the SQLite work of an ingested message
 * (perf), most of it per value. Values go to better-sqlite3 as arguments, not in an array, which it reads
 * element by element through V8's generic property lookup.
 */
export class BulkInsert {
  private readonly statements: RowStatements<Statement>;
  private readonly width: number;

  /** `shared`: the names of the named parameters in `row`, in the order BulkRows.share takes their values. */
  constructor(
    db: Db,
    head: string,
    row: string,
    private readonly shared: readonly string[] = [],
  ) {
    this.width = row.split('?').length - 1;
    this.statements = new RowStatements((rows) => db.prepare(`${head} VALUES ${Array<string>(rows).fill(row).join(', ')}`), this.width, shared.length > 0);
  }

  /** Rows to insert: share() (when the statement has shared values), then push each row's own values; flush() inserts them. */
  rows(): BulkRows {
    return new BulkRows(this.width, (shared, values) => this.run(shared, values));
  }

  /** `values`: the rows' own values, one row after the other; `shared`: the shared values, for all of them. */
  private run(shared: readonly unknown[], values: unknown[]): void {
    const named = this.shared.length > 0 ? Object.fromEntries(this.shared.map((name, i) => [name, shared[i]])) : undefined;
    this.statements.each(values, named, (statement, args) => statement.run(...args));
  }
}

/**
 * A statement for ROWS_PER_STATEMENT rows and one for a single row, each with the array of arguments it is run
 * with: written into the same array each time (runs are synchronous), not a slice a statement.
 */
class RowStatements<S> {
  private readonly many: S;
  private readonly one: S;
  private readonly manyArgs: unknown[];
  private readonly oneArgs: unknown[];

  /** `prepare(rows)`: the statement for that many rows of `width` values; `named`: one named-parameters object follows them. */
  constructor(
    prepare: (rows: number) => S,
    private readonly width: number,
    named: boolean,
  ) {
    this.many = prepare(ROWS_PER_STATEMENT);
    this.one = prepare(1);
    this.manyArgs = Array<unknown>(ROWS_PER_STATEMENT * width + (named ? 1 : 0)).fill(null);
    this.oneArgs = Array<unknown>(width + (named ? 1 : 0)).fill(null);
  }

  /** Runs `values` (one row's values after the other), ROWS_PER_STATEMENT rows a statement and the rest one by one. */
  each(values: readonly unknown[], named: unknown, run: (statement: S, args: unknown[]) => void): void {
    const width = this.width;
    const step = ROWS_PER_STATEMENT * width;
    let at = 0;
    for (; at + step <= values.length; at += step) run(this.many, argsOf(this.manyArgs, values, at, step, named));
    for (; at < values.length; at += width) run(this.one, argsOf(this.oneArgs, values, at, width, named));
    // Not kept past the statement: the arrays live as long as the store.
    this.manyArgs.fill(null);
    this.oneArgs.fill(null);
  }
}

/** `values[at .. at + count]` and then `named` (when there is one) in `args`, whose length is that, which it returns. */
function argsOf(args: unknown[], values: readonly unknown[], at: number, count: number, named: unknown): unknown[] {
  for (let i = 0; i < count; i++) args[i] = values[at + i];
  if (named !== undefined) args[count] = named;
  return args;
}

/**
 * The rows of one insert, pushed value by value, in runs of rows that share their shared values. Nothing is
 * inserted before flush(), which inserts every run in order (rows of another table may refer to these).
 */
export class BulkRows {
  /** The current run's own values, one row after the other. */
  values: unknown[] = [];
  private a: unknown = undefined;
  private b: unknown = undefined;
  private c: unknown = undefined;
  private d: unknown = undefined;
  private readonly runs: { shared: unknown[]; values: unknown[] }[] = [];

  constructor(
    private readonly width: number,
    private readonly run: (shared: readonly unknown[], values: unknown[]) => void,
  ) {}

  /** The shared values of the rows pushed next. */
  share(a: unknown, b?: unknown, c?: unknown, d?: unknown): void {
    if (this.values.length > 0 && (a !== this.a || b !== this.b || c !== this.c || d !== this.d)) this.endRun();
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
  }

  flush(): void {
    this.endRun();
    for (const { shared, values } of this.runs.splice(0)) this.run(shared, values);
  }

  private endRun(): void {
    if (this.values.length === 0) return;
    if (this.values.length % this.width !== 0) throw new Error(`rows of ${this.width} values expected, got ${this.values.length} values`);
    this.runs.push({ shared: [this.a, this.b, this.c, this.d], values: this.values });
    this.values = [];
  }
}

/**
 * A multi-row UPDATE: each row's values are a row of a `VALUES` list, which `set` and `where` read as
 * `v.column1`, `v.column2`, … (SQLite's names for them); SQLite looks each row up by its key. Like BulkInsert,
 * values go as arguments, ROWS_PER_STATEMENT rows a statement and the rest one by one.
 */
export class BulkUpdate {
  private readonly statements: RowStatements<Statement<unknown[], number>>;

  constructor(db: Db, table: string, width: number, set: string, where: string) {
    const row = `(${Array<string>(width).fill('?').join(', ')})`;
    this.statements = new RowStatements(
      (rows) =>
        db
          .prepare<unknown[], number>(`UPDATE ${table} SET ${set} FROM (VALUES ${Array<string>(rows).fill(row).join(', ')}) AS v WHERE ${where} RETURNING ${table}.id`)
          .pluck(),
      width,
      false,
    );
  }

  /** Updates the rows (`values`: one row's values after the other); returns the ids of the rows it changed. */
  run(values: readonly unknown[]): number[] {
    const changed: number[] = [];
    this.statements.each(values, undefined, (statement, args) => {
      for (const id of statement.all(...args)) changed.push(id);
    });
    return changed;
  }
}
