/**
 * Retention of messages (docs/behaviour.md §10, "Retention"): keep the last N days and/or the newest N
 * messages. Settled messages past either limit are removed in the background while the core is quiet;
 * messages still waiting for a delivery are kept.
 */
import { z } from 'zod';
import { wrongType } from './zodWords.js';

export const RETENTION_LIMITS = {
  maxAgeDays: { min: 1, max: 3650 },
  maxMessages: { min: 100, max: 100_000_000 },
} as const;

export interface RetentionPolicy {
  /** Remove settled messages received more than this many days ago (engine time); null keeps them. */
  maxAgeDays: number | null;
  /** Keep at most the newest this many messages; null keeps them all. */
  maxMessages: number | null;
}

export interface RetentionState extends RetentionPolicy {
  /** Size of the database and its WAL, in bytes (it does not shrink: SQLite reuses the freed pages). */
  databaseBytes: number;
  /** Messages stored now, a check run's own included. */
  messages: number;
  /** Of them, the messages check runs sent (listMessages({origin: 'check'})): not the user's, so not in History's default list. */
  checkMessages: number;
  /** When the oldest stored message was received (engine time), or null. */
  oldestReceivedAt: number | null;
  /** Messages removed by retention since the data dir began. */
  pruned: number;
  /** When retention last removed something (engine time), since this core started; null if never. */
  lastPrunedAt: number | null;
}

const limit = (name: string, bounds: { min: number; max: number }) =>
  z
    .number({ error: wrongType(`must be a number (${name}), or null to keep everything`) })
    .int('must be a whole number')
    .min(bounds.min)
    .max(bounds.max)
    .nullable();

/** setRetention: a field left out keeps its current value; null turns that limit off. */
export const setRetentionInputSchema = z.strictObject({
  maxAgeDays: limit('days', RETENTION_LIMITS.maxAgeDays).optional(),
  maxMessages: limit('messages', RETENTION_LIMITS.maxMessages).optional(),
});
export type SetRetentionInput = z.input<typeof setRetentionInputSchema>;
