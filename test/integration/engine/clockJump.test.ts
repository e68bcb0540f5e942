/**
 * Clock jumps against an endpoint that never answers (docs/behaviour.md §5): an honest jump waits the real
 * timeout for every attempt, but the attempts of many messages wait together, not 16 at a time; Fast-forward
 * unanswered attempts ends them early and says so; Cancel and resetClock interrupt a jump at once.
 * The destination's timeoutMs is shortened so that each real wait is short; nothing here sleeps.
 */
import { describe, expect, it } from 'vitest';
import { blackHole as openBlackHole, type BlackHole } from '../../../bench/blackHole.js';
import type { EngineEvent } from '../../../main/contract/events.js';
import { isFastForwarded } from '../../../main/contract/deliveries.js';
import type { ClockJump } from '../../../main/contract/overview.js';
import { internalsOf } from '../../../main/app/createCore.js';
import { must, newCoreWithDestination, onCleanup, sendTrack, settled } from '../../helpers/harness.js';

const HOUR = 3_600_000;

/** A black hole that closes with the test. */
async function blackHole(answerFirst = 0): Promise<BlackHole> {
  const hole = await openBlackHole(answerFirst);
  onCleanup(() => hole.close());
  return hole;
}

function jumpEvents(core: { onEvent(fn: (e: EngineEvent) => void): () => void }): (ClockJump | null)[] {
  const seen: (ClockJump | null)[] = [];
  const off = core.onEvent((e) => {
    if (e.type === 'clockJumpUpdated') seen.push(e.jump);
  });
  onCleanup(off);
  return seen;
}

describe('a +4 h jump over an endpoint that never answers (docs/behaviour.md §5)', () => {
  it('40 messages all reach failed (retry window exhausted), each attempt waits its full timeout, and their attempts wait together, not 16 at a time', async () => {
    const hole = await blackHole();
    const core = newCoreWithDestination({ url: hole.url, timeoutMs: 300 });
    const progress = jumpEvents(core);
    const ids = Array.from({ length: 40 }, (_, i) => sendTrack(core, 'd', { userId: `u${i}` }));
    for (const id of ids) expect((await settled(core, id)).message.status).toBe('retrying');
    const live = hole.maxOpen;

    const jump = must(await core.advanceClock({ ms: 4 * HOUR }));

    expect(jump.cancelled).toBe(false);
    // Live traffic keeps to the per-origin cap; the jump's attempts, due together, were out together.
    expect(live).toBeLessThanOrEqual(16);
    expect(hole.maxOpen).toBeGreaterThanOrEqual(40);
    for (const id of ids) {
      const detail = must(core.getMessage({ id }));
      expect(detail.message).toMatchObject({ status: 'failed', statusReason: 'retry window exhausted' });
      expect(detail.attempts.length).toBeGreaterThanOrEqual(7);
      for (const a of detail.attempts) {
        expect(a.outcome).toBe('timeout');
        expect(a.durationMs).toBeGreaterThanOrEqual(299); // honest: never a timeout before the destination's
        expect(isFastForwarded(a)).toBe(false);
      }
      // Engine-time order within each delivery: every retry starts after the previous attempt finished.
      detail.attempts.slice(1).forEach((a, i) => expect(a.startedAt).toBeGreaterThan(detail.attempts[i]!.finishedAt));
    }
    // Its rounds are one delivery's ladder (the first attempt was live), whatever the number of messages.
    expect(jump.rounds).toBeGreaterThanOrEqual(6);
    expect(jump.rounds).toBeLessThanOrEqual(8);
    // Every attempt the jump made is counted: all recorded attempts but the 40 live first ones. (Counted from
    // the rows, not the black hole's requests: on a loaded machine a live attempt can time out before its
    // request reaches the hole.)
    const recorded = ids.reduce((n, id) => n + must(core.getMessage({ id })).attempts.length, 0);
    expect(jump.attemptsPlayed).toBe(recorded - 40);
    // Progress was told while it played, and its end.
    const during = progress.filter((p): p is ClockJump => p !== null);
    expect(during.some((p) => p.attemptsInFlight >= 40)).toBe(true);
    expect(during.every((p) => p.roundsEstimate >= p.round && p.targetOffsetMs === 4 * HOUR)).toBe(true);
    expect(during[0]!.roundsEstimate).toBeGreaterThanOrEqual(6);
    // It says what it plays from the first report, and how long is left once a round has set the pace.
    expect(during[0]!.deliveries).toEqual({ settled: 0, total: 40 });
    const paced = during.filter((p) => p.msPerRound !== null);
    expect(paced.length).toBeGreaterThan(0);
    // Each round waits the unanswered attempts' 300 ms timeout (and whatever a busy machine adds).
    for (const p of paced) {
      expect(p.msPerRound).toBeGreaterThanOrEqual(250);
      expect(p.msLeft).not.toBeNull();
    }
    expect(during.every((p, i) => i === 0 || p.elapsedMs >= during[i - 1]!.elapsedMs)).toBe(true);
    expect(during.every((p) => p.deliveries.settled <= p.deliveries.total)).toBe(true);
    expect(progress.at(-1)).toBeNull();
    expect(must(core.getClock()).jump).toBeNull();
  });

  it('one message plays the same rounds as forty (the jump is not longer for more messages)', async () => {
    const hole = await blackHole();
    const core = newCoreWithDestination({ url: hole.url, timeoutMs: 300 });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    const jump = must(await core.advanceClock({ ms: 4 * HOUR }));
    expect(must(core.getMessage({ id })).message.status).toBe('failed');
    expect(jump.rounds).toBe(must(core.getMessage({ id })).attempts.length - 1);
  });

  it('Fast-forward unanswered attempts ends a jump\'s attempts after 1 s as timeout, and their record says fast-forwarded', async () => {
    const hole = await blackHole(1);
    const core = newCoreWithDestination({ url: hole.url, timeoutMs: 3_000, retry: { windowMs: 60_000 } });
    expect(must(core.getClock()).fastForward).toBe(false); // off by default
    must(core.setFastForward({ enabled: true }));
    expect(must(core.getClock()).fastForward).toBe(true);
    const id = sendTrack(core, 'd');
    await settled(core, id);

    const jump = must(await core.advanceClock({ ms: HOUR }));

    expect(jump.cancelled).toBe(false);
    const detail = must(core.getMessage({ id }));
    expect(detail.message).toMatchObject({ status: 'failed', statusReason: 'retry window exhausted' });
    const [first, ...played] = detail.attempts;
    expect(first).toMatchObject({ outcome: 'http_error', statusCode: 503 });
    expect(played.length).toBeGreaterThanOrEqual(2);
    for (const a of played) {
      expect(a.outcome).toBe('timeout');
      expect(isFastForwarded(a)).toBe(true);
      expect(a.error).toMatch(/^fast-forwarded after 1 s without response headers \(.*the timeout is 3000 ms\)$/);
      expect(a.durationMs).toBeGreaterThanOrEqual(999);
      expect(a.durationMs).toBeLessThan(3_000);
    }
  });

  it('an advanceClock option fastForward: false overrides the setting for that jump', async () => {
    const hole = await blackHole(1);
    // A window far beyond the jump: however long the first attempt takes to time out on a busy machine, its retry is due inside it.
    const core = newCoreWithDestination({ url: hole.url, timeoutMs: 1_500, retry: { schedule: [5_000], windowMs: 600_000 } });
    must(core.setFastForward({ enabled: true }));
    const id = sendTrack(core, 'd');
    await settled(core, id);
    must(await core.advanceClock({ ms: 10_000, fastForward: false }));
    const played = must(core.getMessage({ id })).attempts.slice(1);
    expect(played.length).toBeGreaterThanOrEqual(1);
    for (const a of played) {
      expect(isFastForwarded(a)).toBe(false);
      expect(a.durationMs).toBeGreaterThanOrEqual(1_499);
    }
  });
});

describe('interrupting a jump (docs/behaviour.md §5)', () => {
  /**
   * A message whose first attempt got a 503 and whose retries hang for a minute: a jump that would take
   * minutes. With `aheadMs`, the clock first moves that far while the destination is disabled (nothing plays).
   */
  async function hangingJump(aheadMs = 0) {
    const hole = await blackHole(1);
    const core = newCoreWithDestination({ url: hole.url, timeoutMs: 60_000 });
    const id = sendTrack(core, 'd');
    await settled(core, id);
    if (aheadMs > 0) {
      const destination = must(core.listDestinations()).items[0]!.id;
      must(core.updateDestination({ id: destination, patch: { enabled: false } }));
      must(await core.advanceClock({ ms: aheadMs }));
      must(core.updateDestination({ id: destination, patch: { enabled: true } }));
    }
    const jump = core.advanceClock({ ms: 4 * HOUR - aheadMs });
    await hole.requestsReached(2); // the jump's first retry is out, and will not be answered for 60 s
    return { hole, core, id, jump };
  }

  it('the offset a jump has reached is kept as it moves: killed mid-jump, the workbench would start again there, with no attempt in its future', async () => {
    const { hole, core, jump } = await hangingJump();
    const reached = must(core.getClock()).offsetMs;
    expect(reached).toBeGreaterThan(3_000); // the retry's due time, claimed ahead of now
    // What a start reads: the offset kept in the data dir (createCore).
    expect(internalsOf(core).store.config.getSetting('clock.offsetMs')).toBe(String(reached));
    must(core.cancelClockAdvance());
    await jump;
    await hole.close();
  });

  it('cancelClockAdvance answers at once, the advance answers cancelled, the clock stays where the jump got to', async () => {
    const { hole, core, jump } = await hangingJump();
    const during = must(core.getClock());
    expect(during.jump).toMatchObject({ fromOffsetMs: 0, targetOffsetMs: 4 * HOUR, attemptsInFlight: 1, round: 1 });

    const cancelled = must(core.cancelClockAdvance());
    const answer = must(await jump);

    expect(hole.open).toBe(1); // answered while the attempt is still waiting on the network
    expect(cancelled.jump).toBeNull();
    expect(answer.cancelled).toBe(true);
    expect(answer.offsetMs).toBeGreaterThan(3_000); // moved to the retry's due time (5 s ± 20 %, less the real time spent)
    expect(answer.offsetMs).toBeLessThan(HOUR);
    expect(must(core.getClock())).toMatchObject({ jump: null, offsetMs: answer.offsetMs });
    await hole.close(); // ends the hanging attempt, so that the core closes without waiting out its timeout
  });

  it('resetClock interrupts a jump at once; the round in flight, when it ends, keeps its distance to now', async () => {
    const { hole, core, id, jump } = await hangingJump(3 * HOUR);

    const reset = must(await core.resetClock());
    const answer = must(await jump);

    expect(hole.open).toBe(1);
    expect(reset.offsetMs).toBe(0);
    expect(answer).toMatchObject({ cancelled: true, offsetMs: 0 });
    expect(must(core.getClock())).toMatchObject({ offsetMs: 0, jump: null });

    // The hanging attempt ends (the endpoint goes away); its next retry is due from real time, not 4 h ahead or behind.
    const ended = Date.now();
    await hole.close();
    let detail = must(core.getMessage({ id }));
    while (detail.attempts.length < 2) {
      await new Promise<void>((resolve) => {
        const off = core.onEvent((e) => {
          if (e.type === 'deliveryUpdated' && e.delivery.messageId === id) {
            off();
            resolve();
          }
        });
      });
      detail = must(core.getMessage({ id }));
    }
    const next = detail.deliveries[0]!.nextAttemptAt!;
    expect(detail.deliveries[0]!.status).toBe('retrying');
    expect(next).toBeGreaterThanOrEqual(ended + 30_000 * 0.8 - 6_000); // retry 2: 30 s ± 20 % after the attempt ended
    expect(next).toBeLessThanOrEqual(Date.now() + 30_000 * 1.2);
  });
});
