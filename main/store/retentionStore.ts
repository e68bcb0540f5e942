/**
 * Retention of messages (docs/behaviour.md, "Retention"): removing the oldest settled messages, a chunk at a
 * time. A message goes with its payload, deliveries and attempts and leaves the history index, by trigger
 * (migrations 015 and 005). Messages still waiting for a delivery (queued, delivering,
 * retrying) are never removed: they are work, not history.
 */
import type { Db } from './openDb.js';

/** Statuses of messages whose deliveries are all settled. */
const SETTLED = `('delivered', 'failed', 'cancelled', 'filtered')`;
/** The settings row counting messages removed by retention since the data dir began. */
export const PRUNED_MESSAGES_SETTING = 'retention.pruned';

export class RetentionStore {
  private readonly statements;

  /**
   * `transaction`: the store's (Store.transaction), which tells the background thread's history index that the
   * engine's thread wants the write lock, so that it starts no chunk meanwhile; a transaction opened on the
   * connection directly waited for the lock in SQLite's busy handler while the index took it chunk after chunk.
   */
  constructor(
    private readonly db: Db,
    private readonly transaction: <T>(fn: () => T) => T,
  ) {
    this.statements = {
      count: db.prepare<[], number>('SELECT count(*) FROM messages').pluck(),
      countChecks: db.prepare<[], number>('SELECT count(*) FROM messages INDEXED BY messages_origin WHERE origin IS NOT NULL').pluck(),
      oldest: db.prepare<[], number | null>('SELECT min(received_at) FROM messages').pluck(),
      // The id of the n-th newest message: everything below it is past "keep the newest n".
      nthNewest: db.prepare<[number], number | null>('SELECT id FROM messages ORDER BY id DESC LIMIT 1 OFFSET ?').pluck(),
      olderThan: db.prepare<[number, number], number>(
        `SELECT id FROM messages WHERE received_at < ? AND status IN ${SETTLED} ORDER BY received_at LIMIT ?`,
      ).pluck(),
      belowId: db.prepare<[number, number], number>(`SELECT id FROM messages WHERE id < ? AND status IN ${SETTLED} ORDER BY id LIMIT ?`).pluck(),
      remove: db.prepare<[number]>('DELETE FROM messages WHERE id = ?'),
      getPruned: db.prepare<[], string>(`SELECT value FROM settings WHERE key = '${PRUNED_MESSAGES_SETTING}'`).pluck(),
      addPruned: db.prepare<[{ n: number }]>(
        `INSERT INTO settings (key, value) VALUES ('${PRUNED_MESSAGES_SETTING}', @n)
         ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + @n`,
      ),
    };
  }

  /** Messages stored (a count of the table: tens of milliseconds at a million). */
  count(): number {
    return this.statements.count.get() ?? 0;
  }

  /** Of the stored messages, how many are a check run's own (origin set). */
  countChecks(): number {
    return this.statements.countChecks.get() ?? 0;
  }

  /** When the oldest stored message was received (engine time), or null. */
  oldestReceivedAt(): number | null {
    return this.statements.oldest.get() ?? null;
  }

  /** Messages removed by retention since the data dir began. */
  pruned(): number {
    return Number(this.statements.getPruned.get() ?? 0);
  }

  /**
   * The id below which messages are past "keep the newest `keep`", or null when there are not more than
   * that many. Read once per pass: it reads `keep` index entries.
   */
  cutoffForNewest(keep: number): number | null {
    return this.statements.nthNewest.get(keep - 1) ?? null;
  }

  /**
   * Removes up to `max` settled messages received before `before` (engine time) or with an id below
   * `belowId`, in one transaction; returns how many went.
   */
  pruneChunk(limits: { before: number | null; belowId: number | null }, max: number): number {
    if (this.db.inTransaction) return 0;
    return this.transaction(() => {
      const ids = new Set<number>();
      if (limits.before !== null) for (const id of this.statements.olderThan.all(limits.before, max)) ids.add(id);
      if (limits.belowId !== null && ids.size < max) for (const id of this.statements.belowId.all(limits.belowId, max - ids.size)) ids.add(id);
      for (const id of ids) this.statements.remove.run(id);
      if (ids.size > 0) this.statements.addPruned.run({ n: ids.size });
      return ids.size;
    });
  }
}
