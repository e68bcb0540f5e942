/**
 * Audiences and computed traits (docs/behaviour.md §8): their definitions (`audiences`), the state of their last
 * sync (`audience_state`) and the users' traits they are computed from (`user_traits`). The audience service's
 * repository: each statement prepared once.
 */
import type { AudienceKind } from '../contract/audiences.js';
import type { Db } from '../store/openDb.js';

export interface AudienceRow {
  id: string;
  source_id: string;
  kind: AudienceKind;
  name: string;
  trait_key: string;
  definition: string;
  created_at: number;
  synced_at: number | null;
}

/** The audience service's repository: each statement prepared once over the core's connection. */
export class AudienceStore {
  private readonly statements;

  constructor(db: Db) {
    this.statements = {
      insert: db.prepare<[{ id: string; sourceId: string; kind: AudienceKind; name: string; traitKey: string; definition: string; createdAt: number }]>(
        `INSERT INTO audiences (id, source_id, kind, name, trait_key, definition, created_at)
         VALUES (@id, @sourceId, @kind, @name, @traitKey, @definition, @createdAt)`,
      ),
      get: db.prepare<[string], AudienceRow>('SELECT * FROM audiences WHERE id = ?'),
      byName: db.prepare<[string, AudienceKind, string], AudienceRow>('SELECT * FROM audiences WHERE source_id = ? AND kind = ? AND name = ?'),
      byKey: db.prepare<[string, string], AudienceRow>('SELECT * FROM audiences WHERE source_id = ? AND trait_key = ? ORDER BY created_at LIMIT 1'),
      list: db.prepare<[{ sourceId: string | null; kind: AudienceKind | null }], AudienceRow>(
        `SELECT * FROM audiences WHERE (@sourceId IS NULL OR source_id = @sourceId) AND (@kind IS NULL OR kind = @kind)
         ORDER BY name, kind, id`,
      ),
      setDefinition: db.prepare<[string, string]>('UPDATE audiences SET definition = ? WHERE id = ?'),
      setSyncedAt: db.prepare<[number, string]>('UPDATE audiences SET synced_at = ? WHERE id = ?'),
      delete: db.prepare<[string]>('DELETE FROM audiences WHERE id = ?'),
      usersOf: db.prepare<[string], { user_id: string; traits: string }>('SELECT user_id, traits FROM user_traits WHERE source_id = ?'),
      stateOf: db.prepare<[string], { user_id: string; value: string }>('SELECT user_id, value FROM audience_state WHERE audience_id = ?'),
      setState: db.prepare<[string, string, string]>(
        `INSERT INTO audience_state (audience_id, user_id, value) VALUES (?, ?, ?)
         ON CONFLICT (audience_id, user_id) DO UPDATE SET value = excluded.value`,
      ),
      clearState: db.prepare<[string, string]>('DELETE FROM audience_state WHERE audience_id = ? AND user_id = ?'),
      forgetTraits: db.prepare<[string, string]>('DELETE FROM user_traits WHERE source_id = ? AND user_id = ?'),
      forgetMemberships: db.prepare<[string, string]>('DELETE FROM audience_state WHERE user_id = ? AND audience_id IN (SELECT id FROM audiences WHERE source_id = ?)'),
      // RFC 7396 merge: nested objects merge, arrays are replaced, a null removes the trait. The first
      // identify goes through the same merge (onto {}) so that nulls are dropped there too.
      recordIdentify: db.prepare<[{ sourceId: string; userId: string; traits: string; now: number }]>(
        `INSERT INTO user_traits (source_id, user_id, traits, updated_at) VALUES (@sourceId, @userId, json_patch('{}', @traits), @now)
         ON CONFLICT (source_id, user_id) DO UPDATE SET traits = json_patch(user_traits.traits, @traits), updated_at = @now`,
      ),
    };
  }

  /**
   * A deletion request: the user's traits as these sources reported them, what their audiences and computed
   * traits last sent the user, and the user as an explicit member or a computed value of them, are forgotten
   * (a later sync neither counts the user in, nor says they left, nor sends them a value).
   */
  forgetUser(sourceIds: readonly string[], userId: string): void {
    for (const sourceId of sourceIds) {
      this.statements.forgetTraits.run(sourceId, userId);
      this.statements.forgetMemberships.run(userId, sourceId);
      for (const row of this.statements.list.all({ sourceId, kind: null })) {
        const definition = JSON.parse(row.definition) as { members?: string[]; values?: Record<string, unknown> };
        const members = definition.members?.filter((m) => m !== userId);
        const named = (definition.members !== undefined && members!.length !== definition.members.length) || (definition.values !== undefined && Object.hasOwn(definition.values, userId));
        if (!named) continue;
        const values = definition.values ? Object.fromEntries(Object.entries(definition.values).filter(([u]) => u !== userId)) : undefined;
        this.statements.setDefinition.run(JSON.stringify({ ...definition, ...(members ? { members } : {}), ...(values ? { values } : {}) }), row.id);
      }
    }
  }

  add(row: { id: string; sourceId: string; kind: AudienceKind; name: string; traitKey: string; definition: string; createdAt: number }): void {
    this.statements.insert.run(row);
  }

  get(id: string): AudienceRow | undefined {
    return this.statements.get.get(id);
  }

  byName(sourceId: string, kind: AudienceKind, name: string): AudienceRow | undefined {
    return this.statements.byName.get(sourceId, kind, name);
  }

  /** The oldest audience of the source that sets this trait key. */
  byKey(sourceId: string, traitKey: string): AudienceRow | undefined {
    return this.statements.byKey.get(sourceId, traitKey);
  }

  list(filter: { sourceId: string | null; kind: AudienceKind | null }): AudienceRow[] {
    return this.statements.list.all(filter);
  }

  setDefinition(definition: string, id: string): void {
    this.statements.setDefinition.run(definition, id);
  }

  setSyncedAt(syncedAt: number, id: string): void {
    this.statements.setSyncedAt.run(syncedAt, id);
  }

  /** Its last sync's state goes with it (ON DELETE CASCADE). */
  delete(id: string): void {
    this.statements.delete.run(id);
  }

  usersOf(sourceId: string): { user_id: string; traits: string }[] {
    return this.statements.usersOf.all(sourceId);
  }

  stateOf(id: string): { user_id: string; value: string }[] {
    return this.statements.stateOf.all(id);
  }

  setState(id: string, userId: string, value: string): void {
    this.statements.setState.run(id, userId, value);
  }

  clearState(id: string, userId: string): void {
    this.statements.clearState.run(id, userId);
  }

  /** Merges an identify's traits into the user's (RFC 7396); throws SQLite's error for traits its JSON functions refuse. */
  recordIdentify(args: { sourceId: string; userId: string; traits: string; now: number }): void {
    this.statements.recordIdentify.run(args);
  }
}
