/**
 * The planner of listMessages' pages: turns a filter into the SQL terms and parameters every candidate row is
 * checked with, and picks the index that leads a page. It runs no SQL itself: the executor
 * (messageQueries.ts) hands it a probe that counts rows and reads the history index, so a plan can be tested
 * against any counts.
 *
 * The ids of a page come from whichever index reaches the rarest of the filters first, read backwards from
 * the cursor, every filter checked on each row:
 * - `status`: the messages_status index (status changes, so it is indexed on the table itself);
 * - `type`, `sourceId`, `userId`, `event`, `destinationId`: history_facets, `text`: message_search (trigrams),
 *   `from`/`to`: an id range from messages_received. These cover the messages up to the history index's
 *   watermark (main/store/historyIndex.ts);
 * - no filter: the table in id order.
 * With more than one filter, each candidate index is asked how many rows it has (up to PROBE_CAP) and the
 * smallest leads.
 */
import type { ListMessagesInput } from '../contract/api.js';
import type { FacetName } from './historyIndex.js';

export type MessageFilter = Omit<ListMessagesInput, 'cursor' | 'limit'>;

/** A candidate index is counted up to this many rows when filters compete for the lead. */
export const PROBE_CAP = 2000;
/** At most this many trigrams of a search text go into the MATCH (LIKE checks the whole text anyway). */
const MAX_TRIGRAMS = 12;

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

export type Plan =
  | { kind: 'scan' }
  | { kind: 'status' }
  | { kind: 'failed' }
  | { kind: 'failedSince' }
  | { kind: 'facet'; facet: FacetName; key: number | null }
  | { kind: 'search'; match: string }
  | { kind: 'time'; lo: number; hi: number };

/** The plans that read the history index, so cover only the indexed messages. */
export type IndexedPlan = Exclude<Plan, { kind: 'scan' | 'status' | 'failed' | 'failedSince' }>;

export interface Conditions {
  /** Terms on `m` (and `p` when `payload`), every filter. */
  where: string[];
  params: Record<string, unknown>;
  payload: boolean;
}

/** What the planner asks of the database: the executor answers it. */
export interface PlanProbe {
  /** The history index's watermark: messages up to this id are indexed. */
  covered(): number;
  /** The history index's key of a facet value; null when no indexed message has it. */
  key(facet: FacetName, value: string): number | null;
  /** How many rows `select` finds, up to PROBE_CAP. */
  count(select: string, params: Record<string, unknown>): number;
  /** The id range [lo, hi] of the in-order indexed messages received in [from, to); lo > hi: none. */
  idRange(from: number | undefined, to: number | undefined, covered: number): { lo: number; hi: number };
}

/** Every filter as SQL terms on `m` (and `p`, the payload, for a text filter), with their parameters. */
export function filterConditions(filter: MessageFilter): Conditions {
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

/** One page query's SQL: `from` and `driving` lead, every filter's condition follows. */
export function idsSql(from: string, driving: string, order: string, c: Conditions, distinct: boolean): string {
  const payload = c.payload ? ' CROSS JOIN message_payloads p' : '';
  const where = [driving, ...(c.payload ? ['p.message_id = m.id'] : []), ...c.where].join(' AND ');
  return `SELECT ${distinct ? 'DISTINCT ' : ''}m.id ${from}${payload} WHERE ${where} ORDER BY ${order} DESC LIMIT @limit`;
}

/** The index that leads: the one with the fewest rows below the cursor, when more than one could. */
export function choosePlan(filter: MessageFilter, before: number, probe: PlanProbe): Plan {
  const candidates = planCandidates(filter, before, probe);
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

/** Every index that could lead for this filter, each with how to count its rows below the cursor (asked only when compared). */
function planCandidates(filter: MessageFilter, before: number, probe: PlanProbe): { plan: Plan; rows: () => number }[] {
  const covered = probe.covered();
  const indexedBefore = Math.min(before, covered + 1);
  const candidates: { plan: Plan; rows: () => number }[] = [];
  if (filter.status !== undefined) {
    const status = filter.status;
    candidates.push({
      plan: { kind: 'status' },
      rows: () => probe.count(`SELECT 1 FROM messages INDEXED BY messages_status WHERE status = @status AND id < @before`, { status, before }),
    });
  }
  if (filter.failedSince !== undefined) {
    const failedSince = filter.failedSince;
    candidates.push({
      plan: { kind: 'failedSince' },
      rows: () => probe.count(`SELECT 1 FROM deliveries INDEXED BY deliveries_failed_real WHERE status = 'failed' AND failed_real_at >= @failedSince`, { failedSince }),
    });
  }
  if (filter.delivery === 'failed') {
    candidates.push({
      plan: { kind: 'failed' },
      rows: () => probe.count(`SELECT 1 FROM deliveries INDEXED BY deliveries_failed_message WHERE status = 'failed' AND message_id < @before`, { before }),
    });
  }
  for (const [name, facet] of FACET_FILTERS) {
    const value = filter[name];
    if (value === undefined) continue;
    const key = probe.key(facet, value);
    candidates.push({
      plan: { kind: 'facet', facet, key },
      rows: () => (key === null ? 0 : probe.count(`SELECT 1 FROM history_facets WHERE key = @key AND id < @before`, { key, before: indexedBefore })),
    });
  }
  const match = filter.text === undefined ? null : trigramQuery(filter.text);
  if (match !== null) {
    candidates.push({
      plan: { kind: 'search', match },
      rows: () => probe.count(`SELECT 1 FROM message_search WHERE message_search MATCH @match AND rowid < @before`, { match, before: indexedBefore }),
    });
  }
  if (filter.from !== undefined || filter.to !== undefined) {
    const { lo, hi } = probe.idRange(filter.from, filter.to, covered);
    candidates.push({ plan: { kind: 'time', lo, hi }, rows: () => Math.max(0, Math.min(hi, indexedBefore - 1) - lo + 1) });
  }
  return candidates;
}
