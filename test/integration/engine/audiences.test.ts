/**
 * Audiences and computed traits end to end (docs/behaviour.md §8, webhook-destination spec "Audience and
 * computed-trait delivery"): a real core over a temp dir, a real receiver on port 0, identify calls routed
 * through the source's enabled connected destination.
 */
import { describe, expect, it } from 'vitest';
import type { Source } from '../../../main/contract/sources.js';
import { err } from '../../../main/contract/result.js';
import { AudienceService, type AudienceServiceOptions } from '../../../main/audiences/audienceService.js';
import { AudienceStore } from '../../../main/audiences/audienceStore.js';
import { internalsOf, type Core } from '../../../main/app/createCore.js';
import { entered, type Entered } from '../../helpers/entered.js';
import { must, newCore, newReceiver, settled } from '../../helpers/harness.js';
import type { TestReceiver } from '../../helpers/receiver.js';

interface IdentifyBody {
  type: string;
  userId: string;
  traits: Record<string, unknown>;
}

/**
 * The core's own service; with `send`, a service whose sends go through that function (failure tests). Its
 * commands are called as the core calls them, the input parsed first (test/helpers/entered.ts).
 */
function serviceFor(core: Core, send?: AudienceServiceOptions['send']): Entered<AudienceService> {
  if (!send) return entered(core.audiences);
  return entered(new AudienceService({ store: new AudienceStore(internalsOf(core).store.db), transaction: (fn) => internalsOf(core).store.transaction(fn), clock: core.clock, send, findSource: (ref) => core.findSource(ref), noSuchSource: (field, ref) => ({ code: 'not_found', field, message: `${field}: no source ${ref}` }) }));
}

async function setup(): Promise<{ core: Core; rx: TestReceiver; source: Source; service: Entered<AudienceService>; delivered: (ids: number[]) => Promise<IdentifyBody[]> }> {
  const rx = await newReceiver();
  const core = newCore();
  const source = must(core.createSource({ name: 'web', kind: 'web' }));
  must(core.createDestination({ name: 'hooks', enabled: true, url: rx.url, sources: [source.id] }));
  const service = serviceFor(core);
  let seen = 0;
  /** Waits for these messages to settle and returns the bodies received since the last call, by userId. */
  const delivered = async (ids: number[]): Promise<IdentifyBody[]> => {
    for (const id of ids) expect((await settled(core, id)).message.status).toBe('delivered');
    await core.idle();
    const bodies = rx.captured.slice(seen).map((c) => JSON.parse(c.body.toString('utf8')) as IdentifyBody);
    seen = rx.captured.length;
    return bodies.sort((a, b) => a.userId.localeCompare(b.userId));
  };
  return { core, rx, source, service, delivered };
}

const identify = (userId: string, traits: Record<string, unknown>) => ({ type: 'identify', userId, traits });

describe('audiences: identify per membership change', () => {
  it('first sync sends one identify per member with <snake_case(name)>: true; no change sends nothing; a change sends exactly the joiner and the leaver', async () => {
    const { source, service, delivered, rx } = await setup();
    service.recordIdentify(source.id, 'u1', { spend: 500 });
    service.recordIdentify(source.id, 'u2', { spend: 50 });
    service.recordIdentify(source.id, 'u3', { spend: 200, plan: 'pro' });

    const created = must(service.createAudience({ source: 'web', name: 'Big Spenders (EU) 2026', rule: { trait: 'spend', op: 'gt', value: 100 } }));
    expect(created.audience).toMatchObject({ kind: 'audience', sourceId: source.id, traitKey: 'big_spenders_eu_2026', members: [] });
    expect(created.audience.syncedAt).not.toBeNull();
    expect(created.sync).toMatchObject({ sent: 2, joined: ['u1', 'u3'], left: [] });
    const first = await delivered(created.sync.messageIds);
    expect(first).toHaveLength(2);
    expect(first).toEqual([expect.objectContaining(identify('u1', { big_spenders_eu_2026: true })), expect.objectContaining(identify('u3', { big_spenders_eu_2026: true }))]);
    // The traits are exactly the audience's trait: nothing of the stored traits leaks into the call.
    for (const body of first) expect(body.traits).toStrictEqual({ big_spenders_eu_2026: true });

    const unchanged = must(service.syncAudience({ id: created.audience.id }));
    expect(unchanged).toEqual({ sent: 0, joined: [], left: [], messageIds: [], calls: [] });
    expect(await delivered([])).toEqual([]);

    service.recordIdentify(source.id, 'u2', { spend: 300 }); // joins
    service.recordIdentify(source.id, 'u1', { spend: 10 }); // leaves
    // Before the sync, getAudience says what it would send; nothing is sent by asking.
    const before = must(service.getAudience({ id: created.audience.id }));
    expect(before.synced).toEqual([{ userId: 'u1', value: true }, { userId: 'u3', value: true }]);
    expect(before.pending).toEqual([{ userId: 'u1', value: false, change: 'removed' }, { userId: 'u2', value: true, change: 'added' }]);
    expect(before.users).toBe(3);
    const changed = must(service.syncAudience({ id: created.audience.id }));
    expect(changed).toMatchObject({ sent: 2, joined: ['u2'], left: ['u1'] });
    // Each identify call with its message: exactly what getAudience said would go.
    expect(changed.calls).toEqual(before.pending.map((p, i) => ({ ...p, messageId: changed.messageIds[i] })));
    const after = must(service.getAudience({ id: created.audience.id }));
    expect(after.pending).toEqual([]);
    expect(after.synced).toEqual([{ userId: 'u2', value: true }, { userId: 'u3', value: true }]);
    const bodies = await delivered(changed.messageIds);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject(identify('u1', { big_spenders_eu_2026: false }));
    expect(bodies[1]).toMatchObject(identify('u2', { big_spenders_eu_2026: true }));

    // A leaver is told once.
    expect(must(service.syncAudience({ id: created.audience.id })).sent).toBe(0);
    await delivered([]);
    expect(rx.captured).toHaveLength(4);
  });

  it('explicit members (with no stored traits), members ∪ rule, and a patch that takes effect at the next sync', async () => {
    const { source, service, delivered } = await setup();
    service.recordIdentify(source.id, 'r1', { plan: 'pro' });
    service.recordIdentify(source.id, 'r2', { plan: 'free' });

    const created = must(service.createAudience({ source: source.id, name: 'Beta testers', members: ['m1', 'm2', 'm1'] }));
    expect(created.audience.members).toEqual(['m1', 'm2']);
    const first = await delivered(created.sync.messageIds);
    expect(first).toEqual([
      expect.objectContaining(identify('m1', { beta_testers: true })),
      expect.objectContaining(identify('m2', { beta_testers: true })),
    ]);

    const patched = must(service.updateAudience({ id: created.audience.id, patch: { members: ['m2', 'm3'], rule: { trait: 'plan', op: 'equals', value: 'pro' } } }));
    expect(patched.rule).toEqual({ trait: 'plan', op: 'equals', value: 'pro' });
    expect(await delivered([])).toEqual([]); // an update sends nothing by itself

    const sync = must(service.syncAudience({ id: created.audience.id }));
    expect(sync).toMatchObject({ joined: ['m3', 'r1'], left: ['m1'] });
    expect(await delivered(sync.messageIds)).toEqual([
      expect.objectContaining(identify('m1', { beta_testers: false })),
      expect.objectContaining(identify('m3', { beta_testers: true })),
      expect.objectContaining(identify('r1', { beta_testers: true })),
    ]);

    const cleared = service.updateAudience({ id: created.audience.id, patch: { members: null, rule: null } });
    expect(cleared.ok).toBe(false);
    if (!cleared.ok) expect(cleared.error).toMatchObject({ code: 'invalid_input', field: 'patch' });
  });
});

describe('previewAudience: who a definition holds now, before it is saved', () => {
  it('members ∪ rule matches among the source users, the total, and the trait names the rule editor offers', async () => {
    const { source, service } = await setup();
    service.recordIdentify(source.id, 'u1', { spend: 500, address: { city: 'Lyon' } });
    service.recordIdentify(source.id, 'u2', { spend: 50, plan: 'pro' });
    const preview = must(service.previewAudience({ source: 'web', members: ['m9'], rule: { any: [{ trait: 'spend', op: 'gt', value: 100 }, { trait: 'plan', op: 'equals', value: 'pro' }] } }));
    expect(preview).toEqual({ members: ['m9', 'u1', 'u2'], total: 3, users: 2, traits: ['address', 'address.city', 'plan', 'spend'] });
    expect(must(service.listAudiences({ source: 'web' })).items).toEqual([]); // nothing saved
    const bad = service.previewAudience({ source: 'web', rule: { trait: 'spend', op: 'gt', value: 'lots' } } as never);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.field).toBe('rule.value');
    const unknown = service.previewAudience({ source: 'nope' });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toMatchObject({ code: 'not_found', field: 'source' });
  });
});

describe('a deletion request and the audiences', () => {
  it("forgets what the source reported of the user and what its audiences sent them: no later sync names the user, in or out", async () => {
    const { core, source, service } = await setup();
    service.recordIdentify(source.id, 'u1', { email: 'ada@example.com' });
    service.recordIdentify(source.id, 'u2', { email: 'bob@example.com' });
    const audience = must(service.createAudience({ source: 'web', name: 'Has Email', rule: { trait: 'email', op: 'exists' } }));
    expect(audience.sync.joined).toEqual(['u1', 'u2']);
    must(core.createDeletionRequest({ userId: 'u1', sources: ['web'] }));
    expect(must(service.previewAudience({ source: 'web', rule: { trait: 'email', op: 'exists' } })).members).toEqual(['u2']);
    // Neither 'joined' (traits gone) nor 'left' (what was sent is forgotten): nothing for u1.
    expect(must(service.syncAudience({ id: audience.audience.id }))).toMatchObject({ sent: 0, joined: [], left: [] });
  });

  it('a user named as an explicit member or given a computed value is forgotten there too: no later sync sends them anything', async () => {
    const { core, service } = await setup();
    const audience = must(service.createAudience({ source: 'web', name: 'VIP', members: ['zed', 'amy'] })).audience;
    const trait = must(service.createComputedTrait({ source: 'web', name: 'LTV', values: { zed: 900, amy: 10 } })).computedTrait;
    must(core.createDeletionRequest({ userId: 'zed', sources: ['web'] }));
    expect(must(service.getAudience({ id: audience.id })).item).toMatchObject({ members: ['amy'] });
    expect(must(service.getAudience({ id: trait.id })).item).toMatchObject({ values: { amy: 10 } });
    expect(must(service.syncAudience({ id: audience.id }))).toMatchObject({ sent: 0, joined: [], left: [] });
    expect(must(service.syncComputedTrait({ id: trait.id })).sent).toBe(0);
  });
});

describe('computed traits', () => {
  it('first sync sends every value; a later sync only the changed ones, and null for removed users', async () => {
    const { service, delivered } = await setup();
    const created = must(service.createComputedTrait({ source: 'web', name: 'Lifetime Value', values: { u1: 120.5, u2: 'gold', u3: { orders: [1, 2] } } }));
    expect(created.computedTrait).toMatchObject({ kind: 'computed_trait', traitKey: 'lifetime_value' });
    expect(created.sync).toMatchObject({ sent: 3, changed: ['u1', 'u2', 'u3'], removed: [] });
    expect(await delivered(created.sync.messageIds)).toEqual([
      expect.objectContaining(identify('u1', { lifetime_value: 120.5 })),
      expect.objectContaining(identify('u2', { lifetime_value: 'gold' })),
      expect.objectContaining(identify('u3', { lifetime_value: { orders: [1, 2] } })),
    ]);

    expect(must(service.syncComputedTrait({ id: created.computedTrait.id })).sent).toBe(0);

    // u1 changes, u2 is removed (left out), u3 is deep-equal (keys in another order), u4 is new.
    must(service.updateComputedTrait({ id: created.computedTrait.id, values: { u1: 99, u3: { orders: [1, 2] }, u4: false } }));
    const sync = must(service.syncComputedTrait({ id: created.computedTrait.id }));
    expect(sync).toMatchObject({ sent: 3, changed: ['u1', 'u4'], removed: ['u2'] });
    expect(sync.calls.map(({ userId, value, change }) => ({ userId, value, change }))).toEqual([
      { userId: 'u1', value: 99, change: 'changed' },
      { userId: 'u2', value: null, change: 'removed' },
      { userId: 'u4', value: false, change: 'added' },
    ]);
    expect(must(service.getAudience({ id: created.computedTrait.id })).synced).toEqual([
      { userId: 'u1', value: 99 },
      { userId: 'u3', value: { orders: [1, 2] } },
      { userId: 'u4', value: false },
    ]);
    expect(await delivered(sync.messageIds)).toEqual([
      expect.objectContaining(identify('u1', { lifetime_value: 99 })),
      expect.objectContaining(identify('u2', { lifetime_value: null })),
      expect.objectContaining(identify('u4', { lifetime_value: false })),
    ]);

    // A null value means "no value": u4 loses theirs.
    must(service.updateComputedTrait({ id: created.computedTrait.id, values: { u1: 99, u3: { orders: [1, 2] }, u4: null } }));
    const again = must(service.syncComputedTrait({ id: created.computedTrait.id }));
    expect(again).toMatchObject({ changed: [], removed: ['u4'] });
    expect(await delivered(again.messageIds)).toEqual([expect.objectContaining(identify('u4', { lifetime_value: null }))]);
  });
});

describe('names, keys and lifecycle', () => {
  it('a duplicate name is a conflict naming `name`; a colliding snake_case key names the other audience', async () => {
    const { core, service } = await setup();
    const first = must(service.createAudience({ source: 'web', name: 'Big Spenders', members: ['u1'] }));

    const dup = service.createAudience({ source: 'web', name: 'Big Spenders', members: ['u2'] });
    expect(dup.ok).toBe(false);
    if (!dup.ok) expect(dup.error).toMatchObject({ code: 'conflict', field: 'name' });

    const collide = service.createAudience({ source: 'web', name: 'big spenders!', members: ['u2'] });
    expect(collide.ok).toBe(false);
    if (!collide.ok) {
      expect(collide.error).toMatchObject({ code: 'conflict', field: 'name' });
      expect(collide.error.message).toContain('big_spenders');
      expect(collide.error.message).toContain('audience "Big Spenders"');
      expect(collide.error.message).toContain(first.audience.id);
    }

    // Computed traits set traits too: the same key collides across kinds.
    const trait = service.createComputedTrait({ source: 'web', name: 'BIG_SPENDERS', values: { u1: 1 } });
    expect(trait.ok).toBe(false);
    if (!trait.ok) expect(trait.error.message).toContain('audience "Big Spenders"');

    // Another source has its own namespace.
    must(core.createSource({ name: 'app', kind: 'mobile' }));
    must(service.createAudience({ source: 'app', name: 'Big Spenders', members: ['u1'] }));

    const nameless = service.createAudience({ source: 'web', name: '(!!)', members: ['u1'] });
    expect(nameless.ok).toBe(false);
    if (!nameless.ok) expect(nameless.error).toMatchObject({ code: 'invalid_input', field: 'name' });

    const noSource = service.createAudience({ source: 'nope', name: 'x', members: ['u1'] });
    expect(noSource.ok).toBe(false);
    if (!noSource.ok) expect(noSource.error).toMatchObject({ code: 'not_found', field: 'source' });

    expect(must(service.listAudiences({ source: 'web' })).items.map((a) => a.name)).toEqual(['Big Spenders']);
    expect(must(service.listAudiences()).items).toHaveLength(2);
  });

  it('list, kind checks and delete (the name is free again)', async () => {
    const { service } = await setup();
    const a = must(service.createAudience({ source: 'web', name: 'A', members: ['u1'] })).audience;
    const t = must(service.createComputedTrait({ source: 'web', name: 'T', values: { u1: 1 } })).computedTrait;
    expect(must(service.listAudiences({ kind: 'computed_trait' })).items.map((x) => x.id)).toEqual([t.id]);

    const wrongKind = service.syncAudience({ id: t.id });
    expect(wrongKind.ok).toBe(false);
    if (!wrongKind.ok) expect(wrongKind.error).toMatchObject({ code: 'not_found', field: 'id' });

    must(service.deleteAudience({ id: a.id }));
    must(service.deleteComputedTrait({ id: t.id }));
    expect(must(service.listAudiences()).items).toEqual([]);
    expect(service.syncAudience({ id: a.id }).ok).toBe(false);
    must(service.createAudience({ source: 'web', name: 'A', members: ['u1'] }));
  });

  it('announces its identify calls only once they are committed (messageAccepted after the transaction)', async () => {
    const { core, service } = await setup();
    const inTransaction: boolean[] = [];
    core.onEvent((e) => {
      if (e.type === 'messageAccepted') inTransaction.push(internalsOf(core).store.db.inTransaction);
    });
    must(service.createAudience({ source: 'web', name: 'Early', members: ['u1', 'u2'] }));
    expect(inTransaction).toEqual([false, false]);
  });

  it('a failed send rolls the creation back: no audience, no state', async () => {
    const { core } = await setup();
    const failing = serviceFor(core, () => err({ code: 'internal', message: 'boom' }));
    const r = failing.createAudience({ source: 'web', name: 'A', members: ['u1'] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe('boom');
    expect(must(failing.listAudiences()).items).toEqual([]);
    expect(internalsOf(core).store.db.prepare('SELECT count(*) AS n FROM audience_state').get()).toEqual({ n: 0 });
  });
});

describe('recordIdentify: stored traits', () => {
  const traitsOf = (core: Core, sourceId: string, userId: string): unknown => {
    const row = internalsOf(core).store.db.prepare<[string, string], { traits: string }>('SELECT traits FROM user_traits WHERE source_id = ? AND user_id = ?').get(sourceId, userId);
    return row ? (JSON.parse(row.traits) as unknown) : undefined;
  };

  it('merges identify traits per source: nested objects merge, arrays are replaced, null removes', async () => {
    const { core, source, service } = await setup();
    service.recordIdentify(source.id, 'u1', { plan: 'free', address: { city: 'Lyon', zip: '69001' }, tags: ['a'], gone: null });
    expect(traitsOf(core, source.id, 'u1')).toEqual({ plan: 'free', address: { city: 'Lyon', zip: '69001' }, tags: ['a'] });
    service.recordIdentify(source.id, 'u1', { plan: 'pro', address: { city: 'Paris' }, tags: ['b'], zip: null });
    service.recordIdentify(source.id, 'u1', { address: { zip: null } });
    expect(traitsOf(core, source.id, 'u1')).toEqual({ plan: 'pro', address: { city: 'Paris' }, tags: ['b'] });
    must(service.recordIdentify(source.id, 'u2', 'not an object'));
    expect(traitsOf(core, source.id, 'u2')).toEqual({});
  });

  it('traits SQLite cannot store are an error naming traits, and leave the stored ones alone', async () => {
    const { core, source, service } = await setup();
    must(service.recordIdentify(source.id, 'u1', { plan: 'pro' }));
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 1500; i++) deep = { a: deep };
    const r = service.recordIdentify(source.id, 'u1', deep);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'invalid_input', field: 'traits' });
    expect(traitsOf(core, source.id, 'u1')).toEqual({ plan: 'pro' });
    expect(service.recordIdentify(source.id, '', { plan: 'x' }).ok).toBe(false);
  });

  it('the identify calls a sync sends are not merged back into the stored traits (no feedback)', async () => {
    const { core, source, service, delivered } = await setup();
    service.recordIdentify(source.id, 'u1', { plan: 'pro' });
    const created = must(service.createAudience({ source: 'web', name: 'Pro', rule: { trait: 'plan', op: 'equals', value: 'pro' } }));
    await delivered(created.sync.messageIds);
    expect(traitsOf(core, source.id, 'u1')).toEqual({ plan: 'pro' });
  });
});
