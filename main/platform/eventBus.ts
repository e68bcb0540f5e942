/**
 * The core's one event bus: every service announces what happened here, and every face (HTTP, IPC, CLI,
 * tests) listens here. A listener that throws is reported and skipped, never allowed to break the
 * announcer. Announcements are for committed work only: services emit from `Store.afterCommit`.
 */
import type { EngineEvent } from '../contract/events.js';
import type { MessageSummary } from '../contract/messages.js';

export class EventBus {
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  /** Messages whose summary changed since the last messageUpdated flush (only while someone listens). */
  private changedMessages = new Set<number>();
  private closed = false;

  /** `summary(id)` reads a message's row for messageUpdated (docs/behaviour.md §3). */
  constructor(private readonly summary: (id: number) => MessageSummary | null) {}

  on(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether anyone listens: events that cost something to build are not built otherwise. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  emit(event: EngineEvent): void {
    if (event.type === 'deliveryUpdated') this.messageChanged(event.delivery.messageId);
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        console.error('hookbench: event listener failed', e);
      }
    }
  }

  /** No more messageUpdated flushes (the store is closing). */
  close(): void {
    this.closed = true;
  }

  /**
   * A delivery of this message changed: its row in a live list needs the new summary. Changes within one
   * turn are announced once per message (a round of five webhooks is one messageUpdated).
   */
  private messageChanged(messageId: number): void {
    if (!this.listening) return;
    if (this.changedMessages.size === 0) setImmediate(() => this.flushChangedMessages());
    this.changedMessages.add(messageId);
  }

  private flushChangedMessages(): void {
    const ids = this.changedMessages;
    this.changedMessages = new Set();
    if (this.closed) return;
    for (const id of ids) {
      const message = this.summary(id);
      if (message) this.emit({ type: 'messageUpdated', message });
    }
  }
}
