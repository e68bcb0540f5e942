/**
 * `hookbench serve` killed with SIGKILL under load at seeded moments, three times in
 * a row, with a receiver that fails a fifth of its requests (test/fuzz/killLoop.ts). Every acknowledged call
 * survives and is delivered; duplicates stay within what at-least-once allows. `npm run soak` runs it long.
 */
import { describe, expect, it } from 'vitest';
import { runKillLoop } from '../../fuzz/killLoop.js';
import { newDataDir } from '../../helpers/harness.js';

describe('SIGKILL under load (docs/behaviour.md §4 Durable, §7 Acceptance)', () => {
  it('three kills in a row: every acknowledged call is stored and delivered, at least once, never failed', async () => {
    const tally = await runKillLoop({ dir: newDataDir(), kills: 3, seed: 1313, killAfterMs: [300, 900], drainTimeoutMs: 40_000 });
    expect(tally.kills).toBe(3);
    expect(tally.acknowledged).toBeGreaterThan(0);
    expect(tally.stored).toBe(tally.acknowledged);
    expect(tally.delivered).toBeGreaterThanOrEqual(tally.acknowledged);
    expect(tally.receiverFailures).toBeGreaterThan(0);
  }, 90_000);
});
