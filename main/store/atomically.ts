/**
 * The one way to make a Result-returning piece of work atomic: it runs in the store's transaction
 * (Store.transaction, whose afterCommit callbacks run only once it commits), and an error result rolls
 * back everything it did. Inside a transaction already open, the whole outer transaction rolls back.
 */
import { err, type ApiError, type Result } from '../contract/result.js';

/** Thrown inside the transaction to roll it back with an error value. */
class Rollback {
  constructor(readonly error: ApiError) {}
}

export function atomically<T>(transaction: <R>(fn: () => R) => R, fn: () => Result<T>, onRollback?: () => void): Result<T> {
  try {
    return transaction(() => {
      const result = fn();
      if (!result.ok) throw new Rollback(result.error);
      return result;
    });
  } catch (e) {
    if (!(e instanceof Rollback)) throw e;
    onRollback?.();
    return err(e.error);
  }
}
