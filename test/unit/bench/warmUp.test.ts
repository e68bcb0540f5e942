import { describe, expect, it } from 'vitest';
import { ingestWarmUpEvents } from '../../../bench/ingest.js';
import { forwardingWarmUpMessages } from '../../../bench/workload.js';

// `npm run bench` warms the ingestion pair up long enough for V8 to finish tiering the ingestion path up
// before the measured window (bench/ingest.ts); the draining contender keeps a short warm-up (it is delivered).
describe('bench: ingestion warm-up size', () => {
  it('gives the judged pair twice the measured events, whole batches, 1,000 to 200,000', () => {
    expect(ingestWarmUpEvents('ingest-paused', 100_000)).toBe(200_000);
    expect(ingestWarmUpEvents('ingest-baseline', 100_000)).toBe(200_000);
    expect(ingestWarmUpEvents('ingest-paused', 5_000)).toBe(10_000);
    expect(ingestWarmUpEvents('ingest-paused', 300)).toBe(1_000);
    expect(ingestWarmUpEvents('ingest-baseline', 2_000_000)).toBe(200_000);
    expect(ingestWarmUpEvents('ingest-paused', 12_345) % 100).toBe(0);
  });

  it('takes --ingest-warm-up for the pair, both contenders alike, 0 included', () => {
    expect(ingestWarmUpEvents('ingest-paused', 100_000, 10_000)).toBe(10_000);
    expect(ingestWarmUpEvents('ingest-baseline', 100_000, 10_000)).toBe(10_000);
    expect(ingestWarmUpEvents('ingest-baseline', 100_000, 0)).toBe(0);
  });

  it('keeps a tenth of the run, 1,000 to 10,000, for ingest-draining, whatever --ingest-warm-up says', () => {
    expect(ingestWarmUpEvents('ingest-draining', 50_000)).toBe(5_000);
    expect(ingestWarmUpEvents('ingest-draining', 2_000)).toBe(1_000);
    expect(ingestWarmUpEvents('ingest-draining', 500_000, 200_000)).toBe(10_000);
  });
});

describe('bench: forwarding warm-up size', () => {
  it('sends as many messages as the run measures before it, 1,000 to 20,000', () => {
    expect(forwardingWarmUpMessages(20_000)).toBe(20_000);
    expect(forwardingWarmUpMessages(5_000)).toBe(5_000);
    expect(forwardingWarmUpMessages(100)).toBe(1_000);
    expect(forwardingWarmUpMessages(1_000_000)).toBe(20_000);
  });
});
