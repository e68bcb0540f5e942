/**
 * The typed API's command table: each name of the Commands interface bound to the core. Services that
 * live beside the core (receiver, audiences) add theirs with `extra`.
 */
import type { CommandName, Commands } from '../contract/api.js';
import type { Core } from '../engine/createCore.js';
import type { ApiHandler } from './httpServer.js';

/** Every command the API exposes; `satisfies` keeps this list and the Commands interface in step. */
export const CORE_COMMANDS = [
  'sendMessage',
  'sendMessages',
  'listMessages',
  'getMessage',
  'retryNow',
  'cancelMessage',
  'replayMessage',
  'advanceClock',
  'getClock',
  'listDestinations',
  'createDestination',
  'updateDestination',
  'deleteDestination',
  'listSources',
  'createSource',
  'listSourceUsage',
  'listIngestLog',
  'createDeletionRequest',
  'listDeletionRequests',
] as const satisfies readonly CommandName[];

// A compile-time check that no command of the interface is missing from the list above.
type Missing = Exclude<CommandName, (typeof CORE_COMMANDS)[number]>;
const _allListed: Missing extends never ? true : Missing = true;
void _allListed;

export function buildApiCommands(core: Core, extra: Readonly<Record<string, ApiHandler>> = {}): Record<string, ApiHandler> {
  const table: Record<string, ApiHandler> = {};
  for (const name of CORE_COMMANDS) {
    const method = core[name] as Commands[typeof name];
    table[name] = (input) => (method as (i: unknown) => ReturnType<ApiHandler>).call(core, input);
  }
  return { ...table, ...extra };
}
