/**
 * Audiences and computed traits (docs/behaviour.md §8, webhook-destination spec "Audience and computed-trait
 * delivery"): definitions and the last-synced state live in SQLite (`audiences`, `audience_state`); users and
 * their traits come from `user_traits`, which ingestion fills through `recordIdentify`. A sync sends one
 * identify per user whose value changed, through the source's destinations, via the injected `send`.
 *
 * No feedback loop: the identify calls a sync sends go straight to `send` (the core's sendMessages), not
 * through ingestion, so they are never merged into `user_traits`; an audience's own trait can therefore
 * never make a rule match. Keep it that way if ingestion and sending are ever joined.
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { SendMessageOutput } from '../contract/api.js';
import {
  PREVIEW_LIMIT,
  type Audience,
  type AudienceDetail,
  type AudienceKind,
  type AudiencePreview,
  type AudienceSyncResult,
  type ComputedTrait,
  type ComputedTraitSyncResult,
  type JsonValue,
  type Traits,
} from '../contract/audiences.js';
import type { CommandParsed } from '../contract/dispatch.js';
import type { Source } from '../contract/sources.js';
import { err, ok, type ApiError, type Result } from '../contract/result.js';
import type { SendMessageInput } from '../contract/schemas.js';
import type { Page } from '../contract/messages.js';
import { diffState, evaluateMembership, membershipState, snakeCase } from '../domain/audiences.js';
import { atomically } from '../store/atomically.js';
import type { AudienceRow, AudienceStore } from './audienceStore.js';
import {
  audienceSyncResult,
  compareIds,
  computedSyncResult,
  toAudience,
  toComputedTrait,
  traitNames,
  type AudienceDefinition,
  type ComputedDefinition,
  type SyncOutcome,
} from './audienceViews.js';

export interface AudienceServiceOptions {
  /** The audiences' rows, in the core's database: `send` must write through the same connection, so that a
   * sync's messages and its new state commit together. */
  store: AudienceStore;
  /**
   * The store's transaction helper (Store.transaction): what a sync sends is announced by the core only
   * after this transaction commits (afterCommit), never while it may still roll back.
   */
  transaction: <T>(fn: () => T) => T;
  clock: { now(): number };
  send: (messages: SendMessageInput[]) => Result<SendMessageOutput[]>;
  /** A source by id or name. */
  findSource: (ref: string) => Source | null;
  /** The refusal of a source reference that matches none, naming the sources there are. */
  noSuchSource: (field: string, ref: string) => ApiError;
}

const KIND_WORD: Record<AudienceKind, string> = { audience: 'audience', computed_trait: 'computed trait' };
/** "an audience", "a computed trait". */
const A_KIND: Record<AudienceKind, string> = { audience: 'an audience', computed_trait: 'a computed trait' };

export class AudienceService {
  private readonly transaction: AudienceServiceOptions['transaction'];
  private readonly clock: { now(): number };
  private readonly send: AudienceServiceOptions['send'];
  private readonly findSource: AudienceServiceOptions['findSource'];
  private readonly noSuchSource: AudienceServiceOptions['noSuchSource'];
  private readonly store: AudienceStore;

  constructor(options: AudienceServiceOptions) {
    this.transaction = options.transaction;
    this.clock = options.clock;
    this.send = options.send;
    this.findSource = options.findSource;
    this.noSuchSource = options.noSuchSource;
    this.store = options.store;
  }

  // ---------------------------------------------------------------- traits

  /**
   * Merges an identify call's traits into the user's stored traits for that source (called by ingestion for
   * accepted identify calls that have a userId). Traits that are not an object record the user with none.
   * The only error is traits SQLite's JSON functions refuse (nested over 1000 levels): the call itself can
   * still be accepted; its traits are just not stored.
   */
  recordIdentify(sourceId: string, userId: string, traits: unknown): Result<void> {
    if (userId === '') return err({ code: 'missing_identity', field: 'userId', message: 'userId: traits are stored per userId' });
    const patch = typeof traits === 'object' && traits !== null && !Array.isArray(traits) ? traits : {};
    try {
      this.store.recordIdentify({ sourceId, userId, traits: JSON.stringify(patch), now: this.clock.now() });
    } catch (e) {
      if (e instanceof Database.SqliteError && /JSON/i.test(e.message)) {
        return err({ code: 'invalid_input', field: 'traits', message: `traits: cannot be stored (${e.message})` });
      }
      throw e;
    }
    return ok(undefined);
  }

  // ---------------------------------------------------------------- audiences

  /** Creates the audience and syncs it at once: one identify `{<key>: true}` per member. */
  createAudience(input: CommandParsed<'createAudience'>): Result<{ audience: Audience; sync: AudienceSyncResult }> {
    const { source: sourceRef, name, members, rule } = input;
    const definition: AudienceDefinition = { members: members ?? [], rule: rule ?? null };
    const created = this.create(sourceRef, 'audience', name, definition);
    if (!created.ok) return created;
    return ok({ audience: toAudience(created.value.row), sync: audienceSyncResult(created.value.sync) });
  }

  /** Replaces members and/or rule (`null` clears one); takes effect at the next sync. */
  updateAudience(input: CommandParsed<'updateAudience'>): Result<Audience> {
    const row = this.row(input.id, 'audience');
    if (!row.ok) return row;
    const current = JSON.parse(row.value.definition) as AudienceDefinition;
    const { members, rule } = input.patch;
    const next: AudienceDefinition = {
      members: members === undefined ? current.members : (members ?? []),
      rule: rule === undefined ? current.rule : rule,
    };
    if (next.members.length === 0 && next.rule === null) {
      return err({ code: 'invalid_input', field: 'patch', message: 'patch: an audience needs members, a rule, or both' });
    }
    this.store.setDefinition(JSON.stringify(next), row.value.id);
    return ok(toAudience({ ...row.value, definition: JSON.stringify(next) }));
  }

  /** Sends identify only for users whose membership changed since the last sync (true: joined, false: left). */
  syncAudience(input: CommandParsed<'syncAudience'>): Result<AudienceSyncResult> {
    const row = this.row(input.id, 'audience');
    if (!row.ok) return row;
    const synced = this.atomically(() => this.sync(row.value));
    return synced.ok ? ok(audienceSyncResult(synced.value)) : synced;
  }

  /** Deletes the definition and its state. Nothing is sent: members keep the trait they were last sent. */
  deleteAudience(input: CommandParsed<'deleteAudience'>): Result<{ id: string }> {
    return this.remove(input, 'audience');
  }

  /** Audiences and computed traits, by name; optionally of one source or kind. */
  listAudiences(input: CommandParsed<'listAudiences'> = {}): Result<Page<Audience | ComputedTrait>> {
    let sourceId: string | null = null;
    if (input.source !== undefined) {
      const source = this.findSource(input.source);
      if (!source) return err(this.noSuchSource('source', input.source));
      sourceId = source.id;
    }
    const rows = this.store.list({ sourceId, kind: input.kind ?? null });
    return ok({ items: rows.map((r) => (r.kind === 'audience' ? toAudience(r) : toComputedTrait(r))), nextCursor: null });
  }

  /**
   * One audience or computed trait with the values its last sync left each user with, and the changes a
   * sync now would send (nothing is sent or stored).
   */
  getAudience(input: CommandParsed<'getAudience'>): Result<AudienceDetail> {
    const row = this.store.get(input.id);
    if (!row) return err({ code: 'not_found', field: 'id', message: `id: no audience or computed trait with id ${JSON.stringify(input.id)}` });
    const { previous, next, users } = this.states(row);
    const synced = [...previous].map(([userId, value]) => ({ userId, value })).sort((a, b) => compareIds(a.userId, b.userId));
    const pending = diffState(previous, next, row.kind).map(({ userId, value, change }) => ({ userId, value, change }));
    return ok({ item: row.kind === 'audience' ? toAudience(row) : toComputedTrait(row), synced, pending, users });
  }

  /** Who a definition would hold now (explicit members ∪ rule matches), without saving or sending anything. */
  previewAudience(input: CommandParsed<'previewAudience'>): Result<AudiencePreview> {
    const source = this.findSource(input.source);
    if (!source) return err(this.noSuchSource('source', input.source));
    const users = this.usersOf(source.id);
    const members = [...evaluateMembership({ members: input.members ?? [], rule: input.rule ?? null }, users)].sort(compareIds);
    return ok({ members: members.slice(0, PREVIEW_LIMIT), total: members.length, users: users.size, traits: traitNames(users.values(), PREVIEW_LIMIT) });
  }

  // ---------------------------------------------------------------- computed traits

  /** Creates the computed trait and syncs it at once: one identify `{<key>: value}` per user. */
  createComputedTrait(input: CommandParsed<'createComputedTrait'>): Result<{ computedTrait: ComputedTrait; sync: ComputedTraitSyncResult }> {
    const created = this.create(input.source, 'computed_trait', input.name, { values: input.values });
    if (!created.ok) return created;
    return ok({ computedTrait: toComputedTrait(created.value.row), sync: computedSyncResult(created.value.sync) });
  }

  /** Replaces every value; takes effect at the next sync. */
  updateComputedTrait(input: CommandParsed<'updateComputedTrait'>): Result<ComputedTrait> {
    const row = this.row(input.id, 'computed_trait');
    if (!row.ok) return row;
    const definition = JSON.stringify({ values: input.values } satisfies ComputedDefinition);
    this.store.setDefinition(definition, row.value.id);
    return ok(toComputedTrait({ ...row.value, definition }));
  }

  /** Sends identify only for changed values; users whose value was removed get null. */
  syncComputedTrait(input: CommandParsed<'syncComputedTrait'>): Result<ComputedTraitSyncResult> {
    const row = this.row(input.id, 'computed_trait');
    if (!row.ok) return row;
    const synced = this.atomically(() => this.sync(row.value));
    return synced.ok ? ok(computedSyncResult(synced.value)) : synced;
  }

  deleteComputedTrait(input: CommandParsed<'deleteComputedTrait'>): Result<{ id: string }> {
    return this.remove(input, 'computed_trait');
  }

  // ---------------------------------------------------------------- shared

  private create(
    sourceRef: string,
    kind: AudienceKind,
    name: string,
    definition: AudienceDefinition | ComputedDefinition,
  ): Result<{ row: AudienceRow; sync: SyncOutcome }> {
    const source = this.findSource(sourceRef);
    if (!source) return err(this.noSuchSource('source', sourceRef));
    const key = snakeCase(name);
    if (!key.ok) return key;
    return this.atomically(() => {
      const sameName = this.store.byName(source.id, kind, name);
      if (sameName) {
        return err({ code: 'conflict', field: 'name', message: `name: source "${source.name}" already has ${A_KIND[kind]} named "${name}"` });
      }
      const sameKey = this.store.byKey(source.id, key.value);
      if (sameKey) {
        return err({
          code: 'conflict',
          field: 'name',
          message: `name: "${name}" becomes the trait "${key.value}", which ${KIND_WORD[sameKey.kind]} "${sameKey.name}" (${sameKey.id}) of source "${source.name}" already sets`,
        });
      }
      const row: AudienceRow = {
        id: randomUUID(),
        source_id: source.id,
        kind,
        name,
        trait_key: key.value,
        definition: JSON.stringify(definition),
        created_at: this.clock.now(),
        synced_at: null,
      };
      this.store.add({
        id: row.id,
        sourceId: row.source_id,
        kind,
        name,
        traitKey: row.trait_key,
        definition: row.definition,
        createdAt: row.created_at,
      });
      const sync = this.sync(row);
      if (!sync.ok) return sync;
      return ok({ row: { ...row, synced_at: this.store.get(row.id)?.synced_at ?? null }, sync: sync.value });
    });
  }

  /** Diffs the values now against the state of the last sync, sends the changes and stores the new state. */
  private sync(row: AudienceRow): Result<SyncOutcome> {
    const { previous, next } = this.states(row);
    const changes = diffState(previous, next, row.kind);
    let messageIds: number[] = [];
    if (changes.length > 0) {
      const sent = this.send(
        changes.map((c) => ({ type: 'identify', call: { userId: c.userId, traits: { [row.trait_key]: c.value } }, source: row.source_id })),
      );
      if (!sent.ok) return sent;
      messageIds = sent.value.map((o) => o.message.id);
      for (const c of changes) {
        // Removed users leave the state: a leaver is told once, and nothing more is owed to them.
        if (c.change === 'removed') this.store.clearState(row.id, c.userId);
        else this.store.setState(row.id, c.userId, JSON.stringify(c.value));
      }
    }
    this.store.setSyncedAt(this.clock.now(), row.id);
    return ok({ changes, messageIds });
  }

  /** The values of the last sync, the values now, and how many users the source has traits for. */
  private states(row: AudienceRow): { previous: Map<string, JsonValue>; next: Map<string, JsonValue>; users: number } {
    const users = this.usersOf(row.source_id);
    const next =
      row.kind === 'audience'
        ? membershipState(evaluateMembership(JSON.parse(row.definition) as AudienceDefinition, users))
        : new Map(Object.entries((JSON.parse(row.definition) as ComputedDefinition).values));
    const previous = new Map(this.store.stateOf(row.id).map((r) => [r.user_id, JSON.parse(r.value) as JsonValue]));
    return { previous, next, users: users.size };
  }

  private usersOf(sourceId: string): Map<string, Traits> {
    return new Map(this.store.usersOf(sourceId).map((r) => [r.user_id, JSON.parse(r.traits) as Traits]));
  }

  private row(id: string, kind: AudienceKind): Result<AudienceRow> {
    const row = this.store.get(id);
    if (!row) return err({ code: 'not_found', field: 'id', message: `id: no ${KIND_WORD[kind]} with id ${JSON.stringify(id)}` });
    if (row.kind !== kind) {
      return err({ code: 'not_found', field: 'id', message: `id: ${JSON.stringify(id)} is ${A_KIND[row.kind]}, not ${A_KIND[kind]}` });
    }
    return ok(row);
  }

  private remove(input: { id: string }, kind: AudienceKind): Result<{ id: string }> {
    const row = this.row(input.id, kind);
    if (!row.ok) return row;
    this.store.delete(row.value.id); // audience_state goes with it (ON DELETE CASCADE)
    return ok({ id: row.value.id });
  }

  /** Runs `fn` in the store's transaction, rolled back when it returns an error. */
  private atomically<T>(fn: () => Result<T>): Result<T> {
    return atomically(this.transaction, fn);
  }

}

