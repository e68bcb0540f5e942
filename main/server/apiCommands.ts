/**
 * The typed API's command table: each name of the Commands interface bound to the core. Services that
 * live beside the core (receiver, audiences) add theirs with `extra`.
 */
import type { AudienceCommands, CommandName, CoreCommands, ReceiverCommands } from '../contract/api.js';
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
] as const satisfies readonly (keyof CoreCommands)[];

export const AUDIENCE_COMMANDS = [
  'createAudience',
  'updateAudience',
  'syncAudience',
  'deleteAudience',
  'listAudiences',
  'createComputedTrait',
  'updateComputedTrait',
  'syncComputedTrait',
  'deleteComputedTrait',
] as const satisfies readonly (keyof AudienceCommands)[];

export const RECEIVER_COMMANDS = [
  'listReceivers',
  'getReceiver',
  'createReceiver',
  'updateReceiver',
  'deleteReceiver',
  'listCaptures',
  'getCapture',
  'clearCaptures',
] as const satisfies readonly (keyof ReceiverCommands)[];

// A compile-time check that no command of the interface is missing from the lists above.
type Missing = Exclude<CommandName, (typeof CORE_COMMANDS)[number] | (typeof AUDIENCE_COMMANDS)[number] | (typeof RECEIVER_COMMANDS)[number]>;
const _allListed: [Missing] extends [never] ? true : Missing = true;
void _allListed;

function bind<T extends object>(target: T, names: readonly (keyof T & string)[], table: Record<string, ApiHandler>): void {
  for (const name of names) {
    const method = target[name] as unknown as (input: unknown) => ReturnType<ApiHandler>;
    table[name] = (input) => method.call(target, input);
  }
}

export function buildApiCommands(core: Core, extra: Readonly<Record<string, ApiHandler>> = {}): Record<string, ApiHandler> {
  const table: Record<string, ApiHandler> = {};
  bind(core, CORE_COMMANDS, table);
  bind(core.audiences, AUDIENCE_COMMANDS, table);
  bind(core.receivers, RECEIVER_COMMANDS, table);
  return { ...table, ...extra };
}
