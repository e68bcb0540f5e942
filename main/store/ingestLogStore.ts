/** Ingestion's own records: refused requests (the ingest log) and each source's usage counters. */
import type { IngestRefusal, SourceUsage } from '../contract/sources.js';
import type { Db } from './openDb.js';

export type NewIngestRefusal = Omit<IngestRefusal, 'id' | 'bodyPreview' | 'limit'> & { bodyPreview?: Buffer | null; limit?: number | null | undefined };
export type UsageTotals = Omit<SourceUsage, 'sourceId' | 'name' | 'lastHour'>;

interface RefusalRow {
  id: number;
  received_at: number;
  source_id: string | null;
  route: string;
  client_ip: string | null;
  http_status: number;
  code: string;
  message: string;
  field: string | null;
  item_index: number | null;
  limit_value: number | null;
  body_bytes: number | null;
  body_preview: Buffer | null;
}

export class IngestLogStore {
  private readonly statements;

  constructor(
    db: Db,
  ) {
    this.statements = {
      countUsage: db.prepare(
        `INSERT INTO source_usage (source_id, received, accepted, refused, filtered) VALUES (@sourceId, @received, @accepted, @refused, @filtered)
         ON CONFLICT (source_id) DO UPDATE SET received = received + excluded.received, accepted = accepted + excluded.accepted,
           refused = refused + excluded.refused, filtered = filtered + excluded.filtered`,
      ),
      usageOf: db.prepare<[string], UsageTotals>('SELECT received, accepted, refused, filtered FROM source_usage WHERE source_id = ?'),
      logRefusal: db.prepare(
        `INSERT INTO ingest_log (received_at, source_id, route, client_ip, http_status, code, message, field, item_index, limit_value, body_bytes, body_preview)
         VALUES (@receivedAt, @sourceId, @route, @clientIp, @httpStatus, @code, @message, @field, @index, @limit, @bodyBytes, @bodyPreview)`,
      ),
      listRefusals: db.prepare<[{ beforeId: number; limit: number }], RefusalRow>(
        'SELECT * FROM ingest_log WHERE id < @beforeId ORDER BY id DESC LIMIT @limit',
      ),
    };
  }

  countUsage(sourceId: string, u: { received?: number; accepted?: number; refused?: number; filtered?: number }): void {
    this.statements.countUsage.run({ sourceId, received: u.received ?? 0, accepted: u.accepted ?? 0, refused: u.refused ?? 0, filtered: u.filtered ?? 0 });
  }
  usageOf(sourceId: string): UsageTotals {
    return this.statements.usageOf.get(sourceId) ?? { received: 0, accepted: 0, refused: 0, filtered: 0 };
  }
  logRefusal(r: NewIngestRefusal): number {
    return Number(this.statements.logRefusal.run({ ...r, limit: r.limit ?? null, bodyPreview: r.bodyPreview ?? null }).lastInsertRowid);
  }
  listRefusals(q: { beforeId?: number | undefined; limit: number }): IngestRefusal[] {
    return this.statements.listRefusals.all({ beforeId: q.beforeId ?? Number.MAX_SAFE_INTEGER, limit: q.limit }).map((r) => ({
      id: r.id,
      receivedAt: r.received_at,
      sourceId: r.source_id,
      route: r.route,
      clientIp: r.client_ip,
      httpStatus: r.http_status,
      code: r.code,
      message: r.message,
      field: r.field,
      index: r.item_index,
      limit: r.limit_value,
      bodyBytes: r.body_bytes,
      bodyPreview: r.body_preview ? r.body_preview.toString('utf8') : null,
    }));
  }
}
