/**
 * `npm run bench -- --only history-fill`: listMessages over HTTP right after a big fill, while the history
 * index catches up, and once it has.
 *
 * A real `hookbench serve` (dist/main) with forwarding paused gets `messages` SDK calls (1,000,000 by
 * default) through `/v1/batch`, 100 a request, 4 in flight, with bench/history.ts's distributions (heavy
 * and rare users, rare events, rare words in 5 bodies each, 7 types), from two sources (one rare, with a
 * destination of its own). As soon as the last request is answered, every case's first page (50 rows) is
 * timed over HTTP (`POST /api/listMessages`, client side):
 *
 *   right after   `runs` rounds of every case, the first of them before the indexer has done anything
 *   indexing      a round every ROUND_GAP_MS while the history index is behind (read from the database
 *                 file through a read-only connection)
 *   caught up     `runs` rounds once it has caught up
 *
 * Every case is judged by its p95 in each phase against 50 ms, serve's peak RSS (VmHWM) against 200 MiB.
 * Each first page must hold the same ids in every phase (the index behind must not change an answer).
 * A text search over unindexed messages answers in short pages (`searching`): the first answer is what is
 * timed and judged, and the pages are followed as History does until 50 rows are shown or none are left;
 * that time is reported beside it (`whole`), and those 50 rows are the ids compared.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { MessageType } from '../main/contract/message/messageShapes.js';
import type { MessageFilter } from '../main/contract/messages.js';
import { callFor, EVENTS, HEAVY_SHARE, HEAVY_USERS, heavyUser, NORMAL_USERS, pickType, plants, RARE_EVENTS, RARE_USERS, RARE_WORDS, rareEvent, rareUser, rareWord } from './history.js';
import { startServe, type Serve } from './live.js';
import { seededRandom } from './seededRandom.js';

export const FILL_TARGETS = { p95Ms: 50, rssMiB: 200 } as const;
const PAGE = 50;
const BATCH = 100;
const IN_FLIGHT = 4;
/** Between two rounds while the index is behind. */
const ROUND_GAP_MS = 2_000;
/** The indexing phase gives up after this long (the row then says the index had not caught up). */
const CATCH_UP_LIMIT_MS = 1_800_000;
const SEED = 20_261_126;
/** One request in this many comes from the rare source. */
const RARE_SOURCE_EVERY = 500;

export interface FillOptions {
  messages: number;
  /** Rounds right after the fill and once caught up. */
  runs: number;
  /** A temp dir for the serve's data. */
  dir: string;
}

export interface FillTiming {
  runs: number;
  p50: number;
  p95: number;
  max: number;
  /** The history index's lag (messages) at the first and last run. */
  lagFirst: number;
  lagLast: number;
}

export interface FillCase {
  filter: string;
  variant: 'common' | 'rare';
  values: string;
  rows: number;
  after: FillTiming;
  during: FillTiming | null;
  caughtUp: FillTiming;
  /** Until the first page was whole, over the runs right after the fill, when some answer stopped early. */
  whole: FillTiming | null;
  /** First pages that differed from the caught-up one for the same value (must be 0). */
  mismatches: number;
  pass: boolean;
}

export interface FillResult {
  messages: number;
  fillSeconds: number;
  eventsPerSecond: number;
  /** From the last response of the fill until the index had caught up; null: not within the limit. */
  catchUpSeconds: number | null;
  rssPeakMiB: number;
  rssAfterFillMiB: number;
  /** Once the index had caught up (null: it had not). */
  rssCaughtUpMiB: number | null;
  /** The peak of the process's own memory (RssAnon: heaps, caches), without the pages of the Node binary. */
  anonPeakMiB: number;
  /** The 1, 5 and 15 minute load averages when the fill ended and when the run ended. */
  loadAfterFill: number[];
  loadAtEnd: number[];
  cases: FillCase[];
  passed: number;
  total: number;
  rssPass: boolean;
}

interface Spec {
  filter: string;
  variant: 'common' | 'rare';
  values: MessageFilter[];
  describe: string;
}

// ------------------------------------------------------------------ the fill

interface Fill {
  webKey: string;
  iosKey: string;
}

/** The SDK call of message `i` (bench/history.ts's generator), as analytics-node puts it in a batch. */
function eventAt(i: number, r: () => number, planted: ReturnType<typeof plants>, sentAt: string): Record<string, unknown> {
  const plant = planted.get(i);
  let type: MessageType = plant ? 'track' : pickType(r);
  if (type === 'delete') type = 'track';
  let userId: string | null;
  if (plant?.user) userId = plant.user;
  else if (r() < HEAVY_SHARE) userId = heavyUser((r() * HEAVY_USERS) | 0);
  else userId = `user-${(r() * NORMAL_USERS) | 0}`;
  const anonymousId = `anon-${(r() * 1e9) | 0}`;
  const call = callFor(type, i, r, userId, anonymousId, plant);
  return { type, ...call, messageId: `fill-${i}`, timestamp: sentAt, integrations: {} };
}

async function fill(serve: Serve, keys: Fill, n: number, progress: (line: string) => void): Promise<{ ms: number; startedAt: number; endedAt: number }> {
  const r = seededRandom(SEED);
  const planted = plants(n, r);
  const agent = new Agent({ connections: IN_FLIGHT, pipelining: 1 });
  const requests = Math.ceil(n / BATCH);
  let next = 0;
  let done = 0;
  const startedAt = Date.now();
  const t0 = performance.now();
  const body = (k: number): { key: string; bytes: Buffer } => {
    const sentAt = new Date().toISOString();
    const batch = [];
    for (let i = k * BATCH; i < Math.min(n, (k + 1) * BATCH); i++) batch.push(eventAt(i, r, planted, sentAt));
    const key = k % RARE_SOURCE_EVERY === RARE_SOURCE_EVERY / 2 ? keys.iosKey : keys.webKey;
    return { key, bytes: Buffer.from(JSON.stringify({ batch, sentAt }), 'utf8') };
  };
  const worker = async (): Promise<void> => {
    while (next < requests) {
      const { key, bytes } = body(next++);
      const res = await request(`${serve.url}/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-length': String(bytes.length) },
        body: bytes,
        dispatcher: agent,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`history-fill: /v1/batch answered ${res.statusCode}: ${text.slice(0, 200)}`);
      if (++done % 1000 === 0) progress(`${(done * BATCH).toLocaleString('en-US')} calls sent`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const ms = performance.now() - t0;
  await agent.close();
  return { ms, startedAt, endedAt: Date.now() };
}

// ------------------------------------------------------------------ the cases

function specs(startedAt: number, endedAt: number, web: string, ios: string, legacy: string): Spec[] {
  const span = endedAt - startedAt;
  const ids = (k: number, make: (i: number) => string, count: number): string[] => Array.from({ length: k }, (_, j) => make((j * 7) % count));
  // Windows of 1 % of the fill among its first 10 %: a newest-first scan of the unindexed reads 90 % first.
  const early = Array.from({ length: 10 }, (_, j) => ({ from: startedAt + Math.round((span * j) / 100), to: startedAt + Math.round((span * (j + 1)) / 100) }));
  const late = Array.from({ length: 10 }, (_, j) => ({ from: startedAt + Math.round((span * (50 + j * 4)) / 100), to: endedAt + 1000 }));
  return [
    { filter: '(none)', variant: 'common', values: [{}], describe: 'no filter' },
    { filter: 'type', variant: 'rare', values: [{ type: 'alias' }, { type: 'group' }], describe: 'alias, group' },
    { filter: 'sourceId', variant: 'rare', values: [{ sourceId: ios }], describe: `the rare source (1 request in ${RARE_SOURCE_EVERY})` },
    { filter: 'sourceId', variant: 'common', values: [{ sourceId: web }], describe: 'the common source' },
    { filter: 'destinationId', variant: 'rare', values: [{ destinationId: legacy }], describe: "the rare source's own destination" },
    { filter: 'userId', variant: 'common', values: ids(10, heavyUser, HEAVY_USERS).map((userId) => ({ userId })), describe: 'heavy users' },
    { filter: 'userId', variant: 'rare', values: ids(10, rareUser, RARE_USERS).map((userId) => ({ userId })), describe: 'users with 3 messages' },
    { filter: 'event', variant: 'common', values: EVENTS.slice(0, 10).map((event) => ({ event })), describe: 'the 10 most common' },
    { filter: 'event', variant: 'rare', values: ids(10, rareEvent, RARE_EVENTS).map((event) => ({ event })), describe: 'events with 5 messages' },
    { filter: 'text', variant: 'common', values: ['espresso', 'CHROME', 'checkout', 'burr grinder', 'example shop'].map((text) => ({ text })), describe: 'espresso, CHROME, …' },
    { filter: 'text', variant: 'rare', values: ids(10, rareWord, RARE_WORDS).map((text) => ({ text })), describe: 'words in 5 bodies' },
    { filter: 'from+to', variant: 'common', values: late, describe: 'from mid-fill to now' },
    { filter: 'from+to', variant: 'rare', values: early, describe: '1 % of the fill, early' },
    { filter: 'type+userId', variant: 'rare', values: ids(10, rareUser, RARE_USERS).map((userId) => ({ type: 'track' as const, userId })), describe: 'track + users with 3 messages' },
  ];
}

interface Sample {
  ms: number;
  /** Until 50 rows (or the end) had come, following pages that stopped early. */
  wholeMs: number;
  /** Some page stopped early. */
  partial: boolean;
  lag: number;
  key: string;
  ids: string;
}

/** listMessages' answer, as far as the bench reads it. */
interface Page {
  items: { id: number }[];
  nextCursor: string | null;
  searching?: { left: number };
}

function timing(samples: Sample[], of: 'ms' | 'wholeMs' = 'ms'): FillTiming {
  const sorted = samples.map((s) => s[of]).sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return { runs: sorted.length, p50: rank(50), p95: rank(95), max: sorted.at(-1)!, lagFirst: samples[0]!.lag, lagLast: samples.at(-1)!.lag };
}

/** Where a process's resident memory is: anonymous (heaps, SQLite's caches), file-backed (the binary), shared. */
function rssParts(pid: number): string {
  return (['RssAnon', 'RssFile', 'RssShmem'] as const).map((f) => `${f} ${Math.round(rssOf(pid, f))} MiB`).join(', ');
}

/** One figure of /proc/<pid>/status, in MiB (0 when the kernel does not give it). */
function rssOf(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssFile' | 'RssShmem'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

// ------------------------------------------------------------------ the run

export async function runHistoryFill(options: FillOptions, progress: (line: string) => void): Promise<FillResult> {
  const dataDir = join(options.dir, 'data');
  const serve = await startServe(dataDir);
  let db: Database.Database | null = null;
  try {
    const web = await serve.call<{ id: string; writeKey: string }>('createSource', { name: 'web', kind: 'web', writeKey: 'wk_fill_web_0123456789' });
    const ios = await serve.call<{ id: string; writeKey: string }>('createSource', { name: 'ios (rare)', kind: 'mobile', writeKey: 'wk_fill_ios_0123456789' });
    await serve.call('createDestination', { name: 'warehouse', enabled: true, url: 'http://127.0.0.1:9/warehouse', sources: [web.id, ios.id] });
    const legacy = await serve.call<{ id: string }>('createDestination', { name: 'legacy (rare)', enabled: true, url: 'http://127.0.0.1:9/legacy', sources: [ios.id] });
    await serve.call('pauseForwarding', {});
    const startedSaying = serve.stderr().length;
    progress(`serve pid ${serve.pid} (forwarding paused); sending ${options.messages.toLocaleString('en-US')} calls through /v1/batch`);

    let rssPeak = 0;
    let anonPeak = 0;
    const sampler = setInterval(() => {
      try {
        rssPeak = Math.max(rssPeak, rssOf(serve.pid, 'VmRSS'));
        anonPeak = Math.max(anonPeak, rssOf(serve.pid, 'RssAnon'));
      } catch {
        // the process is gone; the run fails below
      }
    }, 200);
    try {
      const filled = await fill(serve, { webKey: 'wk_fill_web_0123456789', iosKey: 'wk_fill_ios_0123456789' }, options.messages, progress).catch((e: unknown) => {
        throw new Error(`${e instanceof Error ? e.message : String(e)}; serve said: ${serve.stderr().slice(-3000) || 'nothing'}`);
      });
      const rssAfterFill = rssOf(serve.pid, 'VmRSS');
      const loadAfterFill = loadavg();
      const filledAt = performance.now();
      progress(`filled in ${(filled.ms / 1000).toFixed(1)} s; RSS ${rssAfterFill.toFixed(0)} MiB (${rssParts(serve.pid)}); timing first pages (load ${loadAfterFill.map((l) => l.toFixed(2)).join(' ')})`);

      db = new Database(join(dataDir, 'hookbench.db'), { readonly: true, fileMustExist: true });
      const lagStatement = db.prepare<[], number>('SELECT coalesce((SELECT max(id) FROM messages), 0) - (SELECT covered FROM history_state WHERE id = 1)').pluck();
      const lag = (): number => lagStatement.get()!;
      const cases = specs(filled.startedAt, filled.endedAt, web.id, ios.id, legacy.id);
      const samples = { after: new Map<Spec, Sample[]>(), during: new Map<Spec, Sample[]>(), caughtUp: new Map<Spec, Sample[]>() };
      const rowsOf = new Map<Spec, number[]>();
      const agent = new Agent({ connections: 1, pipelining: 1 });
      const round = async (k: number, into: Map<Spec, Sample[]>): Promise<void> => {
        for (const spec of cases) {
          const filter = spec.values[k % spec.values.length]!;
          const behind = lag();
          const t0 = performance.now();
          const page = async (cursor: string | null): Promise<Page> => {
            const res = await request(`${serve.url}/api/listMessages`, {
              method: 'POST',
              headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ ...filter, limit: PAGE, ...(cursor ? { cursor } : {}) }),
              dispatcher: agent,
            });
            const answer = (await res.body.json()) as { ok: boolean; value?: Page; error?: { message: string } };
            if (!answer.ok || !answer.value) throw new Error(`history-fill: listMessages ${JSON.stringify(filter)}: ${answer.error?.message ?? res.statusCode}`);
            return answer.value;
          };
          let answer = await page(null);
          const ms = performance.now() - t0;
          let items = answer.items;
          const partial = answer.searching !== undefined;
          while (answer.searching && answer.nextCursor && items.length < PAGE) {
            answer = await page(answer.nextCursor);
            items = items.concat(answer.items);
          }
          const wholeMs = performance.now() - t0;
          items = items.slice(0, PAGE);
          const list = into.get(spec) ?? [];
          list.push({ ms, wholeMs, partial, lag: behind, key: JSON.stringify(filter), ids: items.map((m) => m.id).join(',') });
          into.set(spec, list);
          const rows = rowsOf.get(spec) ?? [];
          rows.push(items.length);
          rowsOf.set(spec, rows);
        }
      };
      for (let k = 0; k < options.runs; k++) await round(k, samples.after);
      const report = (phase: string, into: Map<Spec, Sample[]>): void => {
        for (const spec of cases) {
          const list = into.get(spec);
          if (list) progress(`${phase}: ${spec.filter} (${spec.variant}) p95 ${ms(timing(list).p95)} ms over ${list.length} runs`);
        }
      };
      report('right after', samples.after);
      progress(`right after: ${options.runs} rounds in ${((performance.now() - filledAt) / 1000).toFixed(1)} s, the index ${lag().toLocaleString('en-US')} behind`);
      let k = 0;
      let quietUntil = startedSaying;
      let catchUpSeconds: number | null = null;
      while (performance.now() - filledAt < CATCH_UP_LIMIT_MS) {
        if (lag() <= 0) {
          catchUpSeconds = (performance.now() - filledAt) / 1000;
          break;
        }
        await round(k++, samples.during);
        if (k % 10 === 0) progress(`indexing: ${lag().toLocaleString('en-US')} behind after ${((performance.now() - filledAt) / 1000).toFixed(0)} s`);
        const said = serve.stderr().slice(quietUntil);
        if (said.trim()) progress(`serve said: ${said.trim().slice(0, 2000)}`);
        quietUntil += said.length;
        await new Promise((resolve) => setTimeout(resolve, ROUND_GAP_MS));
      }
      report('indexing', samples.during);
      const rssCaughtUp = catchUpSeconds === null ? null : rssOf(serve.pid, 'VmRSS');
      progress(`RSS ${rssOf(serve.pid, 'VmRSS').toFixed(0)} MiB (${rssParts(serve.pid)})`);
      progress(catchUpSeconds === null ? `the index had not caught up after ${CATCH_UP_LIMIT_MS / 1000} s` : `caught up ${catchUpSeconds.toFixed(1)} s after the fill`);
      // The indexer merges the search index's segments right after catching up.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      for (let j = 0; j < options.runs; j++) await round(j, samples.caughtUp);
      await agent.close();

      const results: FillCase[] = cases.map((spec) => {
        const truth = new Map(samples.caughtUp.get(spec)!.map((s) => [s.key, s.ids]));
        const all = [...samples.after.get(spec)!, ...(samples.during.get(spec) ?? []), ...samples.caughtUp.get(spec)!];
        const mismatches = all.filter((s) => truth.has(s.key) && truth.get(s.key) !== s.ids).length;
        const after = timing(samples.after.get(spec)!);
        const during = samples.during.get(spec) ? timing(samples.during.get(spec)!) : null;
        const caughtUp = timing(samples.caughtUp.get(spec)!);
        const whole = samples.after.get(spec)!.some((s) => s.partial) ? timing(samples.after.get(spec)!, 'wholeMs') : null;
        const rows = rowsOf.get(spec)!;
        const pass = mismatches === 0 && [after, during, caughtUp].every((t) => t === null || t.p95 < FILL_TARGETS.p95Ms);
        return { filter: spec.filter, variant: spec.variant, values: spec.describe, rows: rows.reduce((a, b) => a + b, 0) / rows.length, after, during, caughtUp, whole, mismatches, pass };
      });
      const peak = Math.max(rssPeak, rssOf(serve.pid, 'VmHWM'));
      return {
        messages: options.messages,
        fillSeconds: filled.ms / 1000,
        eventsPerSecond: options.messages / (filled.ms / 1000),
        catchUpSeconds,
        rssPeakMiB: peak,
        rssAfterFillMiB: rssAfterFill,
        rssCaughtUpMiB: rssCaughtUp,
        anonPeakMiB: anonPeak,
        loadAfterFill,
        loadAtEnd: loadavg(),
        cases: results,
        passed: results.filter((c) => c.pass).length,
        total: results.length,
        rssPass: peak < FILL_TARGETS.rssMiB,
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    db?.close();
    await serve.stop();
  }
}

// ------------------------------------------------------------------ report

const ms = (v: number): string => (v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0));
const k = (lag: number): string => (lag >= 1000 ? `${Math.round(lag / 1000)}k` : String(lag));

export function printHistoryFill(h: FillResult, format: (head: string[], body: string[][]) => string): void {
  console.log(
    `\nhistory-fill: listMessages over HTTP after ${h.messages.toLocaleString('en-US')} calls through /v1/batch ` +
      `(${h.fillSeconds.toFixed(1)} s, ${Math.round(h.eventsPerSecond).toLocaleString('en-US')} calls/s); ` +
      `${h.catchUpSeconds === null ? 'the history index had not caught up at the end' : `the history index caught up ${h.catchUpSeconds.toFixed(0)} s after the fill`}; ` +
      `load ${h.loadAfterFill.map((l) => l.toFixed(2)).join(' ')} after the fill, ${h.loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at the end\n`,
  );
  const head = ['filter', 'values', 'rows', 'right after p95', 'behind', 'indexing p95', 'runs', 'caught up p95', `< ${FILL_TARGETS.p95Ms} ms p95`];
  const body = h.cases.map((c) => [
    `${c.filter} (${c.variant})`,
    c.values,
    c.rows.toFixed(0),
    ms(c.after.p95),
    `${k(c.after.lagFirst)}→${k(c.after.lagLast)}`,
    c.during ? ms(c.during.p95) : '—',
    c.during ? String(c.during.runs) : '0',
    ms(c.caughtUp.p95),
    c.mismatches ? `MISS (${c.mismatches} pages differ)` : c.pass ? 'PASS' : 'MISS',
  ]);
  console.log(format(head, body));
  console.log(`  ms per first page of ${PAGE} (POST /api/listMessages, client side); behind = the history index's lag over the right-after runs`);
  console.log(`  right after: the first rounds once the last /v1/batch was answered; indexing: a round every ${ROUND_GAP_MS / 1000} s while the index is behind`);
  for (const c of h.cases.filter((x) => x.whole)) {
    console.log(`  ${c.filter} (${c.variant}) right after: pages stopped early (searching); ${PAGE} rows or the end came in p50 ${ms(c.whole!.p50)} / p95 ${ms(c.whole!.p95)} ms, pages followed as History does`);
  }
  console.log(
    `  serve's RSS: ${h.rssAfterFillMiB.toFixed(0)} MiB after the fill, ${h.rssCaughtUpMiB === null ? '—' : h.rssCaughtUpMiB.toFixed(0)} MiB once caught up, peak ${h.rssPeakMiB.toFixed(0)} MiB (target < ${FILL_TARGETS.rssMiB}) ${h.rssPass ? 'PASS' : 'MISS'}; ` +
      `its own memory (RssAnon, without the Node binary's pages) peaked at ${h.anonPeakMiB.toFixed(0)} MiB`,
  );
  console.log(`\nhistory-fill: ${h.passed}/${h.total} cases within ${FILL_TARGETS.p95Ms} ms p95 in every phase, each first page the same in every phase`);
}
