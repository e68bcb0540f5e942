import { describe, expect, it } from 'vitest';
import { ordinal, pastWindowClause, pastWindowWords, recordTriesWords, spanWords } from '../../../main/contract/message/deliveryWords.js';

const HOUR = 3_600_000;

describe('delivery words', () => {
  it('names the attempt that did not come, when it would have fallen due and the window it fell past', () => {
    const first = Date.UTC(2026, 10, 26, 10);
    const d = { attempts: 7, firstAttemptAt: first, pastWindow: { dueAt: first + 4 * HOUR + 31 * 60_000, windowEndsAt: first + 4 * HOUR } };
    expect(pastWindowWords(d, false)).toBe('no 8th attempt: it would have fallen due 4 h 31 min after the first, past the 4 h retry window');
    // After "retry window exhausted after 7 attempts: " (the Why? panel), without a second colon.
    expect(pastWindowClause(d, false)).toBe('the 8th would have fallen due 4 h 31 min after the first, past the 4 h retry window');
  });

  it('with several webhooks names the round that did not come, after "7 rounds · 21 attempts"', () => {
    const first = Date.UTC(2026, 10, 26, 10);
    const d = { attempts: 7, firstAttemptAt: first, pastWindow: { dueAt: first + 4 * HOUR + 31 * 60_000, windowEndsAt: first + 4 * HOUR } };
    expect(pastWindowWords(d, true)).toBe('no 8th round: it would have fallen due 4 h 31 min after the first, past the 4 h retry window');
    expect(pastWindowClause(d, true)).toBe('the 8th round would have fallen due 4 h 31 min after the first, past the 4 h retry window');
    const three = [0, 1, 2].map((webhookIndex) => ({ webhookIndex }));
    expect(recordTriesWords(d, Array.from({ length: 7 }, () => three).flat())).toBe('7 rounds · 21 attempts');
    expect(recordTriesWords(d, Array.from({ length: 7 }, () => ({ webhookIndex: 0 })))).toBe('7 attempts');
  });

  it('says nothing for a delivery without the due time (another reason, or a row from an earlier version)', () => {
    expect(pastWindowWords({ attempts: 3, firstAttemptAt: 1 }, false)).toBeNull();
    expect(pastWindowClause({ attempts: 3, firstAttemptAt: 1 }, true)).toBeNull();
  });

  it('spans and ordinals', () => {
    expect([spanWords(45_000), spanWords(90_000), spanWords(12 * 60_000), spanWords(HOUR + 46 * 60_000), spanWords(4 * HOUR)]).toEqual(['45 s', '1 min 30 s', '12 min', '1 h 46 min', '4 h']);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 103].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd']);
  });
});
