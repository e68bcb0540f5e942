/**
 * Read-only queries over messages for lists and the overview: summaries (no bodies), filters, counts. The
 * executor: messageQueryPlan.ts plans a page (a filter's SQL terms, the index that leads), this runs it in
 * one snapshot, pages and counts. Statements are prepared once per shape and kept. A page is its ids (newest
 * first, below the cursor), then their summaries. The messages not indexed yet are the newest and come first:
 * from the history tail's columns in memory (historyTail.ts) when it holds the filter, else in id order.
 *
 * A body-text filter is checked row by row on the messages not indexed yet (the tail holds no bodies), about
 * 2 µs a row: after a burst of a million, one page would take seconds. listWithin() bounds a page to
 * TEXT_SCAN_BUDGET of those rows and says where it stopped; the caller's next page goes on from there.
 */
import { MESSAGE_STATUSES, type MessageStatus, type MessageSummary } from '../contract/messages.js';
import type Database from 'better-sqlite3';
import { HistoryIndex } from './historyIndex.js';
import { HistoryTail } from './historyTail.js';
import { choosePlan, filterConditions, idsSql, PROBE_CAP, type Conditions, type IndexedPlan, type MessageFilter, type PlanKind, type PlanProbe } from './messageQueryPlan.js';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './messageSummaryRows.js';
import type { Db } from './openDb.js';

type Statement = Database.Statement;

const NO_CURSOR = Number.MAX_SAFE_INTEGER;
/** Candidates the history tail is asked for first (the next asks grow fourfold, up to TAIL_BATCH_MAX). */
const TAIL_BATCH = 64;
const TAIL_BATCH_MAX = 16_384;
/** Unindexed messages whose bodies one page with a text filter reads at most (listWithin). */
export const TEXT_SCAN_BUDGET = 8_192;

/** A page that stopped early: its ids end above `before`, and about `left` messages below it are still to search. */
export interface Stopped {
  before: number;
  left: number;
}

/** Ids found, and where the search stopped when its row budget ran out first. */
interface Found {
  ids: number[];
  stopped: Stopped | null;
}

/** A page's summaries, and where it stopped when it stopped early. */
export interface PageRead {
  rows: MessageSummary[];
  stopped: Stopped | null;
}

/** Rows a page may still read one by one; null: no bound. */
type Budget = { rows: number } | null;

/** What list() ran, for tests that pin the plans. */
export interface Explained {
  plan: PlanKind;
  statements: { sql: string; plan: string[] }[];
}

export class MessageQueries {
  readonly index: HistoryIndex;
  private readonly statements = new Map<string, Statement>();
  private readonly summaryById;
  private readonly countAll;
  private readonly newest;
  private readonly countStatus;
  private readonly failedSince;
  private readonly checkPerStatus;
  /** The status with the most messages when last counted: its count is the total minus the others'. */
  private largestStatus: MessageStatus = 'delivered';
  /** Set while explain() runs: every statement run is recorded with its query plan. */
  private explaining: Explained['statements'] | null = null;
  /** Runs a function in a read transaction (one snapshot of the file). */
  private readonly snapshot;
  /** What the planner asks of the database, answered through this connection. */
  private readonly probe: PlanProbe = {
    covered: () => this.index.covered(),
    key: (facet, value) => this.index.key(facet, value),
    count: (select, params) => this.count(select, params),
    idRange: (from, to, covered) => this.idRange(from, to, covered),
  };

  constructor(
    private readonly db: Db,
    /** The filter values of the messages this connection stored that the index does not cover yet. */
    readonly tail: HistoryTail = new HistoryTail(),
  ) {
    this.index = new HistoryIndex(db);
    this.newest = db.prepare<[], number>('SELECT coalesce(max(id), 0) FROM messages').pluck();
    this.snapshot = db.transaction((read: () => unknown) => read());
    this.summaryById = db.prepare<[number], SummaryRow>(`SELECT ${SUMMARY_COLUMNS} WHERE m.id = ?`);
    this.countAll = db.prepare<[], number>('SELECT count(*) FROM messages').pluck();
    this.failedSince = db
      .prepare<[number], number>(
        `SELECT count(DISTINCT d.message_id) FROM deliveries d INDEXED BY deliveries_failed_real
         WHERE d.status = 'failed' AND d.failed_real_at >= ? AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = d.message_id AND m.origin IS NOT NULL)`,
      )
      .pluck();
    this.checkPerStatus = db.prepare<[], { status: MessageStatus; n: number }>(
      'SELECT status, count(*) AS n FROM messages INDEXED BY messages_origin WHERE origin IS NOT NULL GROUP BY status',
    );
    this.countStatus = db.prepare<[MessageStatus], number>('SELECT count(*) FROM messages INDEXED BY messages_status WHERE status = ?').pluck();
  }

  /**
   * A page of summaries, newest first, below `beforeId`; `limit` rows at most. Read in one snapshot: the
   * background thread's history index moves the watermark whenever it commits, and a page whose plan was chosen below
   * one watermark and read below another would miss the messages indexed in between.
   */
  list(filter: MessageFilter, beforeId: number | undefined, limit: number): MessageSummary[] {
    return this.read(filter, beforeId, limit, null).rows;
  }

  /**
   * list(), except that a text filter reads the bodies of at most `textBudget` messages not indexed yet:
   * when that runs out first, the page has fewer than `limit` rows and `stopped` says where the next one
   * starts. Every other filter reads as list() does.
   */
  listWithin(filter: MessageFilter, beforeId: number | undefined, limit: number, textBudget = TEXT_SCAN_BUDGET): PageRead {
    return this.read(filter, beforeId, limit, filter.text === undefined ? null : { rows: textBudget });
  }

  private read(filter: MessageFilter, beforeId: number | undefined, limit: number, budget: Budget): PageRead {
    return this.inSnapshot(() => this.readPage(filter, beforeId, limit, budget));
  }

  /** Runs `read` in one snapshot of the file (in the transaction in progress, when there is one). */
  private inSnapshot<T>(read: () => T): T {
    return this.db.inTransaction ? read() : (this.snapshot.deferred(read) as T);
  }

  /**
   * The sources whose messages name this user, deletion requests aside (a deletion request without sources
   * notifies them): the indexed messages through the history index, the newer ones found as a page's are
   * (the history tail's candidates, each checked on its row), in one snapshot.
   */
  sourcesThatSaw(userId: string): string[] {
    return this.inSnapshot(() => {
      const filter = { userId };
      const covered = this.index.covered();
      const unindexed = this.unindexed(filter, filterConditions(filter), covered, NO_CURSOR, NO_CURSOR, null).ids;
      return this.all<{ source_id: string }>(
        `SELECT m.source_id FROM history_facets f CROSS JOIN messages m
         WHERE f.key = (SELECT key FROM history_keys WHERE facet = 'user:' || @userId)
           AND m.id = f.id AND m.source_id IS NOT NULL AND m.type != 'delete'
         UNION
         SELECT m.source_id FROM json_each(@unindexed) j CROSS JOIN messages m
         WHERE m.id = j.value AND m.source_id IS NOT NULL AND m.type != 'delete'`,
        { userId, unindexed: JSON.stringify(unindexed) },
      ).map((r) => r.source_id);
    });
  }

  private readPage(filter: MessageFilter, beforeId: number | undefined, limit: number, budget: Budget): PageRead {
    const { ids, stopped } = this.pageIds(filter, beforeId ?? NO_CURSOR, limit, budget);
    if (ids.length === 0) return { rows: [], stopped };
    const rows = this.all<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} WHERE m.id IN (SELECT value FROM json_each(@ids)) ORDER BY m.id DESC`, {
      ids: JSON.stringify(ids),
    });
    return { rows: rows.map(toSummary), stopped };
  }

  /** The plan list() takes for this filter and the statements it runs, each with SQLite's query plan. */
  explain(filter: MessageFilter, beforeId?: number, limit = 51): Explained {
    // The plan of an unbounded page: what list() and exports run.
    const plan: PlanKind = choosePlan(filter, beforeId ?? NO_CURSOR, this.probe).kind;
    return { plan, statements: this.statementsOf(() => this.list(filter, beforeId, limit)) };
  }

  /** The statements `read` runs through this object, each with SQLite's query plan. */
  statementsOf(read: () => unknown): Explained['statements'] {
    const statements: Explained['statements'] = [];
    this.explaining = statements;
    try {
      read();
      return statements;
    } finally {
      this.explaining = null;
    }
  }

  /** The highest message id (0 when there is none). */
  newestId(): number {
    return this.newest.get()!;
  }

  summary(id: number): MessageSummary | null {
    const row = this.summaryById.get(id);
    return row ? toSummary(row) : null;
  }

  /**
   * The user's messages with a delivery that failed at or after `since` (real time): exactly the rows of the
   * filter `{failedSince: since}`. Reads only the recent failed deliveries.
   */
  countFailedSince(since: number): number {
    return this.failedSince.get(since)!;
  }

  /** The user's messages per status: each status but the largest counted on messages_status, the largest by difference. */
  countsPerStatus(): Record<MessageStatus, number> {
    const counts = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0])) as Record<MessageStatus, number>;
    const total = this.countAll.get()!;
    let others = 0;
    for (const status of MESSAGE_STATUSES) {
      if (status === this.largestStatus) continue;
      counts[status] = this.countStatus.get(status)!;
      others += counts[status];
    }
    counts[this.largestStatus] = total - others;
    this.largestStatus = MESSAGE_STATUSES.reduce((a, b) => (counts[b] > counts[a] ? b : a));
    // A check run's own messages are not the user's: read from their small partial index and taken off.
    for (const { status, n } of this.checkPerStatus.all()) counts[status] -= n;
    return counts;
  }

  // ---------------------------------------------------------------- finding a page's ids

  private pageIds(filter: MessageFilter, before: number, limit: number, budget: Budget): Found {
    const conditions = filterConditions(filter);
    const plan = choosePlan(filter, before, this.probe);
    switch (plan.kind) {
      case 'scan':
        return this.scanWithin(conditions, 0, before, limit, budget);
      case 'status':
        return whole(this.ids(`FROM messages m INDEXED BY messages_status`, `m.status = @status AND m.id < @before`, 'm.id', conditions, { before, limit }));
      case 'failedSince':
        // The failures since a real time, found through their own index (few: the top bar asks for an hour's).
        return whole(
          this.ids(
            `FROM deliveries fd INDEXED BY deliveries_failed_real CROSS JOIN messages m`,
            `fd.status = 'failed' AND fd.failed_real_at >= @failedSince AND fd.message_id < @before AND m.id = fd.message_id`,
            'fd.message_id',
            conditions,
            { before, limit },
            true,
          ),
        );
      case 'failed':
        // A message with two failed deliveries is met twice in this index: DISTINCT keeps one.
        return whole(
          this.ids(
            `FROM deliveries fd INDEXED BY deliveries_failed_message CROSS JOIN messages m`,
            `fd.status = 'failed' AND fd.message_id < @before AND m.id = fd.message_id`,
            'fd.message_id',
            conditions,
            { before, limit },
            true,
          ),
        );
      default: {
        // The messages not indexed yet are the newest: they come first.
        const covered = this.index.covered();
        const tail = before > covered + 1 ? this.unindexed(filter, conditions, covered, before, limit, budget) : whole([]);
        if (tail.ids.length >= limit || tail.stopped) return tail;
        return whole([...tail.ids, ...this.indexed(plan, conditions, Math.min(before, covered + 1), limit - tail.ids.length)]);
      }
    }
  }

  /** Ids below `before` among the indexed messages, by a plan that reads the history index. */
  private indexed(plan: IndexedPlan, conditions: Conditions, before: number, limit: number): number[] {
    switch (plan.kind) {
      case 'facet':
        if (plan.key === null) return []; // no indexed message has this value
        return this.ids(`FROM history_facets f CROSS JOIN messages m`, `f.key = @key AND f.id < @before AND m.id = f.id`, 'f.id', conditions, {
          key: plan.key,
          before,
          limit,
        });
      case 'search':
        return this.ids(
          `FROM message_search s CROSS JOIN messages m`,
          `s.message_search MATCH @match AND s.rowid < @before AND m.id = s.rowid`,
          's.rowid',
          conditions,
          { match: plan.match, before, limit },
        );
      case 'time': {
        // In-order messages of the range are the id range [lo, hi]; the late ones are looked at apart.
        const inRange = plan.lo <= plan.hi ? this.ids(`FROM messages m`, `m.id >= @lo AND m.id <= @hi AND m.id < @before`, 'm.id', conditions, { lo: plan.lo, hi: plan.hi, before, limit }) : [];
        const late = this.ids(`FROM history_late l CROSS JOIN messages m`, `l.id < @before AND m.id = l.id`, 'l.id', conditions, { before, limit });
        if (late.length === 0) return inRange;
        return [...new Set([...inRange, ...late])].sort((a, b) => b - a).slice(0, limit);
      }
    }
  }

  /**
   * Ids in (covered, before) (the messages not indexed yet), newest first. The history tail's candidates
   * where it holds the ids and the filter is one it narrows by, each checked on its row with every filter;
   * ids it does not hold (stored by another connection, before this one started, or in the write
   * transaction in progress) read in id order.
   */
  private unindexed(filter: MessageFilter, conditions: Conditions, covered: number, before: number, limit: number, budget: Budget): Found {
    this.tail.forget(covered);
    if (!HistoryTail.narrows(filter)) return this.scanWithin(conditions, covered, before, limit, budget, covered);
    const held = this.tail.range;
    const out: number[] = [];
    const newer = Math.max(held.to, covered);
    if (before > newer + 1 && this.newest.get()! > newer) {
      const found = this.scanWithin(conditions, newer, before, limit, budget, covered);
      if (found.stopped) return found;
      out.push(...found.ids);
    }
    const lowest = Math.max(held.from, covered);
    let upper = Math.min(before, held.to + 1);
    for (let batch = TAIL_BATCH; out.length < limit && upper > lowest + 1; batch = Math.min(batch * 4, TAIL_BATCH_MAX)) {
      if (budget && budget.rows <= 0) return { ids: out, stopped: { before: upper, left: upper - 1 - covered } };
      const { ids, next } = this.tail.candidates(filter, lowest, upper, budget ? Math.min(batch, budget.rows) : batch);
      if (ids.length > 0) {
        if (budget) budget.rows -= ids.length;
        out.push(
          ...this.ids(`FROM json_each(@candidates) j CROSS JOIN messages m`, `m.id = j.value`, 'm.id', conditions, { candidates: JSON.stringify(ids), limit: limit - out.length }),
        );
      }
      upper = next + 1;
    }
    if (out.length < limit && held.from > covered) {
      const found = this.scanWithin(conditions, covered, Math.min(upper, held.from + 1), limit - out.length, budget, covered);
      return { ids: [...out, ...found.ids], stopped: found.stopped };
    }
    return whole(out);
  }

  /**
   * scan(), reading at most `budget.rows` ids when there is a budget (ids are given one after another, so a
   * window of ids holds at most as many rows). Stopped when the window ended above `after` with the page
   * not full; `left` counts the ids still below it, down to `floor` (where reading row by row ends).
   */
  private scanWithin(conditions: Conditions, after: number, before: number, limit: number, budget: Budget, floor = 0): Found {
    if (!budget) return whole(this.scan(conditions, after, before, limit));
    // The window starts at the newest message, not at the cursor (the first page's is past every id).
    const top = Math.min(before, this.newest.get()! + 1);
    const lo = Math.max(after, top - 1 - Math.max(budget.rows, 0));
    const ids = this.scan(conditions, lo, top, limit);
    budget.rows -= top - 1 - lo;
    return { ids, stopped: ids.length < limit && lo > after ? { before: lo + 1, left: lo - floor } : null };
  }

  /** Ids in (after, before) in id order, every filter checked on each row. */
  private scan(conditions: Conditions, after: number, before: number, limit: number): number[] {
    return this.ids(`FROM messages m NOT INDEXED`, `m.id > @after AND m.id < @before`, 'm.id', conditions, { after, before, limit });
  }

  /** Runs one page query: `from` and `driving` lead, every filter's condition follows. */
  private ids(from: string, driving: string, order: string, c: Conditions, params: Record<string, unknown>, distinct = false): number[] {
    return this.all<{ id: number }>(idsSql(from, driving, order, c, distinct), { ...c.params, ...params }).map((r) => r.id);
  }

  /**
   * The ids of the indexed messages received in [from, to) that are in order (their received_at is not
   * earlier than any message's before them): those have received_at growing with the id, so they are
   * exactly the in-order messages with an id in [lo, hi]. lo > hi: none.
   */
  private idRange(from: number | undefined, to: number | undefined, covered: number): { lo: number; hi: number } {
    // No indexed message in order was received after maxReceived: a `from` past it has none, and `to` is
    // bounded by it, so the reads start among the indexed messages' entries, not those of the unindexed ones
    // (after a burst, a million of them).
    const maxReceived = this.index.maxReceived();
    if (maxReceived === null || (from !== undefined && from > maxReceived)) return { lo: 1, hi: 0 };
    const first =
      from === undefined
        ? 1
        : this.one(
            `SELECT id FROM messages INDEXED BY messages_received
             WHERE received_at >= @from AND id <= @covered AND id NOT IN (SELECT id FROM history_late) ORDER BY received_at, id LIMIT 1`,
            { from, covered },
          );
    const last =
      to === undefined
        ? covered
        : this.one(
            `SELECT id FROM messages INDEXED BY messages_received
             WHERE received_at < @to AND id <= @covered AND id NOT IN (SELECT id FROM history_late) ORDER BY received_at DESC, id DESC LIMIT 1`,
            { to: Math.min(to, maxReceived + 1), covered },
          );
    if (first === null || last === null) return { lo: 1, hi: 0 };
    return { lo: first, hi: last };
  }

  private count(select: string, params: Record<string, unknown>): number {
    return this.one(`SELECT count(*) AS id FROM (${select} LIMIT ${PROBE_CAP})`, params) ?? 0;
  }

  private one(sql: string, params: Record<string, unknown>): number | null {
    return this.all<{ id: number }>(sql, params)[0]?.id ?? null;
  }

  private all<T>(sql: string, params: Record<string, unknown>): T[] {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    if (this.explaining) {
      const plan = (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail);
      this.explaining.push({ sql, plan });
    }
    return statement.all(params) as T[];
  }
}

function whole(ids: number[]): Found {
  return { ids, stopped: null };
}
