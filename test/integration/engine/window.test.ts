/**
 * The engine's in-flight window (delivery/inFlightWindow.ts, InFlightWindow.adapt): it starts at 256 rounds and grows, up to its
 * bound, when the webhooks could take more (rounds done before the next tick, or rounds sending rather
 * than waiting); it stays when rounds mostly wait for a connection. Forwarders here are fakes whose requests
 * take a set time on a manual monotonic clock, the one the engine paces its ticks and times its rounds by
 * (CoreOptions.monotonicTime): that time moves only when the test moves it, once the engine has done all it
 * can, so the engine's decisions are what is tested, not this machine's speed or load.
 */
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../main/app/createCore.js';
import type { SendResult } from '../../../main/delivery/webhookRequests.js';
import type { Forwarder, RoundRequest } from '../../../main/delivery/forwarders.js';
import { must, newCore } from '../../helpers/harness.js';
import { ManualTime } from '../../helpers/manualTime.js';
import { sendResult } from '../../helpers/sendResult.js';

const success = (durationMs: number): SendResult => sendResult({ durationMs });

/**
 * A forwarder whose requests take `requestMs` each on `time`, at most `connections` at a time (the rest wait,
 * as at an origin's 16 connections); it counts rounds and the most in flight at once.
 */
function fakeForwarder(time: ManualTime, requestMs: number, connections = Number.POSITIVE_INFINITY) {
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
      if (requestMs > 0) await new Promise<void>((resolve) => time.setTimeout(resolve, requestMs));
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

type Fake = ReturnType<typeof fakeForwarder>;

/**
 * Lets the event loop run until nothing changes any more (the timers waiting on `time`, the engine's ticks,
 * the rounds) for a few turns: everything the engine can do before `time` moves has been done.
 */
async function settle(time: ManualTime, core: Core, fake: Fake): Promise<void> {
  let last = '';
  for (let same = 0; same < 3; ) {
    await new Promise((resolve) => setImmediate(resolve));
    const now = `${time.pending} ${core.engineStats().ticks} ${fake.stats.rounds} ${fake.stats.inFlight}`;
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

/** Queues `n` messages while paused, then lets the engine deliver them all, moving `time` only when it is settled. */
async function deliverBacklog(core: Core, time: ManualTime, fake: Fake, n: number): Promise<void> {
  must(core.createDestination({ name: 'd', enabled: true, url: 'http://127.0.0.1:9/hook' }));
  core.pause();
  for (let i = 0; i < n; i += 100) {
    must(core.sendMessages({ messages: Array.from({ length: Math.min(100, n - i) }, (_, j) => ({ type: 'track' as const, call: { userId: `u${i + j}`, event: 'Windowed' } })) }));
  }
  core.start();
  while (fake.stats.rounds < n) {
    await settle(time, core, fake);
    const next = time.nextDelay();
    if (next !== undefined) time.advance(next);
  }
  await settle(time, core, fake);
  // Ticks still due record the last rounds.
  while (time.pending > 0) {
    time.advance(time.nextDelay() ?? 0);
    await settle(time, core, fake);
  }
  await core.idle();
}

/** A core whose engine paces itself by `time`, with the fake forwarder. */
function coreWith(fake: Fake, time: ManualTime, options: { maxInFlight?: number; minInFlight?: number } = {}): Core {
  return newCore({ forwarder: fake.forwarder, monotonicTime: time, ...options });
}

describe('the in-flight window', () => {
  it('grows past 256 when rounds finish before the next tick (a fast webhook), within its bound', async () => {
    const time = new ManualTime();
    const fake = fakeForwarder(time, 0);
    const core = coreWith(fake, time, { maxInFlight: 1024, minInFlight: 256 });
    await deliverBacklog(core, time, fake, 6_000);
    const engine = core.engineStats();
    expect(engine.maxWindow).toBeGreaterThan(256);
    expect(engine.maxWindow).toBeLessThanOrEqual(1024);
    expect(fake.stats.mostInFlight).toBeGreaterThan(256);
    expect(fake.stats.mostInFlight).toBeLessThanOrEqual(engine.maxWindow);
    expect(fake.stats.rounds).toBe(6_000);
  });

  it('grows with slow webhooks whose rounds are sending, not waiting (more window, more throughput)', async () => {
    const time = new ManualTime();
    const fake = fakeForwarder(time, 40);
    const core = coreWith(fake, time, { maxInFlight: 2048 });
    await deliverBacklog(core, time, fake, 4_000);
    expect(core.engineStats().maxWindow).toBeGreaterThan(256);
    expect(fake.stats.mostInFlight).toBeGreaterThan(256);
  });

  it('stays at its start when rounds mostly wait for one of 16 connections (more would only queue)', async () => {
    const time = new ManualTime();
    const fake = fakeForwarder(time, 5, 16);
    const core = coreWith(fake, time);
    await deliverBacklog(core, time, fake, 3_000);
    expect(core.engineStats().maxWindow).toBe(256);
    expect(fake.stats.mostInFlight).toBeLessThanOrEqual(256);
    expect(fake.stats.rounds).toBe(3_000);
  });

  it('maxInFlight alone below the default start fixes the window', async () => {
    const time = new ManualTime();
    const fake = fakeForwarder(time, 0);
    const core = coreWith(fake, time, { maxInFlight: 8 });
    await deliverBacklog(core, time, fake, 500);
    expect(core.engineStats().maxWindow).toBe(8);
    expect(fake.stats.mostInFlight).toBeLessThanOrEqual(8);
  });
});
