import { describe, expect, it } from 'vitest';
import { formatBytes, formatClock, formatCount, formatCountdown, formatDay, formatDuration, formatOffset, formatShortCountdown, formatSpan, jumpProgressText } from '../../../renderer/src/lib/format';
import { failureReason } from '../../../renderer/src/lib/failureReason';
import { spanWords } from '../../../main/contract/message/deliveryWords';
import type { ClockJump } from '../../../main/contract/overview';

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

  it("rounds a span as the server's words do: Why? and the timeline say the same time to a retry", () => {
    // 1 h 48 min 40 s: both say 1 h 48 min (Why? said 1 h 49 min beside the timeline's 1 h 48 min).
    const spans = [40_000, 89_600, 3_599_400, 3_600_000 + 48 * 60_000 + 40_000, 2 * 3_600_000 + 59 * 60_000 + 59_000, 4 * 3_600_000];
    const unpadded = (words: string) => words.replace(/\b0(\d)/g, '$1');
    for (const ms of spans) expect(unpadded(formatSpan(ms)), String(ms)).toBe(spanWords(ms));
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

  it("says a clock jump's progress in time left, never fewer rounds to go than played, and never '0 attempts'", () => {
    const jump: ClockJump = {
      fromOffsetMs: 0,
      targetOffsetMs: 4 * 3_600_000,
      reachedOffsetMs: 600_000,
      attemptsInFlight: 37,
      attemptsPlayed: 111,
      round: 4,
      roundsEstimate: 9,
      fastForward: false,
      elapsedMs: 15_400,
      msPerRound: 5_100,
      msLeft: 27_300,
      deliveries: { settled: 3, total: 40 },
    };
    expect(jumpProgressText(jump)).toBe('about 27 s left · round 4 of ~9, ~5 s each');
    expect(jumpProgressText({ ...jump, round: 10, msLeft: 400 })).toBe('almost done · round 10 of ~10, ~5 s each');
    expect(jumpProgressText({ ...jump, round: 1, msPerRound: null, msLeft: null })).toBe('timing the first round · round 1 of ~9');
    expect(jumpProgressText({ ...jump, attemptsInFlight: 0, round: 0, msPerRound: null, msLeft: null })).toBe('starting · 40 deliveries due');
    expect(jumpProgressText({ ...jump, fastForward: true, msPerRound: 1_000, msLeft: 6_000 })).toBe('3 of 40 deliveries settled · about 6 s left · round 4 of ~9, ~1 s each');
    // A live attempt out when the jump began, nothing of its own due: not "0 of 0 deliveries settled · round 1 of ~1".
    const waiting = { ...jump, fastForward: true, round: 0, roundsEstimate: 0, attemptsInFlight: 1, msPerRound: null, msLeft: null, deliveries: { settled: 0, total: 0 } };
    expect(jumpProgressText(waiting)).toBe('waiting for the attempt in flight · nothing else due yet');
    expect(jumpProgressText({ ...waiting, fastForward: false, attemptsInFlight: 3 })).toBe('waiting for 3 attempts in flight · nothing else due yet');
  });

  it('explains a fast-forwarded timeout apart from a real one', () => {
    const base = { outcome: 'timeout' as const, statusCode: null, retryable: true };
    expect(failureReason({ ...base, error: 'fast-forwarded after 1 s without response headers (Fast-forward unanswered attempts is on; the timeout is 5000 ms)' })).toBe(
      'Fast-forwarded: during a clock jump with Fast-forward unanswered attempts on, no response headers had come after 1 s, so the attempt was ended as a timeout instead of waiting 5 s. The endpoint might still have answered in time. Retried.',
    );
    expect(failureReason({ ...base, error: 'no response headers within 5000 ms' })).toMatch(/^No response headers within 5 s:/);
  });

  it('writes counts with their thousands grouped, as en-US does, without asking Intl', () => {
    for (const n of [0, 7, 999, 1_000, 12_345, 1_234_567, -4_500, 1_234.5, 0.125, 2 ** 53 + 2]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    expect(formatCount(Number.NaN)).toBe('NaN');
    expect(formatCount(Infinity)).toBe('Infinity');
  });

  it('writes a day and a time of day in the UI\'s English, whatever the browser\'s locale', () => {
    const at = new Date(2026, 10, 7, 9, 5, 3).getTime();
    expect(formatDay(at)).toBe('Nov 7');
    expect(formatClock(at)).toBe('09:05:03');
    expect(formatDay(new Date(2027, 0, 31).getTime())).toBe('Jan 31');
  });
});
