/**
 * SIGKILL under load: a real `hookbench serve` process takes batches from several
 * clients and forwards them to a receiver that fails a seeded share of requests, and is killed with SIGKILL at
 * seeded random moments, several times in a row; then it runs once more until everything is delivered.
 * The tally must show (docs/behaviour.md §4 Durable, §7 Acceptance):
 * - every acknowledged call (200) is stored and ends `delivered` (the receiver saw it answered 2xx);
 * - a call is delivered more than once only when a kill interrupted its round (at least once, never more
 *   copies than rounds a kill can interrupt);
 * - no delivery ends `failed`, and the last serve stops cleanly.
 * Used by test/integration/faults/sigkill.test.ts (a few kills) and `npm run soak` (many).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { api, checkDurable, Violation } from './ingestFuzz.js';
import { seededRandom } from '../../bench/seededRandom.js';

const cli = fileURLToPath(new URL('../../main/cli.ts', import.meta.url));
const WRITE_KEY = 'wk_killloop_0123';
/** Rounds one serve can have in flight (the engine's window): a kill interrupts at most these. */
const MAX_IN_FLIGHT = 256;

export interface KillLoopOptions {
  dir: string;
  kills: number;
  seed: number;
  /** Clients posting batches at the same time. */
  clients?: number;
  /** Calls per batch. */
  batchSize?: number;
  /** A kill comes this long after the serve is ready: [min, max) ms, seeded. */
  killAfterMs?: [number, number];
  /** Share of requests the receiver answers 500 (seeded), or resets. */
  failureRate?: number;
  /** How long the last serve may take to deliver everything. */
  drainTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface KillTally {
  kills: number;
  batchesAcknowledged: number;
  batchesCutOff: number;
  acknowledged: number;
  stored: number;
  delivered: number;
  duplicateDeliveries: number;
  receiverFailures: number;
}

interface Serve {
  proc: ChildProcess;
  url: string;
  token: string;
  exit: Promise<number | null>;
}

async function startServe(dataDir: string, config: string): Promise<Serve> {
  const proc = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--data', dataDir, '--config', config, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const ready = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /Hookbench ready: (\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    void exit.then((code) => reject(new Violation(`serve exited (${code}) before it was ready: ${stderr.slice(-2000)}`)));
  });
  const ui = new URL(ready);
  return { proc, url: ui.origin, token: ui.searchParams.get('token')!, exit };
}

export async function runKillLoop(o: KillLoopOptions): Promise<KillTally> {
  const random = seededRandom(o.seed);
  const clients = o.clients ?? 4;
  const batchSize = o.batchSize ?? 20;
  const [killMin, killMax] = o.killAfterMs ?? [150, 900];
  const failureRate = o.failureRate ?? 0.2;
  const log = o.log ?? (() => undefined);

  // The receiver: dedupes by messageId; fails a seeded share of requests (500, or a reset).
  const successes = new Map<string, number>();
  const acknowledged = new Set<string>();
  let receiverFailures = 0;
  let allDelivered: (() => void) | null = null;
  const checkAll = () => {
    if (allDelivered && [...acknowledged].every((id) => successes.has(id))) allDelivered();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const roll = random();
      if (roll < failureRate) {
        receiverFailures++;
        if (roll < failureRate / 4) return void req.socket.destroy();
        return void res.writeHead(500).end('flaky');
      }
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messageId: string }).messageId;
      successes.set(id, (successes.get(id) ?? 0) + 1);
      res.writeHead(200).end('ok');
      checkAll();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const config = join(o.dir, 'killloop.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      sources: [{ name: 'load', kind: 'server', writeKey: WRITE_KEY }],
      destinations: [
        {
          name: 'flaky',
          enabled: true,
          sources: ['load'],
          sharedSecret: 'kill-loop-secret',
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
          retry: { schedule: [100, 200, 400], jitter: 0, windowMs: 3_600_000 },
        },
      ],
    }),
  );
  const dataDir = join(o.dir, 'data');
  const basic = `Basic ${Buffer.from(`${WRITE_KEY}:`).toString('base64')}`;
  const tally: KillTally = { kills: 0, batchesAcknowledged: 0, batchesCutOff: 0, acknowledged: 0, stored: 0, delivered: 0, duplicateDeliveries: 0, receiverFailures: 0 };

  /** Posts batches until the serve goes away. */
  const load = async (serve: Serve, client: number, round: number) => {
    const agent = new Agent({ connections: 1 });
    try {
      for (let n = 0; ; n++) {
        const ids = Array.from({ length: batchSize }, (_, i) => `r${round}-c${client}-b${n}-${i}`);
        const body = JSON.stringify({ batch: ids.map((messageId) => ({ type: 'track', userId: `u${client}`, event: 'Kill Loop', messageId, properties: { n } })) });
        try {
          const res = await request(`${serve.url}/v1/batch`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body, dispatcher: agent });
          const text = await res.body.text();
          if (res.statusCode !== 200) throw new Violation(`a batch got ${res.statusCode}: ${text.slice(0, 300)}`);
          for (const id of ids) acknowledged.add(id);
          tally.batchesAcknowledged++;
        } catch (e) {
          if (e instanceof Violation) throw e;
          tally.batchesCutOff++; // the serve was killed under it: not acknowledged, nothing promised
          return;
        }
      }
    } finally {
      await agent.close().catch(() => undefined);
    }
  };

  try {
    for (let k = 0; k < o.kills; k++) {
      const serve = await startServe(dataDir, config);
      const loads = Array.from({ length: clients }, (_, c) => load(serve, c, k));
      const after = killMin + Math.floor(random() * (killMax - killMin));
      await new Promise<void>((resolve) => setTimeout(resolve, after)); // the seeded moment of the kill
      serve.proc.kill('SIGKILL');
      await serve.exit;
      await Promise.all(loads);
      tally.kills++;
      log(`kill ${k + 1}/${o.kills} after ${after} ms: ${acknowledged.size} calls acknowledged so far`);
    }

    // The last run: no load, until everything acknowledged has been delivered.
    const serve = await startServe(dataDir, config);
    try {
      const done = new Promise<void>((resolve) => (allDelivered = resolve));
      checkAll();
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => {
          const missing = [...acknowledged].filter((id) => !successes.has(id));
          reject(new Violation(`${missing.length} acknowledged calls were not delivered within ${o.drainTimeoutMs ?? 60_000} ms, e.g. ${missing.slice(0, 5).join(', ')}`));
        }, o.drainTimeoutMs ?? 60_000).unref(),
      );
      await Promise.race([done, timeout]);
      const target = { url: serve.url, token: serve.token, writeKey: WRITE_KEY };
      const overview = await api<{ counts: Record<string, number> }>(target, 'getOverview', {});
      if ((overview.body.value?.counts['failed'] ?? 0) > 0) throw new Violation(`deliveries failed: ${JSON.stringify(overview.body.value?.counts)}`);
    } finally {
      serve.proc.kill('SIGTERM');
      const code = await serve.exit;
      if (code !== 0) throw new Violation(`the last serve exited ${code} on SIGTERM`);
    }
    tally.stored = await checkDurable(dataDir, acknowledged);
    tally.acknowledged = acknowledged.size;
    tally.delivered = [...successes.keys()].length;
    tally.duplicateDeliveries = [...successes.values()].reduce((n, c) => n + c - 1, 0);
    tally.receiverFailures = receiverFailures;
    if (tally.duplicateDeliveries > tally.kills * MAX_IN_FLIGHT) {
      throw new Violation(`${tally.duplicateDeliveries} duplicate deliveries for ${tally.kills} kills: more than the rounds the kills could interrupt (${MAX_IN_FLIGHT} each)`);
    }
    if (tally.acknowledged === 0) throw new Violation('nothing was acknowledged: the loop tested nothing');
    return tally;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
