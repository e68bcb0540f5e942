/** The handlers of the commands main/contract/commands/receiver.ts declares (how: main/platform/commandTable.ts). */
import type { RECEIVER_COMMANDS } from '../contract/commands/receiver.js';
import { maskCapture, maskReceiver } from '../domain/secrets.js';
import { maskItems, type CommandImpls } from '../platform/commandTable.js';
import { revealSecret, updateReceiverViaApi, useOneSecret, type SecretServices } from './sharedSecrets.js';

export type ReceiverServices = SecretServices;

export const receiverCommands = {
  listReceivers: { run: (s) => s.receivers.listReceivers(), mask: maskItems(maskReceiver) },
  getReceiver: { run: (s, input) => s.receivers.getReceiver(input), mask: maskReceiver },
  createReceiver: { run: (s, input) => s.receivers.createReceiver(input), mask: maskReceiver },
  // A secret sent back masked, as every answer shows it, keeps the stored one (sharedSecrets.ts).
  updateReceiver: { run: (s, input) => s.receivers.updateReceiver(input), mask: maskReceiver, viaApi: (s, input) => updateReceiverViaApi(s, input) },
  deleteReceiver: { run: (s, input) => s.receivers.deleteReceiver(input) },
  listCaptures: { run: (s, input) => s.receivers.listCaptures(input), mask: maskItems(maskCapture) },
  getCapture: { run: (s, input) => s.receivers.getCapture(input), mask: maskCapture },
  clearCaptures: { run: (s, input) => s.receivers.clearCaptures(input) },
  revealSecret: { run: (s, input) => revealSecret(s, input) },
  useOneSecret: { run: (s, input) => useOneSecret(s, input) },
} satisfies CommandImpls<keyof typeof RECEIVER_COMMANDS, ReceiverServices>;
