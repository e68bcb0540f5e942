import { beforeEach, describe, expect, it } from 'vitest';
import type { CheckCapacity, CheckResult, CheckRun } from '../../../main/contract/check/check';
import type { ApiClient } from '../../../renderer/src/api/client';
import { setApi } from '../../../renderer/src/api/instance';
import { capacityOf, parseOnly, useCheck } from '../../../renderer/src/stores/check';

const check = (id: string, verdict: CheckResult['verdict'] = 'pass'): CheckResult => ({ id, title: id, area: 'signature', verdict, detail: '', evidence: [], fix: null, change: null });

const run = (patch: Partial<CheckRun> = {}): CheckRun => ({
  id: 7,
  url: 'http://127.0.0.1:3000/hook',
  status: 'running',
  error: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  summary: { passed: 0, failed: 0, warnings: 0 },
  total: 3,
  previousRunId: null,
  options: { secretGiven: true, headers: {}, only: null, burst: 50, scenarios: 0, caFile: null, capacity: null },
  checks: [],
  diagnosis: null,
  fixedSinceLastRun: [],
  capacity: null,
  ...patch,
});

/** A client whose answers the test sets; it records the commands called. */
function fakeApi(answers: Record<string, () => unknown>) {
  const calls: { name: string; input: unknown }[] = [];
  const client = {
    call: async (name: string, input: unknown) => {
      calls.push({ name, input });
      return { ok: true, value: answers[name]!() };
    },
    subscribe: () => () => {},
  } as unknown as ApiClient;
  setApi(client);
  return calls;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the Check store', () => {
  beforeEach(() => useCheck.setState({ form: { url: '', secret: '', only: '', note: null, unsignedRerunOf: null }, run: null, runs: [], runsLoaded: false, starting: false, error: null, onlyError: null }));

  it('reads "only" as IDs separated by commas or spaces, and empty as the whole battery', () => {
    expect(parseOnly(' signature.wrong-secret, shapes.track  time.latency,')).toEqual(['signature.wrong-secret', 'shapes.track', 'time.latency']);
    expect(parseOnly('  ')).toBeUndefined();
  });

  it('sends the form (no secret key when empty), keeps what finished before the answer, and fills in from checkFinished', async () => {
    // The run's record already holds a check whose event came before runCheck answered.
    let stored = run({ checks: [check('signature.missing', 'fail')], summary: { passed: 0, failed: 1, warnings: 0 } });
    const calls = fakeApi({ runCheck: () => run(), getCheckRun: () => stored });
    useCheck.getState().setForm({ url: ' http://127.0.0.1:3000/hook ', only: 'signature.missing, signature.tampered' });
    expect(await useCheck.getState().start()).toBe(7);
    await settled();
    expect(calls[0]).toEqual({ name: 'runCheck', input: { url: 'http://127.0.0.1:3000/hook', only: ['signature.missing', 'signature.tampered'] } });
    expect(useCheck.getState().run!.checks.map((c) => c.id)).toEqual(['signature.missing']);

    useCheck.getState().apply([
      { type: 'checkFinished', runId: 7, check: check('signature.tampered', 'fail'), summary: { passed: 0, failed: 2, warnings: 0 }, diagnosis: null },
      // Another run's verdicts do not land in the shown report.
      { type: 'checkFinished', runId: 8, check: check('shapes.track'), summary: { passed: 1, failed: 0, warnings: 0 }, diagnosis: null },
    ]);
    expect(useCheck.getState().run!.checks.map((c) => c.id)).toEqual(['signature.missing', 'signature.tampered']);
    expect(useCheck.getState().run!.summary).toEqual({ passed: 0, failed: 2, warnings: 0 });

    // When it ends, the run's own record (with what events do not carry) replaces the live one.
    stored = run({ status: 'finished', checks: [check('signature.missing', 'fail'), check('signature.tampered', 'fail'), check('status.valid-request')], summary: { passed: 1, failed: 2, warnings: 0 }, fixedSinceLastRun: ['status.valid-request'] });
    const { checks: _c, fixedSinceLastRun: _f, diagnosis: _d, ...summary } = stored;
    useCheck.getState().apply([{ type: 'checkRunFinished', run: summary }]);
    await settled();
    expect(useCheck.getState().run!.status).toBe('finished');
    expect(useCheck.getState().run!.checks).toHaveLength(3);
    expect(useCheck.getState().run!.fixedSinceLastRun).toEqual(['status.valid-request']);
    expect(useCheck.getState().runs.map((r) => [r.id, r.status])).toEqual([[7, 'finished']]);
  });

  it('the diagnosis arrives with the check that found it, before the run ends', async () => {
    fakeApi({ runCheck: () => run(), getCheckRun: () => run() });
    useCheck.getState().setForm({ url: 'http://127.0.0.1:3000/hook', secret: 's' });
    await useCheck.getState().start();
    await settled();
    const diagnosis = { mistake: 'sha256' as const, title: 'The receiver rejects valid signatures: it computes HMAC-SHA256, not HMAC-SHA1', fix: 'Use sha1.' };
    useCheck.getState().apply([{ type: 'checkFinished', runId: 7, check: check('status.valid-request', 'fail'), summary: { passed: 0, failed: 1, warnings: 0 }, diagnosis }]);
    expect(useCheck.getState().run!.diagnosis).toEqual(diagnosis);
  });

  it('"From receiver endpoint …" goes once the URL or the secret is changed; editing the IDs keeps it', () => {
    useCheck.getState().prefill({ url: 'http://127.0.0.1:4401/r/inbox', secret: 'whsec', note: 'From receiver endpoint inbox.' });
    useCheck.getState().setForm({ only: 'shapes.track' });
    expect(useCheck.getState().form.note).toBe('From receiver endpoint inbox.');
    useCheck.getState().setForm({ url: 'http://127.0.0.1:4401/r/other' });
    expect(useCheck.getState().form.note).toBeNull();
    useCheck.getState().prefill({ url: 'http://127.0.0.1:4401/r/inbox', secret: 'whsec', note: 'From receiver endpoint inbox.' });
    useCheck.getState().setForm({ secret: 'whsec2' });
    expect(useCheck.getState().form.note).toBeNull();
  });

  it('a stored signed run opened again says its secret was not stored, until a secret is typed', async () => {
    fakeApi({ getCheckRun: () => run({ id: 3, status: 'finished' }) });
    await useCheck.getState().open(3);
    expect(useCheck.getState().form).toMatchObject({ url: 'http://127.0.0.1:3000/hook', secret: '', unsignedRerunOf: 3 });
    expect(useCheck.getState().form.note).toMatch(/^Run #3 was signed with a secret, which was not stored: type it, or this run goes unsigned/);
    useCheck.getState().setForm({ secret: 'typed' });
    expect(useCheck.getState().form).toMatchObject({ unsignedRerunOf: null, note: null });
  });

  it('a refused run says why and shows no report', async () => {
    const client = { call: async () => ({ ok: false, error: { code: 'invalid_input', message: 'url: must be http or https' } }), subscribe: () => () => {} } as unknown as ApiClient;
    setApi(client);
    useCheck.getState().setForm({ url: 'ftp://x' });
    expect(await useCheck.getState().start()).toBeNull();
    expect(useCheck.getState().error).toBe('url: must be http or https');
    expect(useCheck.getState().run).toBeNull();
  });

  it('sends the capacity fields as runCheck\'s capacity, and draws the run from checkCapacityMeasured, never going back to fewer seconds', async () => {
    expect(capacityOf({ capacity: ' ', expectRate: '100' })).toBeUndefined();
    expect(capacityOf({ capacity: '30', expectRate: '' })).toEqual({ seconds: 30 });
    expect(capacityOf({ capacity: '30', expectRate: '12.5' })).toEqual({ seconds: 30, expectRate: 12.5 });
    const capacity = (seconds: number, finished = false): CheckCapacity => ({
      concurrency: 16,
      seconds: 3,
      deliveriesPerSecond: 300,
      latencyMs: { p50: 50, p95: 52, p99: 60, max: 61 },
      errors: {},
      timeouts: 0,
      series: Array.from({ length: seconds }, (_, i) => ({ second: i + 1, deliveries: 300, p50: 50, p95: 52, errors: 0 })),
      timeoutMs: 5000,
      expectRate: null,
      finished,
    });
    const calls = fakeApi({ runCheck: () => run({ options: { ...run().options, capacity: { seconds: 3, expectRate: null } } }), getCheckRun: () => run({ capacity: capacity(1) }) });
    useCheck.getState().setForm({ url: 'http://127.0.0.1:3000/hook', capacity: '3' });
    await useCheck.getState().start();
    expect(calls[0]).toEqual({ name: 'runCheck', input: { url: 'http://127.0.0.1:3000/hook', capacity: { seconds: 3 } } });
    useCheck.getState().apply([{ type: 'checkCapacityMeasured', runId: 7, capacity: capacity(2) }]);
    await settled();
    expect(useCheck.getState().run!.capacity!.series).toHaveLength(2);
    // A fetch that answers an older reading keeps the newer one the events brought.
    await useCheck.getState().open(7);
    expect(useCheck.getState().run!.capacity!.series).toHaveLength(2);
    useCheck.getState().apply([{ type: 'checkCapacityMeasured', runId: 8, capacity: capacity(3, true) }]);
    expect(useCheck.getState().run!.capacity!.finished).toBe(false);
  });
});
