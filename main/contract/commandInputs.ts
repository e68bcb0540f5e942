/**
 * Pieces of command input schemas that several features' command tables share (row ids, references,
 * paging, filters), and the bounds on what one call may ask for (kept in apiLimits.ts, without zod).
 */
import { z } from 'zod';
import { MESSAGE_TYPES } from './message/messageShapes.js';
import { DELIVERY_STATUSES } from './deliveries.js';
import { DESTINATION_OWNERS } from './destinations.js';
import { MESSAGE_ORIGINS, MESSAGE_STATUSES } from './messages.js';
import { API_LIMITS, EXPORT_LIMIT, EXPORT_TEXT_BYTES } from './apiLimits.js';
import { oneOf, wrongType } from './zodWords.js';

export { API_LIMITS, EXPORT_LIMIT, EXPORT_TEXT_BYTES };

export const noInput = z.strictObject({});
/** listDestinations: the user's destinations unless another owner (or `all`) is asked for. */
export const listDestinationsInputSchema = z.strictObject({
  owner: z
    .enum([...DESTINATION_OWNERS, 'all'], { error: oneOf('user: yours; check, send: the destinations hookbench check and hookbench send keep for themselves') })
    .optional(),
});
/** Row ids of messages, deliveries, captures: positive whole numbers. */
export const rowId = z.number({ error: wrongType('must be a number (a row id)') }).int({ error: (issue) => `must be a whole number (got ${String(issue.input)})` }).positive().max(Number.MAX_SAFE_INTEGER);
/** Ids (UUIDs) or names of sources and destinations. */
export const ref = z.string({ error: wrongType('must be a string (an id or a name)') }).min(1, 'must not be empty').max(200);
const filterText = z
  .string({ error: wrongType('must be a string') })
  .min(1, 'must not be empty')
  .max(API_LIMITS.filterChars, { error: `must be at most ${API_LIMITS.filterChars.toLocaleString('en-US')} characters` });
const epochMs = z.number({ error: wrongType('must be a number (ms since the epoch)') }).int('must be a whole number of milliseconds').min(0).max(8.64e15);
export const paging = {
  cursor: z.string({ error: wrongType('must be a string (the nextCursor of the previous page)') }).max(100).nullable().optional(),
  limit: z.number({ error: wrongType('must be a number') }).int('must be a whole number').min(1).max(API_LIMITS.pageSize).optional(),
};
export const receiverName = z.string({ error: wrongType("must be a string (the receiver's name)") }).min(1, "give the receiver's name").max(64);

export const listMessagesInputSchema = z.strictObject({
  status: z.enum(MESSAGE_STATUSES).optional(),
  type: z.enum(MESSAGE_TYPES).optional(),
  sourceId: ref.optional(),
  destinationId: ref.optional(),
  userId: filterText.optional(),
  event: filterText.optional(),
  text: filterText.optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
  delivery: z.enum(DELIVERY_STATUSES).optional(),
  // Checked with delivery by the history (main/history/history.ts): a refinement here would stop the export filter's omit().
  deliverySince: epochMs.optional(),
  /** Messages with a delivery that failed at or after this real time (what Failed (1 h) counts; time travel does not move it). */
  failedSince: epochMs.optional(),
  /** A check run's own messages (only those); without it, lists leave them out. */
  origin: z.enum(MESSAGE_ORIGINS, { error: oneOf("a check run's own messages") }).optional(),
  ...paging,
});
