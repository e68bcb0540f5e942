import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpTransport, parseBatch, TOKEN_ROTATED_CLOSE } from '../../../renderer/src/api/httpTransport';
import { reconnectDelay } from '../../../renderer/src/api/backoff';
import type { ConnectionState } from '../../../renderer/src/api/transport';
import { EVENT_SOCKET_CLOSE } from '../../../main/server/eventSockets.js';

/** A WebSocket stand-in that the test opens, feeds and closes. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close(code = 1006) {
    this.onclose?.({ code });
  }
}

describe('HTTP + WebSocket transport', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => vi.useRealTimers());

  const make = (fetchImpl: typeof fetch = vi.fn()) =>
    createHttpTransport({ baseUrl: 'http://127.0.0.1:4400/', token: 't0k', WebSocketImpl: FakeSocket as unknown as typeof WebSocket, fetchImpl });

  it('opens the event socket with the token, passes batches on, and reconnects with backoff after a close', () => {
    const transport = make();
    const states: ConnectionState[] = [];
    transport.onConnectionChange((s) => states.push(s));
    const batches: unknown[] = [];
    transport.subscribe((b) => batches.push(b));
    expect(FakeSocket.all[0]!.url).toBe('ws://127.0.0.1:4400/api/events?token=t0k');
    FakeSocket.all[0]!.onopen!();
    FakeSocket.all[0]!.onmessage!({ data: JSON.stringify({ events: [{ type: 'clockAdvanced', clock: { now: 1, offsetMs: 0 }, byMs: 0 }], dropped: 3 }) });
    expect(batches).toEqual([{ events: [{ type: 'clockAdvanced', clock: { now: 1, offsetMs: 0 }, byMs: 0 }], dropped: 3 }]);

    FakeSocket.all[0]!.close();
    expect(transport.connectionState()).toBe('closed');
    vi.advanceTimersByTime(reconnectDelay(0, () => 1));
    expect(FakeSocket.all).toHaveLength(2);
    expect(states).toEqual(['open', 'closed', 'connecting']);
    transport.close();
  });

  it('posts commands with the Bearer token and returns the Result; an unreachable server is an error value', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ ok: false, error: { code: 'invalid_input', message: 'ms: bad', field: 'ms' } }), { status: 400 }));
    const transport = make(fetchImpl as unknown as typeof fetch);
    const result = await transport.call('advanceClock', { ms: -1 });
    expect(result).toEqual({ ok: false, error: { code: 'invalid_input', message: 'ms: bad', field: 'ms' } });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [URL, RequestInit];
    expect(String(url)).toBe('http://127.0.0.1:4400/api/advanceClock');
    expect((init.headers as Record<string, string>)['authorization']).toBe('Bearer t0k');

    const down = make((async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch);
    const failed = await down.call('getClock', {});
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.message).toContain('cannot reach Hookbench');
    transport.close();
    down.close();
  });

  it('stops reconnecting once the server says the token was rotated, and says so', () => {
    const transport = make();
    FakeSocket.all[0]!.onopen!();
    FakeSocket.all[0]!.close(TOKEN_ROTATED_CLOSE);
    expect(transport.connectionState()).toBe('revoked');
    // The code the server closes with when the token is rotated.
    expect(TOKEN_ROTATED_CLOSE).toBe(EVENT_SOCKET_CLOSE.tokenRotated.code);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    transport.close();
  });

  it('a command the server refuses for the token (an old link, opened after a rotation) says revoked once, and the socket stops trying', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ ok: false, error: { code: 'unauthorized', message: 'missing or wrong API token' } }), { status: 401 }));
    const transport = make(fetchImpl as unknown as typeof fetch);
    // The socket's upgrade was refused: closed, and a reconnect is scheduled.
    FakeSocket.all[0]!.close(1006);
    expect(transport.connectionState()).toBe('closed');
    expect((await transport.call('getOverview', {})).ok).toBe(false);
    expect(transport.connectionState()).toBe('revoked');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    transport.close();
  });

  it('backs off from 0.5 s to at most 10 s', () => {
    expect(reconnectDelay(0, () => 0.5)).toBe(500);
    expect(reconnectDelay(3, () => 0.5)).toBe(4000);
    expect(reconnectDelay(20, () => 0.5)).toBe(10_000);
  });

  it('ignores frames that are not event batches', () => {
    expect(parseBatch('nope')).toBeNull();
    expect(parseBatch('{"events": 3}')).toBeNull();
    expect(parseBatch('{"events": []}')).toEqual({ events: [] });
  });
});
