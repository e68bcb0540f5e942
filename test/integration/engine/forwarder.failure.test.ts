import type { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { InlineForwarder, WorkerForwarder, type Forwarder, type RoundRequest } from '../../../main/delivery/forwarders.js';
import { must, newCore, newReceiver, onCleanup, sendTrack, settled } from '../../helpers/harness.js';
import { never, status } from '../../helpers/receiver.js';

describe('when a round cannot run at all', () => {
  it('the engine records no attempt and runs the round again a moment later', async () => {
    const rx = await newReceiver(status(200));
    const inline = new InlineForwarder();
    let calls = 0;
    const flaky: Forwarder = {
      sendRound: (r: RoundRequest) => (++calls === 1 ? Promise.reject(new Error('forwarder thread died')) : inline.sendRound(r)),
      invalidate: (caFile) => inline.invalidate(caFile),
      close: () => inline.close(),
    };
    const core = newCore({ forwarder: flaky });
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const requeued = new Promise<void>((resolve) => {
      const off = core.onEvent((e) => {
        if (e.type === 'deliveryUpdated' && e.delivery.status === 'queued') {
          off();
          resolve();
        }
      });
    });
    const id = sendTrack(core, 'd');
    await requeued;
    await core.idle();
    const first = must(core.getMessage({ id }));
    expect(first.message.status).toBe('queued');
    expect(first.attempts).toHaveLength(0);
    expect(first.deliveries[0]!.firstAttemptAt).toBeNull();
    must(await core.advanceClock({ ms: 1_000 }));
    const detail = await settled(core, id);
    expect(calls).toBe(2);
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts).toHaveLength(1);
    expect(detail.deliveries[0]!.firstAttemptAt).toBe(detail.attempts[0]!.startedAt);
  });

  it('a forwarder thread that dies fails its rounds, and the next round starts a new thread', async () => {
    const hang = await newReceiver(never);
    const ok = await newReceiver(status(200));
    const forwarder = new WorkerForwarder();
    onCleanup(() => forwarder.close());
    const request = (url: string): RoundRequest => ({ webhooks: [{ url, headers: {} }], body: Buffer.from('{}'), secret: null, timeoutMs: 5000, caFile: null });
    const stuck = forwarder.sendRound(request(hang.url));
    await hang.waitFor(1);
    await (forwarder as unknown as { jobs: { started: Worker } }).jobs.started.terminate();
    await expect(stuck).rejects.toThrow(/exited with code/);
    const [result] = await forwarder.sendRound(request(ok.url));
    expect(result!.outcome).toBe('success');
  });

  it('a round whose callback throws does not keep the rounds answered with it from being told; a closed forwarder fails at once', async () => {
    const ok = await newReceiver(status(200));
    const forwarder = new WorkerForwarder();
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    onCleanup(() => reported.mockRestore());
    const request: RoundRequest = { webhooks: [{ url: ok.url, headers: {} }], body: '{"n":1}', secret: 's', timeoutMs: 5000, caFile: null };
    const told: string[] = [];
    const allTold = new Promise<void>((resolve) => {
      for (const n of [1, 2, 3]) {
        forwarder.sendRoundThen(
          request,
          (results) => {
            told.push(`${n}: ${results[0]!.outcome}`);
            if (told.length === 3) resolve();
            if (n === 1) throw new Error('a bug in the first callback');
          },
          (e) => told.push(`${n}: failed ${String(e)}`),
        );
      }
    });
    await allTold;
    expect(told.sort()).toEqual(['1: success', '2: success', '3: success']);
    expect(reported).toHaveBeenCalledWith(expect.stringMatching(/delivery\/forwarderWorker thread's answer to job \d+ failed in its callback/), expect.any(Error));
    await forwarder.close();
    const failed = await new Promise<unknown>((resolve) => forwarder.sendRoundThen(request, () => resolve('done'), resolve));
    expect(String(failed)).toMatch(/thread is closed/);
  });
});
