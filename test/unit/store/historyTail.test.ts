/**
 * The history tail: the filter values of the messages stored past the history index's watermark, in memory.
 * It vouches only for ids it saw stored one after the other, and gives candidates newest first.
 */
import { describe, expect, it } from 'vitest';
import { HistoryTail, type StoredBatch } from '../../../main/store/historyTail.js';

const message = (over: Partial<StoredBatch['message']> = {}, destinations: string[] = []): StoredBatch => ({
  message: { type: 'track', sourceId: 's1', userId: 'u1', event: 'E1', receivedAt: 1000, ...over },
  deliveries: destinations.map((destinationId) => ({ destinationId })),
});

describe('history tail', () => {
  it('gives the ids of every filter it holds, newest first, up to max, and where to go on', () => {
    const tail = new HistoryTail();
    tail.add(11, [
      message({ userId: 'a', receivedAt: 100_000 }, ['d1']),
      message({ userId: 'b', type: 'page', event: null, receivedAt: 200_000 }, ['d1', 'd2']),
      message({ userId: null, sourceId: null, receivedAt: 300_000 }),
      message({ userId: 'a', event: 'E2', receivedAt: 400_000 }, ['d2']),
    ]);
    expect(tail.range).toEqual({ from: 10, to: 14 });
    const all = (filter: Parameters<HistoryTail['candidates']>[0]) => tail.candidates(filter, 0, 100, 100).ids;
    expect(all({ userId: 'a' })).toEqual([14, 11]);
    expect(all({ type: 'page' })).toEqual([12]);
    expect(all({ event: 'E1' })).toEqual([13, 11]);
    expect(all({ sourceId: 's1' })).toEqual([14, 12, 11]);
    expect(all({ destinationId: 'd2' })).toEqual([14, 12]);
    expect(all({ destinationId: 'd1', userId: 'b' })).toEqual([12]);
    expect(all({ from: 200_000, to: 400_000 })).toEqual([13, 12]);
    // Times are held to the millisecond: a bound one ms past a message leaves it out.
    expect(all({ from: 200_001, to: 399_999 })).toEqual([13]);
    expect(all({ from: 300_000, to: 300_001 })).toEqual([13]);
    expect(all({ from: 200_000, to: 400_001 })).toEqual([14, 13, 12]);
    expect(all({ to: 99_999 })).toEqual([]);
    expect(all({ userId: 'nobody' })).toEqual([]);
    expect(all({ destinationId: 'd9' })).toEqual([]);
    // Below a cursor, above a floor, at most max: `next` is the highest id not looked at yet.
    expect(tail.candidates({ sourceId: 's1' }, 0, 14, 1)).toEqual({ ids: [12], next: 11 });
    expect(tail.candidates({ sourceId: 's1' }, 11, 14, 5)).toEqual({ ids: [12], next: 11 });
    expect(tail.candidates({ userId: 'nobody' }, 0, 100, 5).next).toBeLessThanOrEqual(10);
  });

  it('a gap, or ids given again, starts the range over: it never vouches for ids it did not see stored', () => {
    const tail = new HistoryTail();
    tail.add(1, [message({ userId: 'a' }), message({ userId: 'a' })]);
    tail.add(3, [message({ userId: 'a' })]);
    expect(tail.range).toEqual({ from: 0, to: 3 });
    tail.add(5, [message({ userId: 'b' })]); // id 4 was stored elsewhere
    expect(tail.range).toEqual({ from: 4, to: 5 });
    expect(tail.candidates({ userId: 'a' }, 0, 100, 10).ids).toEqual([]);
    tail.add(5, [message({ userId: 'c' })]); // the newest were deleted and the id given again
    expect(tail.range).toEqual({ from: 4, to: 5 });
    expect(tail.candidates({ userId: 'b' }, 0, 100, 10).ids).toEqual([]);
    expect(tail.candidates({ userId: 'c' }, 0, 100, 10).ids).toEqual([5]);
  });

  it('forgets what the index covers, chunk by chunk, and everything once it covers all', () => {
    const tail = new HistoryTail();
    const n = 150_000;
    tail.add(1, Array.from({ length: n }, (_, i) => message({ userId: i % 1000 === 0 ? 'rare' : 'common', receivedAt: i })));
    expect(tail.candidates({ userId: 'rare' }, 0, n + 1, 1000).ids).toHaveLength(150);
    tail.forget(70_000);
    expect(tail.range).toEqual({ from: 70_000, to: n });
    const left = tail.candidates({ userId: 'rare' }, 0, n + 1, 1000).ids;
    expect(left).toHaveLength(80);
    expect(Math.min(...left)).toBe(70_001);
    tail.forget(n);
    expect(tail.range).toEqual({ from: n, to: n });
    expect(tail.candidates({ userId: 'rare' }, 0, n + 1, 1000).ids).toEqual([]);
    tail.add(n + 1, [message({ userId: 'rare' })]);
    expect(tail.candidates({ userId: 'rare' }, 0, n + 2, 1000).ids).toEqual([n + 1]);
  });

  it('narrows only by the filters it holds', () => {
    expect(HistoryTail.narrows({ userId: 'u' })).toBe(true);
    expect(HistoryTail.narrows({ to: 5 })).toBe(true);
    expect(HistoryTail.narrows({})).toBe(false);
  });

  it('past maxDistinct values a column holds, the rest are candidates for every value of that filter, never missed', () => {
    const tail = new HistoryTail(3);
    tail.add(1, ['a', 'b', 'c', 'd', 'e'].map((userId, i) => message({ userId, receivedAt: i }, [`d${i}`])));
    const all = (filter: Parameters<HistoryTail['candidates']>[0]) => tail.candidates(filter, 0, 100, 100).ids;
    expect(all({ userId: 'b' })).toEqual([5, 4, 2]); // d and e became "any user": SQLite checks them
    expect(all({ userId: 'e' })).toEqual([5, 4]);
    expect(all({ userId: 'never-seen' })).toEqual([5, 4]);
    expect(all({ destinationId: 'd1' })).toEqual([5, 4, 2]);
    expect(all({ destinationId: 'd4' })).toEqual([5, 4]);
    expect(all({ event: 'E1' })).toEqual([5, 4, 3, 2, 1]);
    expect(all({ event: 'E2' })).toEqual([]); // events stayed under the limit: an unknown one has no candidates
  });

  it('keeps room below the newest for the messages stored before it started, filled from the newest down while new ones arrive', () => {
    const tail = new HistoryTail();
    tail.reserve(100, 200_000); // ids 101…200,000 stored before; the index covers up to 100
    expect(tail.range).toEqual({ from: 200_000, to: 200_000 });
    expect(tail.missing).toEqual({ after: 100, before: 200_000 });
    tail.add(200_001, [message({ userId: 'new' })]);
    expect(tail.range).toEqual({ from: 200_000, to: 200_001 });
    tail.prepend(199_999, [message({ userId: 'old' }), message({ userId: 'newest-before-start' })]);
    expect(tail.range).toEqual({ from: 199_998, to: 200_001 });
    expect(tail.candidates({ userId: 'old' }, 0, Infinity, 10).ids).toEqual([199_999]);
    // A slice that does not end where the range starts is refused: the tail never vouches for a gap.
    expect(() => tail.prepend(150_000, [message()])).toThrow(/do not end at 199998/);
    // Loaded down to the watermark: nothing is missing any more.
    tail.prepend(101, Array.from({ length: 199_998 - 100 }, () => message()));
    expect(tail.missing).toBeNull();
    expect(tail.range).toEqual({ from: 100, to: 200_001 });
    expect(tail.candidates({ userId: 'new' }, 0, Infinity, 10).ids).toEqual([200_001]);
  });

  it('stops waiting for older messages once settled, or once the index covers what was missing', () => {
    const settled = new HistoryTail();
    settled.reserve(0, 50);
    settled.settle();
    expect(settled.missing).toBeNull();
    expect(() => settled.prepend(50, [message()])).toThrow();
    const indexed = new HistoryTail();
    indexed.reserve(0, 50);
    indexed.prepend(41, Array.from({ length: 10 }, () => message()));
    indexed.forget(45);
    expect(indexed.missing).toBeNull();
    expect(indexed.range).toEqual({ from: 45, to: 50 });
  });

  it('holds any time exactly, before 1970 and far in the future too', () => {
    const tail = new HistoryTail();
    tail.add(1, [message({ receivedAt: -5_000 }), message({ receivedAt: 5_000_000 }), message({ receivedAt: 2 ** 53 })]);
    expect(tail.candidates({ from: -10_000, to: -1_000 }, 0, 100, 10).ids).toEqual([1]);
    expect(tail.candidates({ from: 4_000_000 }, 0, 100, 10).ids).toEqual([3, 2]);
    expect(tail.candidates({ from: 4_000_000, to: 2 ** 53 }, 0, 100, 10).ids).toEqual([2]);
    expect(tail.candidates({ to: 0 }, 0, 100, 10).ids).toEqual([1]);
  });

  it('types and sources, held in smaller columns, match every value past those columns\' limits', () => {
    const tail = new HistoryTail(1_000_000);
    tail.add(1, Array.from({ length: 300 }, (_, i) => message({ type: `t${i}`, sourceId: `s${i}` })));
    expect(tail.candidates({ type: 't3' }, 0, 1000, 1000).ids).toEqual([...Array.from({ length: 46 }, (_, k) => 300 - k), 4]);
    expect(tail.candidates({ sourceId: 's299' }, 0, 1000, 1000).ids).toEqual([300]);
  });
});
