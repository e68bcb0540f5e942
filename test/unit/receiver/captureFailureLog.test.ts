/**
 * The mock receiver could not store its captures on a full disk and said so once per request (240 lines in
 * 40 s). Now: one line, then at most one line a minute with the count, and one line when storing works again.
 */
import { describe, expect, it } from 'vitest';
import { CAPTURE_FAILURE_REPEAT_MS, CaptureFailureLog } from '../../../main/receiver/receiverCaptures.js';

describe('the mock receiver says captures it cannot store once, then counts them', () => {
  it('one line, a count at most once a minute, a line when a capture is stored again', () => {
    const lines: string[] = [];
    let now = Date.parse('2026-01-01T00:00:00Z');
    const log = new CaptureFailureLog({ line: (text) => lines.push(text), now: () => now });
    log.stored(); // nothing failed: nothing to say
    expect(lines).toEqual([]);
    // 240 failures in 40 s: one line.
    for (let i = 0; i < 240; i++, now += 166) log.failed('database or disk is full');
    expect(lines).toEqual(['hookbench receiver: could not store a capture: database or disk is full; requests are still answered, and further failures are counted (a line a minute at most)']);
    // The first failure past the minute says how many were not said.
    now = Date.parse('2026-01-01T00:01:00Z');
    log.failed('database or disk is full');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('hookbench receiver: could not store a capture: database or disk is full (240 more since the last line, 241 since 2026-01-01T00:00:00.000Z)');
    now += CAPTURE_FAILURE_REPEAT_MS - 1;
    log.failed('database or disk is full');
    expect(lines).toHaveLength(2);
    log.stored();
    expect(lines[2]).toBe('hookbench receiver: captures are stored again; 242 requests were answered without being captured since 2026-01-01T00:00:00.000Z');
    // Once said, the next failure is a first one again.
    log.stored();
    log.failed('database or disk is full');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/^hookbench receiver: could not store a capture: database or disk is full; /);
  });
});
