import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HookbenchBridge } from '../../../main/contract/bridge';
import type { MessageSummary } from '../../../main/contract/messages';
import type { Result } from '../../../main/contract/result';
import { createApiClient } from '../../../renderer/src/api/client';
import { callKey, chunksOf, FIRST_CALLS_FRESH_MS, firstCallsOf, LIVE_FIRST_PAGE, startFirstRequests, takeFirstCall, type FirstRequestsEnv } from '../../../renderer/src/api/firstRequests';
import { createHttpTransport } from '../../../renderer/src/api/httpTransport';
import { setApi } from '../../../renderer/src/api/instance';
import type { Transport } from '../../../renderer/src/api/transport';
import { HISTORY_PAGE, parseFilterQuery } from '../../../renderer/src/lib/historyQuery';
import { useHistory } from '../../../renderer/src/features/history/historyStore';
import { parseHash } from '../../../renderer/src/lib/hashRoute';
import { useCheck } from '../../../renderer/src/stores/check';
import { useDetail } from '../../../renderer/src/stores/detail';
import { useEngine } from '../../../renderer/src/stores/engine';
import { LIVE_CAP, useLive } from '../../../renderer/src/stores/live';

const row = (id: number) => ({ id, messageId: `m${id}`, status: 'delivered', deliveries: [] }) as unknown as MessageSummary;

/** A WebSocket stand-in: the test opens it and feeds it frames. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readonly OPEN = 1;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(data: string) {
    this.onmessage?.({ data });
  }
  close(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

/** The page at `hash` with a token in this tab's storage; what it sends, answered by `answer`. */
function page(hash: string, answer: (name: string, input: Record<string, unknown>) => unknown = () => ({ ok: true, value: {} })) {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  let now = 1_000;
  const env: FirstRequestsEnv = {
    location: { href: `http://127.0.0.1:4400/${hash}`, hash } as Location,
    storage: { getItem: () => 't0k', setItem: () => undefined } as unknown as Storage,
    fetch: (async (url: URL, init: RequestInit) => {
      const name = String(url).split('/api/')[1]!;
      const input = JSON.parse(String(init.body)) as Record<string, unknown>;
      expect((init.headers as Record<string, string>)['authorization']).toBe('Bearer t0k');
      sent.push({ name, input });
      return new Response(JSON.stringify(answer(name, input)));
    }) as unknown as typeof fetch,
    WebSocket: FakeSocket as unknown as typeof WebSocket,
    bridge: undefined,
    document: null,
    now: () => now,
  };
  return { env, sent, later: (ms: number) => (now += ms) };
}

/** The app's client over a transport that records what it is asked (what the page did not send already). */
function appClient() {
  const asked: { name: string; input: unknown }[] = [];
  const transport = {
    kind: 'http',
    call: async (name: string, input: unknown) => {
      asked.push({ name, input });
      if (name === 'listMessages') return { ok: true, value: { items: [row(1)], nextCursor: null } };
      return { ok: true, value: {} };
    },
    subscribe: () => () => {},
  } as unknown as Transport;
  setApi(createApiClient(transport, () => undefined));
  return asked;
}

afterEach(() => {
  FakeSocket.all = [];
  vi.useRealTimers();
});

describe("the page's first requests, sent before the app loads", () => {
  it('ask for what the landing screen and the top bar show first: a screenful of Live, the counters, the clock, the catalog', () => {
    expect(firstCallsOf(parseHash('#/live')).map((c) => [c.name, c.input])).toEqual([
      ['listMessages', { limit: LIVE_FIRST_PAGE }],
      ['getOverview', {}],
      ['getClock', {}],
      ['listDestinations', {}],
      ['listSources', {}],
      ['listReceivers', {}],
    ]);
    expect(LIVE_FIRST_PAGE).toBeLessThan(LIVE_CAP);
    // No route is Live; a message's link adds the message; History its first page; Check the run and the runs.
    expect(firstCallsOf(parseHash('')).map((c) => c.name)[0]).toBe('listMessages');
    expect(firstCallsOf(parseHash('#/live/42/attempt/7')).slice(0, 2)).toEqual([
      { name: 'listMessages', input: { limit: LIVE_FIRST_PAGE } },
      { name: 'getMessage', input: { id: 42 } },
    ]);
    expect(firstCallsOf(parseHash('#/history?status=failed&userId=ada&bogus=1'))[0]).toEqual({ name: 'listMessages', input: { status: 'failed', userId: 'ada', limit: HISTORY_PAGE } });
    expect(firstCallsOf(parseHash('#/check/7')).slice(0, 2).map((c) => [c.name, c.input])).toEqual([
      ['getCheckRun', { id: 7 }],
      ['listCheckRuns', { limit: 50 }],
    ]);
    expect(firstCallsOf(parseHash('#/compose')).map((c) => c.name)).toEqual(['getOverview', 'getClock', 'listDestinations', 'listSources', 'listReceivers']);
  });

  it('opens the event socket first, then sends them all at once with the token', async () => {
    const { env, sent } = page('#/live');
    startFirstRequests(env);
    expect(FakeSocket.all.map((s) => s.url)).toEqual(['ws://127.0.0.1:4400/api/events?token=t0k']);
    await vi.waitFor(() => expect(sent.map((s) => s.name)).toEqual(['listMessages', 'getOverview', 'getClock', 'listDestinations', 'listSources', 'listReceivers']));
    expect(sent[0]!.input).toEqual({ limit: LIVE_FIRST_PAGE });
  });

  it('without a token sends nothing (the app says how to get one)', () => {
    const { env, sent } = page('#/live');
    startFirstRequests({ ...env, storage: { getItem: () => null, setItem: () => undefined } as unknown as Storage });
    expect(FakeSocket.all).toEqual([]);
    expect(sent).toEqual([]);
    expect(takeFirstCall('getClock', {})).toBeNull();
  });

  it('serve the app once each, while fresh, whatever the order of the input keys', async () => {
    const { env, later } = page('#/history?userId=ada&status=failed', (name) => ({ ok: true, value: { name } }));
    startFirstRequests(env);
    expect(callKey('listMessages', { limit: HISTORY_PAGE, userId: 'ada', status: 'failed' })).toBe(callKey('listMessages', { status: 'failed', userId: 'ada', limit: HISTORY_PAGE }));
    expect(await takeFirstCall('listMessages', { limit: HISTORY_PAGE, userId: 'ada', status: 'failed' })).toEqual({ ok: true, value: { name: 'listMessages' } });
    expect(takeFirstCall('listMessages', { limit: HISTORY_PAGE, userId: 'ada', status: 'failed' })).toBeNull();
    expect(takeFirstCall('listMessages', { limit: HISTORY_PAGE })).toBeNull();
    later(FIRST_CALLS_FRESH_MS + 1);
    expect(takeFirstCall('getOverview', {})).toBeNull();
  });

  it('answer the stores as they ask, with no second request: Live (then the rest of its list), the top bar, History, a message, a check run', async () => {
    const answer = (name: string, input: Record<string, unknown>): Result<unknown> => {
      if (name === 'listMessages') return { ok: true, value: { items: Array.from({ length: Number(input['limit']) }, (_, i) => row(1000 - i)), nextCursor: '950' } };
      if (name === 'getOverview') return { ok: true, value: { clock: { now: 5, offsetMs: 0 }, paused: false } };
      if (name === 'getClock') return { ok: true, value: { now: 5, offsetMs: 0, jump: null, fastForward: false } };
      if (name === 'getMessage') return { ok: true, value: { message: { id: input['id'] } } };
      if (name === 'getCheckRun') return { ok: true, value: { id: input['id'], status: 'finished', checks: [], options: { secretGiven: false, only: null } } };
      return { ok: true, value: { items: [] } };
    };

    const live = page('#/live/42', answer);
    startFirstRequests(live.env);
    let asked = appClient();
    useLive.setState({ rows: [], held: [], streamPaused: false, loaded: false });
    await useLive.getState().load();
    await useEngine.getState().refresh();
    useDetail.getState().open(42);
    await vi.waitFor(() => expect(useDetail.getState().detail).not.toBeNull());
    // The first page came from the page's request; the rest of the list is the app's own, after the cursor.
    expect(asked).toEqual([{ name: 'listMessages', input: { cursor: '950', limit: LIVE_CAP - LIVE_FIRST_PAGE } }]);
    expect(useLive.getState().rows[0]!.id).toBe(1000);
    expect(useEngine.getState().clock).toEqual({ now: 5, offsetMs: 0 });

    const history = page('#/history?status=failed', answer);
    startFirstRequests(history.env);
    asked = appClient();
    useHistory.getState().show(parseFilterQuery({ status: 'failed' }).filter);
    await vi.waitFor(() => expect(useHistory.getState().loaded).toBe(true));
    expect(useHistory.getState().rows).toHaveLength(HISTORY_PAGE);
    expect(asked).toEqual([]);

    const check = page('#/check/7', answer);
    startFirstRequests(check.env);
    asked = appClient();
    await useCheck.getState().open(7);
    await useCheck.getState().loadRuns();
    expect(useCheck.getState().run?.id).toBe(7);
    expect(asked).toEqual([]);
  });

  it('in the desktop window, go through the preload bridge, and open no socket', async () => {
    const { env, sent } = page('#/live');
    const calls: string[] = [];
    const bridge = { call: async (name: string) => (calls.push(name), { ok: true, value: {} }), onEvents: () => () => {} } as unknown as HookbenchBridge;
    startFirstRequests({ ...env, bridge });
    expect(calls).toEqual(['listMessages', 'getOverview', 'getClock', 'listDestinations', 'listSources', 'listReceivers']);
    expect(sent).toEqual([]);
    expect(FakeSocket.all).toEqual([]);
    expect(await takeFirstCall('getClock', {})).toEqual({ ok: true, value: {} });
  });

  it("the transport adopts the page's event socket and hands on what it received meanwhile, in order, once the session listens", () => {
    vi.useFakeTimers();
    const { env } = page('#/live');
    startFirstRequests(env);
    const early = FakeSocket.all[0]!;
    early.open();
    early.receive(JSON.stringify({ events: [{ type: 'forwardingChanged', paused: true }] }));
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:4400/', token: 't0k', WebSocketImpl: FakeSocket as unknown as typeof WebSocket, fetchImpl: vi.fn() });
    expect(FakeSocket.all).toHaveLength(1);
    expect(transport.connectionState()).toBe('open');
    const batches: unknown[] = [];
    transport.subscribe((b) => batches.push(b));
    early.receive(JSON.stringify({ events: [{ type: 'forwardingChanged', paused: false }] }));
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(batches).toEqual([{ events: [{ type: 'forwardingChanged', paused: true }] }, { events: [{ type: 'forwardingChanged', paused: false }] }]);
    early.receive(JSON.stringify({ events: [] }));
    expect(batches).toHaveLength(3);
    transport.close();
  });

  it("preload the landing screen's chunks, and a message's pane when the route opens one", () => {
    const screens = { live: ['./assets/LiveView.js', './assets/MessageList.js'], detail: ['./assets/DetailPane.js', './assets/MessageList.js'], check: ['./assets/CheckView.js'] };
    expect(chunksOf(parseHash('#/live'), screens)).toEqual(['./assets/LiveView.js', './assets/MessageList.js']);
    expect(chunksOf(parseHash('#/live/42'), screens)).toEqual(['./assets/LiveView.js', './assets/MessageList.js', './assets/DetailPane.js']);
    expect(chunksOf(parseHash('#/check/3'), screens)).toEqual(['./assets/CheckView.js']);
    expect(chunksOf(parseHash('#/settings'), screens)).toEqual([]);
  });
});
