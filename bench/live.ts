/**
 * `npm run bench -- --only live`: the Live view under load. A real `hookbench serve` (dist/main, serving the
 * built UI in dist/renderer) delivers to the bench's fast receiver; Debian's Chromium (playwright-core, the
 * flags of the end-to-end tests) has the UI open on Live while a feeder here posts /v1/batch requests of
 * 100 SDK events at `rate` events a second for `seconds` (each event one delivery). Measured in the page
 * over that window:
 *
 * - long tasks: the share of wall time inside tasks over 50 ms (PerformanceObserver 'longtask'); target < 10 %
 * - dropped frames: requestAnimationFrame gaps over 1.5 frame periods, each counted as the frames it missed
 * - the renderer's JS heap (CDP Performance.getMetrics JSHeapUsedSize, sampled every 500 ms); target < 150 MB
 * - the main thread's busy share (CDP TaskDuration over wall time), for context
 *
 * The run counts only if every event was accepted, every delivery reached the receiver, and the list shows
 * the newest messages (capped at LIVE_CAP rows). Without Chromium or a built UI it is skipped, saying why.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReceiver, type Receiver } from './child.js';
import { CHROMIUM, chromiumMissing, launchChromium } from './chromium.js';
import { INGEST_BATCH, INGEST_WRITE_KEY, SHARED_SECRET, sdkBatchBody } from './workload.js';

export const LIVE_TARGETS = { longTaskShare: 0.1, heapMB: 150 } as const;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'main', 'cli.js');
const RENDERER = join(ROOT, 'dist', 'renderer', 'index.html');
/** The Live list's cap (renderer/src/stores/live.ts, LIVE_CAP, held equal by a test): the grid holds at most this many rows. */
export const LIVE_CAP = 500;
const DRAIN_LIMIT_MS = 60_000;
const FIRST_LOADS = 5;

export interface LiveOptions {
  seconds: number;
  /** Events (each one delivery) a second; a multiple of 100. */
  rate: number;
  /** A temp dir for the serve's data. */
  dir: string;
}

export interface LiveResult {
  /** Why the case did not run (no Chromium, no built UI), or null. */
  skipped: string | null;
  command: string;
  seconds: number;
  rate: number;
  /** Events accepted (200) and deliveries the receiver got. */
  events: number;
  delivered: number;
  /** Deliveries/s the receiver saw over the feed window. */
  deliveredPerSecond: number;
  windowMs: number;
  longTasks: number;
  longTaskMs: number;
  longTaskShare: number;
  longestTaskMs: number;
  frames: number;
  droppedFrames: number;
  droppedShare: number;
  framePeriodMs: number;
  frameGapP95Ms: number;
  heapUsedMB: { start: number; max: number; end: number };
  mainThreadBusyShare: number;
  /** Rows in the Live grid at the end (it is capped). */
  rows: number;
  /** A fresh browser context opening Live with everything stored: ms until the first row is visible, per load. */
  firstRowMs: number[];
}

const COMMAND = 'npm run build:renderer && npm run bench -- --only live';

function skipped(reason: string, options: LiveOptions): LiveResult {
  return {
    skipped: reason,
    command: COMMAND,
    seconds: options.seconds,
    rate: options.rate,
    events: 0,
    delivered: 0,
    deliveredPerSecond: 0,
    windowMs: 0,
    longTasks: 0,
    longTaskMs: 0,
    longTaskShare: 0,
    longestTaskMs: 0,
    frames: 0,
    droppedFrames: 0,
    droppedShare: 0,
    framePeriodMs: 0,
    frameGapP95Ms: 0,
    heapUsedMB: { start: 0, max: 0, end: 0 },
    mainThreadBusyShare: 0,
    rows: 0,
    firstRowMs: [],
  };
}

export interface Serve {
  url: string;
  uiUrl: string;
  token: string;
  /** The serve process's pid (for its memory, read from /proc). */
  pid: number;
  /** What it has written to stderr so far. */
  stderr(): string;
  call<T>(command: string, input: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** `hookbench serve` from dist on port 0, found through its ready line and server.json. */
export async function startServe(dataDir: string): Promise<Serve> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--receiver-port', '0', '--receiver-tls-port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  });
  const killNow = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killNow);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      if (/^Hookbench ready: \S+$/m.test(stdout)) resolve();
    });
    child.once('close', (code) => reject(new Error(`live: hookbench serve exited (${code}) before it was ready:\n${stderr}`)));
  });
  const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { url: string; uiUrl: string; token: string };
  return {
    ...info,
    pid: child.pid!,
    stderr: () => stderr,
    async call<T>(command: string, input: unknown): Promise<T> {
      const res = await fetch(`${info.url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const result = (await res.json()) as { ok: true; value: T } | { ok: false; error: { message: string } };
      if (!result.ok) throw new Error(`live: ${command}: ${result.error.message}`);
      return result.value;
    },
    async stop() {
      process.off('exit', killNow);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGTERM');
      const late = setTimeout(killNow, 15_000);
      await exited;
      clearTimeout(late);
    },
  };
}

/** What the page records from before its first script runs (an init script): long tasks and frames. */
const PAGE_PROBE = `
  window.__bench = { longTasks: [], frames: [], recording: false };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const frame = (t) => {
    if (window.__bench.recording) window.__bench.frames.push(t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
`;

export async function runLive(options: LiveOptions, progress: (line: string) => void): Promise<LiveResult> {
  const noChromium = chromiumMissing();
  if (noChromium) {
    progress(noChromium);
    return skipped(noChromium, options);
  }
  if (!existsSync(RENDERER)) {
    const reason = `skipped: the UI is not built (${RENDERER} is missing): run npm run build:renderer first`;
    progress(reason);
    return skipped(reason, options);
  }
  const receiver: Receiver = await startReceiver();
  let serve: Serve | null = null;
  const browser = await launchChromium();
  try {
    serve = await startServe(join(options.dir, 'data'));
    const source = await serve.call<{ id: string }>('createSource', { name: 'bench sdk', kind: 'server', writeKey: INGEST_WRITE_KEY });
    await serve.call('createDestination', { name: 'bench receiver', enabled: true, sharedSecret: SHARED_SECRET, url: receiver.urls[0], sources: [source.id] });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.addInitScript(PAGE_PROBE);
    await page.goto(`${serve.uiUrl}#/live`);
    await page.getByRole('status', { name: 'Event stream: Live' }).waitFor();
    await page.getByRole('link', { name: 'Live', exact: true }).waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async (): Promise<Record<string, number>> =>
      Object.fromEntries(((await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }).metrics.map((m) => [m.name, m.value]));
    progress(`serve ${serve.url}, the UI open on Live in ${CHROMIUM}; feeding ${options.rate.toLocaleString('en-US')} events/s for ${options.seconds} s`);

    // The feeder: one /v1/batch of 100 events every 100 / rate seconds, on a schedule that does not drift.
    const batches = (options.rate / INGEST_BATCH) * options.seconds;
    const everyMs = (1000 * INGEST_BATCH) / options.rate;
    const idPrefix = `node-next-${Date.now()}-${randomBytes(4).toString('hex')}`;
    const authorization = `Basic ${Buffer.from(`${INGEST_WRITE_KEY}:`).toString('base64')}`;
    const bodies = Array.from({ length: batches }, (_, b) => sdkBatchBody(b * INGEST_BATCH, INGEST_BATCH, idPrefix, Date.now()));
    await receiver.stats(); // reset its counters
    const heap: number[] = [];
    const before = await metrics();
    heap.push(before['JSHeapUsedSize']!);
    const sampler = setInterval(() => {
      void metrics().then(
        (m) => heap.push(m['JSHeapUsedSize']!),
        () => undefined,
      );
    }, 500);
    // (Page scripts as text: this file is compiled without the DOM's types.)
    // An opt-in CPU profile of the page over the feed window, to find what the long tasks are made of.
    const profilePath = process.env['HOOKBENCH_LIVE_PROFILE'];
    const tracePath = process.env['HOOKBENCH_LIVE_TRACE'];
    if (tracePath) await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
    if (profilePath) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const windowStart = await page.evaluate<number>('window.__bench.recording = true, window.__bench.frames = [], performance.now()');
    const t0 = performance.now();
    const posts: Promise<number>[] = [];
    for (let b = 0; b < batches; b++) {
      const due = t0 + b * everyMs;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      posts.push(
        fetch(`${serve.url}/v1/batch`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: bodies[b]! }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      );
    }
    const statuses = await Promise.all(posts);
    const fedMs = Math.max(performance.now() - t0, options.seconds * 1000);
    const windowMs = fedMs;
    const page1 = await page.evaluate<{ frames: number[]; longTasks: [number, number][] }>(`(() => {
      const bench = window.__bench;
      bench.recording = false;
      const end = performance.now();
      return { frames: bench.frames, longTasks: bench.longTasks.filter(([t]) => t >= ${windowStart} && t <= end) };
    })()`);
    clearInterval(sampler);
    if (profilePath) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
      writeFileSync(profilePath, JSON.stringify(profile));
      progress(`CPU profile of the feed window written to ${profilePath}`);
    }
    if (tracePath) {
      const complete = new Promise<{ stream: string }>((resolve) => cdp.once('Tracing.tracingComplete', (e) => resolve(e as { stream: string })));
      await cdp.send('Tracing.end');
      const { stream } = await complete;
      const chunks: string[] = [];
      for (;;) {
        const { data, eof } = (await cdp.send('IO.read', { handle: stream })) as { data: string; eof: boolean };
        chunks.push(data);
        if (eof) break;
      }
      await cdp.send('IO.close', { handle: stream });
      writeFileSync(tracePath, chunks.join(''));
      progress(`trace of the feed window written to ${tracePath}`);
    }
    const after = await metrics();
    heap.push(after['JSHeapUsedSize']!);
    const deliveredInWindow = (await receiver.stats()).requests;

    // Every event accepted, every delivery made; the list shows the newest, capped.
    const refused = statuses.filter((s) => s !== 200).length;
    if (refused > 0) throw new Error(`live: ${refused} of ${batches} /v1/batch requests were not answered 200`);
    const events = batches * INGEST_BATCH;
    let delivered = deliveredInWindow;
    const deadline = performance.now() + DRAIN_LIMIT_MS;
    while (delivered < events) {
      if (performance.now() > deadline) throw new Error(`live: ${delivered} of ${events} deliveries reached the receiver ${DRAIN_LIMIT_MS / 1000} s after the last batch`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      delivered += (await receiver.stats()).requests;
    }
    const grid = page.getByRole('grid', { name: 'Messages' });
    const expectedRows = Math.min(events, LIVE_CAP) + 1; // + the header row
    // A locator, not a predicate: the page's content security policy forbids the eval a string predicate needs.
    await page.locator(`[role="grid"][aria-label="Messages"][aria-rowcount="${expectedRows}"]`).waitFor({ timeout: 30_000 });
    const rows = Number(await grid.getAttribute('aria-rowcount')) - 1;
    if (pageErrors.length) throw new Error(`live: the page threw: ${pageErrors[0]}`);

    // First load: a new context (empty cache) each time, from navigation to the first row on screen.
    const firstRowMs: number[] = [];
    for (let i = 0; i < FIRST_LOADS; i++) {
      const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
      const cold = await fresh.newPage();
      const start = performance.now();
      await cold.goto(`${serve.uiUrl}#/live`);
      await cold.getByRole('grid', { name: 'Messages' }).getByRole('row').filter({ has: cold.getByRole('gridcell') }).first().waitFor();
      firstRowMs.push(performance.now() - start);
      await fresh.close();
    }

    // Frames: the period is the median gap; a gap over 1.5 periods missed round(gap / period) - 1 frames.
    const gaps = page1.frames.slice(1).map((t, i) => t - page1.frames[i]!);
    const sortedGaps = [...gaps].sort((a, b) => a - b);
    const period = sortedGaps[sortedGaps.length >> 1] ?? 1000 / 60;
    let dropped = 0;
    for (const gap of gaps) if (gap > 1.5 * period) dropped += Math.round(gap / period) - 1;
    const longTaskMs = page1.longTasks.reduce((sum, [, d]) => sum + d, 0);
    const MB = 1_000_000;
    return {
      skipped: null,
      command: COMMAND,
      seconds: options.seconds,
      rate: options.rate,
      events,
      delivered,
      deliveredPerSecond: deliveredInWindow / (windowMs / 1000),
      windowMs,
      longTasks: page1.longTasks.length,
      longTaskMs,
      longTaskShare: longTaskMs / windowMs,
      longestTaskMs: page1.longTasks.reduce((max, [, d]) => Math.max(max, d), 0),
      frames: page1.frames.length,
      droppedFrames: dropped,
      droppedShare: dropped / Math.max(1, dropped + page1.frames.length),
      framePeriodMs: period,
      frameGapP95Ms: sortedGaps[Math.floor(sortedGaps.length * 0.95)] ?? 0,
      heapUsedMB: { start: heap[0]! / MB, max: Math.max(...heap) / MB, end: heap[heap.length - 1]! / MB },
      mainThreadBusyShare: ((after['TaskDuration'] ?? 0) - (before['TaskDuration'] ?? 0)) / (windowMs / 1000),
      rows,
      firstRowMs,
    };
  } finally {
    await browser.close();
    await serve?.stop();
    receiver.kill();
  }
}

export function printLive(r: LiveResult): void {
  console.log('\nlive: the Live view in Chromium while the engine delivers');
  if (r.skipped) {
    console.log(`  ${r.skipped}`);
    console.log(`  rerun: ${r.command}`);
    return;
  }
  const pct = (share: number): string => `${(100 * share).toFixed(1)}%`;
  console.log(
    `  fed ${r.events.toLocaleString('en-US')} events at ${r.rate.toLocaleString('en-US')}/s for ${r.seconds} s through /v1/batch; ` +
      `${r.delivered.toLocaleString('en-US')} delivered (${Math.round(r.deliveredPerSecond).toLocaleString('en-US')}/s within the window); the list shows ${r.rows.toLocaleString('en-US')} rows (capped at ${LIVE_CAP.toLocaleString('en-US')})`,
  );
  console.log(
    `  long tasks: ${r.longTasks} (${Math.round(r.longTaskMs)} ms, the longest ${Math.round(r.longestTaskMs)} ms) = ${pct(r.longTaskShare)} of ${(r.windowMs / 1000).toFixed(1)} s ` +
      `(target < ${pct(LIVE_TARGETS.longTaskShare)}); main thread busy ${pct(r.mainThreadBusyShare)}`,
  );
  console.log(
    `  frames: ${r.frames} drawn, ${r.droppedFrames} dropped (${pct(r.droppedShare)}; gaps over 1.5 × ${r.framePeriodMs.toFixed(1)} ms), frame gap p95 ${r.frameGapP95Ms.toFixed(1)} ms`,
  );
  console.log(
    `  JS heap: ${r.heapUsedMB.start.toFixed(1)} MB before, ${r.heapUsedMB.max.toFixed(1)} MB at most, ${r.heapUsedMB.end.toFixed(1)} MB after (target < ${LIVE_TARGETS.heapMB} MB)`,
  );
  const loads = [...r.firstRowMs].sort((a, b) => a - b);
  console.log(
    `  first Live row visible (a fresh browser context, ${r.events.toLocaleString('en-US')} messages stored): median ${Math.round(loads[loads.length >> 1] ?? 0)} ms, ` +
      `at most ${Math.round(loads.at(-1) ?? 0)} ms over ${loads.length} loads`,
  );
  console.log(`  rerun: ${r.command}`);
}
