import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JobWorker } from '../../../main/platform/jobWorker.js';
import { threadName } from '../../../main/platform/workers.js';
import type { Prepared, PrepareRequest } from '../../../main/ingestion/ingestPrepare.js';

const threadNames = (): string[] => readdirSync('/proc/self/task').map((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());

describe("engine worker threads carry their feature's name", () => {
  it('names each thread after its script, within the 15 characters Linux keeps', () => {
    expect(threadName('delivery/forwarderWorker')).toBe('hb:forwarder');
    expect(threadName('ingestion/ingestWorker')).toBe('hb:ingest');
    expect(threadName('app/backgroundWorker')).toBe('hb:background');
    expect(threadName('some/veryLongFeatureNameWorker')).toHaveLength(15);
  });

  it.runIf(existsSync('/proc/self/task'))('the OS thread of a started worker has that name (what top -H and ps -L show)', async () => {
    const worker = new JobWorker<PrepareRequest, Prepared>({ name: 'ingestion/ingestWorker' });
    try {
      const answer = await worker.run({ method: 'OPTIONS', path: '/v1/batch', contentType: null, contentEncoding: null, authorization: null, body: Buffer.alloc(0), clientIp: null, receivedAt: 0 }, []);
      expect(answer).toMatchObject({ kind: 'answer', status: 204 });
      expect(threadNames()).toContain('hb:ingest');
    } finally {
      await worker.close();
    }
  });
});
