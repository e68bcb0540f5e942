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
