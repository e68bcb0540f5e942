import { describe, expect, it, vi } from 'vitest';
import type { MessageSummary } from '../../../main/contract/messages';
import { applyUpdates, LIVE_CAP, mergeNewest, useLive } from '../../../renderer/src/stores/live';
import { createEventPump } from '../../../renderer/src/stores/eventPump';
import { OVERVIEW_EVERY_MS, useEngine } from '../../../renderer/src/stores/engine';
import { setApi } from '../../../renderer/src/api/instance';
import { LIVE_FIRST_PAGE } from '../../../renderer/src/api/firstRequests';
import type { ApiClient } from '../../../renderer/src/api/client';

const row = (id: number, patch: Partial<MessageSummary> = {}): MessageSummary => ({
  id,
  messageId: `m${id}`,
  type: 'track',
  sourceId: null,
  userId: 'u1',
  anonymousId: null,
  event: 'Signed Up',
  status: 'queued',
  statusReason: null,
  receivedAt: id,
  replayOf: null,
  bytes: 100,
  attempts: 0,
  webhookAttempts: 0,
  nextAttemptAt: null,
  destinationIds: [],
  deliveries: [],
  ...patch,
});

describe('the Live store', () => {
  it('keeps the newest first, without duplicates, capped', () => {
    expect(mergeNewest([row(5), row(4)], [row(3), row(2)]).map((r) => r.id)).toEqual([5, 4, 3, 2]);
    expect(mergeNewest([row(3, { status: 'delivered' })], [row(4), row(3), row(2)]).map((r) => [r.id, r.status])).toEqual([
      [4, 'queued'],
      [3, 'delivered'],
      [2, 'queued'],
    ]);
    const many = Array.from({ length: LIVE_CAP }, (_, i) => row(LIVE_CAP - i));
    const merged = mergeNewest([row(LIVE_CAP + 1)], many);
    expect(merged).toHaveLength(LIVE_CAP);
    expect(merged[0]!.id).toBe(LIVE_CAP + 1);
  });

  it('marks a row and its destination\'s chip delivering when an attempt starts, until the message\'s next update', () => {
    const delivery = (destinationId: string, status: 'retrying' | 'delivered') => ({
      destinationId,
      destinationName: destinationId,
      status,
      reason: null,
      attempts: 1,
      webhookAttempts: 1,
      nextAttemptAt: status === 'retrying' ? 5_000 : null,
      lastOutcome: status === 'retrying' ? ('http_error' as const) : ('success' as const),
      lastStatusCode: status === 'retrying' ? 503 : 200,
    });
    const waiting = row(7, { status: 'retrying', nextAttemptAt: 5_000, deliveries: [delivery('billing', 'retrying'), delivery('orders', 'delivered')] });
    useLive.setState({ rows: [row(9), row(8), waiting, row(6)], held: [], streamPaused: false });
    const started = { type: 'attemptStarted' as const, deliveryId: 70, messageId: 7, destinationId: 'billing', attemptNumber: 2, webhookIndex: 0, url: 'http://h/x', startedAt: 5_000 };
    useLive.getState().apply([started]);
    const shown = useLive.getState().rows.find((r) => r.id === 7)!;
    expect(shown.status).toBe('delivering');
    expect(shown.deliveries.map((d) => [d.destinationId, d.status, d.nextAttemptAt])).toEqual([
      ['billing', 'delivering', null],
      ['orders', 'delivered', null],
    ]);
    // The update that follows the attempt wins; an attempt started after an update marks it again.
    const finished = { type: 'messageUpdated' as const, message: row(7, { status: 'delivered', deliveries: [delivery('billing', 'delivered'), delivery('orders', 'delivered')] }) };
    useLive.getState().apply([started, finished]);
    expect(useLive.getState().rows.find((r) => r.id === 7)!.status).toBe('delivered');
    useLive.getState().apply([finished, started]);
    expect(useLive.getState().rows.find((r) => r.id === 7)!.status).toBe('delivering');
    // A message not listed is left alone, and the other rows keep their identity.
    const before = useLive.getState().rows;
    useLive.getState().apply([{ ...started, messageId: 42 }]);
    expect(useLive.getState().rows).toEqual(before);
  });

  it('applies updates in place and returns the same array when none matches', () => {
    const rows = [row(2), row(1)];
    expect(applyUpdates(rows, new Map([[9, row(9)]]))).toBe(rows);
    expect(applyUpdates(rows, new Map([[1, row(1, { status: 'failed' })]]))[1]!.status).toBe('failed');
  });

  it('holds new messages while the stream is paused, keeps updating shown rows, and shows them on resume', () => {
    useLive.setState({ rows: [row(1)], held: [], streamPaused: false });
    useLive.getState().setStreamPaused(true);
    useLive.getState().apply([
      { type: 'messageAccepted', message: row(2) },
      { type: 'messageUpdated', message: row(1, { status: 'delivered' }) },
    ]);
    expect(useLive.getState().rows.map((r) => [r.id, r.status])).toEqual([[1, 'delivered']]);
    expect(useLive.getState().held.map((r) => r.id)).toEqual([2]);
    useLive.getState().setStreamPaused(false);
    expect(useLive.getState().rows.map((r) => r.id)).toEqual([2, 1]);
  });

  it('marks a held row delivering when an attempt starts while the stream is paused, as it marks a shown one', () => {
    const waiting = (id: number) => row(id, { status: 'retrying', deliveries: [{ destinationId: 'd1', destinationName: 'one', status: 'retrying', reason: null, attempts: 1, webhookAttempts: 1, nextAttemptAt: 5, lastOutcome: null, lastStatusCode: null }] });
    useLive.setState({ rows: [waiting(1)], held: [], streamPaused: true });
    useLive.getState().apply([{ type: 'messageAccepted', message: waiting(2) }]);
    useLive.getState().apply([
      { type: 'attemptStarted', deliveryId: 2, messageId: 2, destinationId: 'd1', attemptNumber: 2, webhookIndex: 0, url: 'http://x/h', startedAt: 6 },
      { type: 'attemptStarted', deliveryId: 1, messageId: 1, destinationId: 'd1', attemptNumber: 2, webhookIndex: 0, url: 'http://x/h', startedAt: 6 },
    ]);
    const { rows, held } = useLive.getState();
    expect(rows.map((r) => [r.id, r.status, r.deliveries[0]!.status])).toEqual([[1, 'delivering', 'delivering']]);
    expect(held.map((r) => [r.id, r.status, r.deliveries[0]!.status])).toEqual([[2, 'delivering', 'delivering']]);
    useLive.getState().setStreamPaused(false);
    expect(useLive.getState().rows.map((r) => [r.id, r.status])).toEqual([[2, 'delivering'], [1, 'delivering']]);
  });
});

describe('the event pump', () => {
  it('applies a burst as one batch after ~100 ms, and resyncs at once when the server dropped events', () => {
    vi.useFakeTimers();
    const applied: number[] = [];
    const resync = vi.fn();
    const pump = createEventPump((events) => applied.push(events.length), resync);
    for (let i = 0; i < 500; i++) pump.push({ events: [{ type: 'messageAccepted', message: row(i) }], dropped: 0 });
    expect(applied).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(applied).toEqual([500]);
    pump.push({ events: [{ type: 'messageAccepted', message: row(1) }], dropped: 12 });
    expect(applied).toEqual([500, 1]);
    expect(resync).toHaveBeenCalledOnce();
    pump.close();
    vi.useRealTimers();
  });
});

describe('the Live store and the engine store follow pushed events', () => {
  it('a resync answered after newer events keeps those events: a page read mid-jump does not put a settled row back to delivering', async () => {
    useLive.setState({ rows: [row(1, { status: 'delivering', attempts: 7 })], held: [], streamPaused: false });
    let answer!: (value: unknown) => void;
    setApi({ call: () => new Promise((resolve) => (answer = resolve)), subscribe: () => () => {} } as unknown as ApiClient);
    const loading = useLive.getState().load({ resync: true });
    // The jump's last events arrive while the page is on its way; the page was read before them.
    useLive.getState().apply([{ type: 'messageUpdated', message: row(1, { status: 'failed', attempts: 8 }) }]);
    answer({ ok: true, value: { items: [row(1, { status: 'delivering', attempts: 7 }), row(0)], nextCursor: null } });
    await loading;
    expect(useLive.getState().rows.map((r) => [r.id, r.status, r.attempts])).toEqual([
      [1, 'failed', 8],
      [0, 'queued', 0],
    ]);
  });

  it('refreshes the counters at once when events arrive, and at most every 400 ms after that', async () => {
    vi.useFakeTimers();
    try {
      const calls: string[] = [];
      setApi({
        call: (name: string) => {
          calls.push(name);
          return Promise.resolve({ ok: false, error: { code: 'internal', message: 'not needed' } });
        },
        subscribe: () => () => {},
      } as unknown as ApiClient);
      const overviews = () => calls.filter((c) => c === 'getOverview').length;
      const event = { type: 'forwardingChanged', paused: false } as const;
      useEngine.getState().apply([event]);
      expect(overviews()).toBe(1);
      useEngine.getState().apply([event]);
      useEngine.getState().apply([event]);
      expect(overviews()).toBe(1);
      await vi.advanceTimersByTimeAsync(OVERVIEW_EVERY_MS);
      expect(overviews()).toBe(2);
      await vi.advanceTimersByTimeAsync(OVERVIEW_EVERY_MS * 3);
      expect(overviews()).toBe(2);
      useEngine.getState().apply([event]);
      expect(overviews()).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the Live list holds what the docs promise', () => {
  it('the newest 500 messages: as many after a long session of pushed messages as a reload loads, paused or not', async () => {
    expect(LIVE_CAP).toBe(500);
    const pages: number[] = [];
    const stored = Array.from({ length: 2000 }, (_, i) => row(2000 - i));
    setApi({
      // Cursor pages as the server answers them: the ids below the cursor, newest first.
      call: (name: string, input: { limit: number; cursor?: string }) => {
        pages.push(input.limit);
        const below = input.cursor === undefined ? stored : stored.filter((m) => m.id < Number(input.cursor));
        const items = below.slice(0, input.limit);
        return Promise.resolve({ ok: true, value: { items, nextCursor: below.length > input.limit ? String(items.at(-1)!.id) : null } });
      },
      subscribe: () => () => {},
    } as unknown as ApiClient);
    useLive.setState({ rows: [], held: [], streamPaused: false });
    await useLive.getState().load();
    expect(useLive.getState().rows).toHaveLength(500);
    expect(useLive.getState().rows.map((r) => r.id)).toEqual(Array.from({ length: 500 }, (_, i) => 2000 - i));
    // A screenful first, the rest of the 500 after it is painted.
    expect(pages).toEqual([LIVE_FIRST_PAGE, 500 - LIVE_FIRST_PAGE]);
    // A session goes on: 1,200 more messages arrive by event, a batch at a time.
    for (let batch = 0; batch < 12; batch++) {
      useLive.getState().apply(Array.from({ length: 100 }, (_, i) => ({ type: 'messageAccepted' as const, message: row(2001 + batch * 100 + i) })));
    }
    const rows = useLive.getState().rows;
    expect(rows).toHaveLength(500);
    expect([rows[0]!.id, rows.at(-1)!.id]).toEqual([3200, 2701]);
    // Paused, the held messages are bounded too, and resuming shows the same newest 500.
    useLive.getState().setStreamPaused(true);
    useLive.getState().apply(Array.from({ length: 700 }, (_, i) => ({ type: 'messageAccepted' as const, message: row(3201 + i) })));
    expect(useLive.getState().held).toHaveLength(500);
    useLive.getState().setStreamPaused(false);
    expect(useLive.getState().rows.map((r) => r.id)).toEqual(Array.from({ length: 500 }, (_, i) => 3900 - i));
  });
});

describe('Reset offset and the times the renderer holds', () => {
  const waiting = (id: number, at: number) =>
    row(id, {
      status: 'retrying',
      nextAttemptAt: at,
      deliveries: [{ destinationId: 'd1', destinationName: 'D1', status: 'retrying', reason: null, attempts: 1, webhookAttempts: 1, nextAttemptAt: at, lastOutcome: 'http_error', lastStatusCode: 500 }],
    });
  const reset = (byMs: number) => ({ type: 'clockAdvanced' as const, clock: { now: 0, offsetMs: 0 }, byMs });

  it('moves every waiting next attempt back by the offset a reset took away, but not the times of updates pushed after it (already moved by the server), nor a delivered row', () => {
    useLive.setState({ rows: [waiting(3, 200_000), row(2, { status: 'delivered' }), waiting(1, 100_000)], held: [waiting(4, 300_000)], streamPaused: false });
    // Message 1's update before the reset still carries the old time; message 3's after it the new one.
    useLive.getState().apply([{ type: 'messageUpdated', message: waiting(1, 110_000) }, reset(-60_000), { type: 'messageUpdated', message: waiting(3, 150_000) }]);
    const { rows, held } = useLive.getState();
    expect(rows.map((r) => [r.id, r.nextAttemptAt, r.deliveries[0]?.nextAttemptAt ?? null])).toEqual([
      [3, 150_000, 150_000],
      [2, null, null],
      [1, 50_000, 50_000],
    ]);
    expect(held[0]!.nextAttemptAt).toBe(240_000);
    // A forward move (byMs > 0) moves nothing: due times stay where they are and the clock moves to them.
    useLive.getState().apply([reset(60_000)]);
    expect(useLive.getState().rows[2]!.nextAttemptAt).toBe(50_000);
  });
});

describe("a message this window just made (Compose's send, a Replay)", () => {
  it('is added from the answer, but never over the newer row its events already brought', () => {
    useLive.setState({ rows: [row(1)], held: [], streamPaused: false });
    const delivered = row(2, { status: 'delivered', attempts: 1, webhookAttempts: 3 });
    useLive.getState().apply([{ type: 'messageAccepted', message: row(2) }, { type: 'messageUpdated', message: delivered }]);
    // The sendMessage answer comes after the round's update: it says queued, with no attempt.
    useLive.getState().addNew(row(2));
    expect(useLive.getState().rows.find((r) => r.id === 2)).toEqual(delivered);
    useLive.getState().addNew(row(3));
    expect(useLive.getState().rows.map((r) => r.id)).toEqual([3, 2, 1]);
  });
});
