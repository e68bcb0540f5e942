/**
 * The rule editor's model (docs/behaviour.md §8): a tree of `all`/`any` groups and conditions with their
 * value as typed, turned into the contract's Rule and back. Field paths follow the server's errors
 * (`rule.all[1].op`), so an error lands on the condition it names.
 */
import { RULE_OPS, type JsonValue, type Rule, type RuleOp } from '../../../../main/contract/audiences';

export interface EditCondition {
  kind: 'condition';
  key: number;
  trait: string;
  op: RuleOp;
  /** As typed: `500`, `EU`, `"500"` (a string), `true`, `["a"]`. */
  value: string;
}
export interface EditGroup {
  kind: 'group';
  key: number;
  mode: 'all' | 'any';
  children: EditNode[];
}
export type EditNode = EditCondition | EditGroup;

let nextKey = 1;
export const newCondition = (trait = ''): EditCondition => ({ kind: 'condition', key: nextKey++, trait, op: 'equals', value: '' });
export const newGroup = (mode: 'all' | 'any' = 'all', children: EditNode[] = []): EditGroup => ({ kind: 'group', key: nextKey++, mode, children });

export const OP_LABELS: Record<RuleOp, string> = {
  equals: 'equals',
  not_equals: 'not equals',
  exists: 'exists',
  gt: 'greater than',
  lt: 'less than',
  contains: 'contains',
};
export const OPS = RULE_OPS;

/**
 * A typed value as the rule holds it. gt/lt: a number when it reads as one, else the text (an ISO date).
 * Other ops: JSON when the text is a JSON number, boolean, null, array, object or quoted string; else the
 * text itself, so `EU` needs no quotes and `"500"` is the string 500.
 */
export function parseValue(op: RuleOp, text: string): JsonValue | undefined {
  if (op === 'exists') return undefined;
  const trimmed = text.trim();
  if (op === 'gt' || op === 'lt') return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
  if (trimmed === '') return text;
  try {
    return JSON.parse(trimmed) as JsonValue;
  } catch {
    return text;
  }
}

/** The type a value was read as, shown beside it so `500` and `"500"` are never confused. */
export function valueType(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'object' : typeof value === 'string' ? 'text' : typeof value;
}

/** A rule's value as the editor shows it: text as is, unless it would read back as something else. */
export function formatValue(op: RuleOp, value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') {
    const reread = parseValue(op, value);
    return reread === value ? value : JSON.stringify(value);
  }
  return JSON.stringify(value);
}

function nodeToRule(node: EditNode): Rule {
  if (node.kind === 'group') return node.mode === 'all' ? { all: node.children.map(nodeToRule) } : { any: node.children.map(nodeToRule) };
  const value = parseValue(node.op, node.value);
  return value === undefined ? { trait: node.trait.trim(), op: node.op } : { trait: node.trait.trim(), op: node.op, value };
}

/** The editor's tree as a Rule; an empty top group is no rule at all. */
export function toRule(root: EditGroup): Rule | null {
  return root.children.length === 0 ? null : nodeToRule(root);
}

function ruleToNode(rule: Rule): EditNode {
  if ('all' in rule) return newGroup('all', rule.all.map(ruleToNode));
  if ('any' in rule) return newGroup('any', rule.any.map(ruleToNode));
  return { kind: 'condition', key: nextKey++, trait: rule.trait, op: rule.op, value: formatValue(rule.op, rule.value) };
}

/** A Rule as the editor's tree: always a group at the top (a lone condition becomes `all` of one). */
export function fromRule(rule: Rule | null): EditGroup {
  if (rule === null) return newGroup('all');
  const node = ruleToNode(rule);
  return node.kind === 'group' ? node : newGroup('all', [node]);
}

/** The field path of each node, as the server names it (`rule`, `rule.all[0]`, `rule.any[1].all[0]`). */
export function pathsOf(root: EditGroup): Map<number, string> {
  const paths = new Map<number, string>();
  const walk = (node: EditNode, path: string) => {
    paths.set(node.key, path);
    if (node.kind === 'group') node.children.forEach((child, i) => walk(child, `${path}.${node.mode}[${i}]`));
  };
  walk(root, 'rule');
  return paths;
}

/** The deepest node whose path an error's field starts with (`rule.all[1].op` → the condition `rule.all[1]`), and its path. */
export function ownerOf(root: EditGroup, field: string): { node: EditNode; path: string } | null {
  let owner: { key: number; path: string } | null = null;
  for (const [key, path] of pathsOf(root)) {
    if ((field === path || field.startsWith(`${path}.`)) && (!owner || path.length > owner.path.length)) owner = { key, path };
  }
  if (!owner) return null;
  let found: EditNode | null = null;
  const walk = (node: EditNode) => {
    if (node.key === owner.key) found = node;
    else if (node.kind === 'group') node.children.forEach(walk);
  };
  walk(root);
  return found ? { node: found, path: owner.path } : null;
}

/** A condition just added, not yet given a trait or a value: nothing to judge yet. */
export const isUntouched = (node: EditNode): boolean => node.kind === 'condition' && node.trait.trim() === '' && node.value.trim() === '';

/** Replaces the node with `key` (anywhere in the tree) by what `fn` returns; null removes it. */
export function updateNode(root: EditGroup, key: number, fn: (node: EditNode) => EditNode | null): EditGroup {
  const visit = (node: EditNode): EditNode | null => {
    if (node.key === key) return fn(node);
    if (node.kind === 'group') return { ...node, children: node.children.map(visit).filter((n): n is EditNode => n !== null) };
    return node;
  };
  return (visit(root) as EditGroup | null) ?? newGroup('all');
}

/** Explicit members as typed: one per line or separated by commas, blanks and repeats dropped. */
export function parseMembers(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}
