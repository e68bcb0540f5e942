/**
 * Read-only queries over messages for lists and the overview: summaries (no bodies), filters, counts.
 *
 * A page of listMessages is found in two steps: the ids (newest first, below the cursor), then the
 * summaries of those ids. The ids come from whichever index reaches the rarest of the filters first, read
 * backwards from the cursor, every filter checked on each row:
 * - `status`: the messages_status index (status changes, so it is indexed on the table itself);
 * - `type`, `sourceId`, `userId`, `event`, `destinationId`: history_facets, `text`: message_search (trigrams),
 *   `from`/`to`: an id range from messages_received. These cover the messages up to the history index's
 *   watermark (main/store/historyIndex.ts). The newer ones, not indexed yet, come first: found in the history
 *   tail's columns in memory (historyTail.ts) when a filter is one it holds, read in id order otherwise;
 * - no filter: the table in id order.
 * With more than one filter, each candidate index is asked how many rows it has (up to PROBE_CAP) and the
 * smallest leads. Statements are prepared once per shape and kept.
 *
 * A body-text filter is checked row by row on the messages not indexed yet (the tail holds no bodies), about
 * 2 µs a row: after a burst of a million, one page would take seconds. listWithin() bounds a page to
 * TEXT_SCAN_BUDGET of those rows and says where it stopped; the caller's next page goes on from there.
 */
import type { ListMessagesInput } from '../contract/api.js';
import { deliverySummary, messageSummary } from '../contract/message/messageSummary.js';
import { MESSAGE_STATUSES, type AttemptOutcome, type DeliveryStatus, type MessageStatus, type MessageSummary } from '../contract/models.js';
import type { SignatureVerdict } from '../contract/receiver/receiver.js';
import type Database from 'better-sqlite3';
import { HistoryIndex, type FacetName } from './historyIndex.js';
import { HistoryTail } from './historyTail.js';
import { messageFields, type MessageRow } from './messageStore.js';
import type { Db } from './openDb.js';

type Statement = Database.Statement;

export type MessageFilter = Omit<ListMessagesInput, 'cursor' | 'limit'>;

type SummaryRow = Omit<MessageRow, 'body' | 'call'> & {
  bytes: number;
  /** JSON: one array per delivery, [destinationId, name, status, reason, attempts, nextAttemptAt, [outcome, statusCode] | null]. */
  deliveries: string | null;
  receiver_verdict: SignatureVerdict | null;
};

type DeliveryCells = [string, string, DeliveryStatus, string | null, number, number | null, [AttemptOutcome, number | null] | null];

// A row's deliveries in one subquery (deliveries_message), each with its newest attempt (attempts_message,
// read backwards): what a list row shows of every destination, with no query per row from JavaScript.
const SUMMARY_COLUMNS = `m.id, m.message_id, m.type, m.source_id, m.user_id, m.anonymous_id, m.event, m.status, m.status_reason,
  m.received_at, m.replay_of, m.origin, length(p.body) AS bytes,
  (SELECT json_group_array(json_array(d.destination_id, d.destination_name, d.status, d.reason, d.attempts, d.next_attempt_at,
     json((SELECT json_array(a.outcome, a.status_code) FROM attempts a WHERE a.message_id = m.id AND a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1))))
   FROM deliveries d WHERE d.message_id = m.id) AS deliveries,
  (SELECT CASE WHEN sum(c.signature_verdict = 'invalid') > 0 THEN 'invalid' WHEN sum(c.signature_verdict = 'missing') > 0 THEN 'missing' WHEN count(*) > 0 THEN 'valid' END
     FROM captures c WHERE c.attempt_message = m.id AND c.id = (SELECT max(x.id) FROM captures x
       WHERE x.attempt_message = m.id AND x.attempt_delivery = c.attempt_delivery AND x.signature_verdict IS NOT NULL)) AS receiver_verdict
  FROM messages m JOIN message_payloads p ON p.message_id = m.id`;

/** A candidate index is counted up to this many rows when filters compete for the lead. */
export const PROBE_CAP = 2000;
/** At most this many trigrams of a search text go into the MATCH (LIKE checks the whole text anyway). */
const MAX_TRIGRAMS = 12;
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

/** `%text%` for LIKE, with the wildcard characters of the text itself escaped. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * An FTS5 query over message_search for a text: an AND of its trigrams (a superset of the bodies that
 * contain it, case-folded; LIKE decides). Null when the text is shorter than a trigram.
 */
export function trigramQuery(text: string): string | null {
  const chars = [...text];
  if (chars.length < 3 || text.includes('\u0000')) return null;
  const grams: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) grams.push(chars.slice(i, i + 3).join(''));
  let picked = [...new Set(grams)];
  if (picked.length > MAX_TRIGRAMS) {
    // Spread over the text, first and last included.
    picked = Array.from({ length: MAX_TRIGRAMS }, (_, k) => picked[Math.round((k * (picked.length - 1)) / (MAX_TRIGRAMS - 1))]!);
  }
  return [...new Set(picked)].map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');
}

/** Which facet of the history index each filter is. */
const FACET_FILTERS = [
  ['userId', 'user'],
  ['event', 'event'],
  ['destinationId', 'dest'],
  ['sourceId', 'source'],
  ['type', 'type'],
] as const satisfies readonly (readonly [keyof MessageFilter, FacetName])[];

/** How a page's ids are found. All but `scan`, `status`, `failed` and `failedSince` cover only the indexed messages. */
export type PlanKind = 'scan' | 'status' | 'failed' | 'failedSince' | 'facet' | 'search' | 'time';

type Plan =
  | { kind: 'scan' }
  | { kind: 'status' }
  | { kind: 'failed' }
  | { kind: 'failedSince' }
  | { kind: 'facet'; facet: FacetName; key: number | null }
  | { kind: 'search'; match: string }
  | { kind: 'time'; lo: number; hi: number };

interface Conditions {
  /** Terms on `m` (and `p` when `payload`), every filter. */
  where: string[];
  params: Record<string, unknown>;
  payload: boolean;
}

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
      const unindexed = this.unindexed(filter, this.conditions(filter), covered, NO_CURSOR, NO_CURSOR, null).ids;
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
    const plan = this.choosePlan(filter, beforeId ?? NO_CURSOR).kind;
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
    const conditions = this.conditions(filter);
    const plan = this.choosePlan(filter, before);
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
  private indexed(plan: Exclude<Plan, { kind: 'scan' | 'status' | 'failed' | 'failedSince' }>, conditions: Conditions, before: number, limit: number): number[] {
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
    const payload = c.payload ? ' CROSS JOIN message_payloads p' : '';
    const where = [driving, ...(c.payload ? ['p.message_id = m.id'] : []), ...c.where].join(' AND ');
    const sql = `SELECT ${distinct ? 'DISTINCT ' : ''}m.id ${from}${payload} WHERE ${where} ORDER BY ${order} DESC LIMIT @limit`;
    return this.all<{ id: number }>(sql, { ...c.params, ...params }).map((r) => r.id);
  }

  private conditions(filter: MessageFilter): Conditions {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    const equal = (column: string, name: 'status' | 'type' | 'sourceId' | 'userId' | 'event') => {
      const value = filter[name];
      if (value === undefined) return;
      where.push(`${column} = @${name}`);
      params[name] = value;
    };
    equal('m.status', 'status');
    equal('m.type', 'type');
    equal('m.source_id', 'sourceId');
    equal('m.user_id', 'userId');
    equal('m.event', 'event');
    if (filter.destinationId !== undefined) {
      where.push('EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = m.id AND d.destination_id = @destinationId)');
      params['destinationId'] = filter.destinationId;
    }
    if (filter.delivery !== undefined) {
      const since = filter.deliverySince !== undefined ? ' AND d.updated_at >= @deliverySince' : '';
      where.push(`EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = m.id AND d.status = @delivery${since})`);
      params['delivery'] = filter.delivery;
      if (since) params['deliverySince'] = filter.deliverySince;
    }
    if (filter.failedSince !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM deliveries d WHERE d.message_id = m.id AND d.status = 'failed' AND d.failed_real_at >= @failedSince)`);
      params['failedSince'] = filter.failedSince;
    }
    if (filter.from !== undefined) {
      where.push('m.received_at >= @from');
      params['from'] = filter.from;
    }
    if (filter.to !== undefined) {
      where.push('m.received_at < @to');
      params['to'] = filter.to;
    }
    // A check run's own messages are listed only when asked for; the user's lists never show them.
    where.push(filter.origin === undefined ? 'm.origin IS NULL' : 'm.origin = @origin');
    if (filter.origin !== undefined) params['origin'] = filter.origin;
    if (filter.text !== undefined) {
      where.push(`CAST(p.body AS TEXT) LIKE @like ESCAPE '\\'`);
      params['like'] = likePattern(filter.text);
    }
    return { where, params, payload: filter.text !== undefined };
  }

  /** The index that leads: the one with the fewest rows below the cursor, when more than one could. */
  private choosePlan(filter: MessageFilter, before: number): Plan {
    const covered = this.index.covered();
    const indexedBefore = Math.min(before, covered + 1);
    const candidates: { plan: Plan; rows: () => number }[] = [];
    if (filter.status !== undefined) {
      const status = filter.status;
      candidates.push({
        plan: { kind: 'status' },
        rows: () => this.count(`SELECT 1 FROM messages INDEXED BY messages_status WHERE status = @status AND id < @before`, { status, before }),
      });
    }
    if (filter.failedSince !== undefined) {
      const failedSince = filter.failedSince;
      candidates.push({
        plan: { kind: 'failedSince' },
        rows: () => this.count(`SELECT 1 FROM deliveries INDEXED BY deliveries_failed_real WHERE status = 'failed' AND failed_real_at >= @failedSince`, { failedSince }),
      });
    }
    if (filter.delivery === 'failed') {
      candidates.push({
        plan: { kind: 'failed' },
        rows: () => this.count(`SELECT 1 FROM deliveries INDEXED BY deliveries_failed_message WHERE status = 'failed' AND message_id < @before`, { before }),
      });
    }
    for (const [name, facet] of FACET_FILTERS) {
      const value = filter[name];
      if (value === undefined) continue;
      const key = this.index.key(facet, value);
      candidates.push({
        plan: { kind: 'facet', facet, key },
        rows: () => (key === null ? 0 : this.count(`SELECT 1 FROM history_facets WHERE key = @key AND id < @before`, { key, before: indexedBefore })),
      });
    }
    const match = filter.text === undefined ? null : trigramQuery(filter.text);
    if (match !== null) {
      candidates.push({
        plan: { kind: 'search', match },
        rows: () => this.count(`SELECT 1 FROM message_search WHERE message_search MATCH @match AND rowid < @before`, { match, before: indexedBefore }),
      });
    }
    if (filter.from !== undefined || filter.to !== undefined) {
      const { lo, hi } = this.idRange(filter.from, filter.to, covered);
      candidates.push({ plan: { kind: 'time', lo, hi }, rows: () => Math.max(0, Math.min(hi, indexedBefore - 1) - lo + 1) });
    }
    if (candidates.length === 0) return { kind: 'scan' };
    if (candidates.length === 1) return candidates[0]!.plan;
    let best = candidates[0]!;
    let bestRows = best.rows();
    for (const c of candidates.slice(1)) {
      if (bestRows === 0) break;
      const rows = c.rows();
      if (rows < bestRows) [best, bestRows] = [c, rows];
    }
    return best.plan;
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

function toSummary(r: SummaryRow): MessageSummary {
  const cells = r.deliveries ? (JSON.parse(r.deliveries) as DeliveryCells[]) : [];
  return messageSummary(
    messageFields(r),
    { anonymousId: r.anonymous_id, bytes: r.bytes, receiverVerdict: r.receiver_verdict },
    cells.map(([destinationId, destinationName, status, reason, attempts, nextAttemptAt, last]) =>
      deliverySummary({ destinationId, destinationName, status, reason, attempts, nextAttemptAt, lastOutcome: last?.[0] ?? null, lastStatusCode: last?.[1] ?? null }),
    ),
  );
}
