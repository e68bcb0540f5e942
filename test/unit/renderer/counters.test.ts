import { defaultFilter } from 'cmdk';
import { describe, expect, it } from 'vitest';
import type { DeliverySummary } from '../../../main/contract/messages';
import { paletteActions } from '../../../renderer/src/app/paletteActions';
import { filterToQuery, parseFilterQuery } from '../../../renderer/src/lib/historyQuery';
import { describeDelivery, lastResult } from '../../../renderer/src/features/live/DeliveryChips';
import { historyQueryOf, liveCountText } from '../../../renderer/src/features/live/LiveToolbar';
import { sharesSecond } from '../../../renderer/src/features/live/MessageList';
import { attemptsWords } from '../../../renderer/src/features/live/MessageRow';
import { withModifier } from '../../../renderer/src/lib/platform';
import { parseStatusChoice, statusChoiceOptions, statusChoiceValue } from '../../../renderer/src/lib/statusFilter';
import { toastsFor, type Toast } from '../../../renderer/src/stores/toasts';

const delivery = (patch: Partial<DeliverySummary>): DeliverySummary => ({
  destinationId: 'd1',
  destinationName: 'Billing',
  status: 'retrying',
  reason: null,
  attempts: 2,
  webhookAttempts: 2,
  nextAttemptAt: 5,
  lastOutcome: 'http_error',
  lastStatusCode: 503,
  ...patch,
});

describe('counters and filters in the renderer', () => {
  it("a counter's filter goes to History's query and back to the same filter, to the millisecond", () => {
    const filter = { delivery: 'failed' as const, deliverySince: new Date(2026, 10, 26, 20, 13, 47, 123).getTime() };
    const query = filterToQuery(filter);
    expect(query).toEqual({ delivery: 'failed', deliverySince: '2026-11-26T20:13:47.123' });
    expect(parseFilterQuery(query)).toEqual({ filter, errors: {} });
    const failedSince = { failedSince: new Date(2026, 10, 26, 20, 13, 47, 123).getTime() };
    expect(filterToQuery(failedSince)).toEqual({ failedSince: '2026-11-26T20:13:47.123' });
    expect(parseFilterQuery(filterToQuery(failedSince))).toEqual({ filter: failedSince, errors: {} });
    expect(parseFilterQuery({ delivery: 'lost' }).errors.delivery).toMatch(/not a delivery status/);
    expect(parseFilterQuery({ deliverySince: '2026-11-26T20:13' }).errors.deliverySince).toMatch(/delivery status/);
  });

  it('the Status select holds a message status or "any delivery failed", one value each', () => {
    expect(statusChoiceOptions('any').map((o) => o.label)).toContain('any delivery failed');
    expect(parseStatusChoice(statusChoiceValue({ delivery: 'failed' }))).toEqual({ delivery: 'failed' });
    expect(parseStatusChoice(statusChoiceValue({ status: 'retrying' }))).toEqual({ status: 'retrying' });
    expect(parseStatusChoice('delivery:lost')).toBeNull();
    expect(historyQueryOf({ status: 'delivery:failed', type: 'track' })).toEqual({ delivery: 'failed', type: 'track' });
  });

  it('Live names what it holds: the newest N of everything stored', () => {
    expect(liveCountText(500, 500, 29_458, false)).toBe('newest 500 of 29,458');
    expect(liveCountText(12, 500, 29_458, true)).toBe('12 of the newest 500 of 29,458');
    expect(liveCountText(0, 306, 306, true)).toBe('0 of 306 messages');
    expect(liveCountText(306, 306, null, false)).toBe('306 messages');
  });

  it("a delivery chip says the last HTTP status, else what went wrong; its name says it in words", () => {
    expect(lastResult(delivery({}))).toBe('503');
    expect(lastResult(delivery({ status: 'failed', lastOutcome: 'tls_error', lastStatusCode: null }))).toBe('TLS');
    expect(lastResult(delivery({ status: 'queued', lastOutcome: null, lastStatusCode: null }))).toBe('–');
    expect(describeDelivery(delivery({ status: 'failed', reason: 'tls: self-signed certificate', lastOutcome: 'tls_error', lastStatusCode: null, attempts: 1, webhookAttempts: 1 }))).toBe(
      'Billing: failed (tls: self-signed certificate), last tls error, 1 attempt',
    );
  });

  it('a delivery chip and the Attempts cell count rounds and attempts as the detail card does when a round went to several webhooks', () => {
    const trio = delivery({ destinationName: 'Trio', status: 'delivered', lastOutcome: 'success', lastStatusCode: 200, attempts: 1, webhookAttempts: 3 });
    expect(describeDelivery(trio)).toBe('Trio: delivered, last HTTP 200, 1 round · 3 attempts');
    expect(describeDelivery(delivery({ attempts: 2, webhookAttempts: 2 }))).toBe('Billing: retrying, last HTTP 503, 2 attempts');
    expect(attemptsWords({ deliveries: [trio] })).toBe('1 round · 3 attempts');
    expect(attemptsWords({ deliveries: [trio, delivery({})] })).toBe('Trio: 1 round · 3 attempts; Billing: 2 attempts');
  });

  it('milliseconds show on rows that share their second with a neighbour only', () => {
    const rows = [{ receivedAt: 10_999 }, { receivedAt: 10_001 }, { receivedAt: 9_000 }];
    expect([0, 1, 2].map((i) => sharesSecond(rows, i))).toEqual([true, true, false]);
  });

  it('shortcuts name Ctrl on Linux and Windows, ⌘ on a Mac', () => {
    expect(withModifier('K', 'Linux x86_64')).toBe('Ctrl+K');
    expect(withModifier('K', 'Win32')).toBe('Ctrl+K');
    expect(withModifier('K', 'MacIntel')).toBe('⌘K');
  });

  it('"sig" in the palette finds the Signature panel first', () => {
    for (const openMessageId of [null, 42]) {
      const actions = paletteActions({ openMessageId, forwardingPaused: false, clockMoved: false, retryWaiting: true, hasIngestUrl: true });
      const ranked = actions.map((a) => ({ label: a.label, score: defaultFilter(a.label, 'sig', a.keywords) })).sort((a, b) => b.score - a.score);
      expect(ranked[0]!.label).toMatch(/^Signature panel/);
      expect(defaultFilter(ranked[0]!.label, 'verify', actions.find((a) => a.label === ranked[0]!.label)!.keywords)).toBeGreaterThan(0);
    }
  });

  it('a notice that is not an error shows only on the screen it was said on; errors stay everywhere', () => {
    const toasts: Toast[] = [
      { id: 1, tone: 'success', title: 'track sent', message: '', view: 'live' },
      { id: 2, tone: 'error', title: 'Send failed', message: '', view: 'live' },
    ];
    expect(toastsFor(toasts, 'live').map((t) => t.id)).toEqual([1, 2]);
    expect(toastsFor(toasts, 'compose').map((t) => t.id)).toEqual([2]);
  });
});
