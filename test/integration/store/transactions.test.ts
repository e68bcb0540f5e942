import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../main/store/store.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

function newStore(): Store {
  const store = new Store(join(newDataDir(), 'hookbench.db'));
  onCleanup(() => store.close());
  return store;
}

describe('store transactions', () => {
  it("a write outside any transaction runs in one of the store's, which the history index's thread waits for", () => {
    const store = newStore();
    const seen: number[] = [];
    store.db.function('writing_now', () => {
      seen.push(Atomics.load(store.writing, 0));
      return null;
    });
    store.db.exec(`CREATE TEMP TRIGGER watch AFTER INSERT ON main.settings BEGIN SELECT writing_now(); END`);
    // An autocommit write, as a repository makes one (a refusal logged, a setting kept).
    store.db.prepare(`INSERT INTO settings (key, value) VALUES ('probe', '1')`).run();
    // Inside a transaction it is that transaction's (counted once, not again).
    store.transaction(() => store.db.prepare(`INSERT INTO settings (key, value) VALUES ('probe2', '1')`).run());
    expect(seen).toEqual([1, 1]);
    // A statement that reads is left as it is.
    expect(store.db.prepare(`SELECT value FROM settings WHERE key = 'probe'`).pluck().get()).toBe('1');
    expect(Atomics.load(store.writing, 0)).toBe(0);
  });

  it('afterCommit waits for the outermost transaction to commit, and is dropped when it rolls back', () => {
    const store = newStore();
    const seen: string[] = [];
    store.transaction(() => {
      store.config.setSetting('a', '1');
      store.afterCommit(() => seen.push(`committed a=${store.config.getSetting('a')}`));
      store.transaction(() => store.afterCommit(() => seen.push('nested')));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['committed a=1', 'nested']);

    expect(() =>
      store.transaction(() => {
        store.config.setSetting('b', '1');
        store.afterCommit(() => seen.push('rolled back'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.config.getSetting('b')).toBeNull();
    expect(seen).toEqual(['committed a=1', 'nested']);

    store.afterCommit(() => seen.push('outside: at once'));
    expect(seen.at(-1)).toBe('outside: at once');
  });
});
