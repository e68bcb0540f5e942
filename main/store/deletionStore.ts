/** Deletion requests and the delete messages each one sent. */
import type { DeletionRequest } from '../contract/messages.js';
import type { Db } from './openDb.js';

export class DeletionStore {
  private readonly statements;

  constructor(
    db: Db,
  ) {
    this.statements = {
      insertDeletionRequest: db.prepare(
        'INSERT INTO deletion_requests (user_id, created_at, source_ids, message_ids) VALUES (@userId, @createdAt, @sourceIds, @messageIds)',
      ),
      listDeletionRequests: db.prepare<[], { id: number; user_id: string; created_at: number; source_ids: string; message_ids: string }>(
        'SELECT * FROM deletion_requests ORDER BY id DESC',
      ),
    };
  }

  insertDeletionRequest(r: DeletionRequest): number {
    return Number(
      this.statements.insertDeletionRequest.run({ userId: r.userId, createdAt: r.createdAt, sourceIds: JSON.stringify(r.sourceIds), messageIds: JSON.stringify(r.messageIds) })
        .lastInsertRowid,
    );
  }
  listDeletionRequests(): DeletionRequest[] {
    return this.statements.listDeletionRequests.all().map((r) => ({
      id: r.id,
      userId: r.user_id,
      createdAt: r.created_at,
      sourceIds: JSON.parse(r.source_ids) as string[],
      messageIds: JSON.parse(r.message_ids) as number[],
    }));
  }
}
