/**
 * How `hookbench doctor --salvage` finds where readable rows start again past damaged pages
 * (main/store/salvage.ts): by splitting the range in two, not by trying every rowid, so that a gap of a
 * billion rowids costs as few reads as a gap of ten.
 */
import { describe, expect, it } from 'vitest';
import { nextReadable } from '../../../main/store/salvage.js';

/** A table whose reads fail from any rowid in the given (inclusive) ranges, counting the reads. */
function table(bad: [bigint, bigint][]) {
  let reads = 0;
  return {
    readableFrom: (at: bigint) => {
      reads++;
      return !bad.some(([lo, hi]) => at >= lo && at <= hi);
    },
    get reads() {
      return reads;
    },
  };
}

describe('nextReadable: where rows can be read again past a damaged range', () => {
  it('finds the first rowid past the damage, whatever its width, in a few dozen reads', () => {
    for (const width of [1n, 7n, 1000n, 1_000_000_000n]) {
      const t = table([[101n, 100n + width]]);
      expect(nextReadable(100n, t.readableFrom), `width ${width}`).toBe(101n + width);
      expect(t.reads).toBeLessThanOrEqual(2 * 64);
    }
  });

  it('from before the first rowid (the first page damaged), and past the end (the last pages damaged: none)', () => {
    const min = -(2n ** 63n);
    expect(nextReadable(min, table([[min, 40n]]).readableFrom)).toBe(41n);
    const end = table([[500n, 2n ** 63n - 1n]]);
    expect(nextReadable(499n, end.readableFrom)).toBeNull();
    expect(end.reads).toBeLessThanOrEqual(64);
  });
});
