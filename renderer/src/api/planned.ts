/**
 * Shapes of the lead's plan (/work/plan/CONTRACT.md) that main/contract does not have yet. The renderer
 * codes against these now; when they land in main/contract, this file goes and the imports point there.
 */
import type { ClockState, MessageStatus, Page } from '../../../main/contract/models';
import type { MessageType } from '../../../main/contract/messageShapes';
import type { EngineEvent } from '../../../main/contract/events';

/** One row of the message list: no body, but the delivery state a list needs. */
export interface MessageSummary {
  id: number;
  messageId: string;
  type: MessageType;
  sourceId: string | null;
  userId: string | null;
  anonymousId: string | null;
  event: string | null;
  status: MessageStatus;
  statusReason: string | null;
  receivedAt: number;
  replayOf: number | null;
  bytes: number;
  /** Rounds so far, the max over deliveries. */
  attempts: number;
  /** The earliest next attempt over deliveries, or null. */
  nextAttemptAt: number | null;
  destinationIds: string[];
}

export interface ListMessagesFilter {
  status?: MessageStatus;
  type?: MessageType;
  sourceId?: string;
  destinationId?: string;
  userId?: string;
  event?: string;
  text?: string;
  from?: number;
  to?: number;
  cursor?: string | null;
  limit?: number;
}

export interface Overview {
  counts: Record<MessageStatus, number>;
  inFlight: number;
  retrying: number;
  failedLastHour: number;
  dueRetries: number;
  nextDueAt: number | null;
  clock: ClockState;
  paused: boolean;
  ingestPerMinute: number;
}

export interface Settings {
  dataDir: string;
  version: string;
  url: string;
  uiUrl?: string;
  ingestUrl: string;
  receiverUrl: string;
  receiverTlsUrl: string;
  ports: Record<string, number>;
  electron?: string;
  node: string;
}

/** Commands of the plan, by their planned signatures (values, not Results: the client wraps them). */
export interface PlannedCommandValues {
  listMessages: { input: ListMessagesFilter; value: Page<MessageSummary> };
  getOverview: { input: Record<string, never>; value: Overview };
  resetClock: { input: Record<string, never>; value: ClockState };
  advanceToNextRetry: { input: Record<string, never>; value: ClockState };
  pauseForwarding: { input: Record<string, never>; value: { paused: boolean } };
  resumeForwarding: { input: Record<string, never>; value: { paused: boolean } };
  getSettings: { input: Record<string, never>; value: Settings };
  revealSecret: { input: { kind: 'destination' | 'receiver' | 'source'; id: string }; value: { secret: string | null } };
}

/** Events of the plan beyond today's EngineEvent. */
export type PlannedEvent =
  | { type: 'messageUpdated'; message: MessageSummary }
  | { type: 'forwardingChanged'; paused: boolean };

/** What the stores consume: today's events, the planned ones, and `messageAccepted` carrying a summary. */
export type UiEvent =
  | Exclude<EngineEvent, { type: 'messageAccepted' }>
  | { type: 'messageAccepted'; message: MessageSummary }
  | PlannedEvent;
