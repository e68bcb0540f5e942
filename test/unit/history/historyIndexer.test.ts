/** The history indexer indexes while the core is quiet, and waits while messages arrive or rounds are in flight. */
import { describe, expect, it } from 'vitest';
import { HistoryIndexer } from '../../../main/history/historyIndexer.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeIndex(lag: number) {
  const index = {
    behind: lag,
    indexed: 0,
    merges: 0,
    lag: () => index.behind,
    indexNext: (max: number) => {
      const n = Math.min(max, index.behind);
      index.behind -= n;
      index.indexed += n;
      return n;
    },
    merge: () => ++index.merges < 3,
  };
  return index;
}

async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(5);
  }
}

describe('history indexer', () => {
  it('catches up while the core is quiet, in chunks, then merges the search index', async () => {
    const index = fakeIndex(5000);
    const indexer = new HistoryIndexer({ index, roundsInFlight: () => 0, intervalMs: 10, chunk: 100 });
    indexer.start();
    try {
      await until(() => index.behind === 0 && index.merges >= 3);
      expect(index.indexed).toBe(5000);
    } finally {
      indexer.stop();
    }
  });

  it('says it is working while it indexes or merges turn after turn, and not while the core is busy or once it has caught up', async () => {
    const index = fakeIndex(200_000);
    let rounds = 100;
    let looks = 0;
    const indexer = new HistoryIndexer({ index, roundsInFlight: () => (looks++, rounds), intervalMs: 10, busyRounds: 32, chunk: 10, sliceMs: 1 });
    expect(indexer.working).toBe(false);
    indexer.start();
    try {
      await until(() => looks >= 3);
      expect(index.indexed).toBe(0);
      expect(indexer.working).toBe(false);
      rounds = 0;
      await until(() => indexer.working);
      expect(index.behind).toBeGreaterThan(0);
      await until(() => index.behind === 0 && index.merges >= 3 && !indexer.working);
    } finally {
      indexer.stop();
    }
    expect(indexer.working).toBe(false);
  });

  it('waits while rounds are in flight or messages keep arriving, and goes on once they stop', async () => {
    const index = fakeIndex(1000);
    let rounds = 100;
    const indexer = new HistoryIndexer({ index, roundsInFlight: () => rounds, intervalMs: 10, busyRounds: 32, busyMessagesPerSecond: 200 });
    indexer.start();
    try {
      // 50 messages every 5 ms: 10,000 a second.
      const arrivals = setInterval(() => (index.behind += 50), 5);
      await sleep(100);
      expect(index.indexed).toBe(0);
      rounds = 0; // no rounds, but messages still arrive
      await sleep(150);
      clearInterval(arrivals);
      expect(index.indexed).toBe(0);
      await until(() => index.behind === 0);
      expect(index.indexed).toBeGreaterThan(1000);
    } finally {
      indexer.stop();
    }
  });

  it('waits while rounds keep finishing with few in flight (the tail of a burst), and goes on once they stop', async () => {
    const index = fakeIndex(1000);
    let recorded = 0;
    const indexer = new HistoryIndexer({
      index,
      roundsInFlight: () => 10, // below busyRounds: in flight alone would let it index
      roundsRecorded: () => recorded,
      intervalMs: 10,
      busyRounds: 32,
      busyRoundsPerSecond: 200,
    });
    // 20 rounds finished every 5 ms: 4,000 a second.
    const finishing = setInterval(() => (recorded += 20), 5);
    indexer.start();
    try {
      await sleep(150);
      expect(index.indexed).toBe(0);
      clearInterval(finishing);
      await until(() => index.behind === 0);
      expect(index.indexed).toBe(1000);
    } finally {
      clearInterval(finishing);
      indexer.stop();
    }
  });

  it('stops: nothing more is indexed after stop()', async () => {
    const index = fakeIndex(1000);
    const indexer = new HistoryIndexer({ index, roundsInFlight: () => 0, intervalMs: 10 });
    indexer.start();
    indexer.stop();
    await sleep(60);
    expect(index.indexed).toBe(0);
  });

  it('an error is reported, not thrown from its timer, and tried again later; a database that must not be written waits', async () => {
    const index = fakeIndex(500);
    let fail = true;
    const next = index.indexNext;
    index.indexNext = (max: number) => {
      if (fail) throw new Error('SQLITE_FULL: database or disk is full');
      return next(max);
    };
    const errors: unknown[] = [];
    let writable = false;
    const indexer = new HistoryIndexer({ index, roundsInFlight: () => 0, intervalMs: 10, retryAfterErrorMs: 50, writable: () => writable, onError: (e) => errors.push(e) });
    indexer.start();
    try {
      await sleep(60);
      expect(errors).toEqual([]); // not writable: not even tried
      writable = true;
      await until(() => errors.length === 1);
      fail = false;
      await until(() => index.behind === 0);
      expect(errors).toHaveLength(1);
    } finally {
      indexer.stop();
    }
  });
});
