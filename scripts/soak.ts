/**
 * `npm run soak -- --minutes N`: the long versions of the fuzz and fault suites (docs/hardening.md), in turns
 * until N minutes have passed, each turn with a new seed:
 *   1. the ingestion API fuzzed against a serve (test/fuzz/ingestFuzz.ts), then usage totals and durability;
 *   2. the config file fuzzed (test/fuzz/configFuzz.ts): round trips, unknown keys, hostile files;
 *   3. SIGKILL loops of a real serve process under load, with a flaky receiver (test/fuzz/killLoop.ts);
 *   4. a full disk: a small tmpfs when this user may mount one (root on Linux), else SQLite's max_page_count;
 *   5. slow connections: thousands of slow-header and slow-body sockets against a serve while the typed API
 *      and ingestion must keep answering.
 * It prints what it tried and what held, and exits 1 on the first violation (with the seed to repeat it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { request } from 'undici';
import { internalsOf } from '../main/app/createCore.js';
import { createCore } from '../main/app/createCore.js';
import { checkHostile, checkRoundTrip, checkUnknownKey, hostileConfigArb, unknownKeyArb, validConfigArb } from '../test/fuzz/configFuzz.js';
import { checkDurable, checkIngestTotals, ingestProperty, newIngestTally, Violation } from '../test/fuzz/ingestFuzz.js';
import { runKillLoop } from '../test/fuzz/killLoop.js';
import { FUZZ_SOURCE, FUZZ_WRITE_KEY, startFuzzServe } from '../test/helpers/fuzzServe.js';

const args = process.argv.slice(2);
const minutesArg = args.indexOf('--minutes');
const minutes = minutesArg >= 0 ? Number(args[minutesArg + 1]) : 5;
const seedArg = args.indexOf('--seed');
const baseSeed = seedArg >= 0 ? Number(args[seedArg + 1]) : Date.now() % 1_000_000;
if (!Number.isFinite(minutes) || minutes <= 0) {
  console.error('usage: npm run soak -- --minutes N [--seed S]');
  process.exit(2);
}

const deadline = Date.now() + minutes * 60_000;
const totals = {
  turns: 0,
  ingest: { runs: 0, requests: 0, acceptedCalls: 0, refusals: 0, byStatus: {} as Record<string, number> },
  config: { roundTrips: 0, unknownKeys: 0, hostile: 0 },
  kills: { loops: 0, kills: 0, acknowledged: 0, delivered: 0, duplicates: 0, receiverFailures: 0 },
  diskFull: { runs: 0, how: [] as string[], accepted: 0, refused503: 0 },
};
const say = (line: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);
const scratch = mkdtempSync(join(tmpdir(), 'hookbench-soak-'));
const timeLeft = () => deadline - Date.now();

process.on('uncaughtException', (e) => fail('uncaught exception (a crash)', e, -1));
process.on('unhandledRejection', (e) => fail('unhandled rejection', e, -1));

let mounted: string | null = null;

function fail(phase: string, e: unknown, seed: number): never {
  if (mounted) execFileSync('umount', ['-l', mounted], { stdio: 'ignore' });
  console.error(`\nVIOLATION in ${phase} (seed ${seed}; repeat with --seed ${baseSeed}):\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  printTally();
  rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
}

function printTally(): void {
  console.log('\nsoak tally:');
  console.log(JSON.stringify(totals, null, 2));
}

async function ingestTurn(seed: number): Promise<void> {
  const dir = mkdtempSync(join(scratch, 'ingest-'));
  const { running, dataDir } = await startFuzzServe(dir);
  const target = { url: running.info.url, token: running.info.token, writeKey: FUZZ_WRITE_KEY };
  const tally = newIngestTally();
  const numRuns = 1500;
  try {
    await fc.assert(ingestProperty(target, tally), { numRuns, seed, endOnFailure: true });
    await checkIngestTotals(target, FUZZ_SOURCE);
    await running.core.idle();
  } finally {
    await running.stop();
  }
  await checkDurable(dataDir, tally.messageIds);
  totals.ingest.runs += numRuns;
  totals.ingest.requests += tally.requests;
  totals.ingest.acceptedCalls += tally.acceptedCalls;
  totals.ingest.refusals += Object.values(tally.byCode).reduce((a, b) => a + b, 0);
  for (const [k, v] of Object.entries(tally.byStatus)) totals.ingest.byStatus[k] = (totals.ingest.byStatus[k] ?? 0) + v;
  say(`ingest fuzz: ${tally.requests} requests (${JSON.stringify(tally.byStatus)}), ${tally.acceptedCalls} calls accepted and durable`);
  rmSync(dir, { recursive: true, force: true });
}

async function configTurn(seed: number): Promise<void> {
  const dir = mkdtempSync(join(scratch, 'config-'));
  const core = createCore({ dataDir: dir, autoStart: false });
  try {
    fc.assert(fc.property(validConfigArb, (c) => checkRoundTrip(core, dir, c)), { numRuns: 400, seed });
    fc.assert(fc.property(unknownKeyArb, (c) => checkUnknownKey(core, dir, c)), { numRuns: 400, seed });
    fc.assert(fc.property(hostileConfigArb, (t) => void checkHostile(core, dir, t)), { numRuns: 600, seed });
  } finally {
    await core.close();
  }
  totals.config.roundTrips += 400;
  totals.config.unknownKeys += 400;
  totals.config.hostile += 600;
  say('config fuzz: 400 round trips, 400 unknown keys, 600 hostile files held');
  rmSync(dir, { recursive: true, force: true });
}

async function killTurn(seed: number): Promise<void> {
  const dir = mkdtempSync(join(scratch, 'kill-'));
  const kills = Math.max(2, Math.min(8, Math.floor(timeLeft() / 6000)));
  const tally = await runKillLoop({ dir, kills, seed, failureRate: 0.1 + (seed % 4) / 10, killAfterMs: [100, 1500], drainTimeoutMs: 120_000, log: (l) => say(`  ${l}`) });
  totals.kills.loops++;
  totals.kills.kills += tally.kills;
  totals.kills.acknowledged += tally.acknowledged;
  totals.kills.delivered += tally.delivered;
  totals.kills.duplicates += tally.duplicateDeliveries;
  totals.kills.receiverFailures += tally.receiverFailures;
  say(`SIGKILL loop: ${JSON.stringify(tally)}`);
  rmSync(dir, { recursive: true, force: true });
}

/** Mounts a 24 MB tmpfs when allowed; null otherwise. */
function mountTmpfs(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const point = join(scratch, 'tmpfs');
  mkdirSync(point);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', point], { stdio: 'ignore' });
    mounted = point;
    return point;
  } catch {
    return null;
  }
}

async function diskFullTurn(seed: number): Promise<void> {
  const tmpfs = totals.diskFull.runs === 0 ? mountTmpfs() : null;
  const dir = tmpfs ?? mkdtempSync(join(scratch, 'full-'));
  const ballast = join(dir, 'ballast');
  const { running, dataDir } = await startFuzzServe(dir);
  const db = internalsOf(running.core).store.db;
  const how = tmpfs ? 'a 24 MB tmpfs' : "SQLite's max_page_count";
  if (!totals.diskFull.how.includes(how)) totals.diskFull.how.push(how);
  const basic = `Basic ${Buffer.from(`${FUZZ_WRITE_KEY}:`).toString('base64')}`;
  const acknowledged = new Set<string>();
  let refused = 0;
  const post = async (tag: string) => {
    const ids = Array.from({ length: 10 }, (_, i) => `${tag}-${seed}-${i}`);
    const body = JSON.stringify({ batch: ids.map((messageId) => ({ type: 'track', userId: 'u', event: 'Full', messageId, properties: { pad: messageId.repeat(1500) } })) });
    const res = await request(`${running.info.url}/v1/batch`, { method: 'POST', headers: { authorization: basic }, body });
    const text = await res.body.text();
    if (res.statusCode === 200) for (const id of ids) acknowledged.add(id);
    else if (res.statusCode === 503 && text.includes('full')) refused++;
    else throw new Violation(`a full disk answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return res.statusCode;
  };
  // Only ingestion is measured here: forwarding would fill the room freed below with the receiver's captures.
  await running.core.pauseForwarding();
  try {
    if (tmpfs) writeFileSync(ballast, Buffer.alloc(4 << 20)); // room to free later
    else db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 200}`);
    let n = 0;
    while ((await post(`fill${n}`)) === 200) if (++n > 10_000) throw new Violation('the disk never filled');
    for (let i = 0; i < 5; i++) await post(`more${i}`);
    if (tmpfs) rmSync(ballast);
    else db.pragma('max_page_count = 1073741823');
    if ((await post('after')) !== 200) throw new Violation('writes did not resume once there was room');
  } finally {
    await running.stop();
  }
  await checkDurable(dataDir, acknowledged);
  totals.diskFull.runs++;
  totals.diskFull.accepted += acknowledged.size;
  totals.diskFull.refused503 += refused;
  say(`disk full (${how}): ${acknowledged.size} calls accepted and durable, ${refused} batches refused 503 naming the full disk, writes resumed`);
  if (tmpfs) {
    execFileSync('umount', [tmpfs], { stdio: 'ignore' });
    mounted = null;
  }
}

/**
 * Slow connections: 3,000 sockets that send half their headers and 300 that send headers and half a body hold the
 * server while the typed API and ingestion are asked; each must answer within a few seconds, with a real answer.
 */
async function slowConnectionsTurn(seed: number): Promise<void> {
  const dir = mkdtempSync(join(scratch, 'slow-'));
  const { running } = await startFuzzServe(dir);
  const url = new URL(running.info.url);
  const sockets: import('node:net').Socket[] = [];
  const { connect } = await import('node:net');
  const open = (first: string) =>
    new Promise<void>((resolve) => {
      const s = connect(Number(url.port), url.hostname, () => {
        s.write(first);
        resolve();
      });
      s.on('error', () => resolve());
      sockets.push(s);
    });
  try {
    const slowHeaders = 3000 + (seed % 500);
    for (let i = 0; i < slowHeaders; i++) await open('POST /v1/batch HTTP/1.1\r\nHost: x\r\n');
    for (let i = 0; i < 300; i++) await open(`POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nAuthorization: Basic ${Buffer.from(`${FUZZ_WRITE_KEY}:`).toString('base64')}\r\n\r\n{"batch":`);
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const api = await request(`${running.info.url}/api/getClock`, { method: 'POST', headers: { authorization: `Bearer ${running.info.token}`, 'content-type': 'application/json' }, body: '{}', headersTimeout: 5000 });
      if (api.statusCode !== 200) throw new Violation(`the typed API answered ${api.statusCode} while slow connections held the server`);
      await api.body.dump();
      const ingest = await request(`${running.info.url}/v1/track`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${FUZZ_WRITE_KEY}:`).toString('base64')}`, 'content-type': 'application/json' }, body: JSON.stringify({ userId: `slow-${i}`, event: 'Slow' }), headersTimeout: 5000 });
      if (ingest.statusCode !== 200) throw new Violation(`ingestion answered ${ingest.statusCode} while slow connections held the server`);
      await ingest.body.dump();
      if (Date.now() - started > 5000) throw new Violation('an answer took more than 5 s while slow connections held the server');
    }
    say(`slow connections: ${slowHeaders} slow-header and 300 slow-body sockets; the typed API and ingestion answered every time`);
  } finally {
    for (const s of sockets) s.destroy();
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

say(`soak for ${minutes} min, seed ${baseSeed}`);
const phases: [string, (seed: number) => Promise<void>][] = [
  ['ingest fuzz', ingestTurn],
  ['config fuzz', configTurn],
  ['SIGKILL loop', killTurn],
  ['disk full', diskFullTurn],
  ['slow connections', slowConnectionsTurn],
];
for (let turn = 0; timeLeft() > 0; turn++) {
  const [name, run] = phases[turn % phases.length]!;
  const seed = baseSeed + turn;
  try {
    // A turn that hangs is a violation too (e.g. a serve that never stops).
    const limit = Math.max(timeLeft(), 0) + 180_000;
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Violation(`the ${name} turn did not finish within ${Math.round(limit / 1000)} s`)), limit)));
    await Promise.race([run(seed), hung]).finally(() => clearTimeout(timer));
  } catch (e) {
    fail(name, e, seed);
  }
  totals.turns++;
}
printTally();
console.log(`\nsoak: ${totals.turns} turns in ${minutes} min, no violation`);
rmSync(scratch, { recursive: true, force: true });
process.exit(0);
