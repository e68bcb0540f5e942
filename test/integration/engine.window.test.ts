/**
 * The engine's in-flight window (delivery/scheduler.ts, Engine.adapt): it starts at 256 rounds and grows, up to its
 * bound, when the webhooks could take more (rounds done before the next tick, or rounds sending rather
 * than waiting); it stays when rounds mostly wait for a connection. Forwarders here are fakes whose timing
 * the test sets, so the engine's decisions are what is tested, not this machine's speed.
 */
import { describe, expect, it } from 'vitest';
import type { Core } from '../../main/app/createCore.js';
import type { SendResult } from '../../main/delivery/webhookRequests.js';
import type { Forwarder, RoundRequest } from '../../main/delivery/forwarders.js';
import { must, newCore } from '../helpers/harness.js';

function success(durationMs: number): SendResult {
  return {
    outcome: 'success',
    retryable: false,
    permanentReason: null,
    statusCode: 200,
    error: null,
    retryAfterMs: null,
    durationMs,
    requestHeaders: {},
    headersOnWire: false,
    signature: null,
    responseHeaders: {},
    responseBody: '',
    responseTruncated: false,
  };
}

/**
 * A forwarder whose requests take `requestMs` each, at most `connections` at a time (the rest wait, as at
 * an origin's 16 connections); it counts rounds and the most in flight at once.
 */
function fakeForwarder(requestMs: number, connections = Number.POSITIVE_INFINITY) {
  const stats = { rounds: 0, inFlight: 0, mostInFlight: 0 };
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = (): Promise<void> => {
    if (active < connections) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  const forwarder: Forwarder = {
    async sendRound(r: RoundRequest) {
      stats.inFlight++;
      stats.mostInFlight = Math.max(stats.mostInFlight, stats.inFlight);
      await slot();
      if (requestMs > 0) await new Promise((resolve) => setTimeout(resolve, requestMs));
      else await Promise.resolve();
      release();
      stats.inFlight--;
      stats.rounds++;
      return r.webhooks.map(() => success(requestMs));
    },
    invalidate: () => undefined,
    close: () => Promise.resolve(),
  };
  return { forwarder, stats };
}

/** Queues `n` messages while paused, then lets the engine deliver them all. */
async function deliverBacklog(core: Core, n: number, delivered: () => number): Promise<void> {
  must(core.createDestination({ name: 'd', enabled: true, url: 'http://127.0.0.1:9/hook' }));
  core.pause();
  for (let i = 0; i < n; i += 100) {
    must(core.sendMessages({ messages: Array.from({ length: Math.min(100, n - i) }, (_, j) => ({ type: 'track' as const, call: { userId: `u${i + j}`, event: 'Windowed' } })) }));
  }
  core.start();
  // idle() can resolve between a commit and the next claim: wait on the rounds themselves.
  while (delivered() < n) {
    await core.idle();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await core.idle();
}

describe('the in-flight window', () => {
  it('grows past 256 when rounds finish before the next tick (a fast webhook), within its bound', async () => {
    const { forwarder, stats } = fakeForwarder(0);
    const core = newCore({ forwarder, maxInFlight: 1024, minInFlight: 256 });
    await deliverBacklog(core, 6_000, () => stats.rounds);
    const engine = core.engineStats();
    expect(engine.maxWindow).toBeGreaterThan(256);
    expect(engine.maxWindow).toBeLessThanOrEqual(1024);
    expect(stats.mostInFlight).toBeGreaterThan(256);
    expect(stats.mostInFlight).toBeLessThanOrEqual(engine.maxWindow);
    expect(stats.rounds).toBe(6_000);
  });

  it('grows with slow webhooks whose rounds are sending, not waiting (more window, more throughput)', async () => {
    const { forwarder, stats } = fakeForwarder(40);
    const core = newCore({ forwarder, maxInFlight: 2048 });
    await deliverBacklog(core, 4_000, () => stats.rounds);
    expect(core.engineStats().maxWindow).toBeGreaterThan(256);
    expect(stats.mostInFlight).toBeGreaterThan(256);
  });

  it('stays at its start when rounds mostly wait for one of 16 connections (more would only queue)', async () => {
    const { forwarder, stats } = fakeForwarder(5, 16);
    const core = newCore({ forwarder });
    await deliverBacklog(core, 3_000, () => stats.rounds);
    expect(core.engineStats().maxWindow).toBe(256);
    expect(stats.mostInFlight).toBeLessThanOrEqual(256);
  });

  it('maxInFlight alone below the default start fixes the window', async () => {
    const { forwarder, stats } = fakeForwarder(0);
    const core = newCore({ forwarder, maxInFlight: 8 });
    await deliverBacklog(core, 500, () => stats.rounds);
    expect(core.engineStats().maxWindow).toBe(8);
    expect(stats.mostInFlight).toBeLessThanOrEqual(8);
  });
});
