/**
 * The handlers of the commands main/contract/commands/registry.ts declares (how: main/platform/commandTable.ts).
 * An edit form's masked values are put back by formUpdates.ts.
 */
import type { REGISTRY_COMMANDS } from '../contract/commands/registry.js';
import { ok } from '../contract/result.js';
import { maskDestination, maskSource } from '../domain/secrets.js';
import { maskItems, type CommandImpls } from '../platform/commandTable.js';
import { updateDestinationFromForm, updateSourceFromForm } from './formUpdates.js';
import type { Registry } from './registry.js';

export const registryCommands = {
  listDestinations: { run: (s, input) => ok({ items: s.registry.destinationsOf(input.owner ?? 'user'), nextCursor: null }), mask: maskItems(maskDestination) },
  createDestination: { run: (s, input) => s.registry.createDestination(input), mask: maskDestination },
  updateDestination: { run: (s, input) => s.registry.updateDestination(input), mask: maskDestination, viaApi: (s, input) => updateDestinationFromForm(s.registry, input) },
  listSources: { run: (s) => ok({ items: s.registry.allSources(), nextCursor: null }), mask: maskItems(maskSource) },
  createSource: { run: (s, input) => s.registry.createSource(input), mask: maskSource },
  updateSource: { run: (s, input) => s.registry.updateSource(input), mask: maskSource, viaApi: (s, input) => updateSourceFromForm(s.registry, input) },
  deleteSource: { run: (s, input) => s.registry.deleteSource(input) },
} satisfies CommandImpls<keyof typeof REGISTRY_COMMANDS, { registry: Registry }>;
