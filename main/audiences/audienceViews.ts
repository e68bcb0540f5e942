/**
 * How the audiences' rows read as the API's models: an audience or computed trait from its row and stored
 * definition, a sync's outcome as its result, and the trait names a rule editor offers.
 */
import type { Audience, AudienceSyncResult, ComputedTrait, ComputedTraitSyncResult, JsonValue, Rule, SyncCall, Traits } from '../contract/audiences.js';
import type { StateChange } from '../domain/audiences.js';
import type { AudienceRow } from './audienceStore.js';

/** An audience's stored definition (the row's `definition` JSON). */
export interface AudienceDefinition {
  members: string[];
  rule: Rule | null;
}
/** A computed trait's stored definition. */
export interface ComputedDefinition {
  values: Record<string, JsonValue>;
}

/** What a sync did: the users' changes and the messages it sent, one per change. */
export interface SyncOutcome {
  changes: StateChange[];
  messageIds: number[];
}

export function toAudience(r: AudienceRow): Audience {
  const d = JSON.parse(r.definition) as AudienceDefinition;
  return {
    id: r.id,
    kind: 'audience',
    sourceId: r.source_id,
    name: r.name,
    traitKey: r.trait_key,
    members: d.members,
    rule: d.rule,
    createdAt: r.created_at,
    syncedAt: r.synced_at,
  };
}

export function toComputedTrait(r: AudienceRow): ComputedTrait {
  const d = JSON.parse(r.definition) as ComputedDefinition;
  return {
    id: r.id,
    kind: 'computed_trait',
    sourceId: r.source_id,
    name: r.name,
    traitKey: r.trait_key,
    values: d.values,
    createdAt: r.created_at,
    syncedAt: r.synced_at,
  };
}

/** The identify calls of a sync: `send` answers one message per call, in order. */
export function callsOf(s: SyncOutcome): SyncCall[] {
  return s.changes.map((c, i) => ({ userId: c.userId, value: c.value, change: c.change, messageId: s.messageIds[i]! }));
}

export function audienceSyncResult(s: SyncOutcome): AudienceSyncResult {
  return {
    sent: s.messageIds.length,
    joined: s.changes.filter((c) => c.value === true).map((c) => c.userId),
    left: s.changes.filter((c) => c.value === false).map((c) => c.userId),
    messageIds: s.messageIds,
    calls: callsOf(s),
  };
}

export function computedSyncResult(s: SyncOutcome): ComputedTraitSyncResult {
  return {
    sent: s.messageIds.length,
    changed: s.changes.filter((c) => c.change !== 'removed').map((c) => c.userId),
    removed: s.changes.filter((c) => c.change === 'removed').map((c) => c.userId),
    messageIds: s.messageIds,
    calls: callsOf(s),
  };
}

export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The trait names users have, for a rule editor to offer: top-level keys and, one level down, dotted paths
 * into objects (`address.city`), as rules name them. Sorted; at most `limit`.
 */
export function traitNames(users: Iterable<Traits>, limit: number): string[] {
  const names = new Set<string>();
  for (const traits of users) {
    for (const [key, value] of Object.entries(traits)) {
      names.add(key);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) for (const inner of Object.keys(value)) names.add(`${key}.${inner}`);
    }
  }
  return [...names].sort(compareIds).slice(0, limit);
}
