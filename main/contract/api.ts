/**
 * The typed API: commands (request → Result) and pushed events. Transports (Electron IPC, HTTP) derive
 * their call types from this one interface.
 */
import type { MessageType } from './messageShapes.js';
import type {
  ClockState,
  DeletionRequest,
  DeliveryRecord,
  Destination,
  IngestRefusal,
  SourceUsage,
  MessageDetail,
  MessageRecord,
  MessageStatus,
  Page,
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
  UpdateAudienceInput,
  UpdateComputedTraitInput,
} from './audiences.js';
import type { CaptureRecord, ListCapturesInput, ReceiverEndpoint, ReceiverInput, ReceiverPatch } from './receiver.js';
import type { Result } from './result.js';
import type { DestinationInput, DestinationPatch, SendMessageInput, SourceInput } from './schemas.js';

export interface ListMessagesInput {
  status?: MessageStatus;
  type?: MessageType;
  search?: string;
  cursor?: string | null;
  limit?: number;
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
  listMessages(input: ListMessagesInput): Result<Page<MessageRecord>>;
  getMessage(input: { id: number }): Result<MessageDetail>;
  /** Pull a waiting or failed delivery's next attempt to now (a failed one gets a fresh window). */
  retryNow(input: { id: number } | { deliveryId: number }): Result<{ deliveries: DeliveryRecord[] }>;
  cancelMessage(input: { id: number }): Result<{ deliveries: DeliveryRecord[] }>;
  replayMessage(input: { id: number; keepMessageId?: boolean }): Result<SendMessageOutput>;
  /** Resolves once the attempts the advance triggered have finished. */
  advanceClock(input: { ms: number }): Promise<Result<ClockState>>;
  getClock(input?: Record<string, never>): Result<ClockState>;
  listDestinations(input?: Record<string, never>): Result<Destination[]>;
  createDestination(input: DestinationInput): Result<Destination>;
  updateDestination(input: { id: string; patch: DestinationPatch }): Result<Destination>;
  deleteDestination(input: { id: string }): Result<{ cancelledDeliveries: number }>;
  listSources(input?: Record<string, never>): Result<Source[]>;
  createSource(input: SourceInput): Result<Source>;
  /** Sends one `delete` message per affected source (those that saw the user, or those named). */
  createDeletionRequest(input: { userId: string; sources?: string[] }): Result<{ request: DeletionRequest; messages: SendMessageOutput[] }>;
  listDeletionRequests(input?: Record<string, never>): Result<DeletionRequest[]>;
  /** Per-source counters: calls received, accepted, refused, filtered. */
  listSourceUsage(input?: Record<string, never>): Result<SourceUsage[]>;
  /** Refused ingestion requests, newest first, with their reasons. */
  listIngestLog(input: { cursor?: string | null; limit?: number }): Result<Page<IngestRefusal>>;
}

/** Audiences and computed traits (SPEC-NOTES §8). */
export interface AudienceCommands {
  createAudience(input: CreateAudienceInput): Result<{ audience: Audience; sync: AudienceSyncResult }>;
  updateAudience(input: UpdateAudienceInput): Result<Audience>;
  syncAudience(input: IdInput): Result<AudienceSyncResult>;
  deleteAudience(input: IdInput): Result<{ id: string }>;
  listAudiences(input?: ListAudiencesInput): Result<(Audience | ComputedTrait)[]>;
  createComputedTrait(input: CreateComputedTraitInput): Result<{ computedTrait: ComputedTrait; sync: ComputedTraitSyncResult }>;
  updateComputedTrait(input: UpdateComputedTraitInput): Result<ComputedTrait>;
  syncComputedTrait(input: IdInput): Result<ComputedTraitSyncResult>;
  deleteComputedTrait(input: IdInput): Result<{ id: string }>;
}

/** The mock receiver's endpoints and captures. */
export interface ReceiverCommands {
  listReceivers(input?: Record<string, never>): Result<ReceiverEndpoint[]>;
  getReceiver(input: { name: string }): Result<ReceiverEndpoint>;
  createReceiver(input: ReceiverInput): Result<ReceiverEndpoint>;
  updateReceiver(input: { name: string; patch: ReceiverPatch }): Result<ReceiverEndpoint>;
  deleteReceiver(input: { name: string }): Result<{ name: string }>;
  listCaptures(input?: ListCapturesInput): Result<Page<CaptureRecord>>;
  getCapture(input: { id: number }): Result<CaptureRecord>;
  clearCaptures(input?: { receiver?: string }): Result<{ deleted: number }>;
}

/** The whole typed API: every transport derives its call types from this one interface. */
export type Commands = CoreCommands & AudienceCommands & ReceiverCommands;

export type CommandName = keyof Commands;
export type CommandInput<K extends CommandName> = Parameters<Commands[K]>[0];
export type CommandOutput<K extends CommandName> = Awaited<ReturnType<Commands[K]>>;
