import { describe, expect, it } from 'vitest';
import { createAudienceInputSchema, ruleInputSchema, type JsonValue, type Rule, type Traits } from '../../../main/contract/audiences.js';
import { parseWith } from '../../../main/contract/schemas.js';
import { diffState, evaluateMembership, jsonEqual, matchesRule, snakeCase, traitAt } from '../../../main/domain/audiences.js';

const key = (name: string) => {
  const r = snakeCase(name);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('snakeCase (docs/behaviour.md §8)', () => {
  it('the spec example', () => {
    expect(key('Big Spenders (EU) 2026')).toBe('big_spenders_eu_2026');
  });
  it('every run of non-alphanumerics becomes one underscore; leading and trailing ones are trimmed', () => {
    expect(key('  Big   Spenders  ')).toBe('big_spenders');
    expect(key('--Churn risk!!')).toBe('churn_risk');
    expect(key('a__b')).toBe('a_b');
    expect(key('_already_snake_')).toBe('already_snake');
    expect(key('VIP / Gold & Platinum')).toBe('vip_gold_platinum');
    expect(key('Tab\tand\nnewline')).toBe('tab_and_newline');
    expect(key('ümlaut😀emoji')).toBe('ümlaut_emoji');
  });
  it('keeps digits, and letters and digits of every script, lower-cased', () => {
    expect(key('2026')).toBe('2026');
    expect(key('Café Größe')).toBe('café_größe');
    expect(key('ΑΘΗΝΑ Users')).toBe('αθηνα_users');
    expect(key('東京 顧客')).toBe('東京_顧客');
    expect(key('हिन्दी users')).toBe('हिन्दी_users'); // vowel signs are combining marks, not separators
    expect(key('Level ٣')).toBe('level_٣');
  });
  it('composed and decomposed spellings give the same key', () => {
    expect(key('Cafe\u0301')).toBe(key('Caf\u00e9'));
  });
  it('a name with no letters or digits is an error starting with its field, as every other error does, and giving the name', () => {
    for (const name of ['', '   ', '!!!', '(—)', '😀', '\u0301']) {
      const r = snakeCase(name);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatchObject({ code: 'invalid_input', field: 'name' });
        expect(r.error.message).toBe(`name: has no letters or digits, so it makes no trait name (got ${JSON.stringify(name)})`);
      }
    }
  });
});

describe('traitAt and jsonEqual', () => {
  const traits: Traits = { plan: 'pro', address: { city: 'Lyon', geo: { lat: 45 } }, tags: ['a', { b: 1 }], 'a.b': 'literal' };
  it('dotted paths walk objects; numeric segments index arrays; a literal dotted key wins', () => {
    expect(traitAt(traits, 'address.city')).toBe('Lyon');
    expect(traitAt(traits, 'address.geo.lat')).toBe(45);
    expect(traitAt(traits, 'tags.1.b')).toBe(1);
    expect(traitAt(traits, 'a.b')).toBe('literal');
    expect(traitAt(traits, 'address.zip')).toBeUndefined();
    expect(traitAt(traits, 'plan.length')).toBeUndefined();
    expect(traitAt(traits, 'toString')).toBeUndefined();
    expect(traitAt(traits, 'address.constructor')).toBeUndefined();
  });
  it('strict JSON equality: types matter, object key order does not, array order does', () => {
    expect(jsonEqual(1, 1)).toBe(true);
    expect(jsonEqual(1, '1')).toBe(false);
    expect(jsonEqual(null, false)).toBe(false);
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual({ a: [1, { c: 2 }] }, { a: [1, { c: 3 }] })).toBe(false);
  });
  it('compares values nested 100,000 levels deep without overflowing the stack', () => {
    const deep = (levels: number, leaf: string) => JSON.parse(`${'['.repeat(levels)}"${leaf}"${']'.repeat(levels)}`) as JsonValue;
    expect(jsonEqual(deep(100_000, 'x'), deep(100_000, 'x'))).toBe(true);
    expect(jsonEqual(deep(100_000, 'x'), deep(100_000, 'y'))).toBe(false);
  });
});

describe('rules: every operator', () => {
  const u: Traits = {
    plan: 'pro',
    spend: 250,
    zero: 0,
    gone: null,
    vip: false,
    email: 'ada@example.com',
    tags: ['beta', 'eu', 3, { k: 'v' }],
    address: { country: 'FR', zip: '69001' },
    signedUpAt: '2026-02-01T10:00:00Z',
    birthday: '1990-05-17',
    localTime: '2026-02-01T10:00:00',
  };
  const m = (rule: Rule) => matchesRule(rule, u);

  it('equals: strict JSON equality (no coercion), nested values, dotted paths', () => {
    expect(m({ trait: 'plan', op: 'equals', value: 'pro' })).toBe(true);
    expect(m({ trait: 'plan', op: 'equals', value: 'Pro' })).toBe(false);
    expect(m({ trait: 'spend', op: 'equals', value: '250' })).toBe(false);
    expect(m({ trait: 'vip', op: 'equals', value: false })).toBe(true);
    expect(m({ trait: 'zero', op: 'equals', value: false })).toBe(false);
    expect(m({ trait: 'gone', op: 'equals', value: null })).toBe(true);
    expect(m({ trait: 'missing', op: 'equals', value: null })).toBe(false);
    expect(m({ trait: 'address', op: 'equals', value: { zip: '69001', country: 'FR' } })).toBe(true);
    expect(m({ trait: 'address.country', op: 'equals', value: 'FR' })).toBe(true);
  });
  it('not_equals is the negation of equals (a missing trait is not equal)', () => {
    expect(m({ trait: 'plan', op: 'not_equals', value: 'free' })).toBe(true);
    expect(m({ trait: 'plan', op: 'not_equals', value: 'pro' })).toBe(false);
    expect(m({ trait: 'spend', op: 'not_equals', value: '250' })).toBe(true);
    expect(m({ trait: 'missing', op: 'not_equals', value: 'x' })).toBe(true);
  });
  it('exists: present and not null (false and 0 exist)', () => {
    expect(m({ trait: 'plan', op: 'exists' })).toBe(true);
    expect(m({ trait: 'vip', op: 'exists' })).toBe(true);
    expect(m({ trait: 'zero', op: 'exists' })).toBe(true);
    expect(m({ trait: 'gone', op: 'exists' })).toBe(false);
    expect(m({ trait: 'missing', op: 'exists' })).toBe(false);
    expect(m({ trait: 'address.zip', op: 'exists' })).toBe(true);
    expect(m({ trait: 'address.street', op: 'exists' })).toBe(false);
  });
  it('gt/lt on numbers (strictly)', () => {
    expect(m({ trait: 'spend', op: 'gt', value: 100 })).toBe(true);
    expect(m({ trait: 'spend', op: 'gt', value: 250 })).toBe(false);
    expect(m({ trait: 'spend', op: 'lt', value: 250.5 })).toBe(true);
    expect(m({ trait: 'spend', op: 'lt', value: 250 })).toBe(false);
    expect(m({ trait: 'missing', op: 'gt', value: 0 })).toBe(false);
    expect(m({ trait: 'gone', op: 'lt', value: 1 })).toBe(false);
  });
  it('gt/lt on ISO dates compare instants; offset-less date-times are UTC', () => {
    expect(m({ trait: 'signedUpAt', op: 'gt', value: '2026-01-31' })).toBe(true);
    expect(m({ trait: 'signedUpAt', op: 'lt', value: '2026-02-01T11:00:00+00:00' })).toBe(true);
    expect(m({ trait: 'signedUpAt', op: 'gt', value: '2026-02-01T11:30:00+02:00' })).toBe(true); // 09:30Z
    expect(m({ trait: 'birthday', op: 'lt', value: '2000-01-01' })).toBe(true);
    expect(m({ trait: 'localTime', op: 'gt', value: '2026-02-01T09:59:59Z' })).toBe(true);
    expect(m({ trait: 'localTime', op: 'lt', value: '2026-02-01T10:00:01Z' })).toBe(true);
  });
  it('gt/lt: strings that are not dates, and numbers against dates, are not comparable', () => {
    expect(m({ trait: 'plan', op: 'gt', value: 'a' })).toBe(false);
    expect(m({ trait: 'plan', op: 'lt', value: 'z' })).toBe(false);
    expect(m({ trait: 'address.zip', op: 'gt', value: '1' })).toBe(false);
    expect(m({ trait: 'spend', op: 'gt', value: '2000-01-01' })).toBe(false);
    expect(m({ trait: 'signedUpAt', op: 'gt', value: 0 })).toBe(false);
    expect(m({ trait: 'tags', op: 'gt', value: 1 })).toBe(false);
  });
  it('contains: substring of a string, element of an array (JSON equality), nothing else', () => {
    expect(m({ trait: 'email', op: 'contains', value: '@example.' })).toBe(true);
    expect(m({ trait: 'email', op: 'contains', value: 'EXAMPLE' })).toBe(false);
    expect(m({ trait: 'tags', op: 'contains', value: 'eu' })).toBe(true);
    expect(m({ trait: 'tags', op: 'contains', value: 'e' })).toBe(false);
    expect(m({ trait: 'tags', op: 'contains', value: 3 })).toBe(true);
    expect(m({ trait: 'tags', op: 'contains', value: '3' })).toBe(false);
    expect(m({ trait: 'tags', op: 'contains', value: { k: 'v' } })).toBe(true);
    expect(m({ trait: 'spend', op: 'contains', value: 25 })).toBe(false);
    expect(m({ trait: 'address', op: 'contains', value: 'FR' })).toBe(false);
    expect(m({ trait: 'missing', op: 'contains', value: 'x' })).toBe(false);
  });
});

describe('rules: all / any, nested', () => {
  const pro: Rule = { trait: 'plan', op: 'equals', value: 'pro' };
  const big: Rule = { trait: 'spend', op: 'gt', value: 100 };
  const eu: Rule = { trait: 'tags', op: 'contains', value: 'eu' };
  const cases: [Traits, boolean, boolean, boolean][] = [
    // traits, all[pro,big], any[pro,big], all[eu, any[pro,big]]
    [{ plan: 'pro', spend: 200, tags: ['eu'] }, true, true, true],
    [{ plan: 'pro', spend: 50, tags: ['eu'] }, false, true, true],
    [{ plan: 'free', spend: 50, tags: ['eu'] }, false, false, false],
    [{ plan: 'free', spend: 500, tags: ['us'] }, false, true, false],
    [{}, false, false, false],
  ];
  it.each(cases)('%j', (traits, all, any, nested) => {
    expect(matchesRule({ all: [pro, big] }, traits)).toBe(all);
    expect(matchesRule({ any: [pro, big] }, traits)).toBe(any);
    expect(matchesRule({ all: [eu, { any: [pro, big] }] }, traits)).toBe(nested);
    expect(matchesRule({ any: [{ all: [eu, { any: [pro, big] }] }] }, traits)).toBe(nested);
  });
});

describe('rule schema (contract)', () => {
  it('accepts nested rules and names the field of an error', () => {
    expect(parseWith(ruleInputSchema, { any: [{ all: [{ trait: 'a.b', op: 'exists' }] }] }).ok).toBe(true);
    const cases: [unknown, string, string][] = [
      [{ all: [{ trait: 'a', op: 'equals', value: 1 }, { trait: 'b', op: 'bigger', value: 1 }] }, 'rule.all[1].op', 'must be one of'],
      [{ any: [{ trait: 'a', op: 'gt', value: 'soon' }] }, 'rule.any[0].value', 'numbers or ISO 8601 dates'],
      [{ trait: 'a', op: 'exists', value: true }, 'rule.value', 'exists takes no value'],
      [{ trait: 'a', op: 'equals' }, 'rule.value', 'required for op equals'],
      [{ op: 'equals', value: 1 }, 'rule.trait', 'required'],
      [{ trait: 'a..b', op: 'exists' }, 'rule.trait', 'empty segments'],
      [{ all: [] }, 'rule.all', 'at least one rule'],
      [{}, 'rule', 'a rule is'],
      [{ trait: 'a', op: 'exists', any: [{ trait: 'b', op: 'exists' }] }, 'rule.any', 'exactly one of'],
    ];
    for (const [rule, field, message] of cases) {
      const r = parseWith(createAudienceInputSchema, { source: 's', name: 'n', rule });
      expect(r.ok, JSON.stringify(rule)).toBe(false);
      if (!r.ok) {
        expect(r.error.field).toBe(field);
        expect(r.error.message).toContain(message);
      }
    }
  });
  it('refuses hostile nesting before recursing', () => {
    let rule: unknown = { trait: 'a', op: 'exists' };
    for (let i = 0; i < 10_000; i++) rule = { all: [rule] };
    const r = parseWith(createAudienceInputSchema, { source: 's', name: 'n', rule });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ field: 'rule', limit: 16 });
  });
  it('an audience needs members, a rule or both', () => {
    const r = parseWith(createAudienceInputSchema, { source: 's', name: 'n', members: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.field).toBe('members');
  });
});

describe('evaluateMembership', () => {
  const users = new Map<string, Traits>([
    ['u1', { spend: 500 }],
    ['u2', { spend: 20 }],
    ['u3', {}],
  ]);
  const big: Rule = { trait: 'spend', op: 'gt', value: 100 };
  it('explicit members ∪ rule matches (members need no stored traits)', () => {
    expect([...evaluateMembership({ members: ['u2', 'ghost'], rule: big }, users)].sort()).toEqual(['ghost', 'u1', 'u2']);
    expect([...evaluateMembership({ rule: big }, users)]).toEqual(['u1']);
    expect([...evaluateMembership({ members: ['u3'] }, users)]).toEqual(['u3']);
    expect([...evaluateMembership({ members: ['u1'], rule: null }, users)]).toEqual(['u1']);
    expect(evaluateMembership({}, users).size).toBe(0);
  });
});

describe('diffState', () => {
  const state = (entries: [string, JsonValue][]) => new Map<string, JsonValue>(entries);

  it('audience: joiners get true, leavers false once, everyone else nothing', () => {
    const previous = state([
      ['stays', true],
      ['leaves', true],
    ]);
    const next = state([
      ['stays', true],
      ['joins', true],
    ]);
    expect(diffState(previous, next, 'audience')).toEqual([
      { userId: 'joins', value: true, change: 'added' },
      { userId: 'leaves', value: false, change: 'removed' },
    ]);
  });
  it('audience: the first sync sends true to every member; no change sends nothing', () => {
    const members = state([
      ['b', true],
      ['a', true],
    ]);
    expect(diffState(new Map(), members, 'audience').map((c) => [c.userId, c.value])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    expect(diffState(members, members, 'audience')).toEqual([]);
  });
  it('audience: a user recorded false (already told) gets nothing more, and true again when rejoining', () => {
    expect(diffState(state([['past', false]]), new Map(), 'audience')).toEqual([]);
    expect(diffState(state([['past', false]]), state([['past', true]]), 'audience')).toEqual([{ userId: 'past', value: true, change: 'added' }]);
  });
  it('computed trait: new and changed values (deep equality) are sent, removed ones as null', () => {
    const previous = state([
      ['same', { tier: 'gold', n: [1, 2] }],
      ['changes', 3],
      ['goes', 'x'],
      ['typed', 1],
      ['falsy', false],
    ]);
    const next = state([
      ['same', { n: [1, 2], tier: 'gold' }],
      ['changes', 4],
      ['typed', '1'],
      ['falsy', false],
      ['new', [1]],
    ]);
    expect(diffState(previous, next, 'computed_trait')).toEqual([
      { userId: 'changes', value: 4, change: 'changed' },
      { userId: 'goes', value: null, change: 'removed' },
      { userId: 'new', value: [1], change: 'added' },
      { userId: 'typed', value: '1', change: 'changed' },
    ]);
  });
  it('computed trait: a removed false value is sent as null, not skipped', () => {
    expect(diffState(state([['u', false]]), new Map(), 'computed_trait')).toEqual([{ userId: 'u', value: null, change: 'removed' }]);
  });
});
