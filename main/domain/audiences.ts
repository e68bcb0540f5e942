/**
 * docs/behaviour.md §8: audience membership and computed-trait diffing. Pure: the engine supplies stored traits and
 * the state of the last sync, and sends what `diffState` returns.
 */
import { isIsoDate, type AudienceKind, type JsonValue, type Rule, type Traits } from '../contract/audiences.js';

/** The trait key a name becomes: shared with the UI, which shows it as the name is typed. */
export { snakeCase } from '../contract/audiences.js';

// ---------------------------------------------------------------- JSON helpers

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Strict JSON equality: same types, arrays in order, objects with the same keys in any order. Walked with
 * an explicit stack: trait values are user data and may nest deeper than the call stack allows.
 */
export function jsonEqual(left: JsonValue | undefined, right: JsonValue | undefined): boolean {
  const pending: [JsonValue | undefined, JsonValue | undefined][] = [[left, right]];
  while (pending.length > 0) {
    const [a, b] = pending.pop()!;
    if (a === b) continue;
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) pending.push([a[i], b[i]]);
    } else if (isObject(a) && isObject(b)) {
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      for (const k of keys) {
        if (!Object.hasOwn(b, k)) return false;
        pending.push([a[k], b[k]]);
      }
    } else {
      return false;
    }
  }
  return true;
}

/**
 * The trait a rule names. A top-level key wins (traits may have dots in their keys); otherwise the
 * dotted path walks nested objects, and numeric segments index arrays. Undefined when absent.
 */
export function traitAt(traits: Traits, path: string): JsonValue | undefined {
  if (Object.hasOwn(traits, path)) return traits[path];
  let current: JsonValue | undefined = traits;
  for (const segment of path.split('.')) {
    if (isObject(current)) current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    else if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else return undefined;
  }
  return current;
}

/** Date-times without an offset are read as UTC, so that a rule means the same thing in every time zone. */
function isoTime(value: string): number {
  const hasTime = /[T ]\d{2}:\d{2}/i.test(value);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value);
  return Date.parse(hasTime && !hasZone ? `${value.replace(' ', 'T')}Z` : value);
}

/** gt/lt: numbers compare as numbers, ISO date strings as instants; anything else is not comparable. */
function compare(actual: JsonValue | undefined, expected: JsonValue | undefined): number | null {
  if (typeof actual === 'number' && typeof expected === 'number') return actual - expected;
  if (typeof actual === 'string' && typeof expected === 'string' && isIsoDate(actual) && isIsoDate(expected)) {
    return isoTime(actual) - isoTime(expected);
  }
  return null;
}

// ---------------------------------------------------------------- rules

/** Whether one user's traits satisfy a rule. A missing trait fails every op but `not_equals`. */
export function matchesRule(rule: Rule, traits: Traits): boolean {
  if ('all' in rule) return rule.all.every((r) => matchesRule(r, traits));
  if ('any' in rule) return rule.any.some((r) => matchesRule(r, traits));
  const actual = traitAt(traits, rule.trait);
  switch (rule.op) {
    case 'equals':
      return actual !== undefined && jsonEqual(actual, rule.value);
    case 'not_equals':
      return !(actual !== undefined && jsonEqual(actual, rule.value));
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'gt': {
      const c = compare(actual, rule.value);
      return c !== null && c > 0;
    }
    case 'lt': {
      const c = compare(actual, rule.value);
      return c !== null && c < 0;
    }
    case 'contains':
      if (typeof actual === 'string') return typeof rule.value === 'string' && actual.includes(rule.value);
      if (Array.isArray(actual)) return actual.some((element) => jsonEqual(element, rule.value));
      return false;
  }
}

/** Explicit members ∪ users whose stored traits match the rule. */
export function evaluateMembership(definition: { members?: readonly string[] | null; rule?: Rule | null }, users: ReadonlyMap<string, Traits>): Set<string> {
  const members = new Set(definition.members ?? []);
  const rule = definition.rule;
  if (rule) for (const [userId, traits] of users) if (matchesRule(rule, traits)) members.add(userId);
  return members;
}

// ---------------------------------------------------------------- diffs

export interface StateChange {
  userId: string;
  /** The trait value to send. */
  value: JsonValue;
  /** `added`: joined the audience / first value; `changed`: new computed value; `removed`: left / value gone. */
  change: 'added' | 'changed' | 'removed';
}

/**
 * What a sync sends, given the values sent at the last sync and the values now. Audiences: `next` holds
 * `true` per member; a joiner gets `true`, a past member (`true` before) gets `false` once, and users who
 * never belonged (absent, or `false` before) get nothing. Computed traits: a new or changed value (deep
 * equality) is sent as is, a removed one as `null`. Sorted by userId.
 */
export function diffState(
  previous: ReadonlyMap<string, JsonValue>,
  next: ReadonlyMap<string, JsonValue>,
  kind: AudienceKind,
): StateChange[] {
  const changes: StateChange[] = [];
  for (const [userId, value] of next) {
    const before = previous.get(userId);
    if (before === undefined || (kind === 'audience' && before === false)) changes.push({ userId, value, change: 'added' });
    else if (!jsonEqual(before, value)) changes.push({ userId, value, change: 'changed' });
  }
  for (const [userId, value] of previous) {
    if (next.has(userId)) continue;
    if (kind === 'computed_trait') changes.push({ userId, value: null, change: 'removed' });
    // A state that still records `false` for a past member has told them already.
    else if (value === true) changes.push({ userId, value: false, change: 'removed' });
  }
  return changes.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** Membership as the state `diffState` compares: member → true. */
export function membershipState(members: Iterable<string>): Map<string, JsonValue> {
  return new Map([...members].map((userId) => [userId, true]));
}
