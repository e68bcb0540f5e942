import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../../main/contract/events.js';
import { createEventBatcher } from '../../../main/server/eventBatcher.js';
import type { EventFrame } from '../../../main/contract/events.js';

const clockEvent = (i: number): EngineEvent => ({ type: 'clockAdvanced', clock: { now: i, offsetMs: 0 }, byMs: i });

describe('event batcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const setup = (maxPerFlush = 2000) => {
    const frames: EventFrame[] = [];
    const batcher = createEventBatcher({ flushMs: 150, maxPerFlush, send: (f) => frames.push(f) });
    return { frames, batcher };
  };

  it('sends nothing until flushMs after the first event, then one frame with every event in order', () => {
    const { frames, batcher } = setup();
    for (let i = 0; i < 3; i++) batcher.push(clockEvent(i));
    vi.advanceTimersByTime(149);
    expect(frames).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(frames).toEqual([{ events: [clockEvent(0), clockEvent(1), clockEvent(2)] }]);
    expect(vi.getTimerCount()).toBe(0); // idle: no timer runs while nothing happens
  });

  it('turns a burst of 10,000 events into a few bounded frames that count what they dropped', () => {
    const { frames, batcher } = setup(2000);
    for (let i = 0; i < 10_000; i++) batcher.push(clockEvent(i));
    vi.advanceTimersByTime(150);
    expect(frames).toHaveLength(1);
    expect(frames[0]!.events).toHaveLength(2000);
    expect(frames[0]!.dropped).toBe(8000);
    // the newest events are the ones kept, still in order
    expect(frames[0]!.events[0]).toEqual(clockEvent(8000));
    expect(frames[0]!.events.at(-1)).toEqual(clockEvent(9999));

    // a burst spread over time: each frame stays within the cap and the counts add up
    frames.length = 0;
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 2000; i++) batcher.push(clockEvent(round * 2000 + i));
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(150);
    expect(frames.length).toBeLessThanOrEqual(3);
    for (const f of frames) expect(f.events.length).toBeLessThanOrEqual(2000);
    const delivered = frames.reduce((n, f) => n + f.events.length + (f.dropped ?? 0), 0);
    expect(delivered).toBe(10_000);
  });

  it('flush() sends at once; close() forgets what is pending and ignores later events', () => {
    const { frames, batcher } = setup();
    batcher.push(clockEvent(1));
    batcher.flush();
    expect(frames).toHaveLength(1);
    batcher.flush();
    expect(frames).toHaveLength(1); // nothing pending: nothing sent
    batcher.push(clockEvent(2));
    batcher.close();
    batcher.push(clockEvent(3));
    vi.advanceTimersByTime(1000);
    expect(frames).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a send that throws loses its frame, is reported, and the stream goes on', () => {
    const errors: unknown[] = [];
    const frames: EventFrame[] = [];
    let fail = true;
    const batcher = createEventBatcher({
      flushMs: 10,
      maxPerFlush: 10,
      send: (f) => {
        if (fail) throw new Error('Object has been destroyed');
        frames.push(f);
      },
      onSendError: (e) => errors.push(e),
    });
    batcher.push(clockEvent(1));
    vi.advanceTimersByTime(10);
    fail = false;
    batcher.push(clockEvent(2));
    vi.advanceTimersByTime(10);
    expect(errors).toEqual([new Error('Object has been destroyed')]);
    expect(frames).toEqual([{ events: [clockEvent(2)] }]);
  });
});
