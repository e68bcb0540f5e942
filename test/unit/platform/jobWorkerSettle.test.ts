import { describe, expect, it, vi } from 'vitest';
import { settle } from '../../../main/platform/jobWorker.js';

// A job's entry must not reach its result once the job is settled: V8 keeps whatever an old copy of the
// pending Map's table points at until the next full GC, and the entries it reached kept whole requests alive
// (platform/jobWorker.ts, JobWorker.pending).
describe('settling a job the ingestion or forwarder thread answered', () => {
  it('resolves once, with the result, and drops both resolvers', () => {
    const entry = { resolve: vi.fn(), reject: vi.fn() };
    const { resolve, reject } = entry;
    const result = { calls: ['a large request'] };
    settle(entry, { result });
    expect(resolve).toHaveBeenCalledWith(result);
    expect(reject).not.toHaveBeenCalled();
    expect(entry).toEqual({ resolve: null, reject: null });
    settle(entry, { result: { calls: [] } });
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('rejects once, with the error, and drops both resolvers', () => {
    const entry = { resolve: vi.fn(), reject: vi.fn() };
    const { resolve, reject } = entry;
    const error = new Error('the ingestWorker thread exited with code 1');
    settle(entry, { error });
    expect(reject).toHaveBeenCalledWith(error);
    expect(resolve).not.toHaveBeenCalled();
    expect(entry).toEqual({ resolve: null, reject: null });
  });
});
