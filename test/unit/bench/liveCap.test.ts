import { describe, expect, it } from 'vitest';
import { LIVE_CAP as BENCH_LIVE_CAP } from '../../../bench/live.js';

describe('the Live bench', () => {
  it('waits for as many rows as the Live list keeps', async () => {
    // The renderer's module is typed for the DOM (its own tsconfig): imported here at run time only.
    const renderer = (await import(String('../../../renderer/src/stores/live'))) as { LIVE_CAP: number };
    expect(BENCH_LIVE_CAP).toBe(renderer.LIVE_CAP);
  });
});
