/**
 * `hookbench check --capacity`: the sustained rate against a receiver that takes 100 ms per request, compared
 * with what a plain loop of 16 connections gets from the same receiver; the verdicts of --expect-rate; the
 * --json shape, JUnit's one testcase, usage errors, and a URL that cannot be reached.
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli, type CliDeps } from '../../../main/cli/program.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import type { CapacityReport, CheckCapacity, CheckReport } from '../../../main/contract/check/check.js';
import type { EngineEvent } from '../../../main/contract/events.js';
import { captureIO } from '../../helpers/cliIO.js';
import { checkReceiver, SECRET } from '../../helpers/checkReceivers.js';
import { newCore, newDataDir, newReceiver, onCleanup } from '../../helpers/harness.js';
import type { Respond } from '../../helpers/receiver.js';

const DEPS: CliDeps = { check: { timing: { timeoutMs: 5_000, slowMs: 5_000 } } };
// Long beside what a busy machine adds to each of the check's requests (its engine and forwarder threads), so that
// what the check measures stays the receiver's rate, as a plain loop's is.
const WORK_MS = 100;

/** A receiver that verifies the signature and takes WORK_MS for each request, any number at once. */
const slowReceiver = (): Respond => {
  const good = checkReceiver();
  return (req, res) => setTimeout(() => good(req, res), WORK_MS);
};

/**
 * The same receiver in a process of its own, as the user's would be: its timers are not held up by the
 * test's own work (the check's sender, vitest), so what it serves depends on the receiver alone.
 */
async function slowReceiverProcess(): Promise<string> {
  const script = `
    import { createServer } from 'node:http';
    import { createHmac, timingSafeEqual } from 'node:crypto';
    const server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const expected = createHmac('sha1', ${JSON.stringify(SECRET)}).update(Buffer.concat(chunks)).digest();
        const given = Buffer.from(String(req.headers['x-signature'] ?? ''), 'hex');
        const ok = given.length === expected.length && timingSafeEqual(given, expected);
        setTimeout(() => res.writeHead(ok ? 200 : 401, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'bad signature'), ${WORK_MS});
      });
    });
    server.keepAliveTimeout = 10_000;
    server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  onCleanup(async () => {
    child.stdin.end();
    if (child.exitCode === null) await once(child, 'exit');
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return `http://127.0.0.1:${line.toString('utf8').trim()}/hook`;
}

async function check(args: string[], dataDir = newDataDir()): Promise<{ code: number; out: string; err: string }> {
  const c = captureIO();
  const code = await runCli(['check', ...args, '--data-dir', dataDir], c.io, DEPS);
  return { code, out: c.out(), err: c.err() };
}

/**
 * What the receiver really serves: 16 connections, each posting as soon as the last answer came, until
 * `until` resolves; the answer is the rate over the `ms` before it did.
 */
async function plainLoop(url: string, until: Promise<unknown>, ms: number): Promise<number> {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 16, pipelining: 1 });
  onCleanup(() => pool.destroy());
  const body = JSON.stringify({ type: 'track', userId: 'u1', event: 'Loop' });
  const signature = createHmac('sha1', SECRET).update(body).digest('hex');
  let stop = false;
  let stoppedAt = 0;
  void until.finally(() => {
    stop = true;
    stoppedAt = performance.now();
  });
  const answeredAt: number[] = [];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (!stop) {
        const res = await pool.request({ path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signature }, body });
        if (res.statusCode !== 200) throw new Error(`the plain loop got HTTP ${res.statusCode}`);
        await res.body.dump();
        answeredAt.push(performance.now());
      }
    }),
  );
  const from = stoppedAt - ms;
  return answeredAt.filter((t) => t >= from && t < stoppedAt).length / (ms / 1000);
}

describe('hookbench check --capacity', () => {
  it('reports the rate the receiver really sustains (±25 % of a plain 16-connection loop), one point a second', async () => {
    const url = await slowReceiverProcess();
    // Through a serve (started first), the check's 5 s end just before its answer comes back. The plain loop
    // runs alongside on connections of its own, and its rate is taken over those same 5 s: the receiver takes
    // WORK_MS for each request whatever else it serves.
    const dataDir = newDataDir();
    const serve = await startServe({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => serve.stop());
    const checked = check([url, '--secret', SECRET, '--capacity', '5', '--only', 'capacity.sustained-rate', '--json'], dataDir);
    const [plain, { code, out, err }] = await Promise.all([plainLoop(url, checked, 5_000), checked]);
    expect(code, err).toBe(0);
    const report = JSON.parse(out) as CheckReport;
    const capacity = report.capacity!;
    expect(Object.keys(capacity)).toEqual(['concurrency', 'seconds', 'deliveriesPerSecond', 'latencyMs', 'errors', 'timeouts', 'series']);
    expect(capacity).toMatchObject({ concurrency: 16, seconds: 5, errors: {}, timeouts: 0 });
    expect(capacity.deliveriesPerSecond).toBeGreaterThan(plain * 0.75);
    expect(capacity.deliveriesPerSecond).toBeLessThan(plain * 1.25);
    expect(capacity.series.map((s) => s.second)).toEqual([1, 2, 3, 4, 5]);
    for (const s of capacity.series) {
      expect(Object.keys(s)).toEqual(['second', 'deliveries', 'p50', 'p95', 'errors']);
      expect(s.errors).toBe(0);
      expect(s.p50).toBeGreaterThanOrEqual(WORK_MS - 1);
    }
    expect(capacity.latencyMs.p50).toBeGreaterThanOrEqual(WORK_MS - 1);
    expect(capacity.latencyMs.p99).toBeLessThanOrEqual(capacity.latencyMs.max!);
    // No expected rate: the figures pass.
    expect(report.checks).toEqual([expect.objectContaining({ id: 'capacity.sustained-rate', area: 'capacity', verdict: 'pass' })]);
    expect(report.checks[0]!.detail).toMatch(/deliveries\/s on average over 5 s with 16 in flight; latency p50 \d+ ms/);
  });

  it('--expect-rate 1000 fails against it, saying what the destination does past capacity; --expect-rate 40 passes (through a running serve, where the run is kept)', async () => {
    const url = await slowReceiverProcess();
    const dataDir = newDataDir();
    const serve = await startServe({ dataDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => serve.stop());
    const high = await check([url, '--secret', SECRET, '--capacity', '3', '--expect-rate', '1000', '--only', 'capacity.sustained-rate'], dataDir);
    expect(high.code).toBe(1);
    expect(high.out).toContain('✗ capacity.sustained-rate: sustains 1,000 deliveries per second');
    expect(high.out).toMatch(/sustains [\d.,]+\/s, below the 1,000\/s expected/);
    expect(high.out).toContain('deliveries queue behind the destination\'s 16 connections');
    expect(high.out.trim().split('\n').at(-1)).toBe('0 passed, 1 failed, 0 warnings');

    // Far below what it serves (16 at once, 100 ms each: 160/s when idle), so that a busy machine still gives it twice that.
    const low = await check([url, '--secret', SECRET, '--capacity', '3', '--expect-rate', '40', '--only', 'capacity.sustained-rate', '--json'], dataDir);
    expect(low.code).toBe(0);
    const report = JSON.parse(low.out) as CheckReport;
    expect(report.checks[0], report.checks[0]!.detail).toMatchObject({ id: 'capacity.sustained-rate', verdict: 'pass', fix: null });
    expect(report.checks[0]!.detail).toMatch(/^sustains 40\/s with [\d.]+× headroom/);
    // Kept in the serve's history with its figures.
    const runs = serve.core.checks.listCheckRuns({ url });
    const newest = runs.ok ? serve.core.checks.getCheckRun({ id: runs.value.items[0]!.id }) : null;
    expect(newest?.ok && newest.value.capacity).toMatchObject({ seconds: 3, expectRate: 40, finished: true, deliveriesPerSecond: report.capacity!.deliveriesPerSecond });
  });

  it('errors are counted by kind and fail the expected rate; JUnit has one testcase for it, timed by the seconds measured', async () => {
    let n = 0;
    const good = checkReceiver();
    const r = await newReceiver((req, res) => {
      if (++n % 4 === 0) res.writeHead(503).end('busy');
      else setTimeout(() => good(req, res), 5);
    });
    const dir = newDataDir();
    const junit = join(dir, 'check.xml');
    const { code, out } = await check([r.url, '--secret', SECRET, '--capacity', '1', '--expect-rate', '1', '--only', 'capacity.sustained-rate', '--json', '--junit', junit]);
    expect(code).toBe(1);
    const capacity = (JSON.parse(out) as CheckReport).capacity as CapacityReport;
    expect(capacity.errors['HTTP 503']).toBeGreaterThan(0);
    expect(capacity.series[0]!.errors).toBe(capacity.errors['HTTP 503']);
    // A human run in-process prints each second as it is measured.
    const human = await check([r.url, '--secret', SECRET, '--capacity', '1', '--only', 'capacity.sustained-rate']);
    expect(human.out).toMatch(/^Checking http:\/\/127\.0\.0\.1:\d+\/hook\n {2}capacity: second 1 of 1: \d+ deliveries, p50 \d+ ms, p95 \d+ ms, \d+ errors\n! warn capacity\.sustained-rate: how many deliveries per second it sustains/);
    expect(human.out).toMatch(/HTTP 503 ×[\d,]+/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(1);
    expect(xml).toContain('name="capacity.sustained-rate: sustains 1 deliveries per second');
    // Its time is the second it measured, not its evidence's few milliseconds.
    expect(xml).toMatch(/<testcase name="capacity\.sustained-rate: [^"]*" classname="hookbench\.check\.capacity" time="1\.000"/);
    expect(xml).toContain('HTTP 503');
  });

  it('a receiver that closes connections without answering is counted under "connection closed"', async () => {
    let n = 0;
    const good = checkReceiver();
    const r = await newReceiver((req, res) => {
      if (++n % 2 === 0) res.socket?.destroy();
      else good(req, res);
    });
    const { out } = await check([r.url, '--secret', SECRET, '--capacity', '1', '--only', 'capacity.sustained-rate', '--json']);
    const capacity = (JSON.parse(out) as CheckReport).capacity as CapacityReport;
    expect(capacity.errors['connection closed']).toBeGreaterThan(0);
    expect(Object.keys(capacity.errors).filter((kind) => kind.startsWith('UND_ERR'))).toEqual([]);
  });

  it('a receiver that answers every delivery 401 fails, refused every delivery, with no capacity advice (no expected rate given)', async () => {
    const r = await newReceiver((_req, res) => res.writeHead(401).end('bad signature'));
    const { code, out } = await check([r.url, '--secret', SECRET, '--capacity', '1', '--only', 'capacity.sustained-rate']);
    expect(code).toBe(1);
    expect(out).toMatch(/✗ capacity\.sustained-rate: .*\n {4}the receiver refused every delivery \(HTTP 401 ×[\d,]+\): none succeeded/);
    expect(out).not.toContain('deliveries queue behind');
    expect(out).not.toContain('serve at least 16 requests at once');
  });

  it('a receiver that slows down is judged on where it ended: without an expected rate it warns that throughput fell, naming the seconds', async () => {
    // Fast for its first second (from its first request, the warm-up's), then 400 ms a request: 40/s with 16 at once,
    // under half of what even a busy machine gets through in the fast second.
    let first = 0;
    const good = checkReceiver();
    const r = await newReceiver((req, res) => {
      first ||= performance.now();
      setTimeout(() => good(req, res), performance.now() - first < 1_000 ? 2 : 400);
    });
    const { out } = await check([r.url, '--secret', SECRET, '--capacity', '4', '--only', 'capacity.sustained-rate', '--json']);
    const report = JSON.parse(out) as CheckReport;
    const [s1, , s3] = report.capacity!.series;
    expect(s3!.deliveries, JSON.stringify(report.capacity!.series)).toBeLessThan(s1!.deliveries * 0.5);
    expect(report.checks[0]).toMatchObject({ verdict: 'warn', detail: expect.stringMatching(/^Throughput fell from [\d.,]+\/s in second 1 to [\d.,]+\/s in second 3 \(by a third or more\)/) });
  });

  it('is not run unless asked: --json says capacity null', async () => {
    const r = await newReceiver(checkReceiver());
    const { code, out } = await check([r.url, '--secret', SECRET, '--only', 'shapes.track', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out) as CheckReport;
    expect(report.capacity).toBeNull();
    expect(r.captured).toHaveLength(1);
  });

  it('usage errors name the flag, the limit and the value', async () => {
    for (const bad of ['0', '301', '2.5', 'ten']) {
      const { code, err } = await check(['http://127.0.0.1:9/hook', '--capacity', bad]);
      expect(code, bad).toBe(2);
      expect(err).toContain(`option '--capacity <seconds>' argument '${bad}' is invalid. expected a whole number of seconds from 1 to 300`);
    }
    const rate = await check(['http://127.0.0.1:9/hook', '--capacity', '1', '--expect-rate', '0']);
    expect(rate.code).toBe(2);
    expect(rate.err).toContain("option '--expect-rate <n>' argument '0' is invalid. expected deliveries per second, more than 0 and at most 1000000");
    const alone = await check(['http://127.0.0.1:9/hook', '--expect-rate', '100']);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain('--expect-rate: give --capacity SECONDS too');
    const only = await check(['http://127.0.0.1:9/hook', '--only', 'capacity.sustained-rate']);
    expect(only.code).toBe(2);
    expect(only.err).toContain('capacity.sustained-rate runs only when capacity is asked for (hookbench check --capacity SECONDS)');
  });

  it('capacity alone to a URL that cannot be reached exits 2, saying so', async () => {
    const r = await newReceiver(checkReceiver());
    const url = r.url;
    await r.close();
    const { code, err } = await check([url, '--secret', SECRET, '--capacity', '1', '--only', 'capacity.sustained-rate']);
    expect(code).toBe(2);
    expect(err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/hook: ECONNREFUSED/);
  });

  it('through the typed API: the figures so far once a second (checkCapacityMeasured), kept with the run, never in its summary; no message is made', async () => {
    const r = await newReceiver(slowReceiver());
    const core = newCore({ checkTiming: { timeoutMs: 5_000, slowMs: 5_000 } });
    const measured: CheckCapacity[] = [];
    const types: EngineEvent['type'][] = [];
    core.onEvent((e) => {
      if (e.type.startsWith('check')) types.push(e.type);
      if (e.type === 'checkCapacityMeasured') measured.push(e.capacity);
    });
    const started = await core.checks.runCheck({ url: r.url, secret: SECRET, only: ['capacity.sustained-rate'], capacity: { seconds: 2, expectRate: 10 } });
    expect(started.ok && started.value).toMatchObject({ status: 'running', total: 1, options: { capacity: { seconds: 2, expectRate: 10 } }, capacity: null });
    const id = started.ok ? started.value.id : 0;
    await expect.poll(() => core.checks.getCheckRun({ id }).ok && (core.checks.getCheckRun({ id }) as { value: { status: string } }).value.status, { timeout: 20_000 }).toBe('finished');
    // One while it runs (second 1 closed), one at the end.
    expect(measured.map((c) => [c.series.length, c.finished])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(types).toEqual(['checkRunStarted', 'checkCapacityMeasured', 'checkCapacityMeasured', 'checkFinished', 'checkRunFinished']);
    const run = core.checks.getCheckRun({ id });
    expect(run.ok && run.value.capacity).toEqual(measured.at(-1));
    expect(run.ok && run.value.capacity).toMatchObject({ timeoutMs: 5_000, expectRate: 10, finished: true, concurrency: 16 });
    expect(run.ok && run.value.checks.map((c) => [c.id, c.verdict])).toEqual([['capacity.sustained-rate', 'pass']]);
    const listed = core.checks.listCheckRuns({});
    expect(listed.ok && listed.value.items[0]).not.toHaveProperty('capacity');
    expect(listed.ok && JSON.stringify(listed.value)).not.toContain('series');
    expect(core.listMessages({ origin: 'check' }).ok && (core.listMessages({ origin: 'check' }) as { value: { items: unknown[] } }).value.items).toEqual([]);
    expect(r.captured.length).toBeGreaterThan(100);
  });
});
