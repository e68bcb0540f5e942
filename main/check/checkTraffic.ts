/**
 * Which pushed events are a check run's own traffic. The messages a check sends through the engine are the
 * check's (origin `check`): the events of the user's faces (the UI, `tail`, the desktop window) leave them
 * out, as their lists and counters do (what the mock receiver captured of them stays: it did receive them). Message events carry the origin; delivery and attempt events carry only
 * the message's id, so the ids the check sends are remembered here (the newest few thousand: a run sends a
 * few dozen, one at a time).
 */
import type { EngineEvent } from '../contract/events.js';

const REMEMBERED = 4_096;

export class CheckTraffic {
  private readonly ids = new Set<number>();

  /** A check run sent this message (before any of its attempts start). */
  add(messageId: number): void {
    this.ids.add(messageId);
    if (this.ids.size > REMEMBERED) this.ids.delete(this.ids.values().next().value!);
  }

  /** Whether the event is about one of the check's own messages. */
  owns(event: EngineEvent): boolean {
    switch (event.type) {
      case 'messageAccepted':
      case 'messageUpdated':
        return event.message.origin !== undefined || this.ids.has(event.message.id);
      case 'attemptStarted':
        return this.ids.has(event.messageId);
      case 'attemptFinished':
        return this.ids.has(event.attempt.messageId);
      case 'deliveryUpdated':
        return this.ids.has(event.delivery.messageId);
      default:
        return false;
    }
  }
}
