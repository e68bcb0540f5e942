/** The typed API's commands that main/audiences/ answers (its handlers: main/audiences/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns, takes } from '../command.js';
import { API_LIMITS, ref } from '../commandInputs.js';
import type { SendMessageOutput } from '../api.js';
import { type Audience, type AudienceSyncResult, type ComputedTrait, type ComputedTraitSyncResult, type CreateAudienceInput, type CreateComputedTraitInput, type AudienceDetail, type AudiencePreview, type PreviewAudienceInput, type UpdateAudienceInput, type UpdateComputedTraitInput, createAudienceInputSchema, createComputedTraitInputSchema, idInputSchema, listAudiencesInputSchema, previewAudienceInputSchema, updateAudienceInputSchema, updateComputedTraitInputSchema } from '../audiences.js';
import type { DeletionRequest, Page } from '../messages.js';
import { wrongType } from '../zodWords.js';

export const AUDIENCES_COMMANDS = {
  createAudience: command({
    input: createAudienceInputSchema,
    takes: takes<CreateAudienceInput>(),
    answers: returns<{ audience: Audience; sync: AudienceSyncResult }>('{ audience: Audience; sync: AudienceSyncResult }'),
    group: 'Audiences',
    summary: 'An audience of a source (members and/or a rule over traits); sends `<snake_case name>: true` to every member at once.',
    errors: ['not_found', 'conflict'],
  }),
  updateAudience: command({
    input: updateAudienceInputSchema,
    takes: takes<UpdateAudienceInput>(),
    answers: returns<Audience>('Audience'),
    group: 'Audiences',
    summary: 'Replaces its members or rule (the next sync sends the changes).',
    errors: ['not_found'],
  }),
  syncAudience: command({
    input: idInputSchema,
    answers: returns<AudienceSyncResult>('AudienceSyncResult'),
    group: 'Audiences',
    summary: 'Sends identify calls for the users who joined (true) or left (false) since the last sync.',
    errors: ['not_found'],
  }),
  deleteAudience: command({
    input: idInputSchema,
    answers: returns<{ id: string }>('{ id: string }'),
    group: 'Audiences',
    summary: 'Deletes an audience.',
    errors: ['not_found'],
  }),
  listAudiences: command({
    input: listAudiencesInputSchema,
    answers: returns<Page<Audience | ComputedTrait>>('Page<Audience | ComputedTrait>'),
    group: 'Audiences',
    summary: 'Audiences and computed traits, by name; optionally of one source or kind.',
    errors: ['not_found'],
  }),
  getAudience: command({
    input: idInputSchema,
    answers: returns<AudienceDetail>('AudienceDetail'),
    group: 'Audiences',
    summary: 'One audience or computed trait: the value its last sync left each user with, and the identify calls a sync now would send (nothing is sent).',
    errors: ['not_found'],
  }),
  previewAudience: command({
    input: previewAudienceInputSchema,
    takes: takes<PreviewAudienceInput>(),
    answers: returns<AudiencePreview>('AudiencePreview'),
    group: 'Audiences',
    summary: 'Who explicit members and/or a rule would hold now among the source\'s users (first 500, and the total), with the trait names those users have; nothing is saved.',
    errors: ['not_found'],
  }),
  createComputedTrait: command({
    input: createComputedTraitInputSchema,
    takes: takes<CreateComputedTraitInput>(),
    answers: returns<{ computedTrait: ComputedTrait; sync: ComputedTraitSyncResult }>('{ computedTrait: ComputedTrait; sync: ComputedTraitSyncResult }'),
    group: 'Audiences',
    summary: 'A computed trait (userId → value); sends each user their value at once.',
    errors: ['not_found', 'conflict'],
  }),
  updateComputedTrait: command({
    input: updateComputedTraitInputSchema,
    takes: takes<UpdateComputedTraitInput>(),
    answers: returns<ComputedTrait>('ComputedTrait'),
    group: 'Audiences',
    summary: 'Replaces every value; users left out lose theirs at the next sync.',
    errors: ['not_found'],
  }),
  syncComputedTrait: command({
    input: idInputSchema,
    answers: returns<ComputedTraitSyncResult>('ComputedTraitSyncResult'),
    group: 'Audiences',
    summary: 'Sends identify calls for the values that changed since the last sync.',
    errors: ['not_found'],
  }),
  deleteComputedTrait: command({
    input: idInputSchema,
    answers: returns<{ id: string }>('{ id: string }'),
    group: 'Audiences',
    summary: 'Deletes a computed trait.',
    errors: ['not_found'],
  }),
  createDeletionRequest: command({
    input: z.strictObject({
      userId: z.string({ error: wrongType('must be a string (the user whose data is deleted)') }).trim().min(1, 'must not be empty (the user whose data is deleted)').max(API_LIMITS.filterChars),
      sources: z.array(ref, { error: wrongType('must be a list of source names or ids') }).min(1).max(100).optional(),
    }),
    answers: returns<{ request: DeletionRequest; messages: SendMessageOutput[] }>('{ request: DeletionRequest; messages: { message: MessageRecord; deliveries: DeliveryRecord[] }[] }'),
    group: 'Deletion',
    summary: 'Sends one `delete` message per affected source (those that saw the user, or those named).',
    errors: ['not_found'],
  }),
};
