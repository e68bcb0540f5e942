/**
 * The receiver commands that reach across to destinations and sources: a secret shown in clear on purpose
 * (revealSecret), one secret for a destination and a receiver endpoint (useOneSecret), and the editor's save
 * that sends a secret back masked (updateReceiver over the API).
 */
import type { UseOneSecretOutput } from '../contract/api.js';
import type { CommandParsed } from '../contract/dispatch.js';
import { destinationOwner } from '../contract/destinations.js';
import type { ReceiverEndpoint } from '../contract/receiver/receiver.js';
import { err, ok, type Result } from '../contract/result.js';
import { isMasked, maskReceiver, secretFingerprint, unmaskSecret } from '../domain/secrets.js';
import { maskedValueRefused } from '../platform/commandTable.js';
import { notFound } from '../platform/paging.js';
import type { Registry } from '../registry/registry.js';
import type { ReceiverService } from './receiverService.js';

export interface SecretServices {
  receivers: ReceiverService;
  registry: Registry;
}

/** The one command that answers a secret in clear, on purpose. */
export function revealSecret(s: SecretServices, input: CommandParsed<'revealSecret'>): Result<{ secret: string | null }> {
  switch (input.kind) {
    case 'destination': {
      const d = s.registry.findDestination(input.id);
      return d ? ok({ secret: d.sharedSecret }) : notFound('destination', input.id);
    }
    case 'source': {
      const src = s.registry.findSource(input.id);
      return src ? ok({ secret: src.writeKey }) : notFound('source', input.id);
    }
    case 'receiver': {
      const r = s.receivers.receiverSecret(input.id);
      return r.ok ? ok({ secret: r.value }) : r;
    }
  }
}

/** The endpoint takes the destination's secret, unless the destination has none (then the other way round). */
export function useOneSecret(s: SecretServices, input: CommandParsed<'useOneSecret'>): Result<UseOneSecretOutput> {
  const d = s.registry.findDestination(input.destinationId);
  if (!d) return notFound('destination', input.destinationId);
  // The check's destinations sign with another secret (or none) on purpose: "fixing" that breaks the real one.
  const owner = destinationOwner(d.name);
  if (owner !== 'user') {
    const why = owner === 'check' ? 'hookbench check signs with another secret (or none) on purpose' : 'hookbench send keeps for itself';
    return err({ code: 'conflict', field: 'destinationId', message: `destinationId: "${d.name}" is a destination ${why}; its secret is not the one to share` });
  }
  const endpoint = s.receivers.receiverSecret(input.receiver);
  if (!endpoint.ok) return { ok: false, error: { ...endpoint.error, field: 'receiver' } };
  const base = { destinationId: d.id, receiver: input.receiver };
  if (d.sharedSecret !== null) {
    const updated = s.receivers.updateReceiver({ name: input.receiver, patch: { secret: d.sharedSecret } });
    return updated.ok ? ok({ ...base, changed: 'receiver', fingerprint: secretFingerprint(d.sharedSecret) }) : updated;
  }
  if (endpoint.value === null) {
    return err({ code: 'conflict', field: 'destinationId', message: `neither destination "${d.name}" nor receiver endpoint "${input.receiver}" has a secret: give one of them a secret first` });
  }
  const updated = s.registry.updateDestination({ id: d.id, patch: { sharedSecret: endpoint.value } });
  return updated.ok ? ok({ ...base, changed: 'destination', fingerprint: secretFingerprint(endpoint.value) }) : updated;
}

/** The editor saves what it was shown: a secret sent back masked keeps the stored one. */
export function updateReceiverViaApi(s: SecretServices, input: CommandParsed<'updateReceiver'>): Result<ReceiverEndpoint> {
  const stored = s.receivers.receiverSecret(input.name);
  const given = input.patch.secret;
  const secret = stored.ok && typeof given === 'string' ? unmaskSecret(given, stored.value) : given;
  if (typeof secret === 'string' && isMasked(secret)) return maskedValueRefused('patch.secret');
  const updated = s.receivers.updateReceiver({ name: input.name, patch: { ...input.patch, ...(given !== undefined ? { secret } : {}) } });
  return updated.ok ? ok(maskReceiver(updated.value)) : updated;
}
