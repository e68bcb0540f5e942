import { describe, expect, it } from 'vitest';
import { formatBytes, formatCountdown, formatDuration, formatOffset, formatShortCountdown } from '../../../renderer/src/lib/format';

describe('renderer formatting', () => {
  it('shows the clock offset as the top bar does', () => {
    expect(formatOffset(5_000)).toBe('+5 s');
    expect(formatOffset(60_000)).toBe('+1 min');
    expect(formatOffset(65_000)).toBe('+1 min 05 s');
    expect(formatOffset(2 * 3_600_000 + 5 * 60_000)).toBe('+2 h 05 min');
    expect(formatOffset(27 * 3_600_000)).toBe('+1 d 03 h');
    expect(formatOffset(4 * 3_600_000)).toBe('+4 h');
  });

  it('counts down to a retry', () => {
    expect(formatCountdown(10_000, 6_000)).toBe('in 4 s');
    expect(formatCountdown(10_000, 10_000)).toBe('due now');
    expect(formatCountdown(3_600_000 + 300_000, 0)).toBe('in 1 h 05 min');
    expect(formatShortCountdown(118_000, 0)).toBe('1m 58s');
    expect(formatShortCountdown(2 * 3_600_000 + 300_000, 0)).toBe('2h 05m');
    expect(formatShortCountdown(0, 10)).toBe('due');
  });

  it('formats durations and sizes', () => {
    expect(formatDuration(26)).toBe('26 ms');
    expect(formatDuration(5_004)).toBe('5.00 s');
    expect(formatBytes(180)).toBe('180 B');
    expect(formatBytes(32 * 1024)).toBe('32 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MiB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GiB');
    expect(formatBytes(32_768)).toBe('32 KiB');
  });
});
