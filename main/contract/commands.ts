/**
 * The command table: every command of the typed API, gathered from the features' declarations
 * (`./<feature>.commands.ts`, one line each below; how to declare one: ./command.ts). Everything else is
 * derived from it: the `Commands` type (./api.ts), the input schemas `dispatch` (./dispatch.ts) validates with
 * whatever carried the call (HTTP, Electron IPC, the CLI's calls to a running serve, tests), so a handler only
 * ever sees input of its declared type, the command names, and docs/api.md (scripts/apiDocs.ts).
 */
import { AUDIENCES_COMMANDS } from './audiences.commands.js';
import { CHECK_COMMANDS } from './check.commands.js';
import { CONTROL_COMMANDS } from './control.commands.js';
import { DELIVERY_COMMANDS } from './delivery.commands.js';
import { DIAGNOSTICS_COMMANDS } from './diagnostics.commands.js';
import { HISTORY_COMMANDS } from './history.commands.js';
import { INGESTION_COMMANDS } from './ingestion.commands.js';
import { RECEIVER_COMMANDS } from './receiver.commands.js';
import { REGISTRY_COMMANDS } from './registry.commands.js';

export { API_LIMITS, EXPORT_LIMIT, listMessagesInputSchema } from './commandInputs.js';

export const COMMANDS = {
  ...INGESTION_COMMANDS,
  ...REGISTRY_COMMANDS,
  ...HISTORY_COMMANDS,
  ...DELIVERY_COMMANDS,
  ...DIAGNOSTICS_COMMANDS,
  ...CONTROL_COMMANDS,
  ...RECEIVER_COMMANDS,
  ...AUDIENCES_COMMANDS,
  ...CHECK_COMMANDS,
};

type Table = typeof COMMANDS;

/** Every command name, in the table's order (for docs, tests and the CLI). */
export const COMMAND_NAMES = Object.keys(COMMANDS) as (keyof Table)[];

/** The schema each command's input must satisfy. */
export const commandSchemas = Object.fromEntries(COMMAND_NAMES.map((name) => [name, COMMANDS[name].input])) as { [K in keyof Table]: Table[K]['input'] };

export function isCommandName(name: string): name is keyof Table {
  return Object.hasOwn(COMMANDS, name);
}
