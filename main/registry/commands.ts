/** The handlers of the commands main/contract/commands/registry.ts declares (how: main/platform/commandTable.ts). */
import type { REGISTRY_COMMANDS } from '../contract/commands/registry.js';
import { ok } from '../contract/result.js';
import { isMasked, maskDestination, maskSource, unmaskSecret, unmaskWebhooks } from '../domain/secrets.js';
import { maskedValueRefused, maskItems, type CommandImpls } from '../platform/commandTable.js';
import type { Registry } from './registry.js';

export const registryCommands = {
  listDestinations: { run: (s, input) => ok({ items: s.registry.destinationsOf(input.owner ?? 'user'), nextCursor: null }), mask: maskItems(maskDestination) },
  createDestination: { run: (s, input) => s.registry.createDestination(input), mask: maskDestination },
  updateDestination: {
    run: (s, input) => s.registry.updateDestination(input),
    mask: maskDestination,
    // What the form sends back masked is what is stored: the stored secret and webhook URLs and headers are kept.
    viaApi: (s, input) => {
      const current = s.registry.findDestination(input.id);
      let patch = input.patch;
      if (current) {
        const sharedSecret = unmaskSecret(patch.sharedSecret, current.sharedSecret);
        if (typeof sharedSecret === 'string' && isMasked(sharedSecret)) return maskedValueRefused('patch.sharedSecret');
        // A webhook value still masked after this is refused where every save is checked (registry/registry.ts).
        const webhooks = patch.webhooks !== undefined ? unmaskWebhooks(patch.webhooks, current.webhooks) : undefined;
        patch = {
          ...patch,
          ...(patch.sharedSecret !== undefined ? { sharedSecret } : {}),
          ...(webhooks !== undefined ? { webhooks } : {}),
        };
      }
      const updated = s.registry.updateDestination({ id: input.id, patch });
      return updated.ok ? ok(maskDestination(updated.value)) : updated;
    },
  },
  listSources: { run: (s) => ok({ items: s.registry.allSources(), nextCursor: null }), mask: maskItems(maskSource) },
  createSource: { run: (s, input) => s.registry.createSource(input), mask: maskSource },
  updateSource: {
    run: (s, input) => s.registry.updateSource(input),
    mask: maskSource,
    viaApi: (s, input) => {
      const current = s.registry.findSource(input.id);
      const writeKey = current ? unmaskSecret(input.patch.writeKey, current.writeKey) : input.patch.writeKey;
      if (typeof writeKey === 'string' && isMasked(writeKey)) return maskedValueRefused('patch.writeKey');
      const updated = s.registry.updateSource({ id: input.id, patch: { ...input.patch, ...(writeKey ? { writeKey } : {}) } });
      return updated.ok ? ok(maskSource(updated.value)) : updated;
    },
  },
  deleteSource: { run: (s, input) => s.registry.deleteSource(input) },
} satisfies CommandImpls<keyof typeof REGISTRY_COMMANDS, { registry: Registry }>;
