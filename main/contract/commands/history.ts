/** The typed API's commands that main/history/ answers (its handlers: main/history/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns } from '../command.js';
import { EXPORT_LIMIT, noInput, ref, rowId, paging, listMessagesInputSchema } from '../commandInputs.js';
import { EXPORT_FORMATS, type ExportMessagesOutput } from '../api.js';
import { type ImportMessagesOutput, importMessagesInputSchema } from '../importMessages.js';
import { type RetentionState, setRetentionInputSchema } from '../retention.js';
import type { DestinationStats, DestinationTimeline } from '../destinations.js';
import type { DeletionRequest, MessageDetail, MessagePage, Page } from '../messages.js';
import type { IngestRefusal, SourceUsage } from '../sources.js';

export const HISTORY_COMMANDS = {
  listMessages: command({
    input: listMessagesInputSchema,
    answers: returns<MessagePage>('Page<MessageSummary> & { searching?: { left: number } }'),
    group: 'Messages',
    summary: 'Messages newest first, filtered (all filters combine with AND; `from` is inclusive, `to` exclusive and after `from`), in cursor pages that stay stable while new messages arrive. `status` is the message\'s own status; `delivery` finds messages with at least one delivery in that status (`failed`: any delivery failed), and `deliverySince` (engine ms, with `delivery`) only those that reached it since then. Each item carries every destination\'s outcome (`deliveries`: status, reason, rounds as `attempts` and POSTs as `webhookAttempts`, next attempt, last outcome and HTTP status). With `text`, while the history index catches up after a burst, a page may stop early (fewer items, even none) with `searching: {left}` and a `nextCursor` that goes on: follow it.',
  }),
  getMessage: command({
    input: z.strictObject({ id: rowId }),
    answers: returns<MessageDetail>('MessageDetail'),
    group: 'Messages',
    summary: 'One message with its exact body, the call as received, its deliveries and every attempt (secrets masked).',
    errors: ['not_found'],
  }),
  exportMessages: command({
    input: z
      .strictObject({
        filter: listMessagesInputSchema.omit({ cursor: true, limit: true }).optional(),
        ids: z.array(rowId).min(1).max(EXPORT_LIMIT).optional(),
        format: z.enum(EXPORT_FORMATS),
        includeSecrets: z.boolean().optional(),
      })
      .refine((v) => !(v.filter && v.ids), { message: 'give either filter or ids, not both', path: ['ids'] }),
    answers: returns<ExportMessagesOutput>("{ text: string; mimeType: string; fileExtension: string; messages: number; notSent: number; truncated: boolean; truncatedBy: 'count' | 'size' | null }"),
    group: 'Messages',
    summary: 'Messages (by filter, or a selection of ids; at most 10,000, newest first, in at most 16,777,216 bytes of text: the newest that fit, what one import takes) with their deliveries and attempts as JSON lines, HAR 1.2 (one entry per attempt) or cURL commands replaying each attempt byte for byte; secrets redacted unless `includeSecrets`. `truncatedBy` says which bound left messages out. The CLI: `hookbench export`.',
    errors: ['not_found'],
  }),
  importMessages: command({
    input: importMessagesInputSchema,
    answers: returns<ImportMessagesOutput>("{ format: 'json' | 'har'; imported: { id: number; importedFrom: number | null; status: MessageStatus; deliveries: number; held: string[] }[] }"),
    group: 'Messages',
    summary: 'Reads an export back and sends its messages again as new messages (new messageIds unless `keepMessageIds`). `text` is the export\'s text: JSON lines as exportMessages writes them (one MessageDetail a line; a JSON array of them is read too) or its HAR 1.2 (entries grouped back into messages by `_messageId`); a cURL script cannot be read back. Each message goes through `source` (a name or id), else its original source, else its original destinations (by id, then name), where they exist here; one that has none of these refuses the import (`not_found`, field `source`). Each body is built again from the exported call (docs/behaviour.md §1) with what the workbench filled into the original\'s body (its `timestamp` of receipt, `context.ip`, and with `keepMessageIds` a messageId it made), so a copy says what its original said (byte for byte with `keepMessageIds`); the call is measured against the 32 KiB limit as the original was, and what is refused at sendMessage is refused here, but for a call\'s `sentAt` and a non-object `integrations`, which earlier versions stored as given and come back as they were stored. One transaction: the first bad entry refuses the whole import, named by where it is (`text: line 3: …`, `text: log.entries[5].request.postData.text: …`). At most 10,000 messages and 16,777,216 bytes of text, what one export holds at most, so every export imports whole; the JSON is read as every file a user gives is (a key given twice, a number a double does not keep refused). Over HTTP this one command takes requests up to 32 MiB and 64 KiB. They are sent in the order their originals arrived (by original id, whatever order the file lists them in; a file without ids keeps its own), and `imported` lists them in that order, with `importedFrom`, the id each had where it was exported (null when the export does not say). `held` names the disabled destinations a copy waits for (its deliveries to them stay queued until they are enabled). The CLI: `hookbench import <file>`.',
    errors: ['not_found', 'missing_field', 'missing_identity', 'unknown_field', 'invalid_timestamp', 'message_too_large', 'nesting_too_deep'],
  }),
  getRetention: command({
    input: noInput,
    answers: returns<RetentionState>('RetentionState'),
    group: 'Workbench',
    summary: 'The retention policy (keep the last `maxAgeDays` days and/or the newest `maxMessages` messages), the database size, the messages stored and how many retention removed.',
  }),
  setRetention: command({
    input: setRetentionInputSchema,
    answers: returns<RetentionState>('RetentionState'),
    group: 'Workbench',
    summary: 'Sets the retention policy (a field left out is kept; null turns that limit off). Settled messages past it are removed in the background while the workbench is quiet; waiting ones are kept.',
  }),
  listDestinationStats: command({
    input: noInput,
    answers: returns<Page<DestinationStats>>('Page<DestinationStats>'),
    group: 'Destinations',
    summary: "Per destination: deliveries pending (what deleting it would cancel), and among its newest 100 deliveries how many were delivered or failed (the failure rate) and the newest one's status.",
  }),
  getDestinationTimeline: command({
    input: z.strictObject({ id: ref }),
    answers: returns<DestinationTimeline>('DestinationTimeline'),
    group: 'Destinations',
    summary:
      "One destination's last 60 minutes of engine time, a value per minute: rounds delivered, retried and failed for good, the attempts' latency p50 and p95, and the deliveries waiting for a retry (`backlog`, the last one `backlogNow`; null for minutes before Hookbench started). Counted in memory as rounds are recorded (no scan of the history: it answers in the same time at a million messages), so the minutes start empty after a restart; `backlogNow` is read from the database, bounded by the deliveries pending. `id` is the destination's id or name.",
    errors: ['not_found'],
  }),
  listSourceUsage: command({
    input: noInput,
    answers: returns<Page<SourceUsage>>('Page<SourceUsage>'),
    group: 'Sources and ingestion',
    summary: 'Per source: calls received, accepted, refused and filtered.',
  }),
  listIngestLog: command({
    input: z.strictObject(paging),
    answers: returns<Page<IngestRefusal>>('Page<IngestRefusal>'),
    group: 'Sources and ingestion',
    summary: 'Refused ingestion requests, newest first, with reason, field, limit and a body preview.',
  }),
  listDeletionRequests: command({
    input: noInput,
    answers: returns<Page<DeletionRequest>>('Page<DeletionRequest>'),
    group: 'Deletion',
    summary: 'Deletion requests and the messages they sent.',
  }),
};
