/**
 * updateDestination and updateSource as the API face runs them: what an edit form sends back masked is what is
 * stored (the stored secret, webhook URLs and headers are kept), a value still masked is refused, and the answer
 * leaves masked.
 */
import type { CommandParsed } from '../contract/dispatch.js';
import type { Destination } from '../contract/destinations.js';
import { ok, type Result } from '../contract/result.js';
import type { Source } from '../contract/sources.js';
import { isMasked, maskDestination, maskSource, unmaskSecret, unmaskWebhooks } from '../domain/secrets.js';
import { maskedValueRefused } from '../platform/commandTable.js';
import type { Registry } from './registry.js';

export function updateDestinationFromForm(registry: Registry, input: CommandParsed<'updateDestination'>): Result<Destination> {
  const current = registry.findDestination(input.id);
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
  const updated = registry.updateDestination({ id: input.id, patch });
  return updated.ok ? ok(maskDestination(updated.value)) : updated;
}

export function updateSourceFromForm(registry: Registry, input: CommandParsed<'updateSource'>): Result<Source> {
  const current = registry.findSource(input.id);
  const writeKey = current ? unmaskSecret(input.patch.writeKey, current.writeKey) : input.patch.writeKey;
  if (typeof writeKey === 'string' && isMasked(writeKey)) return maskedValueRefused('patch.writeKey');
  const updated = registry.updateSource({ id: input.id, patch: { ...input.patch, ...(writeKey ? { writeKey } : {}) } });
  return updated.ok ? ok(maskSource(updated.value)) : updated;
}
