import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATCH_UP_BOUND_MS, startSession } from '../../../renderer/src/app/session';
import { createApiClient } from '../../../renderer/src/api/client';
import { Listeners, type ConnectionState, type EventFrame, type Transport } from '../../../renderer/src/api/transport';
import { LIVE_FIRST_PAGE } from '../../../renderer/src/api/firstRequests';
import { LIVE_CAP, useLive } from '../../../renderer/src/stores/live';
import { useCatalog } from '../../../renderer/src/stores/catalog';
import { useEngine } from '../../../renderer/src/stores/engine';
import { useDetail } from '../../../renderer/src/stores/detail';
import { useSecrets } from '../../../renderer/src/stores/secrets';
import { useHistory } from '../../../renderer/src/features/history/historyStore';
import { HISTORY_PAGE } from '../../../renderer/src/lib/historyQuery';

/** A transport that answers every call at once, and whose connection the test opens and closes. */
function fakeTransport() {
  const calls: { name: string; input: unknown }[] = [];
  const states = new Listeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  const answer = (name: string): unknown => {
    if (name === 'listMessages') return { items: [], nextCursor: null };
    if (name.startsWith('list')) return { items: [] };
    if (name === 'getOverview') return { clock: { now: 0, offsetMs: 0 }, paused: false };
    if (name === 'getClock') return { now: 0, offsetMs: 0, jump: null, fastForward: false };
    if (name === 'getMessage') return { message: { id: 7 } };
    return {};
  };
  const transport: Transport = {
    kind: 'http',
    call: (name, input) => {
      calls.push({ name, input });
      return Promise.resolve({ ok: true, value: answer(name) });
    },
    subscribe: (_listener: (batch: EventFrame) => void) => () => {},
    connectionState: () => state,
    onConnectionChange: (listener) => states.add(listener),
    close: () => {},
  };
  const set = (next: ConnectionState) => {
    state = next;
    states.emit(next);
  };
  return { transport, calls, set };
}

const pages = (calls: { name: string; input: unknown }[]) =>
  calls.filter((c) => c.name === 'listMessages').map((c) => (c.input as { limit: number }).limit);

describe('a session', () => {
  afterEach(() => {
    vi.useRealTimers();
    useLive.setState({ rows: [], loaded: false });
    useCatalog.setState({ loaded: false });
    useEngine.setState({ overview: null });
    useDetail.setState({ id: null, detail: null });
    useSecrets.setState({ values: {} });
    useHistory.setState({ key: null, rows: [] });
  });

  it('reads what it shows again once the event socket first opens: what was answered before it may have missed events', async () => {
    const { transport, calls, set } = fakeTransport();
    const stop = startSession(createApiClient(transport, () => {}));
    useDetail.getState().open(7);
    await vi.waitFor(() => expect(useLive.getState().loaded).toBe(true));
    await vi.waitFor(() => expect(useEngine.getState().overview).not.toBeNull());
    const before = calls.length;
    expect(pages(calls)).toEqual([LIVE_FIRST_PAGE]);

    // A secret revealed before the socket opened is read after it: it stays shown.
    useSecrets.setState({ values: { 'source:src_1': 'wk_backend' } });
    set('open');
    // After the first answers: Live's first page, the overview, the catalog and the open message, again.
    await vi.waitFor(() => expect(pages(calls.slice(before))).toEqual([LIVE_FIRST_PAGE]));
    const again = calls.slice(before).map((c) => c.name);
    expect(again).toEqual(expect.arrayContaining(['getOverview', 'listDestinations', 'getMessage']));
    expect(useSecrets.getState().values).toEqual({ 'source:src_1': 'wk_backend' });

    // A reconnect (events were missed while away) reads Live's whole window again, at once.
    const reopened = calls.length;
    set('closed');
    set('open');
    expect(pages(calls.slice(reopened))).toEqual([LIVE_CAP]);
    // After time away a secret may have changed: it is shown again only when asked.
    expect(useSecrets.getState().values).toEqual({});
    stop();
  });

  it("reads History's page again too, on the catch-up after the first open and on a reconnect, keeping its rows in place", async () => {
    const { transport, calls, set } = fakeTransport();
    // The server's page says message 2 has failed since; the list holds it as retrying, and message 1 below it.
    const summary = (id: number, status: string) => ({ id, status });
    const answer = transport.call;
    transport.call = (name, input) => {
      if (name !== 'listMessages' || (input as { status?: string }).status !== 'failed') return answer(name, input);
      calls.push({ name, input });
      return Promise.resolve({ ok: true, value: { items: [summary(2, 'failed')], nextCursor: null } });
    };
    const stop = startSession(createApiClient(transport, () => {}));
    useHistory.getState().show({ status: 'failed' });
    await vi.waitFor(() => expect(useHistory.getState().loaded).toBe(true));
    useHistory.setState({ rows: [summary(2, 'retrying'), summary(1, 'failed')] as never });
    const history = (from: number) => calls.slice(from).filter((c) => c.name === 'listMessages' && (c.input as { status?: string }).status === 'failed').map((c) => c.input);
    const before = calls.length;
    set('open');
    await vi.waitFor(() => expect(history(before)).toEqual([{ status: 'failed', limit: HISTORY_PAGE }]));
    await vi.waitFor(() => expect(useHistory.getState().rows).toEqual([summary(2, 'failed'), summary(1, 'failed')]));
    const reopened = calls.length;
    set('closed');
    set('open');
    expect(history(reopened)).toEqual([{ status: 'failed', limit: HISTORY_PAGE }]);
    stop();
  });

  it('waits for the first answers no longer than its bound before it reads again', async () => {
    vi.useFakeTimers();
    const { transport, calls, set } = fakeTransport();
    // The first answers never come.
    transport.call = (name, input) => {
      calls.push({ name, input });
      return new Promise(() => {});
    };
    const stop = startSession(createApiClient(transport, () => {}));
    set('open');
    const before = calls.length;
    await vi.advanceTimersByTimeAsync(CATCH_UP_BOUND_MS - 1);
    expect(calls.length).toBe(before);
    // The bound, then the next turn (it reads after the first paint, which here is none).
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(pages(calls.slice(before))).toEqual([LIVE_FIRST_PAGE]);
    stop();
  });
});
