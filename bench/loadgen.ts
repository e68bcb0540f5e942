/**
 * The ingestion benchmark's load generator, run as a child process (node:child_process fork) so that it
 * does not take the server's CPU: on `prepare` it builds every /v1/batch body up front (untimed), on `go`
 * it posts them with undici, `inFlight` at a time over as many keep-alive connections, with Basic auth as
 * analytics-node does, and reports wall time, per-request latency and status counts over IPC. It exits as
 * soon as its parent goes away.
 */
import { Agent, request } from 'undici';
import { isLoadCommand, type LoadPlan, type LoadReport, type LoadResult } from './protocol.js';
import { sdkBatchBody } from './workload.js';

if (!process.send) {
  console.error('bench/loadgen: must be started with child_process.fork (no IPC channel)');
  process.exit(1);
}
const send = (report: LoadReport): void => {
  process.send?.(report);
};

let prepared: { plan: LoadPlan; bodies: Buffer[] } | null = null;

function prepare(plan: LoadPlan): void {
  const sentAt = Date.now();
  const bodies: Buffer[] = [];
  let bytes = 0;
  for (let r = 0; r < plan.requests; r++) {
    const body = sdkBatchBody(r * plan.batchSize, plan.batchSize, plan.idPrefix, sentAt);
    bodies.push(body);
    bytes += body.length;
  }
  prepared = { plan, bodies };
  send({ type: 'ready', requestBytes: bytes / plan.requests, eventBytes: bytes / (plan.requests * plan.batchSize) });
}

async function run(plan: LoadPlan, bodies: readonly Buffer[]): Promise<LoadResult> {
  const agent = new Agent({ connections: plan.inFlight, pipelining: 1 });
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'analytics-node-next/latest',
    authorization: `Basic ${Buffer.from(`${plan.writeKey}:`).toString('base64')}`,
  };
  const latencyMs: number[] = new Array<number>(bodies.length).fill(0);
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstFailure: string | null = null;
  const fail = (what: string): void => {
    failed++;
    firstFailure ??= what;
  };

  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const i = next++;
      const body = bodies[i]!;
      const started = performance.now();
      try {
        const res = await request(plan.url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, body, dispatcher: agent });
        const text = await res.body.text();
        if (res.statusCode === 200) ok++;
        else fail(`request ${i}: HTTP ${res.statusCode} ${text.slice(0, 500)}`);
      } catch (e) {
        fail(`request ${i}: ${e instanceof Error ? e.message : String(e)}`);
      }
      latencyMs[i] = performance.now() - started;
    }
  };

  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(plan.inFlight, bodies.length) }, worker));
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  await agent.close();
  return { wallMs, latencyMs, ok, failed, firstFailure, cpuMs: (used.user + used.system) / 1000 };
}

process.on('message', (message: unknown) => {
  if (!isLoadCommand(message)) return;
  if (message.type === 'prepare') {
    const { type: _type, ...plan } = message;
    prepare(plan);
    return;
  }
  if (!prepared) throw new Error('bench/loadgen: go before prepare');
  const { plan, bodies } = prepared;
  prepared = null;
  run(plan, bodies).then(
    (result) => send({ type: 'done', ...result }),
    (e: unknown) => {
      console.error('bench/loadgen failed:', e);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
