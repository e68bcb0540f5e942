/** The typed API's commands that main/delivery/ answers (its handlers: main/delivery/commands.ts). How to declare one: ./command.ts. */
import { z } from 'zod';
import { command, returns } from '../command.js';
import { rowId, ref } from '../commandInputs.js';
import type { SendMessageOutput } from '../api.js';
import type { DeliveryRecord } from '../deliveries.js';

export const DELIVERY_COMMANDS = {
  retryNow: command({
    input: z
      .strictObject({ id: rowId.optional(), deliveryId: rowId.optional() })
      .refine((v) => (v.id === undefined) !== (v.deliveryId === undefined), { message: 'give either id (a message) or deliveryId (one delivery)', path: ['id'] }),
    answers: returns<{ deliveries: DeliveryRecord[] }>('{ deliveries: DeliveryRecord[] }'),
    group: 'Messages',
    summary: "Pulls a waiting or failed delivery's next attempt to now (a failed one gets a fresh window): all of a message's (`id`) or one (`deliveryId`). A delivery whose destination is off or has no webhook URL is left as it is (it would only be held); `conflict` when nothing can be sent now, naming why.",
    errors: ['not_found', 'conflict'],
  }),
  cancelMessage: command({
    input: z.strictObject({ id: rowId }),
    answers: returns<{ deliveries: DeliveryRecord[] }>('{ deliveries: DeliveryRecord[] }'),
    group: 'Messages',
    summary: "Cancels a message's waiting and in-flight deliveries (`cancelled by user`).",
    errors: ['not_found', 'conflict'],
  }),
  replayMessage: command({
    input: z.strictObject({ id: rowId, keepMessageId: z.boolean().optional() }),
    answers: returns<SendMessageOutput>('{ message: MessageRecord; deliveries: DeliveryRecord[] }'),
    group: 'Messages',
    summary: "Sends the same body again as a new message, to the destinations of the original; `keepMessageId` tests receiver de-duplication. A check run's own message is not replayed (`conflict`).",
    errors: ['not_found', 'conflict'],
  }),
  deleteDestination: command({
    input: z.strictObject({ id: ref }),
    answers: returns<{ cancelledDeliveries: number }>('{ cancelledDeliveries: number }'),
    group: 'Destinations',
    summary: 'Deletes it and cancels its waiting deliveries (`destination deleted`).',
    errors: ['not_found'],
  }),
};
