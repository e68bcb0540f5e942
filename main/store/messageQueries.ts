/**
 * Read-only queries over messages for lists and the overview: summaries (no bodies), filters, counts.
 * Statements are prepared once per filter combination and kept.
 */
import type { ListMessagesInput } from '../contract/api.js';
import { MESSAGE_STATUSES, type MessageStatus, type MessageSummary } from '../contract/models.js';
import type { MessageType } from '../contract/messageShapes.js';
import type Database from 'better-sqlite3';
import type { Db } from './openDb.js';

type Statement = Database.Statement;

export type MessageFilter = Omit<ListMessagesInput, 'cursor' | 'limit'>;

interface SummaryRow {
  id: number;
  message_id: string;
  type: MessageType;
  source_id: string | null;
  user_id: string | null;
  anonymous_id: string | null;
  event: string | null;
  status: MessageStatus;
  status_reason: string | null;
  received_at: number;
  replay_of: number | null;
  bytes: number;
  attempts: number | null;
  next_attempt_at: number | null;
  destination_ids: string | null;
}

const SUMMARY_COLUMNS = `m.id, m.message_id, m.type, m.source_id, m.user_id, m.anonymous_id, m.event, m.status, m.status_reason,
  m.received_at, m.replay_of, length(p.body) AS bytes,
  (SELECT max(d.attempts) FROM deliveries d WHERE d.message_id = m.id) AS attempts,
  (SELECT min(d.next_attempt_at) FROM deliveries d WHERE d.message_id = m.id AND d.status IN ('queued', 'retrying')) AS next_attempt_at,
  (SELECT json_group_array(d.destination_id) FROM deliveries d WHERE d.message_id = m.id) AS destination_ids
  FROM messages m JOIN message_payloads p ON p.message_id = m.id`;

/** `%text%` for LIKE, with the wildcard characters of the text itself escaped. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class MessageQueries {
  private readonly statements = new Map<string, Statement>();
  private readonly summaryById;
  private readonly countsByStatus;

  constructor(private readonly db: Db) {
    this.summaryById = db.prepare<[number], SummaryRow>(`SELECT ${SUMMARY_COLUMNS} WHERE m.id = ?`);
    this.countsByStatus = db.prepare<[], { status: MessageStatus; n: number }>('SELECT status, count(*) AS n FROM messages GROUP BY status');
  }

  /** A page of summaries, newest first, below `beforeId`; `limit` rows at most. */
  list(filter: MessageFilter, beforeId: number | undefined, limit: number): MessageSummary[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit };
    const equal = (column: string, name: keyof MessageFilter) => {
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
    if (filter.text !== undefined) {
      where.push(`CAST(p.body AS TEXT) LIKE @text ESCAPE '\\'`);
      params['text'] = likePattern(filter.text);
    }
    if (filter.from !== undefined) {
      where.push('m.received_at >= @from');
      params['from'] = filter.from;
    }
    if (filter.to !== undefined) {
      where.push('m.received_at < @to');
      params['to'] = filter.to;
    }
    if (beforeId !== undefined) {
      where.push('m.id < @beforeId');
      params['beforeId'] = beforeId;
    }
    const sql = `SELECT ${SUMMARY_COLUMNS} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY m.id DESC LIMIT @limit`;
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return (statement.all(params) as SummaryRow[]).map(toSummary);
  }

  summary(id: number): MessageSummary | null {
    const row = this.summaryById.get(id);
    return row ? toSummary(row) : null;
  }

  countsPerStatus(): Record<MessageStatus, number> {
    const counts = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0])) as Record<MessageStatus, number>;
    for (const { status, n } of this.countsByStatus.all()) counts[status] = n;
    return counts;
  }
}

function toSummary(r: SummaryRow): MessageSummary {
  return {
    id: r.id,
    messageId: r.message_id,
    type: r.type,
    sourceId: r.source_id,
    userId: r.user_id,
    anonymousId: r.anonymous_id,
    event: r.event,
    status: r.status,
    statusReason: r.status_reason,
    receivedAt: r.received_at,
    replayOf: r.replay_of,
    bytes: r.bytes,
    attempts: r.attempts ?? 0,
    nextAttemptAt: r.next_attempt_at,
    destinationIds: r.destination_ids ? (JSON.parse(r.destination_ids) as string[]) : [],
  };
}
