/**
 * What docs/api.md says of each command beyond its input schema: a summary, the output type (as in
 * ./api.ts and ./models.ts) and the errors it can answer besides `invalid_input`. Keyed by every command
 * name (a missing or extra one does not compile); scripts/write-api-docs.ts renders it with the schemas.
 */
import type { CommandName } from './api.js';
import type { ErrorCode } from './result.js';

export interface CommandDoc {
  group: 'Messages' | 'Clock and forwarding' | 'Workbench' | 'Destinations' | 'Sources and ingestion' | 'Deletion' | 'Audiences' | 'Mock receiver' | 'Check endpoint';
  summary: string;
  output: string;
  errors?: readonly ErrorCode[];
}

export const COMMAND_DOCS = {
  sendMessage: { group: 'Messages', summary: 'Accepts one call as if a source had sent it (or straight to named destinations), routes it and queues its deliveries.', output: '{ message: MessageRecord; deliveries: DeliveryRecord[] }', errors: ['not_found', 'missing_field', 'missing_identity', 'unknown_field', 'invalid_timestamp', 'message_too_large'] },
  sendMessages: { group: 'Messages', summary: 'A batch in one transaction: one invalid message refuses the whole batch (errors name `messages[i]`).', output: '{ message: MessageRecord; deliveries: DeliveryRecord[] }[]', errors: ['not_found', 'missing_field', 'missing_identity', 'message_too_large'] },
  listMessages: { group: 'Messages', summary: 'Messages newest first, filtered (all filters combine with AND), in cursor pages that stay stable while new messages arrive. `status` is the message\'s own status; `delivery` finds messages with at least one delivery in that status (`failed`: any delivery failed), and `deliverySince` (engine ms, with `delivery`) only those that reached it since then. Each item carries every destination\'s outcome (`deliveries`: status, reason, attempts, next attempt, last outcome and HTTP status).', output: 'Page<MessageSummary>' },
  getMessage: { group: 'Messages', summary: 'One message with its exact body, the call as received, its deliveries and every attempt (secrets masked).', output: 'MessageDetail', errors: ['not_found'] },
  retryNow: { group: 'Messages', summary: "Pulls a waiting or failed delivery's next attempt to now (a failed one gets a fresh window): all of a message's (`id`) or one (`deliveryId`).", output: '{ deliveries: DeliveryRecord[] }', errors: ['not_found', 'conflict'] },
  cancelMessage: { group: 'Messages', summary: "Cancels a message's waiting and in-flight deliveries (`cancelled by user`).", output: '{ deliveries: DeliveryRecord[] }', errors: ['not_found', 'conflict'] },
  exportMessages: { group: 'Messages', summary: 'Messages (by filter, or a selection of ids; at most 10,000, newest first) with their deliveries and attempts as JSON lines, HAR 1.2 (one entry per attempt) or cURL commands replaying each attempt byte for byte; secrets redacted unless `includeSecrets`. The CLI: `hookbench export`.', output: '{ text: string; mimeType: string; fileExtension: string; messages: number; truncated: boolean }', errors: ['not_found'] },
  replayMessage: { group: 'Messages', summary: 'Sends the same body again as a new message, to the destinations of the original; `keepMessageId` tests receiver de-duplication.', output: '{ message: MessageRecord; deliveries: DeliveryRecord[] }', errors: ['not_found'] },
  importMessages: { group: 'Messages', summary: 'Reads an export back and sends its messages again as new messages (new messageIds unless `keepMessageIds`). `text` is the export\'s text: JSON lines as exportMessages writes them (one MessageDetail a line; a JSON array of them is read too) or its HAR 1.2 (entries grouped back into messages by `_messageId`); a cURL script cannot be read back. Each message goes through `source` (a name or id), else its original source, else its original destinations (by id, then name), where they exist here; one that has none of these refuses the import (`not_found`, field `source`). Each body is built again from the exported call (docs/behaviour.md §1), so what is refused at sendMessage is refused here. One transaction: the first bad entry refuses the whole import, named by where it is (`text: line 3: …`, `text: log.entries[5].request.postData.text: …`). At most 1,000 messages and 2,097,152 characters of text. `imported` lists the new messages in the export\'s order, with `importedFrom`, the id each had where it was exported (null when the export does not say). The CLI: `hookbench import <file>`.', output: "{ format: 'json' | 'har'; imported: { id: number; importedFrom: number | null; status: MessageStatus; deliveries: number }[] }", errors: ['not_found', 'missing_field', 'missing_identity', 'unknown_field', 'invalid_timestamp', 'message_too_large'] },
  getRetention: { group: 'Workbench', summary: 'The retention policy (keep the last `maxAgeDays` days and/or the newest `maxMessages` messages), the database size, the messages stored and how many retention removed.', output: 'RetentionState' },
  setRetention: { group: 'Workbench', summary: 'Sets the retention policy (a field left out is kept; null turns that limit off). Settled messages past it are removed in the background while the workbench is quiet; waiting ones are kept.', output: 'RetentionState' },
  getDiagnostics: { group: 'Workbench', summary: 'The troubleshooting checklist: no events from a source, received but not delivered, deliveries slow; each check computed from the newest messages, attempts, refusals and captures, with links to its evidence.', output: 'Diagnostics' },
  advanceClock: { group: 'Clock and forwarding', summary: 'Moves engine time forward and plays every attempt that falls due on the way, in time order; answers when they have finished, or at once when cancelClockAdvance or resetClock interrupts it (`cancelled: true`). `fastForward` (default: the setFastForward setting) ends a jump\'s attempts that have no response headers after 1 s of real time as `timeout`, marked fast-forwarded.', output: 'ClockAdvance' },
  advanceToNextRetry: { group: 'Clock and forwarding', summary: 'Moves engine time to the next waiting attempt and plays it.', output: 'ClockAdvance', errors: ['conflict'] },
  cancelClockAdvance: { group: 'Clock and forwarding', summary: 'Stops the clock jump in progress (and any queued behind it) where it got to; its attempts in flight finish and are recorded. Answers at once; nothing to stop is not an error.', output: 'ClockStatus' },
  resetClock: { group: 'Clock and forwarding', summary: 'Back to real time (offset 0), interrupting a jump in progress; waiting deliveries keep their distance to now, work already due stays due.', output: 'ClockState' },
  getClock: { group: 'Clock and forwarding', summary: 'Engine time, its offset from real time, the Fast-forward unanswered attempts setting and the jump in progress.', output: 'ClockStatus' },
  setFastForward: { group: 'Clock and forwarding', summary: 'Turns **Fast-forward unanswered attempts** on or off (kept in the data dir; off by default): during a jump, an attempt with no response headers after 1 s of real time ends as `timeout`, its error saying it was fast-forwarded.', output: 'ClockStatus' },
  getOverview: { group: 'Clock and forwarding', summary: 'Messages per status and in all, deliveries in flight, the retry backlog, the clock and whether forwarding is paused. `messageCounters` are the top bar\'s counters, in messages (in flight, retrying, with a delivery failed in the last hour), each with the listMessages filter that lists exactly the messages it counted.', output: 'Overview' },
  pauseForwarding: { group: 'Clock and forwarding', summary: 'Holds forwarding (kept across restarts): accepted messages wait, queued; rounds in flight finish.', output: '{ paused: true }' },
  resumeForwarding: { group: 'Clock and forwarding', summary: 'Forwarding runs again.', output: '{ paused: false }' },
  getSettings: { group: 'Workbench', summary: 'The data dir, the database file and its size, versions, and (under serve) the URLs to use.', output: 'Settings' },
  rotateToken: { group: 'Workbench', summary: 'A new API token for this data dir; the old one stops working at once (reload the UI with the new uiUrl).', output: '{ token: string; uiUrl: string | null }' },
  explainMessage: {
    group: 'Workbench',
    summary:
      'Why one message was or was not delivered, per destination, from the checklist’s rules: disabled, not connected, integrations, an event filter with its rule, the receiver failing, TLS, the signature invalid at the receiver, the retry window exhausted (and why no further attempt came).',
    output: 'MessageExplanation',
    errors: ['not_found'],
  },
  revealSecret: { group: 'Workbench', summary: "The one way to see a secret in clear: a destination's shared secret, a source's write key or a receiver's secret.", output: '{ secret: string | null }', errors: ['not_found'] },
  useOneSecret: {
    group: 'Mock receiver',
    summary:
      "Makes a destination and a receiver endpoint use one secret (the endpoint takes the destination's shared secret; when the destination has none, it takes the endpoint's). Answers which side changed and the fingerprint both now share (first 8 hex of SHA-256), never the secret.",
    output: 'UseOneSecretOutput',
    errors: ['not_found', 'conflict'],
  },
  listDestinations: { group: 'Destinations', summary: 'Every destination, by name (secrets masked).', output: 'Page<Destination>' },
  createDestination: { group: 'Destinations', summary: 'A destination: up to 5 webhooks, static headers, shared secret, timeout, retry policy, event filters, caFile.', output: 'Destination', errors: ['conflict', 'not_found', 'invalid_config'] },
  updateDestination: { group: 'Destinations', summary: 'Replaces what the patch names; `null` clears a nullable field; a masked secret sent back unchanged keeps the stored one.', output: 'Destination', errors: ['not_found', 'conflict', 'invalid_config'] },
  deleteDestination: { group: 'Destinations', summary: 'Deletes it and cancels its waiting deliveries (`destination deleted`).', output: '{ cancelledDeliveries: number }', errors: ['not_found'] },
  listDestinationStats: { group: 'Destinations', summary: "Per destination: deliveries pending (what deleting it would cancel), and among its newest 100 deliveries how many were delivered or failed (the failure rate) and the newest one's status.", output: 'Page<DestinationStats>' },
  listSources: { group: 'Sources and ingestion', summary: 'Every source, by name (write keys masked).', output: 'Page<Source>' },
  createSource: { group: 'Sources and ingestion', summary: 'A source of kind web, mobile or server; a write key is made when none is given.', output: 'Source', errors: ['conflict'] },
  updateSource: { group: 'Sources and ingestion', summary: "Changes a source's kind or write key.", output: 'Source', errors: ['not_found', 'conflict'] },
  deleteSource: { group: 'Sources and ingestion', summary: 'Deletes a source: its write key stops working, connected destinations are disconnected (named), its audiences go; its messages stay.', output: '{ id: string; disconnectedDestinations: string[] }', errors: ['not_found'] },
  listSourceUsage: { group: 'Sources and ingestion', summary: 'Per source: calls received, accepted, refused and filtered.', output: 'Page<SourceUsage>' },
  listIngestLog: { group: 'Sources and ingestion', summary: 'Refused ingestion requests, newest first, with reason, field, limit and a body preview.', output: 'Page<IngestRefusal>' },
  createDeletionRequest: { group: 'Deletion', summary: 'Sends one `delete` message per affected source (those that saw the user, or those named).', output: '{ request: DeletionRequest; messages: { message: MessageRecord; deliveries: DeliveryRecord[] }[] }', errors: ['not_found'] },
  listDeletionRequests: { group: 'Deletion', summary: 'Deletion requests and the messages they sent.', output: 'Page<DeletionRequest>' },
  createAudience: { group: 'Audiences', summary: 'An audience of a source (members and/or a rule over traits); sends `<snake_case name>: true` to every member at once.', output: '{ audience: Audience; sync: AudienceSyncResult }', errors: ['not_found', 'conflict'] },
  updateAudience: { group: 'Audiences', summary: 'Replaces its members or rule (the next sync sends the changes).', output: 'Audience', errors: ['not_found'] },
  syncAudience: { group: 'Audiences', summary: 'Sends identify calls for the users who joined (true) or left (false) since the last sync.', output: 'AudienceSyncResult', errors: ['not_found'] },
  deleteAudience: { group: 'Audiences', summary: 'Deletes an audience.', output: '{ id: string }', errors: ['not_found'] },
  listAudiences: { group: 'Audiences', summary: 'Audiences and computed traits, by name; optionally of one source or kind.', output: 'Page<Audience | ComputedTrait>', errors: ['not_found'] },
  getAudience: { group: 'Audiences', summary: 'One audience or computed trait: the value its last sync left each user with, and the identify calls a sync now would send (nothing is sent).', output: 'AudienceDetail', errors: ['not_found'] },
  previewAudience: { group: 'Audiences', summary: 'Who explicit members and/or a rule would hold now among the source\'s users (first 500, and the total), with the trait names those users have; nothing is saved.', output: 'AudiencePreview', errors: ['not_found'] },
  createComputedTrait: { group: 'Audiences', summary: 'A computed trait (userId → value); sends each user their value at once.', output: '{ computedTrait: ComputedTrait; sync: ComputedTraitSyncResult }', errors: ['not_found', 'conflict'] },
  updateComputedTrait: { group: 'Audiences', summary: 'Replaces every value; users left out lose theirs at the next sync.', output: 'ComputedTrait', errors: ['not_found'] },
  syncComputedTrait: { group: 'Audiences', summary: 'Sends identify calls for the values that changed since the last sync.', output: 'ComputedTraitSyncResult', errors: ['not_found'] },
  deleteComputedTrait: { group: 'Audiences', summary: 'Deletes a computed trait.', output: '{ id: string }', errors: ['not_found'] },
  listReceivers: { group: 'Mock receiver', summary: "The mock receiver's endpoints with their URLs and scripts (secrets masked).", output: 'Page<ReceiverEndpoint>' },
  getReceiver: { group: 'Mock receiver', summary: 'One endpoint.', output: 'ReceiverEndpoint', errors: ['not_found'] },
  createReceiver: { group: 'Mock receiver', summary: 'A named endpoint at `<receiverUrl>/r/<name>` with a script (statuses, sequences, delays, resets, a seeded failure rate).', output: 'ReceiverEndpoint', errors: ['conflict'] },
  updateReceiver: { group: 'Mock receiver', summary: "Changes an endpoint's name, secret or script (a new script starts from its first step).", output: 'ReceiverEndpoint', errors: ['not_found', 'conflict'] },
  deleteReceiver: { group: 'Mock receiver', summary: 'Deletes an endpoint (its captures are kept).', output: '{ name: string }', errors: ['not_found'] },
  listCaptures: { group: 'Mock receiver', summary: 'Captured requests newest first, with the exact body, the step that answered and the signature verdict. Only the newest `limit` (10,000) are kept; `pruned` counts the older ones removed.', output: 'Page<CaptureRecord> & { limit: number; pruned: number }' },
  getCapture: { group: 'Mock receiver', summary: 'One captured request.', output: 'CaptureRecord', errors: ['not_found'] },
  clearCaptures: { group: 'Mock receiver', summary: "Deletes captures (all, or one endpoint's).", output: '{ deleted: number }' },
  runCheck: {
    group: 'Check endpoint',
    summary:
      'Runs the conformance battery (docs/check.md) and any user `scenarios` against `url`, signing with `secret` as the Webhooks destination does. Answers the run as it starts (`status: "running"`), or as it ended with `wait: true`; `checkRunStarted`, `checkFinished` and `checkRunFinished` follow. `status: "unreachable"` when nothing could be sent to the URL at all. The run is kept with the history (never its secret).',
    output: 'CheckRun',
    errors: ['conflict'],
  },
  getCheckRun: { group: 'Check endpoint', summary: "One run: every check's verdict, detail, fix and evidence (requests and responses, with the attempt they were when sent through the engine), each check's `change` since the previous run of the same URL and `fixedSinceLastRun`.", output: 'CheckRun', errors: ['not_found'] },
  listCheckRuns: { group: 'Check endpoint', summary: 'Check runs newest first, optionally of one `url`, without their checks.', output: 'Page<CheckRunSummary>' },
} as const satisfies Record<CommandName, CommandDoc>;
