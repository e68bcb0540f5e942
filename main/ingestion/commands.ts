/** The handlers of the commands main/contract/commands/ingestion.ts declares (how: main/platform/commandTable.ts). */
import type { SendMessageOutput } from '../contract/api.js';
import type { INGESTION_COMMANDS } from '../contract/commands/ingestion.js';
import { maskDelivery, maskMessageRecord } from '../domain/secrets.js';
import type { CommandImpls } from '../platform/commandTable.js';
import type { Intake } from './intake.js';

/** A message just sent, as every answer shows one: its call's credential members and its URLs masked. */
export const maskSent = (v: SendMessageOutput): SendMessageOutput => ({ message: maskMessageRecord(v.message), deliveries: v.deliveries.map(maskDelivery) });

export const ingestionCommands = {
  sendMessage: { run: (s, input) => s.intake.sendMessage(input), mask: maskSent },
  sendMessages: { run: (s, input) => s.intake.sendMessages(input), mask: (v) => v.map(maskSent) },
} satisfies CommandImpls<keyof typeof INGESTION_COMMANDS, { intake: Intake }>;
