/**
 * What a user does to deliveries: retry now, cancel, replay (docs/behaviour.md §4). Each change is one
 * transaction, recomputes the message's status, wakes the scheduler and is announced (deliveryUpdated).
 */
import type { SendMessageOutput } from '../contract/api.js';
import { LIMITS } from '../contract/message/messageShapes.js';
import { REASONS, type DeliveryRecord } from '../contract/deliveries.js';
import type { Destination } from '../contract/destinations.js';
import { err, ok, type Result } from '../contract/result.js';
import { tooDeepError } from '../domain/jsonDepth.js';
import type { Store } from '../store/store.js';
import { storedTooDeep } from '../store/storedJson.js';
import type { EventBus } from '../platform/eventBus.js';
import type { Intake } from '../ingestion/intake.js';
import { newMessageId } from '../ingestion/messageIds.js';
import { notFound } from '../platform/paging.js';
import type { Registry } from '../registry/registry.js';

export type DeliveryCommandsStore = Pick<Store, 'messages' | 'deliveries' | 'transaction'>;

export interface DeliveryCommandsOptions {
  store: DeliveryCommandsStore;
  clock: { now(): number };
  registry: Registry;
  intake: Intake;
  bus: EventBus;
  /** Due times changed: the scheduler looks again. */
  reschedule: () => void;
}

export class DeliveryCommands {
  constructor(private readonly options: DeliveryCommandsOptions) {}

  /** Pulls waiting or failed deliveries' next attempt to now; a failed one gets a fresh window. */
  retryNow(input: { id?: number | undefined; deliveryId?: number | undefined }): Result<{ deliveries: DeliveryRecord[] }> {
    const { store } = this.options;
    const now = this.options.clock.now();
    let targets: DeliveryRecord[];
    let messageId: number;
    if (input.deliveryId !== undefined) {
      const d = store.deliveries.getDelivery(input.deliveryId);
      if (!d) return notFound('delivery', input.deliveryId);
      targets = [d];
      messageId = d.messageId;
    } else {
      const id = input.id ?? 0;
      if (!store.messages.getMessage(id)) return notFound('message', id);
      targets = store.deliveries.deliveriesOf(id);
      messageId = id;
    }
    const waiting = targets.filter((d) => d.status === 'queued' || d.status === 'retrying' || d.status === 'failed');
    if (waiting.length === 0) {
      const states = [...new Set(targets.map((d) => d.status))].join(', ') || 'no deliveries';
      return err({ code: 'conflict', message: `nothing to retry: only waiting or failed deliveries can be retried (this has ${states})` });
    }
    // A delivery whose destination is off (or has no webhook URL) would only be held: it is not retried, nor said to be.
    const held = (d: DeliveryRecord): string | null => {
      const destination = this.options.registry.findDestination(d.destinationId);
      if (!destination) return null;
      if (destination.webhooks.length === 0) return `destination "${destination.name}" has no webhook URL (give it one and turn it on)`;
      return destination.enabled ? null : `destination "${destination.name}" is off (turn it on and its deliveries go)`;
    };
    const retryable = waiting.filter((d) => held(d) === null);
    if (retryable.length === 0) {
      const why = [...new Set(waiting.map(held))].join('; ');
      return err({ code: 'conflict', message: `nothing can be sent now: ${why}` });
    }
    store.transaction(() => {
      for (const d of retryable) {
        const failed = d.status === 'failed';
        store.deliveries.setDelivery({
          id: d.id,
          status: d.attempts === 0 ? 'queued' : 'retrying',
          reason: null,
          nextAttemptAt: now,
          // A failed delivery starts a fresh window at its next attempt, to every current webhook.
          firstAttemptAt: failed ? null : d.firstAttemptAt,
          pendingUrls: failed || d.pendingUrls.length === 0 ? null : d.pendingUrls,
          updatedAt: now,
        });
      }
      store.deliveries.refreshMessageStatus(messageId);
    });
    this.options.reschedule();
    const deliveries = retryable.map((d) => store.deliveries.getDelivery(d.id)!);
    this.announce(deliveries);
    return ok({ deliveries });
  }

  cancelMessage(input: { id: number }): Result<{ deliveries: DeliveryRecord[] }> {
    if (!this.options.store.messages.getMessage(input.id)) return notFound('message', input.id);
    const cancellable = this.options.store.deliveries.deliveriesOf(input.id).filter((d) => ['queued', 'retrying', 'delivering'].includes(d.status));
    if (cancellable.length === 0) return err({ code: 'conflict', message: `message ${input.id} has nothing left to cancel` });
    return ok({ deliveries: this.cancel(cancellable, REASONS.cancelledByUser) });
  }

  /** Cancels a destination's waiting and in-flight deliveries (`destination deleted`); returns how many. */
  cancelAllOf(destinationId: string): number {
    const open = this.options.store.deliveries.waitingDeliveriesOfDestination(destinationId).map((w) => this.options.store.deliveries.getDelivery(w.id)!);
    this.cancel(open, REASONS.destinationDeleted);
    return open.length;
  }

  /** A new message with the same body (and, if asked, the same messageId), to the original's destinations as they are now. */
  replayMessage(input: { id: number; keepMessageId?: boolean | undefined }): Result<SendMessageOutput> {
    const original = this.options.store.messages.getMessage(input.id);
    if (!original) return notFound('message', input.id);
    // A check's message goes to the check's own destinations, off between runs: its replay would wait there unseen, counted as the user's.
    if (original.origin === 'check') return err({ code: 'conflict', field: 'id', message: `id: message ${input.id} is a check run's own message and is not replayed: run the check again to send it again` });
    const now = this.options.clock.now();
    const tooDeep = storedTooDeep(original.body);
    if (tooDeep) return err({ ...tooDeepError(tooDeep), field: 'id', message: `id: message ${input.id} cannot be replayed: its ${tooDeep.field} nests ${tooDeep.levels} levels > ${LIMITS.maxDepth} (stored before the nesting limit)` });
    const body = JSON.parse(original.body) as Record<string, unknown>;
    const messageId = input.keepMessageId ? original.messageId : newMessageId();
    body['messageId'] = messageId;
    const targets = this.options.store.deliveries
      .deliveriesOf(original.id)
      .map((d) => this.options.registry.destination(d.destinationId))
      .filter((d): d is Destination => d !== undefined);
    // A replay goes where its original went: an original routed nowhere gives it nothing to go to, and its own
    // reason (a duplicate's, say) would not be the replay's.
    const route = targets.length
      ? { targets, filteredReason: null }
      : { targets: [], filteredReason: original.status === 'filtered' ? REASONS.replayOfFiltered : REASONS.replayDestinationsGone };
    const built = {
      messageId,
      type: original.type,
      userId: original.userId,
      anonymousId: typeof body['anonymousId'] === 'string' ? body['anonymousId'] : null,
      event: original.event,
      bytes: Buffer.from(JSON.stringify(body), 'utf8'),
    };
    const [output] = this.options.intake.storeMessages(
      [{ built, call: { ...original.call, messageId }, callJson: undefined, sourceId: original.sourceId, route, replayOf: original.id, countsUsage: false, traits: undefined }],
      now,
      { outputs: true },
    );
    return ok(output!);
  }

  private cancel(deliveries: readonly DeliveryRecord[], reason: string): DeliveryRecord[] {
    const { store } = this.options;
    const now = this.options.clock.now();
    store.transaction(() => {
      for (const d of deliveries) {
        store.deliveries.setDelivery({ id: d.id, status: 'cancelled', reason, nextAttemptAt: null, firstAttemptAt: d.firstAttemptAt, pendingUrls: null, updatedAt: now });
      }
      for (const m of new Set(deliveries.map((d) => d.messageId))) store.deliveries.refreshMessageStatus(m);
    });
    this.options.reschedule();
    const updated = deliveries.map((d) => store.deliveries.getDelivery(d.id)!);
    this.announce(updated);
    return updated;
  }

  private announce(deliveries: readonly DeliveryRecord[]): void {
    if (!this.options.bus.listening) return;
    for (const delivery of deliveries) {
      const messageStatus = this.options.store.messages.getMessage(delivery.messageId)!.status;
      this.options.bus.emit({ type: 'deliveryUpdated', delivery, messageStatus });
    }
  }
}
