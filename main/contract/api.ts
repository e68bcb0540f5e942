/**
 * The typed API: commands (request → Result) and pushed events. Transports (Electron IPC, HTTP) derive
 * their call types from this one interface.
 */
import type {
  ClockAdvance,
  ClockState,
  ClockStatus,
  DeletionRequest,
  DeliveryRecord,
  Destination,
  DestinationStats,
  IngestRefusal,
  SourceUsage,
  MessageDetail,
  MessageFilter,
  MessageRecord,
  MessageSummary,
  Overview,
  Page,
  SecretKind,
  Settings,
  Source,
} from './models.js';
import type {
  Audience,
  AudienceSyncResult,
  ComputedTrait,
  ComputedTraitSyncResult,
  CreateAudienceInput,
  CreateComputedTraitInput,
  IdInput,
  ListAudiencesInput,
  AudienceDetail,
  AudiencePreview,
  PreviewAudienceInput,
  UpdateAudienceInput,
  UpdateComputedTraitInput,
} from './audiences.js';
import type { CheckRun, CheckRunSummary, ListCheckRunsInput, RunCheckInput } from './check.js';
import type { Diagnostics, MessageExplanation } from './diagnostics.js';
import type { ImportMessagesInput, ImportMessagesOutput } from './importMessages.js';
import type { RetentionState, SetRetentionInput } from './retention.js';
import type { CapturePage, CaptureRecord, ListCapturesInput, ReceiverEndpoint, ReceiverInput, ReceiverPatch } from './receiver.js';
import type { Result } from './result.js';
import type { DestinationInput, DestinationPatch, SendMessageInput, SourceInput } from './schemas.js';

/** Filters of listMessages; all optional, combined with AND. Pages run newest first. */
export interface ListMessagesInput extends MessageFilter {
  cursor?: string | null | undefined;
  limit?: number | undefined;
}

export const EXPORT_FORMATS = ['json', 'har', 'curl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportMessagesInput {
  /** The messages listMessages would list with these filters (newest first)… */
  filter?: Omit<ListMessagesInput, 'cursor' | 'limit'> | undefined;
  /** …or exactly these messages (a selection). */
  ids?: number[] | undefined;
  format: ExportFormat;
  /** Shared secrets, write keys, the API token and credential-like headers are redacted unless this is true. */
  includeSecrets?: boolean | undefined;
}

export interface ExportMessagesOutput {
  text: string;
  mimeType: string;
  fileExtension: string;
  /** Messages exported. */
  messages: number;
  /** More messages matched than one export holds (the newest were exported). */
  truncated: boolean;
}

/** A list that needs no paging still answers as a page (nextCursor null), like every list. */
export type NoInput = Record<string, never>;

export interface UpdateSourceInput {
  id: string;
  patch: { kind?: Source['kind'] | undefined; writeKey?: string | undefined };
}

export interface SendMessageOutput {
  message: MessageRecord;
  deliveries: DeliveryRecord[];
}

/** Commands of the core: messages, destinations, sources, clock, ingestion, deletion. */
export interface CoreCommands {
  sendMessage(input: SendMessageInput): Result<SendMessageOutput>;
  /** A batch in one transaction; one invalid message refuses the whole batch (errors name `messages[i]`). */
  sendMessages(input: { messages: SendMessageInput[] }): Result<SendMessageOutput[]>;
  listMessages(input: ListMessagesInput): Result<Page<MessageSummary>>;
  getMessage(input: { id: number }): Result<MessageDetail>;
  /**
   * Pull a waiting or failed delivery's next attempt to now (a failed one gets a fresh window): every
   * delivery of message `id`, or the one delivery `deliveryId` (give exactly one of the two).
   */
  retryNow(input: { id?: number | undefined; deliveryId?: number | undefined }): Result<{ deliveries: DeliveryRecord[] }>;
  cancelMessage(input: { id: number }): Result<{ deliveries: DeliveryRecord[] }>;
  replayMessage(input: { id: number; keepMessageId?: boolean }): Result<SendMessageOutput>;
  /**
   * Resolves once the attempts the advance triggered have finished, or at once when cancelClockAdvance or
   * resetClock interrupts it. `fastForward` overrides the persisted setting for this jump.
   */
  advanceClock(input: { ms: number; fastForward?: boolean | undefined }): Promise<Result<ClockAdvance>>;
  /** Moves the clock to the next waiting attempt's due time (if it is in the future) and plays it. */
  advanceToNextRetry(input?: NoInput): Promise<Result<ClockAdvance>>;
  /** Stops the jump in progress (and any queued behind it) where it got to; attempts in flight finish. */
  cancelClockAdvance(input?: NoInput): Result<ClockStatus>;
  /** Back to real time (offset 0), interrupting any jump; work that fell due stays due. */
  resetClock(input?: NoInput): Promise<Result<ClockState>>;
  getClock(input?: NoInput): Result<ClockStatus>;
  /** The persisted **Fast-forward unanswered attempts** setting. */
  setFastForward(input: { enabled: boolean }): Result<ClockStatus>;
  /** Counts per status, the retry backlog, the clock and whether forwarding is paused. */
  getOverview(input?: NoInput): Result<Overview>;
  /**
   * Messages with their deliveries and attempts as JSON lines, HAR 1.2 (one entry per attempt) or cURL
   * commands that replay each attempt byte for byte; secrets redacted unless includeSecrets.
   */
  exportMessages(input: ExportMessagesInput): Result<ExportMessagesOutput>;
  /**
   * Reads an export back (JSON lines or HAR, as exportMessages writes them) and sends its messages again
   * through intake, in one transaction: one bad entry refuses the import, naming where it is in the text.
   */
  importMessages(input: ImportMessagesInput): Result<ImportMessagesOutput>;
  /** How long messages are kept (days and/or count), the database size and what retention removed. */
  getRetention(input?: NoInput): Result<RetentionState>;
  /** Sets the retention policy (a field left out is kept, null turns it off); applied in the background. */
  setRetention(input: SetRetentionInput): Result<RetentionState>;
  /** The troubleshooting checklist (docs/behaviour.md §13), computed from the newest data, with evidence. */
  getDiagnostics(input?: NoInput): Result<Diagnostics>;
  /** Why one message was or was not delivered, per destination, from the checklist's rules (the detail's Why?). */
  explainMessage(input: { id: number }): Result<MessageExplanation>;
  /** Hold forwarding: accepted messages wait, queued; rounds in flight finish. Persisted in the data dir. */
  pauseForwarding(input?: NoInput): Result<{ paused: boolean }>;
  resumeForwarding(input?: NoInput): Result<{ paused: boolean }>;
  /** Where this workbench lives: data dir, database size, versions and (under serve) its URLs. */
  getSettings(input?: NoInput): Result<Settings>;
  /**
   * A new API token for this data dir (the old one stops working at once; open UIs must reload with the
   * new uiUrl). The token otherwise stays the same across restarts, so a bookmarked UI URL keeps working.
   */
  rotateToken(input?: NoInput): Result<{ token: string; uiUrl: string | null }>;
  /** The one way to see a secret in clear: a destination's shared secret, a source's write key, a receiver's secret. */
  revealSecret(input: { kind: SecretKind; id: string }): Result<{ secret: string | null }>;
  /**
   * Makes a destination and a mock-receiver endpoint use one secret: the endpoint takes the destination's
   * shared secret, or, when the destination has none, the destination takes the endpoint's. Neither secret
   * is shown: the answer names what changed and the fingerprint both now share.
   */
  useOneSecret(input: { destinationId: string; receiver: string }): Result<UseOneSecretOutput>;
  listDestinations(input?: NoInput): Result<Page<Destination>>;
  createDestination(input: DestinationInput): Result<Destination>;
  updateDestination(input: { id: string; patch: DestinationPatch }): Result<Destination>;
  deleteDestination(input: { id: string }): Result<{ cancelledDeliveries: number }>;
  /**
   * Per destination: deliveries pending (what deleting it cancels), and among its newest deliveries (at
   * most DESTINATION_STATS_WINDOW) how many were delivered or failed, and the newest one's outcome.
   */
  listDestinationStats(input?: NoInput): Result<Page<DestinationStats>>;
  listSources(input?: NoInput): Result<Page<Source>>;
  createSource(input: SourceInput): Result<Source>;
  updateSource(input: UpdateSourceInput): Result<Source>;
  /**
   * Deletes a source: its write key stops working (401) and every destination connected to it is
   * disconnected from it (named in the answer). Its messages stay in the history.
   */
  deleteSource(input: { id: string }): Result<{ id: string; disconnectedDestinations: string[] }>;
  /** Sends one `delete` message per affected source (those that saw the user, or those named). */
  createDeletionRequest(input: { userId: string; sources?: string[] }): Result<{ request: DeletionRequest; messages: SendMessageOutput[] }>;
  listDeletionRequests(input?: NoInput): Result<Page<DeletionRequest>>;
  /** Per-source counters: calls received, accepted, refused, filtered. */
  listSourceUsage(input?: NoInput): Result<Page<SourceUsage>>;
  /** Refused ingestion requests, newest first, with their reasons. */
  listIngestLog(input: { cursor?: string | null; limit?: number }): Result<Page<IngestRefusal>>;
}

/** Audiences and computed traits (docs/behaviour.md §8). */
export interface AudienceCommands {
  createAudience(input: CreateAudienceInput): Result<{ audience: Audience; sync: AudienceSyncResult }>;
  updateAudience(input: UpdateAudienceInput): Result<Audience>;
  syncAudience(input: IdInput): Result<AudienceSyncResult>;
  deleteAudience(input: IdInput): Result<{ id: string }>;
  listAudiences(input: ListAudiencesInput): Result<Page<Audience | ComputedTrait>>;
  /** One audience or computed trait: the values its last sync left each user with, and what a sync now would send. */
  getAudience(input: IdInput): Result<AudienceDetail>;
  /** Who a definition (not saved) would hold now among the source's users, and the trait names they have. */
  previewAudience(input: PreviewAudienceInput): Result<AudiencePreview>;
  createComputedTrait(input: CreateComputedTraitInput): Result<{ computedTrait: ComputedTrait; sync: ComputedTraitSyncResult }>;
  updateComputedTrait(input: UpdateComputedTraitInput): Result<ComputedTrait>;
  syncComputedTrait(input: IdInput): Result<ComputedTraitSyncResult>;
  deleteComputedTrait(input: IdInput): Result<{ id: string }>;
}

export interface UseOneSecretOutput {
  /** Which side took the other's secret. */
  changed: 'receiver' | 'destination';
  destinationId: string;
  receiver: string;
  /** The first 8 hex digits of SHA-256 of the secret both now use. */
  fingerprint: string;
}

/** The mock receiver's endpoints and captures. */
export interface ReceiverCommands {
  listReceivers(input?: NoInput): Result<Page<ReceiverEndpoint>>;
  getReceiver(input: { name: string }): Result<ReceiverEndpoint>;
  createReceiver(input: ReceiverInput): Result<ReceiverEndpoint>;
  updateReceiver(input: { name: string; patch: ReceiverPatch }): Result<ReceiverEndpoint>;
  deleteReceiver(input: { name: string }): Result<{ name: string }>;
  listCaptures(input: ListCapturesInput): Result<CapturePage>;
  getCapture(input: { id: number }): Result<CaptureRecord>;
  clearCaptures(input: { receiver?: string | undefined }): Result<{ deleted: number }>;
}

/** Checking the user's own receiver (docs/check.md): the battery and user scenarios, runs kept with the history. */
export interface CheckCommands {
  /**
   * Starts a run against `url` and answers the run as it starts (`status: 'running'`), or, with `wait`, as it
   * ended; checkRunStarted, checkFinished (one per check) and checkRunFinished follow as it goes.
   */
  runCheck(input: RunCheckInput): Promise<Result<CheckRun>>;
  /** One run with every check, its evidence, and each check's change since the previous run of the same URL. */
  getCheckRun(input: { id: number }): Result<CheckRun>;
  /** Runs newest first (optionally of one URL), without their checks. */
  listCheckRuns(input: ListCheckRunsInput): Result<Page<CheckRunSummary>>;
}

/** The whole typed API: every transport derives its call types from this one interface. */
export type Commands = CoreCommands & AudienceCommands & ReceiverCommands & CheckCommands;

export type CommandName = keyof Commands;
export type CommandInput<K extends CommandName> = Parameters<Commands[K]>[0];
export type CommandOutput<K extends CommandName> = Awaited<ReturnType<Commands[K]>>;
