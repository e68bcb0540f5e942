import { describe, expect, it, vi } from 'vitest';
import type { MessagePage, MessageSummary } from '../../../main/contract/messages';
import type { ApiClient } from '../../../renderer/src/api/client';
import { setApi } from '../../../renderer/src/api/instance';
import type { DiagnosticCheck } from '../../../main/contract/diagnostics';
import { EXPORT_BOUNDS, exportLeftOut, summariseBulk } from '../../../renderer/src/features/history/bulk';
import { filterKey, filterQueryOf, localDateTimeMs, parseFilterQuery, toLocalDateTime } from '../../../renderer/src/lib/historyQuery';
import { HISTORY_PAGE, mayMatch, rangeOf, surelyMatches, useHistory } from '../../../renderer/src/features/history/historyStore';
import { retentionBound } from '../../../renderer/src/features/history/RetentionBar';
import { readSavedFilters, saveFilter, SAVED_FILTERS_KEY, writeSavedFilters } from '../../../renderer/src/features/history/savedFilters';
import { byUrgency, evidenceHash, groupBySubject } from '../../../renderer/src/features/troubleshoot/evidence';

describe('History filter in the hash', () => {
  it('reads every listMessages filter from the query, and names bad values instead of dropping them silently', () => {
    const parsed = parseFilterQuery({ status: 'failed', type: 'track', sourceId: 's1', destinationId: 'd1', userId: 'ada', event: 'Order Completed', text: 'zanzibar', from: '2026-11-22T09:30', to: '2026-11-22T10:00', other: 'x' });
    expect(parsed.errors).toEqual({});
    expect(parsed.filter).toEqual({
      status: 'failed',
      type: 'track',
      sourceId: 's1',
      destinationId: 'd1',
      userId: 'ada',
      event: 'Order Completed',
      text: 'zanzibar',
      from: new Date('2026-11-22T09:30').getTime(),
      // To includes the minute it shows: listMessages' `to` is exclusive.
      to: new Date('2026-11-22T10:01').getTime(),
    });
    const bad = parseFilterQuery({ status: 'lost', type: 'shout', from: 'yesterday', userId: 'x'.repeat(1001), event: 'ok' });
    expect(bad.filter).toEqual({ event: 'ok' });
    expect(bad.errors).toEqual({
      status: '"lost" is not a status (one of filtered, queued, delivering, retrying, delivered, failed, cancelled)',
      type: '"shout" is not a type (one of track, page, screen, identify, group, alias, delete)',
      from: '"yesterday" is not a date and time (like 2026-11-22T09:30)',
      userId: 'at most 1,000 characters (this is 1,001)',
    });
    // From after To: To is named and left out.
    expect(parseFilterQuery({ from: '2026-11-23', to: '2026-11-22' })).toEqual({ filter: { from: new Date('2026-11-23T00:00').getTime() }, errors: { to: 'must be after From' } });
    // From and To the same minute: that whole minute.
    expect(parseFilterQuery({ from: '2026-11-22T07:31', to: '2026-11-22T07:31' }).filter).toEqual({ from: new Date('2026-11-22T07:31').getTime(), to: new Date('2026-11-22T07:32').getTime() });
    // A precise To (a counter's filter) is taken as it is.
    expect(parseFilterQuery({ to: '2026-11-22T07:31:05.250' }).filter).toEqual({ to: new Date('2026-11-22T07:31:05.250').getTime() });
  });

  it("reads the Traffic filter: a check run's own messages only when the query says origin=check, and names a value it does not know", () => {
    expect(parseFilterQuery({ origin: 'check' })).toEqual({ filter: { origin: 'check' }, errors: {} });
    expect(parseFilterQuery({ origin: 'robots' })).toEqual({ filter: {}, errors: { origin: '"robots" is not a kind of traffic (check; leave it empty for yours)' } });
  });

  it('round-trips local date-times, keeps only its own keys, and keys a filter stably', () => {
    const ms = localDateTimeMs('2026-03-07T08:05')!;
    expect(toLocalDateTime(ms)).toBe('2026-03-07T08:05');
    expect(localDateTimeMs('2026-13-45T99:99')).toBeNull();
    expect(filterQueryOf({ userId: 'ada', status: '', refusal: '3' })).toEqual({ userId: 'ada' });
    expect(filterKey({ userId: 'ada', status: 'failed' })).toBe(filterKey({ status: 'failed', userId: 'ada' }));
    expect(filterKey({ userId: 'ada' })).not.toBe(filterKey({ event: 'ada' }));
  });
});

describe('History selection and actions', () => {
  const rows = [{ id: 9 }, { id: 7 }, { id: 5 }, { id: 4 }, { id: 2 }];
  it('selects a shift-click range either way round, or just the row without an anchor', () => {
    expect(rangeOf(rows, 7, 4)).toEqual([7, 5, 4]);
    expect(rangeOf(rows, 2, 7)).toEqual([7, 5, 4, 2]);
    expect(rangeOf(rows, null, 5)).toEqual([5]);
    expect(rangeOf(rows, 100, 5)).toEqual([5]);
    expect(rangeOf(rows, 7, 100)).toEqual([]);
  });

  it('sums up many commands with their counts, messages and deliveries, naming the first refusal', () => {
    const ok = (deliveries: number) => ({ ok: true as const, value: { deliveries: Array.from({ length: deliveries }, () => ({})) } });
    const conflict = (m: string) => ({ ok: false as const, error: { code: 'conflict' as const, message: m } });
    expect(summariseBulk('retry', [{ id: 1, result: ok(2) }, { id: 2, result: ok(1) }])).toEqual({ tone: 'success', title: 'Retried 2 messages', message: '3 deliveries sent again now.' });
    expect(summariseBulk('cancel', [{ id: 1, result: ok(1) }, { id: 2, result: conflict('nothing to cancel') }, { id: 3, result: conflict('x') }])).toEqual({
      tone: 'error',
      title: 'Cancelled 1 message; 2 could not be cancelled',
      message: '1 delivery will not be retried. message #2: nothing to cancel (and 1 more)',
    });
    expect(summariseBulk('replay', [{ id: 4, result: conflict('gone') }]).title).toBe('1 message could not be replayed');
  });
});

describe('saved filters', () => {
  const memory = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
  };
  it('saves by name (replacing the same name), sorted, and reads back what was written; damage reads as none', () => {
    const storage = memory();
    let saved = saveFilter([], '  Failed orders ', { status: 'failed', event: 'Order Completed' });
    expect(saved).toEqual({ ok: true, list: [{ name: 'Failed orders', query: { status: 'failed', event: 'Order Completed' } }] });
    saved = saveFilter(saved.ok ? saved.list : [], 'Ada', { userId: 'ada' });
    saved = saveFilter(saved.ok ? saved.list : [], 'Failed orders', { status: 'failed' });
    expect(saved.ok && saved.list.map((f) => [f.name, f.query])).toEqual([
      ['Ada', { userId: 'ada' }],
      ['Failed orders', { status: 'failed' }],
    ]);
    expect(writeSavedFilters(storage, saved.ok ? saved.list : [])).toBeNull();
    expect(readSavedFilters(storage)).toEqual(saved.ok && saved.list);
    storage.data.set(SAVED_FILTERS_KEY, '{broken');
    expect(readSavedFilters(storage)).toEqual([]);
    storage.data.set(SAVED_FILTERS_KEY, JSON.stringify([{ name: 'ok', query: {} }, { name: 3 }, null]));
    expect(readSavedFilters(storage)).toEqual([{ name: 'ok', query: {} }]);
  });
  it('refuses an empty name, a long one and an empty filter, saying which', () => {
    expect(saveFilter([], ' ', { userId: 'a' })).toEqual({ ok: false, error: 'Name: give the filter a name' });
    expect(saveFilter([], 'x'.repeat(61), { userId: 'a' })).toEqual({ ok: false, error: 'Name: at most 60 characters (this is 61)' });
    expect(saveFilter([], 'All', {})).toEqual({ ok: false, error: 'Set a filter first: there is nothing to save' });
  });
});

describe('Troubleshoot evidence', () => {
  it('opens each kind of evidence where it lives', () => {
    expect(evidenceHash({ kind: 'message', label: '', messageId: 4 })).toBe('#/live/4');
    expect(evidenceHash({ kind: 'signature', label: '', messageId: 4, attemptId: 9 })).toBe('#/live/4/attempt/9');
    expect(evidenceHash({ kind: 'destination', label: '', destinationId: 'd 1' })).toBe('#/destinations/d%201');
    expect(evidenceHash({ kind: 'source', label: '', sourceId: 's1' })).toBe('#/sources/s1');
    expect(evidenceHash({ kind: 'ingestLog', label: '', refusalId: 3 })).toBe('#/sources?refusal=3');
    expect(evidenceHash({ kind: 'history', label: '', filter: { status: 'retrying' } })).toBe('#/history?status=retrying');
    expect(evidenceHash({ kind: 'capture', label: '', receiver: 'orders', captureId: 12 })).toBe('#/receiver/orders/capture/12');
    expect(evidenceHash({ kind: 'capture', label: '', receiver: null, captureId: 12 })).toBe('#/receiver');
    expect(evidenceHash({ kind: 'url', label: '', url: 'http://x/v1/batch' })).toBeNull();
  });

  it('puts problems first, and groups by subject with the workbench-wide checks first', () => {
    const c = (id: string, state: DiagnosticCheck['state'], subject: string | null): DiagnosticCheck => ({ id, state, subject, section: 'not-delivered', rule: id, title: id, detail: '', evidence: [] });
    const checks = [c('a', 'ok', 'A'), c('b', 'warning', 'B'), c('g', 'ok', null), c('a2', 'problem', 'A'), c('b2', 'ok', 'B')];
    expect(byUrgency(checks).map((x) => x.id)).toEqual(['a2', 'b', 'a', 'g', 'b2']);
    expect(groupBySubject(checks).map((g) => [g.subject, g.checks.map((x) => x.id)])).toEqual([
      [null, ['g']],
      ['A', ['a2', 'a']],
      ['B', ['b', 'b2']],
    ]);
  });
});

/** A client answering listMessages from a list of pages, one a call; it records each call's input. */
function pagedApi(pages: MessagePage[]) {
  const inputs: Record<string, unknown>[] = [];
  setApi({
    call: async (name: string, input: Record<string, unknown>) => {
      if (name !== 'listMessages') throw new Error(`unexpected ${name}`);
      inputs.push(input);
      return { ok: true, value: pages.shift() ?? { items: [], nextCursor: null } };
    },
    subscribe: () => () => {},
  } as unknown as ApiClient);
  return inputs;
}

const summary = (id: number, messageId = `m-${id}`) => ({ id, messageId, receivedAt: id }) as MessageSummary;

describe('a body search while the history index catches up', () => {
  it('follows short pages by itself until a screenful is shown, then leaves the rest to scrolling', async () => {
    const inputs = pagedApi([
      { items: [], nextCursor: '900', searching: { left: 899 } },
      { items: [summary(880)], nextCursor: '700', searching: { left: 699 } },
      { items: Array.from({ length: HISTORY_PAGE }, (_, i) => summary(650 - i)), nextCursor: '400', searching: { left: 399 } },
      { items: [summary(10)], nextCursor: null },
    ]);
    useHistory.getState().show({ text: 'zanzibar' });
    await vi.waitFor(() => expect(useHistory.getState().rows.length).toBe(1 + HISTORY_PAGE));
    const state = useHistory.getState();
    expect(state.searching).toEqual({ left: 399 });
    expect(state.nextCursor).toBe('400');
    expect(inputs.map((i) => i['cursor'])).toEqual([undefined, '900', '700']);
    // Scrolling asks for the rest; a whole page ends the search.
    await state.loadMore();
    expect(useHistory.getState()).toMatchObject({ searching: null, nextCursor: null });
    expect(useHistory.getState().rows.at(-1)!.id).toBe(10);
  });
});

describe('an export that left messages out', () => {
  it('says which bound left them out: the count, or the size one import takes', () => {
    expect(exportLeftOut('count')).toBe('More matched: only the newest 10,000 are in it.');
    expect(exportLeftOut('size')).toBe('More matched: only the newest that fit in 16 MiB (what one import takes) are in it.');
    expect(exportLeftOut(null)).toBe('');
    expect(EXPORT_BOUNDS).toBe('the newest 10,000 at most, in 16 MiB of text');
  });
});

describe("History's list and the events after it was read", () => {
  it('counts as new only messages stored after its newest row (an import read again counts none), and reads again when retention removed messages', async () => {
    const inputs = pagedApi([{ items: [summary(12), summary(11), summary(10)], nextCursor: null }, { items: [summary(12), summary(11)], nextCursor: null }]);
    useHistory.getState().show({ type: 'track' }, { force: true });
    await vi.waitFor(() => expect(useHistory.getState().loaded).toBe(true));
    const accepted = (id: number) => ({ type: 'messageAccepted' as const, message: { ...summary(id), type: 'track' as const } });
    useHistory.getState().apply([accepted(11), accepted(12), accepted(13)]);
    expect(useHistory.getState().arrived).toBe(1);
    useHistory.getState().apply([{ type: 'messagesRemoved', count: 1 }]);
    await vi.waitFor(() => expect(useHistory.getState().rows.map((r) => r.id)).toEqual([12, 11]));
    expect(inputs).toHaveLength(2);
    expect(useHistory.getState().arrived).toBe(0);
  });

  it("counts no arrival that cannot match the filter (another type, source, user, destination or event), and says when one may not", () => {
    const m = { ...summary(20), type: 'track' as const, sourceId: 's1', userId: 'ada', anonymousId: null, event: 'Paid', destinationIds: ['d1'], receivedAt: 1_000 };
    expect(mayMatch(m, { type: 'track', sourceId: 's1', userId: 'ada', event: 'Paid', destinationId: 'd1', from: 1_000, to: 1_000 })).toBe(true);
    for (const f of [{ type: 'page' as const }, { sourceId: 's2' }, { userId: 'bob' }, { event: 'Refunded' }, { destinationId: 'd2' }, { from: 1_001 }, { to: 999 }, { origin: 'check' as const }]) {
      expect(mayMatch(m, f), JSON.stringify(f)).toBe(false);
    }
    // Its status, deliveries and body change or are the server's to read: a message may still come to match.
    expect(mayMatch(m, { status: 'failed' })).toBe(true);
    expect(surelyMatches({ status: 'failed' })).toBe(false);
    expect(surelyMatches({ text: 'order' })).toBe(false);
    expect(surelyMatches({ type: 'track', userId: 'ada' })).toBe(true);
  });
});

describe("History's rows while another screen is shown", () => {
  it('follow messageUpdated events pushed after the list was shown, with no History view mounted: a failed row that was retried reads delivered', async () => {
    const listeners: ((batch: { events: unknown[] }) => void)[] = [];
    setApi({
      call: async () => ({ ok: true, value: { items: [{ ...summary(31), status: 'failed' }], nextCursor: null } }),
      subscribe: (listener: (batch: { events: unknown[] }) => void) => {
        listeners.push(listener);
        return () => listeners.splice(listeners.indexOf(listener), 1);
      },
    } as unknown as ApiClient);
    useHistory.getState().show({ userId: 'following' });
    await vi.waitFor(() => expect(useHistory.getState().rows.map((r) => r.status)).toEqual(['failed']));
    // Shown again later (same filter): still one subscription, not one per visit.
    useHistory.getState().show({ userId: 'following' });
    expect(listeners).toHaveLength(1);
    for (const l of listeners) l({ events: [{ type: 'messageUpdated', message: { ...summary(31), status: 'delivered' } }] });
    expect(useHistory.getState().rows.map((r) => r.status)).toEqual(['delivered']);
  });
});

describe('the Retention form', () => {
  it('counts a bound in its unit, one or many: "at least 1 day", not "1 days"', () => {
    expect(retentionBound(0, { min: 1, max: 3650 }, 'day')).toBe('must be at least 1 day (got 0)');
    expect(retentionBound(4000, { min: 1, max: 3650 }, 'day')).toBe('must be at most 3,650 days (got 4,000)');
    expect(retentionBound(50, { min: 100, max: 1e8 }, 'message')).toBe('must be at least 100 messages (got 50)');
    expect(retentionBound(30, { min: 1, max: 3650 }, 'day')).toBeUndefined();
  });
});
