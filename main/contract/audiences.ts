/**
 * Audiences and computed traits (docs/behaviour.md §8): the rule language over stored traits, the command inputs
 * and the records the commands return. Validation errors name the field (`rule.all[1].op`).
 */
import { z } from 'zod';
import { err, ok, type Result } from './result.js';
import { wrongType } from './zodWords.js';

/**
 * "Big Spenders (EU) 2026" → `big_spenders_eu_2026`. Letters and digits of any script count (so
 * "Café Größe" → `café_größe`), and so do combining marks: lower-casing "İ" yields "i" + U+0307, and many
 * scripts write vowels as marks, so treating marks as separators would cut words apart. The name is
 * NFC-normalised first so that composed and decomposed spellings give the same key.
 */
export function snakeCase(name: string): Result<string> {
  const key = name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
  if (!/[\p{L}\p{N}]/u.test(key)) {
    return err({ code: 'invalid_input', field: 'name', message: `name: has no letters or digits, so it makes no trait name (got ${JSON.stringify(name)})` });
  }
  return ok(key);
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Traits = Record<string, JsonValue>;

export const RULE_OPS = ['equals', 'not_equals', 'exists', 'gt', 'lt', 'contains'] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/**
 * One test of one trait. `trait` is a key, or a dotted path into nested objects (`address.city`);
 * a top-level key that itself contains dots wins over the path.
 */
export interface RuleCondition {
  trait: string;
  op: RuleOp;
  /** Required for every op but `exists`, which takes none. */
  value?: JsonValue;
}
export type Rule = RuleCondition | { all: Rule[] } | { any: Rule[] };

export const AUDIENCE_KINDS = ['audience', 'computed_trait'] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

export const AUDIENCE_LIMITS = {
  nameLength: 100,
  members: 10_000,
  computedValues: 10_000,
  rulesPerGroup: 100,
  ruleDepth: 16,
} as const;

export interface Audience {
  id: string;
  kind: 'audience';
  sourceId: string;
  name: string;
  /** snake_case(name): the trait each identify sets. */
  traitKey: string;
  /** Explicit members (userIds). */
  members: string[];
  rule: Rule | null;
  createdAt: number;
  /** Engine time of the last sync. */
  syncedAt: number | null;
}

export interface ComputedTrait {
  id: string;
  kind: 'computed_trait';
  sourceId: string;
  name: string;
  traitKey: string;
  /** userId → the trait's value for that user. */
  values: Record<string, JsonValue>;
  createdAt: number;
  syncedAt: number | null;
}

/** One identify call a sync sent: `{userId, traits: {<traitKey>: value}}`, stored as message `messageId`. */
export interface SyncCall {
  userId: string;
  /** The trait's value it sent: true (joined) or false (left) for an audience; the value, or null, for a computed trait. */
  value: JsonValue;
  change: 'added' | 'changed' | 'removed';
  /** Hookbench's id of the identify message (MessageRecord.id). */
  messageId: number;
}

export interface AudienceSyncResult {
  /** Identify calls accepted as messages (routing may still filter some, e.g. with no destination connected). */
  sent: number;
  joined: string[];
  left: string[];
  /** Hookbench ids of the identify messages (MessageRecord.id), in the order sent. */
  messageIds: number[];
  /** Each identify call, in the order sent (by userId). */
  calls: SyncCall[];
}

export interface ComputedTraitSyncResult {
  sent: number;
  /** Users whose value was set or changed. */
  changed: string[];
  /** Users who no longer have a value (sent null). */
  removed: string[];
  messageIds: number[];
  calls: SyncCall[];
}

/** A change a sync would send now (getAudience's `pending`): a SyncCall without its message. */
export type PendingChange = Omit<SyncCall, 'messageId'>;

/** getAudience: a definition, the values its last sync left each user with, and what a sync now would send. */
export interface AudienceDetail {
  item: Audience | ComputedTrait;
  /**
   * userId → the value the last sync left them with, by userId: for an audience, its members (true) and
   * past members told they left (false); for a computed trait, each user's value.
   */
  synced: { userId: string; value: JsonValue }[];
  pending: PendingChange[];
  /** Users of the source with stored traits (from identify calls). */
  users: number;
}

/** previewAudience: who a definition (not saved) matches now among the source's users. */
export interface AudiencePreview {
  /** Explicit members and users whose traits match the rule, by userId; at most `PREVIEW_LIMIT`. */
  members: string[];
  /** How many match in all (members may be cut at the limit). */
  total: number;
  /** Users of the source with stored traits. */
  users: number;
  /** Trait names the source's users have (top-level keys and dotted paths into objects), sorted; at most `PREVIEW_LIMIT`. */
  traits: string[];
}
export const PREVIEW_LIMIT = 500;

// ---------------------------------------------------------------- schemas

export const jsonValueSchema: z.ZodType<JsonValue> = z.json() as z.ZodType<JsonValue>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Whether a string is an ISO 8601 date or date-time that gt/lt compare as a date. */
export function isIsoDate(value: string): boolean {
  return ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));
}

const traitPath = z
  .string({ error: wrongType('must be a string') })
  .min(1, 'must not be empty')
  .max(200)
  .refine((s) => s.split('.').every((part) => part.length > 0), 'a dotted path may not have empty segments ("a..b", ".a", "a.")');

/**
 * One node: either a condition or a group. Written as one object with every key optional so that an error
 * lands on the offending key (`rule.any[0].op`) rather than on a union that "did not match".
 */
const ruleNodeSchema = z
  .strictObject({
    trait: traitPath.optional(),
    op: z.enum(RULE_OPS).optional(),
    value: jsonValueSchema.optional(),
    get all(): z.ZodOptional<z.ZodArray<typeof ruleSchema>> {
      return z.array(ruleSchema).min(1, 'must hold at least one rule').max(AUDIENCE_LIMITS.rulesPerGroup).optional();
    },
    get any(): z.ZodOptional<z.ZodArray<typeof ruleSchema>> {
      return z.array(ruleSchema).min(1, 'must hold at least one rule').max(AUDIENCE_LIMITS.rulesPerGroup).optional();
    },
  })
  .superRefine((node, ctx) => {
    const isCondition = node.trait !== undefined || node.op !== undefined || node.value !== undefined;
    const shapes = [isCondition, node.all !== undefined, node.any !== undefined].filter(Boolean).length;
    if (shapes === 0) {
      ctx.addIssue({ code: 'custom', message: 'a rule is {trait, op, value}, {all: [rules]} or {any: [rules]}' });
      return;
    }
    if (shapes > 1) {
      const key = node.all !== undefined && isCondition ? 'all' : 'any';
      ctx.addIssue({ code: 'custom', path: [key], message: 'a rule is exactly one of a condition, {all: [...]} or {any: [...]}' });
      return;
    }
    if (!isCondition) return;
    if (node.trait === undefined) ctx.addIssue({ code: 'custom', path: ['trait'], message: 'required: the trait (or dotted path) to test' });
    if (node.op === undefined) {
      ctx.addIssue({ code: 'custom', path: ['op'], message: `required: one of ${RULE_OPS.join(', ')}` });
      return;
    }
    if (node.op === 'exists') {
      if (node.value !== undefined) ctx.addIssue({ code: 'custom', path: ['value'], message: 'exists takes no value' });
      return;
    }
    if (node.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `required for op ${node.op}` });
      return;
    }
    if ((node.op === 'gt' || node.op === 'lt') && typeof node.value !== 'number' && !(typeof node.value === 'string' && isIsoDate(node.value))) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `${node.op} compares numbers or ISO 8601 dates (got ${JSON.stringify(node.value)})` });
    }
  })
  .transform((node): Rule => {
    if (node.all !== undefined) return { all: node.all };
    if (node.any !== undefined) return { any: node.any };
    const condition: RuleCondition = { trait: node.trait!, op: node.op! };
    if (node.value !== undefined) condition.value = node.value;
    return condition;
  });

export const ruleSchema: z.ZodType<Rule> = z.lazy(() => ruleNodeSchema);

/** Nesting depth of an unparsed rule, counted without recursion so that hostile input cannot blow the stack. */
function ruleDepthExceeds(input: unknown, max: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: input, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > max) return true;
    if (typeof node !== 'object' || node === null) continue;
    for (const key of ['all', 'any']) {
      const group = (node as Record<string, unknown>)[key];
      if (Array.isArray(group)) for (const child of group) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}

/** A rule as a command input: depth-checked first, then parsed. */
export const ruleInputSchema: z.ZodType<Rule, unknown> = z
  .unknown()
  .superRefine((value, ctx) => {
    if (ruleDepthExceeds(value, AUDIENCE_LIMITS.ruleDepth)) {
      ctx.addIssue({
        code: 'custom',
        message: `rules nest at most ${AUDIENCE_LIMITS.ruleDepth} levels deep`,
        params: { limit: AUDIENCE_LIMITS.ruleDepth },
      });
    }
  })
  .pipe(ruleSchema);

const audienceName = z.string({ error: wrongType('must be a string') }).trim().min(1, 'must not be empty').max(AUDIENCE_LIMITS.nameLength);
const sourceRef = z.string({ error: wrongType('must be a source id or name') }).min(1, 'must be a source id or name');
const entityId = z.string({ error: wrongType('must be a string') }).min(1, 'must not be empty');
const userId = z.string({ error: wrongType('must be a userId (string)') }).min(1, 'must not be empty');
const membersSchema = z
  .array(userId)
  .max(AUDIENCE_LIMITS.members)
  .transform((ids) => [...new Set(ids)]);
const valuesSchema = z
  .record(userId, jsonValueSchema)
  .refine((values) => Object.keys(values).length <= AUDIENCE_LIMITS.computedValues, {
    message: `at most ${AUDIENCE_LIMITS.computedValues} users`,
    params: { limit: AUDIENCE_LIMITS.computedValues },
  })
  // A null value means "no value": such a user is not sent anything (or is sent null once if they had one).
  .transform((values) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null)) as Record<string, JsonValue>);

const needsMembersOrRule = (value: { members?: string[] | null | undefined; rule?: Rule | null | undefined }) =>
  (value.members !== undefined && value.members !== null && value.members.length > 0) || (value.rule !== undefined && value.rule !== null);

export const createAudienceInputSchema = z
  .strictObject({
    source: sourceRef,
    name: audienceName,
    members: membersSchema.optional(),
    rule: ruleInputSchema.optional(),
  })
  .refine(needsMembersOrRule, { path: ['members'], message: 'give members, a rule, or both' });
export interface CreateAudienceInput {
  /** Source id or name. */
  source: string;
  name: string;
  members?: string[];
  rule?: Rule;
}

/** A patch replaces what it names; `null` clears it. At least one of members and rule must remain. */
export const audiencePatchSchema = z.strictObject({
  members: membersSchema.nullable().optional(),
  rule: ruleInputSchema.nullable().optional(),
});
export const updateAudienceInputSchema = z.strictObject({ id: entityId, patch: audiencePatchSchema });
export interface UpdateAudienceInput {
  id: string;
  patch: { members?: string[] | null; rule?: Rule | null };
}

export const idInputSchema = z.strictObject({ id: entityId });
export interface IdInput {
  id: string;
}

export const listAudiencesInputSchema = z.strictObject({
  source: sourceRef.optional(),
  kind: z.enum(AUDIENCE_KINDS).optional(),
});
export interface ListAudiencesInput {
  /** Source id or name. */
  source?: string;
  kind?: AudienceKind;
}

export const createComputedTraitInputSchema = z.strictObject({
  source: sourceRef,
  name: audienceName,
  values: valuesSchema,
});
export interface CreateComputedTraitInput {
  source: string;
  name: string;
  /** userId → value; a null value means the user has none. */
  values: Record<string, JsonValue>;
}

export const updateComputedTraitInputSchema = z.strictObject({ id: entityId, values: valuesSchema });
export interface UpdateComputedTraitInput {
  id: string;
  /** Replaces every value; users left out lose theirs at the next sync. */
  values: Record<string, JsonValue>;
}

export const previewAudienceInputSchema = z
  .strictObject({
    source: sourceRef,
    members: membersSchema.optional(),
    rule: ruleInputSchema.optional(),
  });
export interface PreviewAudienceInput {
  /** Source id or name. */
  source: string;
  members?: string[];
  rule?: Rule;
}
