import { describe, expect, it } from 'vitest';
import { normaliseTimestamp } from '../../../main/contract/timestamp.js';

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
  ])('%s → %s', (input, expected) => {
    const r = normaliseTimestamp(input);
    expect(r.ok && r.iso).toBe(expected);
  });

  it.each(['March 7', '2026-13-01T00:00:00Z', '2025-02-29', '2026-11-22T25:00:00Z', '1700000000', '', '2026-11-22T06:22:02+25:00'])(
    'refuses %j',
    (input) => {
      expect(normaliseTimestamp(input).ok).toBe(false);
    },
  );
});
