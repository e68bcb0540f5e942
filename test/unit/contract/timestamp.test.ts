import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseTimestamp } from '../../../main/contract/message/timestamp.js';

describe('normaliseTimestamp', () => {
  it.each([
    ['2026-11-22T06:22:02.954Z', '2026-11-22T06:22:02.954Z'],
    ['2026-11-22T06:22:02Z', '2026-11-22T06:22:02.000Z'],
    ['2026-11-22T06:22:02.9Z', '2026-11-22T06:22:02.900Z'],
    ['2026-11-22T06:22:02.123456Z', '2026-11-22T06:22:02.123Z'],
    ['2026-11-22T08:22:02+02:00', '2026-11-22T06:22:02.000Z'],
    ['2026-11-22T01:22:02-0500', '2026-11-22T06:22:02.000Z'],
    ['2026-11-22T06:22', '2026-11-22T06:22:00.000Z'],
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    // A year below 100 is that year, not 19xx (Date.UTC's reading).
    ['0050-06-01T00:00:00Z', '0050-06-01T00:00:00.000Z'],
    ['0000-01-01', '0000-01-01T00:00:00.000Z'],
    ['0004-02-29T12:00:00+01:00', '0004-02-29T11:00:00.000Z'],
    // Year 0 is a leap year (divisible by 400): both paths agree that its 29 February exists.
    ['0000-02-29', '0000-02-29T00:00:00.000Z'],
    ['0000-02-29T00:00:00Z', '0000-02-29T00:00:00.000Z'],
    ['0000-02-29T00:00:00.000Z', '0000-02-29T00:00:00.000Z'],
  ])('%s → %s', (input, expected) => {
    const r = normaliseTimestamp(input);
    expect(r.ok && r.iso).toBe(expected);
  });

  it.each(['March 7', '2026-13-01T00:00:00Z', '2025-02-29', '1900-02-29', '0100-02-29T00:00:00.000Z', '2026-11-22T25:00:00Z', '1700000000', '', '2026-11-22T06:22:02+25:00'])(
    'refuses %j',
    (input) => {
      expect(normaliseTimestamp(input).ok).toBe(false);
    },
  );
  it('reads a canonical timestamp (the fast path) exactly as Date does, and refuses the impossible ones it names', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 999 })),
        ([y, mo, d, h, mi, s, ms]) => {
          const input = `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}.${String(ms).padStart(3, '0')}Z`;
          const parsed = Date.parse(input);
          const real = Number.isFinite(parsed) && new Date(parsed).toISOString() === input;
          const r = normaliseTimestamp(input);
          expect(r.ok, input).toBe(real);
          if (r.ok) expect([r.iso, r.ms]).toEqual([input, parsed]);
        },
      ),
      { numRuns: 3000, examples: [[[2025, 2, 29, 0, 0, 0, 0]], [[2024, 2, 29, 0, 0, 0, 0]], [[1900, 2, 29, 0, 0, 0, 0]], [[2000, 2, 29, 0, 0, 0, 0]], [[50, 1, 1, 0, 0, 0, 0]], [[2026, 4, 31, 0, 0, 0, 0]], [[2026, 12, 31, 23, 59, 59, 999]]] },
    );
  });
});
