/**
 * The troubleshooting checklist (docs/behaviour.md §13): the spec's troubleshooting rules, each computed
 * from what the workbench holds (sources and their usage, the ingest log, recent messages, deliveries and
 * attempts, the mock receiver's captures), with links to the evidence. getDiagnostics answers it; the
 * Troubleshoot screen shows it.
 */
import type { MessageType } from './message/messageShapes.js';
import type { DeliveryStatus } from './deliveries.js';
import type { MessageStatus } from './messages.js';

export const DIAGNOSTIC_SECTIONS = ['no-events', 'not-delivered', 'slow'] as const;
export type DiagnosticSection = (typeof DIAGNOSTIC_SECTIONS)[number];

export const SECTION_TITLES: Record<DiagnosticSection, string> = {
  'no-events': 'No events from a source',
  'not-delivered': 'Events received but not delivered',
  slow: 'Deliveries slow',
};

/** `problem`: this explains something going wrong; `warning`: worth a look; `ok`: checked, fine; `idle`: nothing to check yet. */
export const CHECK_STATES = ['problem', 'warning', 'ok', 'idle'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** What a link in the checklist opens. */
export type Evidence =
  /** A message (and one of its attempts) in the message detail. */
  | { kind: 'message'; label: string; messageId: number; attemptId?: number }
  /** An attempt's Signature panel. */
  | { kind: 'signature'; label: string; messageId: number; attemptId: number }
  | { kind: 'destination'; label: string; destinationId: string }
  | { kind: 'source'; label: string; sourceId: string }
  /** A refused request of the ingest log. */
  | { kind: 'ingestLog'; label: string; refusalId: number }
  /** The history with this filter. */
  | { kind: 'history'; label: string; filter: { status?: MessageStatus; sourceId?: string; destinationId?: string; event?: string } }
  /** A capture of the mock receiver. */
  | { kind: 'capture'; label: string; receiver: string | null; captureId: number }
  /** A URL to copy (where an SDK must send). */
  | { kind: 'url'; label: string; url: string };

export interface DiagnosticCheck {
  /** Stable per rule and subject: `destination.enabled:<id>`, `ingest.refused`, ... */
  id: string;
  section: DiagnosticSection;
  /** The rule: `destination.enabled`, `destination.filtered`, ... (docs/behaviour.md §13 lists them). */
  rule: string;
  state: CheckState;
  /** The source or destination the check is about, by name; null for the workbench as a whole. */
  subject: string | null;
  /** One line: what was found. */
  title: string;
  /** What the data says, and what to do about it. */
  detail: string;
  evidence: Evidence[];
}

export interface Diagnostics {
  /** Engine time the checklist was computed at. */
  checkedAt: number;
  /** How far back it looked: the newest this many messages, attempts and refusals. */
  window: { messages: number; attempts: number; refusals: number; captures: number };
  checks: DiagnosticCheck[];
}

/** Each rule's name in a few words (the checklist shows passing checks by it). */
export const RULE_NAMES: Record<string, string> = {
  'ingest.url': 'Ingestion URL',
  'ingest.writeKey': 'Write keys',
  'ingest.refused': 'Readable requests',
  'source.calls': 'Calls arriving',
  'source.refused': 'Refused calls',
  'destination.none': 'Destinations',
  'destination.enabled': 'Enabled',
  'destination.sources': 'Connected sources',
  'destination.filtered': 'Not filtered',
  'destination.failing': 'Receiver answers',
  'destination.tls': 'TLS',
  'destination.signature': 'Signature',
  'forwarding.paused': 'Forwarding',
  'deliveries.backlog': 'Retry backlog',
  'deliveries.timeouts': 'Response time',
  'deliveries.retryAfter': 'Retry-After',
  'retry.window': 'Retry window',
  'delivery.waiting': 'Waiting',
  'delivery.delivered': 'Delivered',
  'delivery.cancelled': 'Cancelled',
};

/**
 * Why one message was or was not delivered to each destination (explainMessage), from the same rules as the
 * checklist: routing (enabled, connected, integrations, event filters), then what its delivery met
 * (receiver failing, TLS, the receiver's signature verdict, the retry window).
 */
export interface MessageExplanation {
  messageId: number;
  destinations: DestinationExplanation[];
}

export interface DestinationExplanation {
  destinationId: string;
  destinationName: string;
  /**
   * `delivered`; `not delivered` (failed, cancelled, or never routed there); `waiting` (queued, retrying, in
   * flight); `not sent to it` (the message named its destinations, and not this one: nothing went wrong).
   */
  outcome: 'delivered' | 'not delivered' | 'waiting' | 'not sent to it';
  /** The delivery's status; null when the message was never routed to this destination. */
  status: DeliveryStatus | null;
  /** In order of importance: the first says why. */
  reasons: WhyReason[];
}

export interface WhyReason {
  /** The checklist rule it is (`destination.enabled`, `destination.filtered`, `destination.tls`, `retry.window`, ...). */
  rule: string;
  /** `problem` explains a failure; `warning` qualifies a success (e.g. the receiver found the signature invalid); `ok` says what went right. */
  state: 'problem' | 'warning' | 'ok';
  text: string;
  evidence: Evidence[];
}

/**
 * What routing (./message/routing.ts) reads of one message, as listRoutingInputs answers it: the Destinations
 * editor previews event filters with the engine's own rules on these.
 */
export interface RoutingInput {
  id: number;
  sourceId: string | null;
  type: MessageType;
  event: string | null;
  /**
   * The call's integrations as routing reads them: each key `true` (truthy), `false`, or null (another falsy
   * value, which routing skips); null when routing reads nothing in them (none, or not an object).
   */
  integrations: Record<string, boolean | null> | null;
  /** The destinations it got a delivery to. */
  destinationIds: string[];
}

/** The most listRoutingInputs reads: the newest messages, as many as the checklist looks at. */
export const ROUTING_INPUTS_LIMIT = 1000;

export interface RoutingInputs {
  /** How many of the newest messages were read (the items are those of the sources asked for). */
  looked: number;
  items: RoutingInput[];
}
