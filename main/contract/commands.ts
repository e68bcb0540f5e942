/**
 * The command table: every command of the typed API, gathered from the features' declarations
 * (`./commands/<feature>.ts`, one line each below; how to declare one: ./command.ts). Everything else is
 * derived from it: the `Commands` type (./api.ts), the input schemas `dispatch` (./dispatch.ts) validates with
 * whatever carried the call (HTTP, Electron IPC, the CLI's calls to a running serve, tests), so a handler only
 * ever sees input of its declared type, the command names, and docs/api.md (scripts/apiDocs.ts).
 */
import { AUDIENCES_COMMANDS } from './commands/audiences.js';
import { CHECK_COMMANDS } from './commands/check.js';
import { CONTROL_COMMANDS } from './commands/control.js';
import { DELIVERY_COMMANDS } from './commands/delivery.js';
import { DIAGNOSTICS_COMMANDS } from './commands/diagnostics.js';
import { HISTORY_COMMANDS } from './commands/history.js';
import { INGESTION_COMMANDS } from './commands/ingestion.js';
import { RECEIVER_COMMANDS } from './commands/receiver.js';
import { REGISTRY_COMMANDS } from './commands/registry.js';
import { suggestKey } from './suggestKey.js';

export { API_LIMITS, EXPORT_LIMIT, EXPORT_TEXT_BYTES, listMessagesInputSchema } from './commandInputs.js';

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

/** What an unknown command name is told, with the command most likely meant (`listMesages`, `listmessages`). */
export function unknownCommandMessage(name: string): string {
  const shown = name.slice(0, 100);
  const meant = suggestKey(shown, COMMAND_NAMES);
  return `unknown command ${JSON.stringify(shown)}${meant ? ` (did you mean ${meant}?)` : ''}; docs/api.md lists every command`;
}
