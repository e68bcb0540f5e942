/**
 * What the session reads again after missed events (a reconnect, and once after the first open: app/session.ts)
 * is the stores it knows; a screen loaded later (History) registers its own here.
 */
import { Listeners } from './transport';

const listeners = new Listeners<undefined>();

/** `listener` runs whenever the session reads again what is shown; returns the unsubscribe. */
export function onReadAgain(listener: () => void): () => void {
  return listeners.add(listener);
}

/** The session reads again: every registered store too. */
export function readAgainRegistered(): void {
  listeners.emit(undefined);
}
