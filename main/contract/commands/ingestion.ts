/** The typed API's commands that main/ingestion/ answers (its handlers: main/ingestion/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns } from '../command.js';
import { API_LIMITS } from '../commandInputs.js';
import type { SendMessageOutput } from '../api.js';
import { sendMessageInputSchema } from '../schemas.js';
import { wrongType } from '../zodWords.js';

export const INGESTION_COMMANDS = {
  sendMessage: command({
    input: sendMessageInputSchema,
    answers: returns<SendMessageOutput>('{ message: MessageRecord; deliveries: DeliveryRecord[] }'),
    group: 'Messages',
    summary: 'Accepts one call as if a source had sent it (or straight to named destinations), routes it and queues its deliveries.',
    errors: ['not_found', 'missing_field', 'missing_identity', 'unknown_field', 'invalid_timestamp', 'message_too_large', 'nesting_too_deep'],
  }),
  sendMessages: command({
    input: z.strictObject({ messages: z.array(sendMessageInputSchema, { error: wrongType('must be an array of sendMessage inputs') }).min(1).max(API_LIMITS.sendMessagesBatch) }),
    answers: returns<SendMessageOutput[]>('{ message: MessageRecord; deliveries: DeliveryRecord[] }[]'),
    group: 'Messages',
    summary: 'A batch in one transaction: one invalid message refuses the whole batch (errors name `messages[i]`).',
    errors: ['not_found', 'missing_field', 'missing_identity', 'unknown_field', 'invalid_timestamp', 'message_too_large', 'nesting_too_deep'],
  }),
};
