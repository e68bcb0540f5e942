/** The handlers of the commands main/contract/commands/receiver.ts declares (how: main/platform/commandTable.ts). */
import type { RECEIVER_COMMANDS } from '../contract/commands/receiver.js';
import { err, ok } from '../contract/result.js';
import { destinationOwner } from '../contract/models.js';
import { isMasked, maskCapture, maskReceiver, secretFingerprint, unmaskSecret } from '../domain/secrets.js';
import { maskedValueRefused, maskItems, type CommandImpls } from '../platform/commandTable.js';
import { notFound } from '../platform/paging.js';
import type { Registry } from '../registry/registry.js';
import type { ReceiverService } from './receiverService.js';

export interface ReceiverServices {
  receivers: ReceiverService;
  registry: Registry;
}

export const receiverCommands = {
  listReceivers: { run: (s, input) => s.receivers.listReceivers(input), mask: maskItems(maskReceiver) },
  getReceiver: { run: (s, input) => s.receivers.getReceiver(input), mask: maskReceiver },
  createReceiver: { run: (s, input) => s.receivers.createReceiver(input), mask: maskReceiver },
  updateReceiver: {
    run: (s, input) => s.receivers.updateReceiver(input),
    mask: maskReceiver,
    // A secret sent back masked, as every answer shows it, keeps the stored one.
    viaApi: (s, input) => {
      const stored = s.receivers.receiverSecret(input.name);
      const given = input.patch.secret;
      const secret = stored.ok && typeof given === 'string' ? unmaskSecret(given, stored.value) : given;
      if (typeof secret === 'string' && isMasked(secret)) return maskedValueRefused('patch.secret');
      const updated = s.receivers.updateReceiver({ name: input.name, patch: { ...input.patch, ...(given !== undefined ? { secret } : {}) } });
      return updated.ok ? ok(maskReceiver(updated.value)) : updated;
    },
  },
  deleteReceiver: { run: (s, input) => s.receivers.deleteReceiver(input) },
  listCaptures: { run: (s, input) => s.receivers.listCaptures(input), mask: maskItems(maskCapture) },
  getCapture: { run: (s, input) => s.receivers.getCapture(input), mask: maskCapture },
  clearCaptures: { run: (s, input) => s.receivers.clearCaptures(input) },
  // The one command that answers a secret in clear, on purpose.
  revealSecret: {
    run: (s, input) => {
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
    },
  },
  useOneSecret: {
    run: (s, input) => {
      const d = s.registry.findDestination(input.destinationId);
      if (!d) return notFound('destination', input.destinationId);
      // The check's destinations sign with another secret (or none) on purpose: "fixing" that breaks the real one.
      if (destinationOwner(d.name) !== 'user') {
        return err({ code: 'conflict', field: 'destinationId', message: `destinationId: "${d.name}" is a destination ${destinationOwner(d.name) === 'check' ? 'hookbench check signs with another secret (or none) on purpose' : 'hookbench send keeps for itself'}; its secret is not the one to share` });
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
    },
  },
} satisfies CommandImpls<keyof typeof RECEIVER_COMMANDS, ReceiverServices>;
