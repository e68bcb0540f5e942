/** The typed API's commands that main/receiver/ answers (its handlers: main/receiver/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns } from '../command.js';
import { noInput, paging, rowId, ref, receiverName } from '../commandInputs.js';
import type { UseOneSecretOutput } from '../api.js';
import { type CapturePage, type CaptureRecord, type ReceiverEndpoint, receiverInputSchema, receiverPatchSchema } from '../receiver/receiver.js';
import { SECRET_KINDS } from '../destinations.js';
import type { Page } from '../messages.js';

export const RECEIVER_COMMANDS = {
  listReceivers: command({
    input: noInput,
    answers: returns<Page<ReceiverEndpoint>>('Page<ReceiverEndpoint>'),
    group: 'Mock receiver',
    summary: "The mock receiver's endpoints with their URLs and scripts (secrets masked).",
  }),
  getReceiver: command({
    input: z.strictObject({ name: receiverName }),
    answers: returns<ReceiverEndpoint>('ReceiverEndpoint'),
    group: 'Mock receiver',
    summary: 'One endpoint.',
    errors: ['not_found'],
  }),
  createReceiver: command({
    input: receiverInputSchema,
    answers: returns<ReceiverEndpoint>('ReceiverEndpoint'),
    group: 'Mock receiver',
    summary:
      'A named endpoint at `<receiverUrl>/r/<name>` with a script (statuses, sequences, delays, resets, a seeded failure rate). With a `secret` it checks X-Signature; `refuseInvalidSignatures: true` (it needs the secret) answers an invalid or missing one 401 with a JSON error before the script, as a correct receiver does.',
    errors: ['conflict'],
  }),
  updateReceiver: command({
    input: z.strictObject({ name: receiverName, patch: receiverPatchSchema }),
    answers: returns<ReceiverEndpoint>('ReceiverEndpoint'),
    group: 'Mock receiver',
    summary:
      "Changes an endpoint's name, secret, refuseInvalidSignatures or script. A new script starts from its first step; the same script again (or a patch without one) keeps its place, which `answered` counts; `rewind: true` starts the script over from its first step. A rename is refused (`conflict`) while a destination's webhook names the endpoint (`receiver:<name>`), naming those destinations. An endpoint that refuses invalid signatures keeps a secret: removing it needs `refuseInvalidSignatures: false` in the same patch.",
    errors: ['not_found', 'conflict'],
  }),
  deleteReceiver: command({
    input: z.strictObject({ name: receiverName }),
    answers: returns<{ name: string }>('{ name: string }'),
    group: 'Mock receiver',
    summary: 'Deletes an endpoint (its captures are kept).',
    errors: ['not_found'],
  }),
  listCaptures: command({
    input: z.strictObject({ receiver: receiverName.optional(), messageId: z.string().min(1).max(200).optional(), ...paging }),
    answers: returns<CapturePage>('Page<CaptureRecord> & { limit: number; limitBytes: number; pruned: number }'),
    group: 'Mock receiver',
    summary: 'Captured requests newest first, with the exact body, the step that answered and the signature verdict. Only the newest `limit` (10,000) are kept, with at most `limitBytes` (64 MiB) of bodies; `pruned` counts the older ones removed.',
  }),
  getCapture: command({
    input: z.strictObject({ id: rowId }),
    answers: returns<CaptureRecord>('CaptureRecord'),
    group: 'Mock receiver',
    summary: 'One captured request.',
    errors: ['not_found'],
  }),
  clearCaptures: command({
    input: z.strictObject({ receiver: receiverName.optional() }),
    answers: returns<{ deleted: number }>('{ deleted: number }'),
    group: 'Mock receiver',
    summary: "Deletes captures (all, or one endpoint's).",
  }),
  revealSecret: command({
    input: z.strictObject({ kind: z.enum(SECRET_KINDS), id: ref }),
    answers: returns<{ secret: string | null }>('{ secret: string | null }'),
    group: 'Workbench',
    summary: "The one way to see a secret in clear: a destination's shared secret, a source's write key or a receiver's secret.",
    errors: ['not_found'],
  }),
  useOneSecret: command({
    input: z.strictObject({ destinationId: ref, receiver: receiverName }),
    answers: returns<UseOneSecretOutput>('UseOneSecretOutput'),
    group: 'Mock receiver',
    summary: "Makes a destination and a receiver endpoint use one secret (the endpoint takes the destination's shared secret; when the destination has none, it takes the endpoint's). Answers which side changed and the fingerprint both now share (first 8 hex of SHA-256), never the secret.",
    errors: ['not_found', 'conflict'],
  }),
};
