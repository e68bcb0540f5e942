/** The typed API's commands that main/registry/ answers (its handlers: main/registry/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns } from '../command.js';
import { listDestinationsInputSchema, noInput, ref } from '../commandInputs.js';
import type { Destination } from '../destinations.js';
import type { Page } from '../messages.js';
import { type Source, SOURCE_KINDS } from '../sources.js';
import { destinationInputSchema, destinationPatchSchema, sourceInputSchema } from '../schemas.js';
import { wrongType } from '../zodWords.js';

export const REGISTRY_COMMANDS = {
  listDestinations: command({
    input: listDestinationsInputSchema,
    answers: returns<Page<Destination>>('Page<Destination>'),
    group: 'Destinations',
    summary: "Your destinations, by name (secrets masked); `owner` lists those hookbench check or hookbench send keep for themselves (`check`, `send`), or `all`.",
  }),
  createDestination: command({
    input: destinationInputSchema,
    answers: returns<Destination>('Destination'),
    group: 'Destinations',
    summary: 'A destination: up to 5 webhooks, static headers, shared secret, timeout, retry policy, event filters, caFile.',
    errors: ['conflict', 'not_found', 'invalid_config'],
  }),
  updateDestination: command({
    input: z.strictObject({ id: ref, patch: destinationPatchSchema }),
    answers: returns<Destination>('Destination'),
    group: 'Destinations',
    summary: 'Replaces what the patch names; `null` clears a nullable field; a masked secret sent back unchanged keeps the stored one.',
    errors: ['not_found', 'conflict', 'invalid_config'],
  }),
  listSources: command({
    input: noInput,
    answers: returns<Page<Source>>('Page<Source>'),
    group: 'Sources and ingestion',
    summary: 'Every source, by name (write keys masked).',
  }),
  createSource: command({
    input: sourceInputSchema,
    answers: returns<Source>('Source'),
    group: 'Sources and ingestion',
    summary: 'A source of kind web, mobile or server; a write key is made when none is given.',
    errors: ['conflict'],
  }),
  updateSource: command({
    input: z.strictObject({
      id: ref,
      // The write key is checked by the source's own rules once a masked value sent back has been resolved.
      patch: z.strictObject({ kind: z.enum(SOURCE_KINDS).optional(), writeKey: z.string({ error: wrongType('must be a string') }).min(1).max(200).optional() }),
    }),
    answers: returns<Source>('Source'),
    group: 'Sources and ingestion',
    summary: "Changes a source's kind or write key.",
    errors: ['not_found', 'conflict'],
  }),
  deleteSource: command({
    input: z.strictObject({ id: ref }),
    answers: returns<{ id: string; disconnectedDestinations: string[] }>('{ id: string; disconnectedDestinations: string[] }'),
    group: 'Sources and ingestion',
    summary: 'Deletes a source: its write key stops working, connected destinations are disconnected (named), its audiences go; its messages stay.',
    errors: ['not_found'],
  }),
};
