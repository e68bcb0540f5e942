/**
 * docs/performance.md, written by `npm run bench` and by nothing else: what the bench measures, its targets,
 * and the latest result of every figure with the run that measured it (machine, Node, load). The results
 * are kept in the file itself (a JSON comment at its end), so a run that measures part of the bench
 * (`--only`) replaces its own rows and keeps the others, marked with the earlier run they come from.
 * A row is known by its name with the numbers taken out (`time travel: N ÷ N messages ...`), so a run with
 * other sizes replaces it instead of adding another. What the code does because a measurement said so is
 * listed once (DECISIONS), so docs/architecture.md can say what the code does and point here for why; the
 * story of each change belongs in its commit message.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface BenchRun {
  /** When the run started, ISO 8601 UTC. */
  at: string;
  command: string;
  node: string;
  platform: string;
  cores: number;
  cpuModel: string | null;
  /** os.loadavg() (1, 5, 15 min) when the run started and when it ended: the machine may be shared. */
  loadStart: number[];
  loadEnd: number[];
}

export interface DocRow {
  name: string;
  value: number;
  unit?: string | undefined;
  /** Absent for a figure that has no target (reported for context). */
  target?: number | undefined;
  /** `min`: value ≥ target passes; `max`: value < target passes. */
  kind?: 'min' | 'max' | undefined;
  pass?: boolean | undefined;
}

interface StoredRow extends DocRow {
  /** The `at` of the run that measured it. */
  run: string;
}

interface Stored {
  runs: BenchRun[];
  rows: StoredRow[];
}

const DATA_START = '<!-- bench-data (written by npm run bench, read back by its next run; do not edit)';
const DATA_END = '-->';

const rowKey = (name: string): string => name.replace(/\d[\d,.]*/g, 'N');

/** The results a previous run left in the file, or none. */
export function readStored(doc: string | null): Stored {
  const start = doc?.lastIndexOf(DATA_START) ?? -1;
  if (!doc || start < 0) return { runs: [], rows: [] };
  const body = doc.slice(start + DATA_START.length, doc.indexOf(DATA_END, start));
  try {
    const parsed = JSON.parse(body) as Stored;
    return Array.isArray(parsed.runs) && Array.isArray(parsed.rows) ? parsed : { runs: [], rows: [] };
  } catch {
    return { runs: [], rows: [] };
  }
}

/** A contender's rows are named `<contender>: <figure>`; other rows (the checks) stand alone. */
const familyOf = (key: string): string | null => (key.includes(': ') ? key.slice(0, key.indexOf(': ')) : null);

/**
 * The rows of this run replace those with the same name, and every earlier row of a contender it measured
 * (a figure the bench no longer writes, or writes under another name, goes with them); the rest are kept with
 * the run they came from.
 */
export function mergeRows(previous: Stored, run: BenchRun, rows: readonly DocRow[]): Stored {
  const fresh = new Set(rows.map((r) => rowKey(r.name)));
  const families = new Set(rows.map((r) => familyOf(rowKey(r.name))).filter((f) => f !== null));
  const kept = previous.rows.filter((r) => {
    const key = rowKey(r.name);
    const family = familyOf(key);
    return !fresh.has(key) && (family === null || !families.has(family));
  });
  const all = [...rows.map((r) => ({ ...r, run: run.at })), ...kept];
  const used = new Set(all.map((r) => r.run));
  const runs = [run, ...previous.runs.filter((r) => r.at !== run.at && used.has(r.at))];
  return { runs, rows: all };
}

const num = (v: number): string => (Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2));
const cell = (text: string): string => text.replace(/\|/g, '\\|');

function runLabel(stored: Stored, at: string): string {
  const i = stored.runs.findIndex((r) => r.at === at);
  return i === 0 ? 'latest' : `earlier (${at.slice(0, 10)})`;
}

/** Design choices a measurement decided, each with what it measured; docs/architecture.md points here. */
const DECISIONS: readonly string[] = [
  '- **Few indexes on `messages` and `deliveries`.** Each is paid by every message on the hot paths. Migration 004 dropped two delivery indexes (~5 % on `raw,engine`); migration 007 dropped `messages.user_id`: user ids arrive in no order, so each insert dirtied a page of its own at commit, a large share of an ingested message\'s SQLite work; migration 008 keeps the messageId alone in the dedupe index. Failed deliveries are indexed by partial indexes only, so deliveries that succeed pay nothing for them.',
  '- **The call as received is stored compact** (`storedJson.ts`): an SDK track call takes ~180 bytes instead of ~650, and a commit costs per page it writes, which the checkpoint copies again. A call through sendMessages (the engine case) is stored the same way: 3 payload rows a page became 6, and the WAL writes and checkpoint copies of `raw,engine` fell by a fifth (pwrite 107k → 87k, pread 49k → 36k for 40,000 deliveries).',
  '- **25 rows a statement, shared values bound once.** Binding was a fifth of the SQLite work of an ingested message (`perf`), most of it per value; one statement for 25 rows costs less than 25 statements. Recording rounds the same way (attempts 25 to an INSERT, deliveries and messages 25 to an `UPDATE … FROM (VALUES …)`): an attempt row 3.1 → 2.7 µs and a status update 1.7 → 1.3 µs alone, 69.3 → 65.8 µs CPU per delivery in `raw,engine` (three alternating pairs).',
  '- **Dedupe joins `json_each` of the ids on the dedupe index** (`CROSS JOIN` keeps the order); `IN (SELECT … DISTINCT)` built two temporary tables and took twice as long for 100 new ids.',
  '- **Checkpoints finish together** (`store/walCheckpoint.ts`). Before, under sustained ingestion the main thread had always committed again by the time a PASSIVE checkpoint ended, so the WAL grew to `wal_autocheckpoint`\'s 20,000 pages (~80 MB) before the main thread\'s own checkpoint emptied it, and every commit wrote into new parts of the file, which the kernel allocates and zeroes first.',
  '- **Ingestion\'s calls cross threads column by column** (`PreparedCalls`): about half the time of an object a call.',
  '- **A job\'s entry in `JobWorker.pending` drops its resolvers once settled.** V8 copies a Map with that churn into a new table every few jobs, and the scavenger keeps whatever an old object points at: a table a full GC had promoted kept every request\'s parsed calls alive until the next full GC, which promoted the next table, a cycle that kept the collector busy for as long as ingestion ran (`--trace-gc-nvp` shows it).',
  '- **serve runs with `--max-semi-space-size=4` and `MALLOC_ARENA_MAX=2`** (`cli/relaunch.ts`): V8 grew the main thread\'s young generation to ~30 MiB during a fill and each worker\'s to several, and glibc keeps an arena per thread once grown. The page caches are 4 MiB (the engine\'s connection), 256 KiB (checkpoints) and 1 MiB (history index): after a million calls serve\'s resident memory is ~25 MiB lower at its peak and 20–40 MiB lower once the index has caught up, with no difference in `raw,engine`, `ingest` or `history-fill`.',
  '- **Forwarding contenders warm up as long as they are measured** (at most 20,000 messages). The forwarder thread is a new V8 isolate for every core; after a 2,000-message warm-up V8 was still compiling the engine\'s path in the measured run (~850 optimisations, a quarter of a core on V8\'s own threads).',
  '- **The engine\'s ceiling is the machine\'s CPU, not one thread.** At ~20,000 deliveries/s on 2 cores (per thread from /proc) the main thread was 62–68 % busy, the forwarder thread ~48 %, V8\'s own threads ~20 % (about 8 points of it garbage collection: `--single-threaded-gc` moves them to the main thread) and the background thread ~7 %, beside the receiver in its own process: the two cores were full. Moving work from one thread to another cannot raise the rate; only less CPU per delivery can. The bench now reports it by thread (the figures above): 73 µs a delivery became ~50, of which the engine\'s thread ~23 (intake ~10, recording and claiming ~9), the worker threads ~23 (the forwarder\'s HTTP, about raw\'s own cost, and the background thread\'s checkpoints ~3), V8\'s threads 4–7; raw\'s is 29–34. What is left on the engine\'s thread is mostly SQLite: eight row writes a delivery (the message, its payload and its delivery; the claim marks the delivery and the message `delivering`; the attempt, and the delivery\'s and message\'s new status) and their commits.',
  '- **A round costs no promise and crosses as arrays.** The scheduler hands a round to the forwarder\'s thread with callbacks (`JobWorker.send`, `Forwarder.sendRoundThen`), and that thread carries each request through its origin\'s gate and undici the same way (`OriginGate.enter`, `sendToWebhookThen`), releasing the slot in a microtask after undici\'s own call; each of these removed 1.8–2 µs a delivery. A round crosses as an array of its fields and its results come back the same way (1.7 µs: the structured clone writes every key of every object), its body as text read by `CAST(body AS TEXT)` (1.8 µs: a BLOB is a Buffer with its own backing store), and an attempt\'s headers as the JSON text the row stores, which the forwarder\'s thread writes (1.4 µs). Each measured in alternating pairs of `raw,engine` runs (commit messages).',
  '- **A round keeps little while it is out.** What outlives a scavenge is paid again by every collection after it (a sampling heap profile that drops what the young generation collects shows it): the claimed delivery lets go of its body once the round is handed over (2.4 µs a delivery), and a round to webhooks that resolve to themselves keeps no per-round copy of them (a destination\'s targets are built once per webhooks array; 2.3 µs). What is left of it is mostly the answers waiting for the next tick\'s transaction.',
  '- **The CPU a delivery covers the timed part only.** It is measured from the contender\'s `ready()` to its `measured()`, which the engine calls once its last result is logged, the same window as its deliveries/s and its figures by thread; before, it also counted the bench\'s own checks of what the engine stored and closing the core, 51–54 ms a run (2.6 µs a delivery at 20,000).',
  '- **Foreign keys are declared, not enforced; triggers cascade.** Enforced, a cascade from a delivery looked its attempts up by `delivery_id`, which has no index (migration 004), so retention read the whole attempts table for every delivery it removed: 100 messages took 2,373 ms at 400,000 attempts, holding the engine\'s thread; through `attempts_message` (migration 015) they take 1.2 ms. Enforcement also cost every row inserted a lookup of its parent: ingestion\'s SQLite 5.33 → 5.04 µs an event, the engine\'s thread in `ingest-paused` 8.2 → 7.9 µs (three alternating pairs).',
  '- **Every write of the engine\'s thread tells the history index\'s thread first** (`Store.transaction`, and `announceWrites` for a statement run outside one). SQLite\'s busy handler sleeps between tries, and the index\'s thread, not told, took the write lock chunk after chunk: while it caught up after 100,000 calls, a lone write waited up to 2,232 ms (now 37 ms), and keeping the newest 1,000 of 100,000 messages took 66.5 s, holding the event loop up to 4.2 s at a time (now 3.2 s, at most 36 ms).',
  '- **Ingestion looks for numbers beyond a double in the pass that measures nesting** (`jsonStructure`), not with a regular expression over the text: the expression\'s `\\d{309,}` half was tried at every digit, 0.6 µs an event on the ingestion thread.',
  '- **What an ingested event costs, and why `/v1/batch` stays below the plain server.** SQLite alone, 100 events a transaction without checkpoints: Hookbench\'s three rows and five index entries 5.0–5.5 µs and 2,409 bytes of WAL an event, the plain server\'s one row 2.2 µs and 939 bytes; SQLite\'s cost follows the bytes written (most of it is the kernel copying WAL pages). By part: the payload (the body that is signed and sent, and the call) 2.0 µs; the delivery with its two indexes 1.45; the dedupe, status and time indexes 0.7, 0.6 and 0.5. With the HTTP server, dedupe and routing the engine\'s thread spends ~8 µs an event, the ingestion thread ~5 and the background thread ~1.4: ~15 µs against the plain server\'s 7, on two cores that the load generator shares. Tried and not kept: committing more requests together (waiting, at most 1 ms, while the ingestion thread has requests in hand: the engine\'s thread 8.2 → 7.3–7.7 µs an event, but 96,000 → 83,000–89,000 events/s, since its commits no longer overlap that thread\'s work); pages of 8 and 64 KiB (SQLite 6.1 → 7.0 and 12.1 µs an event); a shorter stored call (the payload rows still fit four a page: the same bytes written); checkpoints every second instead of every 200 ms (no difference in `raw,engine`).',
  '- **A claim still marks its deliveries and messages `delivering`.** Leaving the rows as they were while a round is out, with the claimed ids in memory and each claim skipping them in the due index, saved ~1.5 µs a delivery in `raw,engine`-like runs (three alternating pairs, about 3 %), for a status that would say `queued` while the round is out unless every reader asked the engine. A young generation of 64 MB for the forwarder\'s thread made no difference measurable.',
  '- **The first screen asks nothing of Intl.** The first Intl format a fresh browser process makes loads the locale\'s data: 15–20 ms of the main thread in a fresh Chromium context (the next format 0.1 ms), which the top bar\'s clock paid in the first render. A worker that made the formats first helped only when it finished before that render; `lib/format.ts` now writes times, days and counts itself.',
];

export function renderPerformanceDoc(stored: Stored): string {
  const checks = stored.rows.filter((r) => r.target !== undefined);
  const figures = stored.rows.filter((r) => r.target === undefined);
  const earlier = stored.rows.some((r) => r.run !== stored.runs[0]?.at);
  const out: string[] = [
    '# Performance',
    '',
    '<!-- Written by `npm run bench` (bench/performanceDoc.ts) from its results; a hand edit is overwritten by the next run. -->',
    '',
    'What `npm run bench` measures, the targets, and the latest result of each. Every judged figure is a',
    'ratio to a baseline measured in the same run on the same machine (a raw HTTP loop, a plain',
    'server), never a timed test: this machine\'s speed moves by ±30 % from one minute to the next, the',
    'ratios much less. Pairs whose ratio is judged run in alternating rounds (`--rounds N`, default 3) and',
    'the round with the median ratio stands for them. The bench never runs as a test.',
    '',
    '## What it measures',
    '',
    '| case (`--only …`) | what it measures | target |',
    '|---|---|---|',
    '| `raw,engine` | deliveries/s through the engine (signed, every attempt logged in SQLite) to a local receiver in another process ÷ a raw undici POST loop (256 in flight, 16 connections) to the same receiver; and the engine\'s own deliveries/s; the process\'s CPU per delivery (every thread) over the timed part (the engine: first send to last result logged, not the bench\'s own checks of what it stored nor closing the core) ÷ raw\'s. Both after a warm-up as long as the run (at most 20,000 messages), in the steady state an app lives in | ≥ 0.8; ≥ 5,000/s; CPU < 1.5 |',
    '| `naive` | the engine ÷ a naive forwarder (fetch + one INSERT per delivery) | ≥ 3 |',
    '| `latency` | the same against slow webhooks (32 origins answering after 50 ms): the engine ÷ raw, and the engine\'s adaptive in-flight window ÷ a fixed one of 256 | ≥ 0.6; ≥ 1.2 |',
    '| `ingest` | `/v1/batch` (100 SDK events a request from a load-generator process) accepted and persisted with forwarding paused ÷ the server a user would write (`node:http`, `JSON.parse`, one better-sqlite3 row per call); and, with the engine draining, end to end (first request → last delivery logged) ÷ raw measured right before and after | ≥ 1.0; end to end ≥ 0.8 |',
    '| `live` | the Live view in Chromium while `serve` delivers 1,000 events/s: share of wall time in long tasks, the renderer\'s JS heap | < 10 %; < 150 MB |',
    '| `first-screen` | a fresh browser context (empty cache) opening the UI with 1,000 messages stored, ms from navigation start until the first message row of Live, and until the top bar\'s counters, each ÷ a hand-written page that fetches 50 rows as JSON and renders them, served by the same server; History, a message\'s detail and Check\'s report opened the same way, as ratios to that page | Live < 2 (row and counters) |',
    '| `history` | listMessages and getOverview at 1,000,000 stored messages | every case < 50 ms p95 |',
    '| `history-fill` | a first page of listMessages over HTTP (`serve`, 14 filters, common and rare values) right after 1,000,000 calls through `/v1/batch`, every 2 s while the history index catches up (on the background thread), and once it has; each first page the same in every phase; `serve`\'s peak RSS | every case < 50 ms p95 in every phase; < 200 MiB |',
    '| `time-travel` | a +4 h clock jump over 1 and over N messages to an endpoint that never answers: the honest jump is not slower for more messages, Fast-forward unanswered attempts finishes in seconds, every message fails | see the table |',
    '| (full run only) | the 5 s timeout against a server that never answers | fires within 5,000–5,100 ms |',
    '',
    'Run it with `npm run bench` (about 13 minutes, the history part 6–8 of them; `-- --help` lists the',
    'options). A run with `--only` measures part of the bench and replaces only its own rows below; the',
    'other rows stay, marked with the earlier run that measured them. The raw results of the last full run',
    'are in `bench/results/latest.json` (not committed).',
    '',
    '## Latest results',
    '',
  ];
  if (!stored.rows.length) {
    out.push('No run has written results yet.', '');
  } else {
    if (earlier) out.push('Rows marked *earlier* come from an earlier run than the latest one (a `--only` run measured the rest).', '');
    if (checks.length) {
      out.push('| measure | value | target | verdict | run |', '|---|---:|---|---|---|');
      for (const r of checks) {
        const target = `${r.kind === 'max' ? '<' : '≥'} ${num(r.target!)}${r.unit ? ` ${r.unit}` : ''}`;
        out.push(`| ${cell(r.name)} | ${num(r.value)}${r.unit ? ` ${r.unit}` : ''} | ${target} | ${r.pass ? 'pass' : '**miss**'} | ${runLabel(stored, r.run)} |`);
      }
      out.push('');
    }
    if (figures.length) {
      out.push('Figures behind the ratios (no target of their own):', '', '| figure | value | run |', '|---|---:|---|');
      for (const r of figures) out.push(`| ${cell(r.name)} | ${num(r.value)}${r.unit ? ` ${r.unit}` : ''} | ${runLabel(stored, r.run)} |`);
      out.push('');
    }
    out.push('## Measured decisions', '', 'What the code does because a measurement decided it (docs/architecture.md says what the code does):', '', ...DECISIONS, '');
    out.push('## The runs', '', '| run | started (UTC) | command | machine | load average (1/5/15 min) at start → end |', '|---|---|---|---|---|');
    for (const run of stored.runs) {
      const load = (l: number[]) => l.map((x) => x.toFixed(2)).join('/');
      out.push(
        `| ${runLabel(stored, run.at)} | ${run.at.slice(0, 16).replace('T', ' ')} | \`${cell(run.command)}\` | ${run.cores} cores${run.cpuModel ? ` (${cell(run.cpuModel)})` : ''}, Node ${run.node}, ${run.platform} | ${load(run.loadStart)} → ${load(run.loadEnd)} |`,
      );
    }
    out.push('', 'A load average near or above the number of cores means other work shared the machine during the run.', '');
  }
  out.push(DATA_START, JSON.stringify(stored, null, 1), DATA_END, '');
  return out.join('\n');
}

/** Merges this run's rows into the file and writes it; answers how many rows were kept from earlier runs. */
export function writePerformanceDoc(file: string, run: BenchRun, rows: readonly DocRow[]): { kept: number } {
  const previous = readStored(existsSync(file) ? readFileSync(file, 'utf8') : null);
  const stored = mergeRows(previous, run, rows);
  writeFileSync(file, renderPerformanceDoc(stored));
  return { kept: stored.rows.length - rows.length };
}
