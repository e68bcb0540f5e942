/**
 * Every command's handlers, gathered from the feature folders (one line each; how a feature fills its table:
 * main/platform/commandTable.ts). Typed against the whole command table: a command without a handler does
 * not compile. main/app/commandHandlers.ts derives the core's methods and the typed API's face from it.
 */
import type { CommandName } from '../contract/api.js';
import { audienceCommands } from '../audiences/commands.js';
import { checkCommands } from '../check/commands.js';
import { controlCommands } from '../control/commands.js';
import { deliveryCommands } from '../delivery/commands.js';
import { diagnosticsCommands } from '../diagnostics/commands.js';
import { historyCommands } from '../history/commands.js';
import { ingestionCommands } from '../ingestion/commands.js';
import type { CommandImpls } from '../platform/commandTable.js';
import { receiverCommands } from '../receiver/commands.js';
import { registryCommands } from '../registry/commands.js';
import type { Services } from './services.js';

export const COMMAND_IMPLS = {
  ...ingestionCommands,
  ...registryCommands,
  ...historyCommands,
  ...deliveryCommands,
  ...diagnosticsCommands,
  ...controlCommands,
  ...receiverCommands,
  ...audienceCommands,
  ...checkCommands,
} satisfies CommandImpls<CommandName, Services>;
