/** The handlers of the commands main/contract/commands/delivery.ts declares (how: main/platform/commandTable.ts). */
import type { DELIVERY_COMMANDS } from '../contract/commands/delivery.js';
import type { DeliveryRecord } from '../contract/deliveries.js';
import { ok } from '../contract/result.js';
import { maskDelivery } from '../domain/secrets.js';
import { maskSent } from '../ingestion/commands.js';
import type { CommandImpls } from '../platform/commandTable.js';
import { notFound } from '../platform/paging.js';
import type { Registry } from '../registry/registry.js';
import type { DeliveryCommands } from './deliveryCommands.js';

const maskDeliveries = (v: { deliveries: DeliveryRecord[] }) => ({ deliveries: v.deliveries.map(maskDelivery) });

/** A destination's waiting deliveries are cancelled before it goes: none is left to a destination that no longer exists. */
function deleteDestination(s: { deliveries: DeliveryCommands; registry: Registry }, id: string) {
  const d = s.registry.findDestination(id);
  if (!d) return notFound('destination', id);
  const cancelledDeliveries = s.deliveries.cancelAllOf(d.id);
  s.registry.removeDestination(d.id);
  return ok({ cancelledDeliveries });
}

export const deliveryCommands = {
  retryNow: { run: (s, input) => s.deliveries.retryNow(input), mask: maskDeliveries },
  cancelMessage: { run: (s, input) => s.deliveries.cancelMessage(input), mask: maskDeliveries },
  replayMessage: { run: (s, input) => s.deliveries.replayMessage(input), mask: maskSent },
  deleteDestination: { run: (s, input) => deleteDestination(s, input.id) },
} satisfies CommandImpls<keyof typeof DELIVERY_COMMANDS, { deliveries: DeliveryCommands; registry: Registry }>;
