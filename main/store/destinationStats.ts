/**
 * What the Destinations list shows of each destination's deliveries, without an index of deliveries by
 * destination (migration 004 dropped it from the hot path):
 * - pending deliveries come from the messages_status index (a message with a waiting or in-flight delivery
 *   is itself queued, retrying or delivering: docs/behaviour.md §3), then deliveries by message;
 * - the newest deliveries of one destination come from the history index's `dest:` facet (messages up to
 *   its watermark), after the newer messages not indexed yet, read by the deliveries' message_id index.
 * Each read is bounded by the pending backlog, the indexer's lag and DESTINATION_STATS_WINDOW.
 */
import type { DeliveryStatus } from '../contract/deliveries.js';
import { DESTINATION_STATS_WINDOW, type DestinationStats } from '../contract/destinations.js';
import type { HistoryIndex } from './historyIndex.js';
import type { Db } from './openDb.js';

interface RecentRow {
  id: number;
  message_id: number;
  status: DeliveryStatus;
  reason: string | null;
  updated_at: number;
}

const PENDING = `('queued', 'retrying', 'delivering')`;

export class DestinationStatsQueries {
  private readonly statements;

  constructor(
    db: Db,
    private readonly index: HistoryIndex,
  ) {
    this.statements = {
      pending: db.prepare<[], { destination_id: string; n: number }>(
        `SELECT d.destination_id, count(*) AS n FROM messages m INDEXED BY messages_status
         JOIN deliveries d ON d.message_id = m.id
         WHERE m.status IN ${PENDING} AND d.status IN ${PENDING}
         GROUP BY d.destination_id`,
      ),
      retrying: db.prepare<[string], { n: number }>(
        `SELECT count(*) AS n FROM messages m INDEXED BY messages_status
         JOIN deliveries d ON d.message_id = m.id
         WHERE m.status IN ${PENDING} AND d.status = 'retrying' AND d.destination_id = ?`,
      ),
      tail: db.prepare<[{ covered: number; dest: string; n: number }], RecentRow>(
        `SELECT id, message_id, status, reason, updated_at FROM deliveries INDEXED BY deliveries_message
         WHERE message_id > @covered AND destination_id = @dest ORDER BY message_id DESC LIMIT @n`,
      ),
      indexed: db.prepare<[{ key: number; covered: number; dest: string; n: number }], RecentRow>(
        `SELECT d.id, d.message_id, d.status, d.reason, d.updated_at FROM history_facets f
         JOIN deliveries d ON d.message_id = f.id AND d.destination_id = @dest
         WHERE f.key = @key AND f.id <= @covered ORDER BY f.id DESC LIMIT @n`,
      ),
    };
  }

  /** A destination's deliveries waiting for a retry now: read through the pending messages, like `pending`. */
  retryingOf(destinationId: string): number {
    return this.statements.retrying.get(destinationId)?.n ?? 0;
  }

  /** Stats of these destinations (ids), in the same order. */
  statsOf(destinationIds: readonly string[], window: number = DESTINATION_STATS_WINDOW): DestinationStats[] {
    const pending = new Map(this.statements.pending.all().map((r) => [r.destination_id, r.n]));
    const covered = this.index.covered();
    return destinationIds.map((dest) => {
      const rows = this.statements.tail.all({ covered, dest, n: window });
      const key = rows.length < window ? this.index.key('dest', dest) : null;
      if (key !== null) rows.push(...this.statements.indexed.all({ key, covered, dest, n: window - rows.length }));
      const delivered = rows.filter((r) => r.status === 'delivered').length;
      const failed = rows.filter((r) => r.status === 'failed').length;
      const newest = rows[0];
      return {
        destinationId: dest,
        pending: pending.get(dest) ?? 0,
        recent: rows.length,
        delivered,
        failed,
        failureRate: delivered + failed > 0 ? failed / (delivered + failed) : null,
        last: newest ? { deliveryId: newest.id, messageId: newest.message_id, status: newest.status, reason: newest.reason, at: newest.updated_at } : null,
      };
    });
  }
}
