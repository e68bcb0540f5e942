/** The Audiences rule editor's model: typed values, Rule ⇄ tree, and the server's field paths. */
import { describe, expect, it } from 'vitest';
import type { JsonValue, Rule } from '../../../main/contract/audiences';
import { ruleSchema } from '../../../main/contract/audiences';
import { formatValue, fromRule, isUntouched, newCondition, newGroup, ownerOf, parseMembers, parseValue, pathsOf, toRule, updateNode, valueType } from '../../../renderer/src/features/audiences/ruleModel';

describe('rule editor model', () => {
  it('reads a typed value as the rule holds it: numbers, booleans, JSON, quoted strings, plain text', () => {
    expect(parseValue('equals', '500')).toBe(500);
    expect(parseValue('equals', '"500"')).toBe('500');
    expect(parseValue('equals', 'EU')).toBe('EU');
    expect(parseValue('equals', 'true')).toBe(true);
    expect(parseValue('contains', '["a"]')).toEqual(['a']);
    expect(parseValue('gt', ' 42 ')).toBe(42);
    expect(parseValue('lt', '2026-01-01')).toBe('2026-01-01');
    expect(parseValue('exists', 'ignored')).toBeUndefined();
    expect(valueType(parseValue('equals', '"500"'))).toBe('text');
    expect(valueType(parseValue('equals', '500'))).toBe('number');
  });

  it('formats a value so that it reads back the same', () => {
    for (const value of ['EU', '500', 'true', 500, true, null, ['a'], { a: 1 }] satisfies JsonValue[]) expect(parseValue('equals', formatValue('equals', value))).toEqual(value);
  });

  it('a tree becomes a Rule the contract accepts, and back; an empty top group is no rule', () => {
    const rule: Rule = { all: [{ trait: 'spend', op: 'gt', value: 500 }, { any: [{ trait: 'region', op: 'equals', value: 'EU' }, { trait: 'vip', op: 'exists' }] }] };
    const tree = fromRule(rule);
    expect(toRule(tree)).toEqual(rule);
    expect(ruleSchema.safeParse(toRule(tree)).success).toBe(true);
    expect(toRule(newGroup('any'))).toBeNull();
    expect(toRule(fromRule({ trait: 'plan', op: 'equals', value: 'pro' }))).toEqual({ all: [{ trait: 'plan', op: 'equals', value: 'pro' }] });
  });

  it('names each node by the path the server puts in its errors, and edits or removes one anywhere', () => {
    const inner = newCondition('region');
    const group = newGroup('any', [inner]);
    const first = newCondition('spend');
    const root = newGroup('all', [first, group]);
    const paths = pathsOf(root);
    expect([paths.get(root.key), paths.get(first.key), paths.get(group.key), paths.get(inner.key)]).toEqual(['rule', 'rule.all[0]', 'rule.all[1]', 'rule.all[1].any[0]']);
    const edited = updateNode(root, inner.key, (n) => ({ ...n, trait: 'country' }) as typeof inner);
    expect(toRule(edited)).toEqual({ all: [{ trait: 'spend', op: 'equals', value: '' }, { any: [{ trait: 'country', op: 'equals', value: '' }] }] });
    expect(toRule(updateNode(root, group.key, () => null))).toEqual({ all: [{ trait: 'spend', op: 'equals', value: '' }] });
  });

  it('an error lands on the deepest node its field names, and a condition just added counts as untouched', () => {
    const fresh = newCondition();
    const group = newGroup('any', [newCondition('region'), fresh]);
    const root = newGroup('all', [newCondition('spend'), group]);
    expect(ownerOf(root, 'rule.all[1].any[1].trait')).toEqual({ node: fresh, path: 'rule.all[1].any[1]' });
    expect(ownerOf(root, 'rule.all[1]')?.node).toBe(group);
    expect(ownerOf(root, 'members')).toBeNull();
    expect(isUntouched(fresh)).toBe(true);
    expect(isUntouched({ ...fresh, value: '5' })).toBe(false);
    expect(isUntouched(newCondition('plan'))).toBe(false);
    expect(isUntouched(group)).toBe(false);
  });

  it('members: one a line or comma-separated, blanks and repeats dropped', () => {
    expect(parseMembers('u1\nu2, u3,,\n u1 \n')).toEqual(['u1', 'u2', 'u3']);
  });
});
