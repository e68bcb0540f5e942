/**
 * Pieces of command input schemas that several features' command tables share (row ids, references,
 * paging, filters) and the bounds on what one call may ask for.
 */
import { z } from 'zod';
import { MESSAGE_TYPES } from './message/messageShapes.js';
import { DELIVERY_STATUSES, MESSAGE_STATUSES } from './models.js';

/** Bounds on what one API call may ask for. */
export const API_LIMITS = {
  pageSize: 1000,
  sendMessagesBatch: 1000,
  /** A clock move at most one year long. */
  advanceMs: 365 * 24 * 3_600_000,
  /** A list filter's text (user id, event, body search). */
  filterChars: 1000,
} as const;

/** One export holds at most this many messages (newest first). */
export const EXPORT_LIMIT = 10_000;

export const noInput = z.strictObject({});
/** Row ids of messages, deliveries, captures: positive whole numbers. */
export const rowId = z.number({ error: 'must be a number (a row id)' }).int('must be a whole number').positive('must be positive').max(Number.MAX_SAFE_INTEGER);
/** Ids (UUIDs) or names of sources and destinations. */
export const ref = z.string({ error: 'must be a string (an id or a name)' }).min(1, 'must not be empty').max(200);
const filterText = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(API_LIMITS.filterChars, { error: `must be at most ${API_LIMITS.filterChars.toLocaleString('en-US')} characters` });
const epochMs = z.number({ error: 'must be a number (ms since the epoch)' }).int('must be a whole number of milliseconds').min(0).max(8.64e15);
export const paging = {
  cursor: z.string({ error: 'must be a string (the nextCursor of the previous page)' }).max(100).nullable().optional(),
  limit: z.number({ error: 'must be a number' }).int('must be a whole number').min(1).max(API_LIMITS.pageSize).optional(),
};
export const receiverName = z.string({ error: "must be a string (the receiver's name)" }).min(1, "give the receiver's name").max(64);

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
