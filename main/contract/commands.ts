/**
 * The command table: for every command of the typed API, the schema its input must satisfy. The `satisfies`
 * clause below makes a missing or extra name a compile error, and checks each schema's output against the
 * input type the `Commands` interface declares. Every transport (HTTP, Electron IPC, the CLI's calls to a
 * running serve, tests) validates through `dispatch` (./dispatch.ts) with this table, so a handler only
 * ever sees input of its declared type. docs/api.md is generated from it.
 */
import { z } from 'zod';
import { EXPORT_FORMATS, type CommandInput, type CommandName } from './api.js';
import {
  createAudienceInputSchema,
  createComputedTraitInputSchema,
  idInputSchema,
  listAudiencesInputSchema,
  previewAudienceInputSchema,
  updateAudienceInputSchema,
  updateComputedTraitInputSchema,
} from './audiences.js';
import { getCheckRunInputSchema, listCheckRunsInputSchema, runCheckInputSchema } from './check.js';
import { importMessagesInputSchema } from './importMessages.js';
import { MESSAGE_TYPES } from './messageShapes.js';
import { DELIVERY_STATUSES, MESSAGE_STATUSES, SECRET_KINDS, SOURCE_KINDS } from './models.js';
import { receiverInputSchema, receiverPatchSchema } from './receiver.js';
import { setRetentionInputSchema } from './retention.js';
import { destinationInputSchema, destinationPatchSchema, sendMessageInputSchema, sourceInputSchema } from './schemas.js';

/** Bounds on what one API call may ask for. */
export const API_LIMITS = {
  pageSize: 1000,
  sendMessagesBatch: 1000,
  /** A clock move at most one year long. */
  advanceMs: 365 * 24 * 3_600_000,
  /** A list filter's text (user id, event, body search). */
  filterChars: 1000,
} as const;

const noInput = z.strictObject({});
/** Row ids of messages, deliveries, captures: positive whole numbers. */
const rowId = z.number({ error: 'must be a number (a row id)' }).int('must be a whole number').positive('must be positive').max(Number.MAX_SAFE_INTEGER);
/** Ids (UUIDs) or names of sources and destinations. */
const ref = z.string({ error: 'must be a string (an id or a name)' }).min(1, 'must not be empty').max(200);
const filterText = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(API_LIMITS.filterChars, { error: `must be at most ${API_LIMITS.filterChars.toLocaleString('en-US')} characters` });
const epochMs = z.number({ error: 'must be a number (ms since the epoch)' }).int('must be a whole number of milliseconds').min(0).max(8.64e15);
const paging = {
  cursor: z.string({ error: 'must be a string (the nextCursor of the previous page)' }).max(100).nullable().optional(),
  limit: z.number({ error: 'must be a number' }).int('must be a whole number').min(1).max(API_LIMITS.pageSize).optional(),
};
const receiverName = z.string({ error: "must be a string (the receiver's name)" }).min(1, "give the receiver's name").max(64);

export const listMessagesInputSchema = z.strictObject({
  status: z.enum(MESSAGE_STATUSES, { error: `must be one of ${MESSAGE_STATUSES.join(', ')}` }).optional(),
  type: z.enum(MESSAGE_TYPES, { error: `must be one of ${MESSAGE_TYPES.join(', ')}` }).optional(),
  sourceId: ref.optional(),
  destinationId: ref.optional(),
  userId: filterText.optional(),
  event: filterText.optional(),
  text: filterText.optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
  delivery: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
  // Checked with delivery by the history (main/history/history.ts): a refinement here would stop the export filter's omit().
  deliverySince: epochMs.optional(),
  ...paging,
});

/** One export holds at most this many messages (newest first). */
export const EXPORT_LIMIT = 10_000;

export const commandSchemas = {
  // messages
  sendMessage: sendMessageInputSchema,
  sendMessages: z.strictObject({ messages: z.array(sendMessageInputSchema, { error: 'must be an array of sendMessage inputs' }).min(1).max(API_LIMITS.sendMessagesBatch) }),
  listMessages: listMessagesInputSchema,
  getMessage: z.strictObject({ id: rowId }),
  retryNow: z
    .strictObject({ id: rowId.optional(), deliveryId: rowId.optional() })
    .refine((v) => (v.id === undefined) !== (v.deliveryId === undefined), { message: 'give either id (a message) or deliveryId (one delivery)', path: ['id'] }),
  cancelMessage: z.strictObject({ id: rowId }),
  exportMessages: z
    .strictObject({
      filter: listMessagesInputSchema.omit({ cursor: true, limit: true }).optional(),
      ids: z.array(rowId).min(1).max(EXPORT_LIMIT).optional(),
      format: z.enum(EXPORT_FORMATS, { error: `must be one of ${EXPORT_FORMATS.join(', ')}` }),
      includeSecrets: z.boolean().optional(),
    })
    .refine((v) => !(v.filter && v.ids), { message: 'give either filter or ids, not both', path: ['ids'] }),
  replayMessage: z.strictObject({ id: rowId, keepMessageId: z.boolean().optional() }),
  importMessages: importMessagesInputSchema,
  getRetention: noInput,
  setRetention: setRetentionInputSchema,
  getDiagnostics: noInput,
  explainMessage: z.strictObject({ id: rowId }),
  // clock and forwarding
  advanceClock: z.strictObject({
    ms: z
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(0)
      .max(API_LIMITS.advanceMs, { error: `must be at most one year (${API_LIMITS.advanceMs} ms)` }),
    fastForward: z.boolean({ error: 'must be true or false' }).optional(),
  }),
  advanceToNextRetry: noInput,
  cancelClockAdvance: noInput,
  resetClock: noInput,
  getClock: noInput,
  setFastForward: z.strictObject({ enabled: z.boolean({ error: 'must be true or false' }) }),
  getOverview: noInput,
  pauseForwarding: noInput,
  resumeForwarding: noInput,
  getSettings: noInput,
  rotateToken: noInput,
  revealSecret: z.strictObject({ kind: z.enum(SECRET_KINDS, { error: `must be one of ${SECRET_KINDS.join(', ')}` }), id: ref }),
  useOneSecret: z.strictObject({ destinationId: ref, receiver: receiverName }),
  // destinations and sources
  listDestinations: noInput,
  createDestination: destinationInputSchema,
  updateDestination: z.strictObject({ id: ref, patch: destinationPatchSchema }),
  deleteDestination: z.strictObject({ id: ref }),
  listDestinationStats: noInput,
  listSources: noInput,
  createSource: sourceInputSchema,
  updateSource: z.strictObject({
    id: ref,
    // The write key is checked by the source's own rules once a masked value sent back has been resolved.
    patch: z.strictObject({ kind: z.enum(SOURCE_KINDS).optional(), writeKey: z.string({ error: 'must be a string' }).min(1).max(200).optional() }),
  }),
  deleteSource: z.strictObject({ id: ref }),
  listSourceUsage: noInput,
  listIngestLog: z.strictObject(paging),
  // deletion
  createDeletionRequest: z.strictObject({
    userId: z.string({ error: 'must be a string (the user whose data is deleted)' }).trim().min(1, 'is required (the user whose data is deleted)').max(API_LIMITS.filterChars),
    sources: z.array(ref, { error: 'must be a list of source names or ids' }).min(1).max(100).optional(),
  }),
  listDeletionRequests: noInput,
  // audiences and computed traits
  createAudience: createAudienceInputSchema,
  updateAudience: updateAudienceInputSchema,
  syncAudience: idInputSchema,
  deleteAudience: idInputSchema,
  listAudiences: listAudiencesInputSchema,
  getAudience: idInputSchema,
  previewAudience: previewAudienceInputSchema,
  createComputedTrait: createComputedTraitInputSchema,
  updateComputedTrait: updateComputedTraitInputSchema,
  syncComputedTrait: idInputSchema,
  deleteComputedTrait: idInputSchema,
  // the mock receiver
  listReceivers: noInput,
  getReceiver: z.strictObject({ name: receiverName }),
  createReceiver: receiverInputSchema,
  updateReceiver: z.strictObject({ name: receiverName, patch: receiverPatchSchema }),
  deleteReceiver: z.strictObject({ name: receiverName }),
  listCaptures: z.strictObject({ receiver: receiverName.optional(), messageId: z.string().min(1).max(200).optional(), ...paging }),
  getCapture: z.strictObject({ id: rowId }),
  clearCaptures: z.strictObject({ receiver: receiverName.optional() }),
  // checking the user's receiver
  runCheck: runCheckInputSchema,
  getCheckRun: getCheckRunInputSchema,
  listCheckRuns: listCheckRunsInputSchema,
} satisfies { [K in CommandName]: z.ZodType<CommandInput<K>, unknown> };

/** Every command name, in the table's order (for docs, tests and the CLI). */
export const COMMAND_NAMES = Object.keys(commandSchemas) as CommandName[];

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(commandSchemas, name);
}
