/**
 * The ingestion API fuzzed with fast-check (test/fuzz/ingestFuzz.ts):
 * random valid and hostile bodies, labels, encodings, nesting, sizes and Unicode (lone surrogates included)
 * on every /v1 route of a real serve. Seeded and bounded here; `npm run soak` runs the same property long.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDurable, checkIngestTotals, ingestProperty, newIngestTally } from '../../fuzz/ingestFuzz.js';
import { FUZZ_SOURCE, FUZZ_WRITE_KEY, startFuzzServe } from '../../helpers/fuzzServe.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

describe('the ingestion API under fuzzing (docs/behaviour.md §7)', () => {
  it('never a 5xx; each refusal is the documented 4xx naming its field or limit and is logged; each 200 is stored, readable and durable; usage adds up', async () => {
    const { running, dataDir } = await startFuzzServe(newDataDir());
    let stopped = false;
    onCleanup(() => (stopped ? undefined : running.stop()));
    const target = { url: running.info.url, token: running.info.token, writeKey: FUZZ_WRITE_KEY };
    const tally = newIngestTally();

    await fc.assert(ingestProperty(target, tally), { numRuns: 150, seed: 1313, endOnFailure: true });

    // Both outcomes were exercised, not just one.
    expect(tally.acceptedCalls).toBeGreaterThan(20);
    expect(Object.keys(tally.byCode).length).toBeGreaterThan(3);
    const usage = await checkIngestTotals(target, FUZZ_SOURCE);
    expect(usage.accepted).toBe(tally.acceptedCalls);

    // The deliveries of everything accepted ran (the diagnosis included: the receiver's secret differs).
    await running.core.idle();
    await running.stop();
    stopped = true;
    expect(await checkDurable(dataDir, tally.messageIds)).toBe(tally.messageIds.size);
  });
});
