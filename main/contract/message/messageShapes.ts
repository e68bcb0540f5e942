/**
 * The one table of the seven message shapes. Builders, validation, the UI composer and the docs all read it,
 * so a shape is described exactly once (docs/behaviour.md §1).
 */
export const MESSAGE_TYPES = ['track', 'page', 'screen', 'identify', 'group', 'alias', 'delete'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export type FieldKind = 'string' | 'object';

export interface FieldDef {
  /** Key in the delivered body. */
  readonly out: string;
  /** Names accepted in a call, canonical first (page accepts the Go client's `traits` for `properties`). */
  readonly from: readonly string[];
  readonly kind: FieldKind;
  /** Refused when absent or empty (docs/behaviour.md §7). */
  readonly required: boolean;
  /** Object fields are always present in the body, `{}` when empty; optional strings are omitted when absent. */
  readonly label: string;
  readonly help: string;
}

export type Identity =
  /** `userId` or `anonymousId`; with only `anonymousId` the body omits `userId`. */
  | 'user-or-anonymous'
  /** `userId` is required. */
  | 'user';

export interface MessageShape {
  readonly type: MessageType;
  readonly versioned: boolean;
  readonly identity: Identity;
  /** The spec's "Body shape per type", in order. `userId` is the identity slot (alias writes "User ID"). */
  readonly order: readonly string[];
  /** Type-specific fields, excluding version/type/userId/timestamp. */
  readonly fields: readonly FieldDef[];
  /** Fields added after the core keys when present (never replacing one; an object extra absent from the call is left out, not `{}`). */
  readonly extras: readonly FieldDef[];
  /** Whether the call's `context` is a core key (screen) or an addition. */
  readonly contextIsCore: boolean;
  readonly summary: string;
}

const obj = (out: string, label: string, help: string, from: readonly string[] = [out]): FieldDef => ({
  out,
  from,
  kind: 'object',
  required: false,
  label,
  help,
});
const str = (out: string, required: boolean, label: string, help: string, from: readonly string[] = [out]): FieldDef => ({
  out,
  from,
  kind: 'string',
  required,
  label,
  help,
});

export const MESSAGE_SHAPES: Readonly<Record<MessageType, MessageShape>> = {
  track: {
    type: 'track',
    versioned: true,
    identity: 'user-or-anonymous',
    order: ['version', 'type', 'userId', 'event', 'properties', 'timestamp'],
    fields: [
      str('event', true, 'Event', 'The event name, e.g. "Order Completed".'),
      obj('properties', 'Properties', 'Free-form event properties.'),
    ],
    extras: [],
    contextIsCore: false,
    summary: 'An action the user performed.',
  },
  page: {
    type: 'page',
    versioned: true,
    identity: 'user-or-anonymous',
    order: ['version', 'type', 'userId', 'properties', 'timestamp'],
    fields: [obj('properties', 'Properties', 'Recognised keys: path, referrer, title, url.', ['properties', 'traits'])],
    extras: [
      str('name', false, 'Name', 'Name of the page.'),
      str('category', false, 'Category', 'Category of the page.'),
    ],
    contextIsCore: false,
    summary: 'A page view on a website.',
  },
  screen: {
    type: 'screen',
    versioned: true,
    identity: 'user-or-anonymous',
    order: ['version', 'type', 'userId', 'name', 'timestamp', 'context'],
    fields: [str('name', false, 'Name', 'Name of the screen.')],
    // Not in the spec's screen shape, but real SDKs (Segment, Rudder, the Go client) send them: kept as an addition.
    extras: [obj('properties', 'Properties', 'Free-form properties of the screen view; delivered after the core keys when given.')],
    contextIsCore: true,
    summary: 'A screen view in a mobile app.',
  },
  identify: {
    type: 'identify',
    versioned: true,
    identity: 'user-or-anonymous',
    order: ['version', 'type', 'userId', 'traits', 'timestamp'],
    fields: [obj('traits', 'Traits', 'Attributes of the user; values may be strings or numbers.')],
    extras: [],
    contextIsCore: false,
    summary: 'Who the user is, and their traits.',
  },
  group: {
    type: 'group',
    versioned: true,
    identity: 'user-or-anonymous',
    order: ['version', 'type', 'groupId', 'userId', 'traits', 'timestamp'],
    fields: [
      str('groupId', true, 'Group ID', 'Company, organization, account, project or team.'),
      obj('traits', 'Traits', 'Group attributes; keys may contain spaces.'),
    ],
    extras: [],
    contextIsCore: false,
    summary: 'Associates the user with a group.',
  },
  alias: {
    type: 'alias',
    versioned: true,
    identity: 'user',
    order: ['version', 'type', 'Previous ID', 'User ID', 'timestamp'],
    fields: [str('Previous ID', true, 'Previous ID', 'The ID to alias from.', ['previousId'])],
    extras: [],
    contextIsCore: false,
    summary: 'Merges a previous ID into the user ID.',
  },
  delete: {
    type: 'delete',
    versioned: false,
    identity: 'user',
    order: ['type', 'userId', 'timestamp'],
    fields: [],
    extras: [],
    contextIsCore: false,
    summary: 'A deletion notification for a user.',
  },
};

/** Keys of a call that every type understands (beyond its own fields). */
export const COMMON_CALL_KEYS = [
  'type',
  'userId',
  'anonymousId',
  'messageId',
  'timestamp',
  'context',
  'integrations',
] as const;

/** Keys real SDKs send that carry no meaning for the delivered body; accepted and ignored. */
export const SDK_METADATA_KEYS = [
  'sentAt',
  'receivedAt',
  'originalTimestamp',
  'channel',
  'version',
  'writeKey',
  'options',
  'library',
  '_metadata',
  'projectId',
] as const;

/** The limits of docs/behaviour.md §7 (ingestion) and §2 (webhooks, headers). */
export const LIMITS = {
  messageBytes: 32_768,
  requestBytes: 512_000,
  /**
   * Levels a call's field may nest (an object or array is one level; `properties: {a: [1]}` is 2). Deeper
   * calls are refused with `nesting_too_deep`, before their JSON is parsed (domain/jsonDepth.ts).
   */
  maxDepth: 64,
  webhooksPerDestination: 5,
  headersPerWebhook: 5,
  responseBodyBytes: 65_536,
} as const;

/**
 * Lengths of what a destination is configured with, in characters, through the API and config files alike
 * (docs/hardening.md): generous for real use, small enough that no setting can grow a request or a row
 * without bound.
 */
export const CONFIG_LIMITS = {
  urlChars: 8_192,
  headerNameChars: 256,
  headerValueChars: 8_192,
  nameChars: 100,
  pathChars: 4_096,
  eventNameChars: 1_024,
  /** A destination's `timeoutMs` (and `hookbench send --timeout`): two minutes. */
  timeoutMs: 120_000,
  /** `retry.windowMs` (and `--retry-window`): 30 days. */
  retryWindowMs: 30 * 24 * 3_600_000,
  /** `retry.maxAttempts` (and `--max-attempts`). */
  maxAttempts: 1_000,
} as const;

export function isMessageType(value: unknown): value is MessageType {
  return typeof value === 'string' && (MESSAGE_TYPES as readonly string[]).includes(value);
}

/** Every input key a call of this type may carry. */
export function knownCallKeys(type: MessageType): Set<string> {
  const shape = MESSAGE_SHAPES[type];
  const keys = new Set<string>([...COMMON_CALL_KEYS, ...SDK_METADATA_KEYS]);
  for (const f of [...shape.fields, ...shape.extras]) for (const k of f.from) keys.add(k);
  if (type === 'alias') keys.add('previousId');
  return keys;
}
