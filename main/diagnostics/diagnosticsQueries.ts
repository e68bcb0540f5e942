/**
 * What the troubleshooting checklist (main/diagnostics/diagnostics.ts) reads of the newest messages beyond a
 * summary: the call's `integrations` (routing's input) and the destinations that got a delivery. Bounded
 * reads of the newest rows only, by primary key.
 */
import type { MessageType } from '../contract/message/messageShapes.js';
import type { MessageStatus } from '../contract/messages.js';
import type { Db } from '../store/openDb.js';

export interface RecentMessage {
  id: number;
  sourceId: string | null;
  type: MessageType;
  event: string | null;
  status: MessageStatus;
  statusReason: string | null;
  receivedAt: number;
  /** The call's integrations object as received (null when it had none or it was not JSON). */
  integrations: unknown;
  destinationIds: string[];
}

interface Row {
  id: number;
  source_id: string | null;
  type: MessageType;
  event: string | null;
  status: MessageStatus;
  status_reason: string | null;
  received_at: number;
  integrations: string | null;
  destination_ids: string;
}

export class DiagnosticsQueries {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      recent: db.prepare<[number], Row>(
        `SELECT m.id, m.source_id, m.type, m.event, m.status, m.status_reason, m.received_at,
           -- A compact call (store/storedJson.ts) keeps integrations in its own values: [keys, own].
           CASE WHEN json_valid(p.call) THEN json_extract(p.call, CASE json_type(p.call) WHEN 'array' THEN '$[1].integrations' ELSE '$.integrations' END) END AS integrations,
           (SELECT json_group_array(d.destination_id) FROM deliveries d WHERE d.message_id = m.id) AS destination_ids
         FROM messages m JOIN message_payloads p ON p.message_id = m.id WHERE m.origin IS NULL ORDER BY m.id DESC LIMIT ?`,
      ),
    };
  }

  /** The user's newest `limit` messages, newest first (a check run's traffic is not theirs to troubleshoot). */
  recentMessages(limit: number): RecentMessage[] {
    return this.statements.recent.all(limit).map((r) => ({
      id: r.id,
      sourceId: r.source_id,
      type: r.type,
      event: r.event,
      status: r.status,
      statusReason: r.status_reason,
      receivedAt: r.received_at,
      integrations: parseJson(r.integrations),
      destinationIds: JSON.parse(r.destination_ids) as string[],
    }));
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    // json_extract answers a scalar's SQL value (a string without quotes), not JSON text.
    return text;
  }
}
