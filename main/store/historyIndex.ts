/**
 * The history index: what listMessages needs to find rare filter values without scanning, written after
 * the fact instead of on the hot path (migration 005 says why). Messages up to `covered()` are indexed: their
 * filter facets (type, source, user, event, destinations), whether their received_at is out of order, and
 * their bodies' trigrams. Messages are immutable apart from their status, which is indexed on the table
 * itself, so what is indexed stays true; a deleted message leaves the index by trigger.
 */
import type { Db } from './openDb.js';

/** The facets one message is filed under, as history_keys.facet values (built in SQL below). */
const FACETS = `
  SELECT 'type:' || type AS facet, id FROM messages WHERE id > @after AND id <= @upTo
  UNION ALL SELECT 'source:' || source_id, id FROM messages WHERE id > @after AND id <= @upTo AND source_id IS NOT NULL
  UNION ALL SELECT 'user:' || user_id, id FROM messages WHERE id > @after AND id <= @upTo AND user_id IS NOT NULL
  UNION ALL SELECT 'event:' || event, id FROM messages WHERE id > @after AND id <= @upTo AND event IS NOT NULL
  UNION ALL SELECT 'dest:' || destination_id, message_id FROM deliveries WHERE message_id > @after AND message_id <= @upTo`;

export type FacetName = 'type' | 'source' | 'user' | 'event' | 'dest';

export class HistoryIndex {
  private readonly statements;

  constructor(private readonly db: Db) {
    this.statements = {
      state: db.prepare<[], { covered: number; max_received: number | null }>('SELECT covered, max_received FROM history_state WHERE id = 1'),
      newest: db.prepare<[], number | null>('SELECT max(id) FROM messages').pluck(),
      upTo: db.prepare<[{ after: number; n: number }], number | null>(
        'SELECT max(id) FROM (SELECT id FROM messages WHERE id > @after ORDER BY id LIMIT @n)',
      ).pluck(),
      addKeys: db.prepare(`INSERT OR IGNORE INTO history_keys (facet) SELECT DISTINCT facet FROM (${FACETS})`),
      addFacets: db.prepare(
        `INSERT OR IGNORE INTO history_facets (key, id) SELECT k.key, f.id FROM (${FACETS}) f JOIN history_keys k ON k.facet = f.facet`,
      ),
      times: db.prepare<[number, number], [number, number]>('SELECT id, received_at FROM messages WHERE id > ? AND id <= ? ORDER BY id').raw(),
      addLate: db.prepare<[number]>('INSERT OR IGNORE INTO history_late (id) VALUES (?)'),
      addBodies: db.prepare(
        `INSERT INTO message_search (rowid, body)
         SELECT message_id, CAST(body AS TEXT) FROM message_payloads WHERE message_id > @after AND message_id <= @upTo`,
      ),
      setState: db.prepare<[number, number | null]>('UPDATE history_state SET covered = ?, max_received = ? WHERE id = 1'),
      key: db.prepare<[string], number>('SELECT key FROM history_keys WHERE facet = ?').pluck(),
      merge: db.prepare<[number]>(`INSERT INTO message_search (message_search, rank) VALUES ('merge', ?)`),
      totalChanges: db.prepare<[], number>('SELECT total_changes()').pluck(),
    };
  }

  /** Every message with an id up to this is indexed. */
  covered(): number {
    return this.statements.state.get()?.covered ?? 0;
  }

  /** The latest received_at among the indexed messages (null: none indexed). */
  maxReceived(): number | null {
    return this.statements.state.get()?.max_received ?? null;
  }

  /** Messages stored but not indexed yet (an upper bound: ids may have gaps). */
  lag(): number {
    return Math.max(0, (this.statements.newest.get() ?? 0) - this.covered());
  }

  /** history_keys.key of a filter value, or null when no indexed message has it. */
  key(facet: FacetName, value: string): number | null {
    return this.statements.key.get(`${facet}:${value}`) ?? null;
  }

  /**
   * Indexes the next `max` messages after the watermark in one transaction and moves the watermark past
   * them. Returns how many were indexed (0: caught up). Not inside another transaction: it would hold
   * that one's writes back for as long as it takes. IMMEDIATE: it runs on its own connection
   * (history/historyIndexing.ts, on the background thread), and a transaction that read before it wrote could find the engine's
   * commit in between and fail instead of waiting for the lock.
   */
  indexNext(max: number): number {
    if (this.db.inTransaction) return 0;
    return this.db.transaction(() => {
      const state = this.statements.state.get()!;
      const after = state.covered;
      const upTo = this.statements.upTo.get({ after, n: max });
      if (upTo === null || upTo === undefined) return 0;
      const range = { after, upTo };
      this.statements.addKeys.run(range);
      this.statements.addFacets.run(range);
      let maxReceived = state.max_received;
      let n = 0;
      for (const [id, receivedAt] of this.statements.times.all(after, upTo)) {
        n++;
        if (maxReceived !== null && receivedAt < maxReceived) this.statements.addLate.run(id);
        else maxReceived = receivedAt;
      }
      this.statements.addBodies.run(range);
      this.statements.setState.run(upTo, maxReceived);
      return n;
    }).immediate();
  }

  /**
   * Merges some of the search index's segments (each indexNext adds one; FTS5 merges as it goes, but a
   * query reads every remaining segment). Returns false once there was nothing left to merge.
   */
  merge(pages: number): boolean {
    if (this.db.inTransaction) return false;
    const before = this.statements.totalChanges.get()!;
    this.statements.merge.run(pages);
    return this.statements.totalChanges.get()! - before >= 2;
  }
}
