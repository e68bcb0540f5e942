import type { AttemptRecord, DeliveryRecord } from './deliveries.js';
import type { MessageStatus, MessageSummary } from './messages.js';
import type { ClockJump, ClockState } from './overview.js';
import type { IngestRefusal } from './sources.js';
import type { CheckCapacity, CheckDiagnosis, CheckResult, CheckRunSummary, CheckSummary } from './check/check.js';
import type { CaptureRecord } from './receiver/receiver.js';

/** Pushed events, past tense (docs/behaviour.md §10). A discriminated union on `type`. */
export type EngineEvent =
  | { type: 'messageAccepted'; message: MessageSummary }
  /** A message's status, attempts or next attempt changed: a live list updates its row from this alone. */
  | { type: 'messageUpdated'; message: MessageSummary }
  | {
      type: 'attemptStarted';
      deliveryId: number;
      messageId: number;
      /** Whose delivery: a live list marks that destination's chip as delivering. */
      destinationId: string;
      attemptNumber: number;
      webhookIndex: number;
      url: string;
      startedAt: number;
    }
  | { type: 'attemptFinished'; attempt: AttemptRecord }
  | { type: 'deliveryUpdated'; delivery: DeliveryRecord; messageStatus: MessageStatus }
  /** The clock moved: advanced (byMs > 0) or reset to real time (byMs < 0). */
  | { type: 'clockAdvanced'; clock: ClockState; byMs: number }
  /** A clock jump began, progressed or ended (`jump: null`); at most a few a second. */
  | { type: 'clockJumpUpdated'; jump: ClockJump | null }
  | { type: 'forwardingChanged'; paused: boolean }
  | { type: 'requestCaptured'; capture: CaptureRecord }
  /** A capture changed after it was announced: the client closed the connection before its answer (`step.clientClosedAfterMs`). */
  | { type: 'captureUpdated'; capture: CaptureRecord }
  /** An ingestion request was refused (unknown write key, wrong route, a limit...): its ingest log entry, without the body preview. */
  | { type: 'ingestRefused'; refusal: IngestRefusal }
  /** A check run began (runCheck): its planned checks count in `run.total`. */
  | { type: 'checkRunStarted'; run: CheckRunSummary }
  /** One check of a run has its verdict; `summary` and `diagnosis` are the run's so far. */
  | { type: 'checkFinished'; runId: number; check: CheckResult; summary: CheckSummary; diagnosis: CheckDiagnosis | null }
  /** One more second of a run's capacity measurement was measured (about once a second); `capacity` holds the figures so far, `finished` the last time. */
  | { type: 'checkCapacityMeasured'; runId: number; capacity: CheckCapacity }
  /** A check run ended (finished, or the URL was unreachable). */
  | { type: 'checkRunFinished'; run: CheckRunSummary }
  /** The user's destinations, sources or mock receiver endpoints changed (created, saved, deleted), from any face: lists load them again. */
  | { type: 'catalogChanged'; catalog: CatalogName }
  /** Retention removed old settled messages (`count` of them): lists and counts that may hold them read again. */
  | { type: 'messagesRemoved'; count: number };

/** The lists catalogChanged names. */
export type CatalogName = 'destinations' | 'sources' | 'receivers';

export type EngineEventType = EngineEvent['type'];

/**
 * One batch of pushed events: the frame the HTTP server's WebSocket sends, the desktop's IPC delivers and the
 * CLI reads (`{"events": [...], "dropped"?: n}`).
 */
export interface EventFrame {
  events: EngineEvent[];
  /** Events left out of this frame (the oldest of a burst): refetch instead of trusting incremental state. */
  dropped?: number;
}

/** How both transports batch events: a frame goes out this long after its first event, with at most this many. */
export const EVENT_BATCHING = { flushMs: 150, maxPerFlush: 2000 } as const;

/** Every event type, for code that must handle or test each one (the check below keeps it complete). */
export const ENGINE_EVENT_TYPES = [
  'messageAccepted',
  'messageUpdated',
  'attemptStarted',
  'attemptFinished',
  'deliveryUpdated',
  'clockAdvanced',
  'clockJumpUpdated',
  'forwardingChanged',
  'requestCaptured',
  'captureUpdated',
  'ingestRefused',
  'checkRunStarted',
  'checkFinished',
  'checkCapacityMeasured',
  'checkRunFinished',
  'catalogChanged',
  'messagesRemoved',
] as const satisfies readonly EngineEventType[];
// A type added to EngineEvent but not to the list above makes this line a compile error.
const everyEventType: Exclude<EngineEventType, (typeof ENGINE_EVENT_TYPES)[number]> extends never ? true : never = true;
void everyEventType;
export type EventOf<K extends EngineEventType> = Extract<EngineEvent, { type: K }>;
