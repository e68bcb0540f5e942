/**
 * `npm run bench -- --only first-screen`: how long a person waits for the first screen, as a ratio to the
 * floor. A workbench (bench/firstScreenServe.ts: startWorkbench, what `hookbench serve` runs) holds `messages`
 * messages (1,000 by default, sent through /v1/batch and delivered to the bench's receiver) and one finished
 * Check run, and serves the built UI (dist/renderer) and, beside it, a hand-written page that fetches the 50
 * newest messages as JSON (POST /api/listMessages) and renders them as rows: the floor, from the same server.
 *
 * Debian's Chromium (playwright-core) opens each page in a fresh browser context (empty cache), in
 * alternating order within a round: the hand-written page, Live (`#/live`), History (`#/history`), a
 * message's detail (`#/live/<id>`) and Check's report (`#/check/<run>`). A script the page runs before its
 * own looks for what the person waits for at every animation frame, and notes when it is first there (ms
 * from navigation start): a message row in the grid named Messages, the top bar's counters with numbers, the
 * detail pane naming the message, the report's summary. Each round's ratio is the median of its loads ÷ the
 * median of the hand-written page's loads; the round with the median Live ratio stands for the run.
 *
 * Judged: Live's first row ÷ the hand-written page, and Live's counters ÷ the same (< 2 each). History,
 * the detail and the report are reported as ratios to the same page. Without Chromium or a built UI the case
 * is skipped, saying why.
 */
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkBenchChild, startReceiver, type Receiver } from './child.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { INGEST_BATCH, INGEST_WRITE_KEY, SHARED_SECRET, sdkBatchBody } from './workload.js';

export const FIRST_SCREEN_TARGET = 2;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RENDERER = join(ROOT, 'dist', 'renderer');
const COMMAND = 'npm run build:renderer && npm run bench -- --only first-screen';
/** What the hand-written page asks for: what fits on a screen. */
const BASELINE_ROWS = 50;
const LOAD_LIMIT_MS = 30_000;
const DELIVERED_LIMIT_MS = 60_000;

/** The pages measured, the hand-written one first, and what each waits for. */
const PAGES = {
  baseline: { what: 'the hand-written page: 50 rows fetched as JSON and rendered', marks: ['row'] },
  live: { what: 'Live (#/live): the first message row; the top bar\'s counters', marks: ['row', 'counters'] },
  history: { what: 'History (#/history): the first message row', marks: ['row', 'counters'] },
  detail: { what: 'a message\'s detail (#/live/<id>): the pane naming the message', marks: ['detail'] },
  check: { what: 'Check\'s report (#/check/<run>): its summary', marks: ['report'] },
} as const;
type PageName = keyof typeof PAGES;
type Mark = 'row' | 'counters' | 'detail' | 'report';
const PAGE_NAMES = Object.keys(PAGES) as PageName[];

export interface FirstScreenOptions {
  messages: number;
  /** Loads of each page in a round. */
  loads: number;
  rounds: number;
  /** A temp dir for the workbench's data and the UI it serves. */
  dir: string;
}

/** One load of one page: ms from navigation start until each mark was first seen, and the requests it made. */
export interface Load {
  marks: Partial<Record<Mark, number>>;
  domContentLoadedMs: number;
  firstContentfulPaintMs: number | null;
  /** The typed API's requests: command, ms from navigation start when sent and answered, bytes on the wire and decoded. */
  api: { command: string; startMs: number; endMs: number; transferBytes: number; decodedBytes: number }[];
  /** Every script and stylesheet fetched, the same way. */
  assets: { file: string; startMs: number; endMs: number; decodedBytes: number }[];
}

export interface FirstScreenRound {
  loads: Record<PageName, Load[]>;
  /** Median ms of each page's main mark (and Live's counters). */
  medianMs: Record<PageName | 'liveCounters' | 'historyCounters', number>;
}

export interface FirstScreenResult {
  skipped: string | null;
  command: string;
  messages: number;
  loadsPerRound: number;
  rounds: FirstScreenRound[];
  /** Each round's Live ratio, in the order measured. */
  liveRatios: number[];
  /** The round with the median Live ratio, and its ratios. */
  chosen: number;
  ratios: { liveRow: number; liveCounters: number; history: number; historyCounters: number; detail: number; check: number };
  medianMs: FirstScreenRound['medianMs'];
}

function skipped(reason: string, options: FirstScreenOptions): FirstScreenResult {
  const zero = { liveRow: 0, liveCounters: 0, history: 0, historyCounters: 0, detail: 0, check: 0 };
  const ms = { baseline: 0, live: 0, history: 0, detail: 0, check: 0, liveCounters: 0, historyCounters: 0 };
  return { skipped: reason, command: COMMAND, messages: options.messages, loadsPerRound: options.loads, rounds: [], liveRatios: [], chosen: -1, ratios: zero, medianMs: ms };
}

/** The floor: what a developer writes to show the newest messages, as plainly as it gets. */
const BASELINE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Messages</title>
<style>body{margin:0;font:13px/1.4 system-ui,sans-serif}[role=row]{display:flex;gap:12px;height:28px;align-items:center;padding:0 12px;border-bottom:1px solid #e3e6eb}[role=gridcell]{white-space:nowrap}</style>
<script type="module" src="./bench-baseline.js"></script>
</head><body><div role="grid" aria-label="Messages"></div></body></html>
`;
const BASELINE_JS = `const token = new URL(location.href).searchParams.get('token');
const response = await fetch('./api/listMessages', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
  body: JSON.stringify({ limit: ${BASELINE_ROWS} }),
});
const result = await response.json();
const grid = document.querySelector('[role="grid"]');
for (const m of result.value.items) {
  const row = document.createElement('div');
  row.setAttribute('role', 'row');
  for (const text of ['#' + m.id, new Date(m.receivedAt).toLocaleTimeString(), m.type, m.event ?? '', m.userId ?? '', m.status]) {
    const cell = document.createElement('div');
    cell.setAttribute('role', 'gridcell');
    cell.textContent = text;
    row.append(cell);
  }
  grid.append(row);
}
`;

/**
 * Run in every page before its own scripts: at each animation frame (the frame it is painted in), notes when
 * each awaited mark is first in the document. (Page scripts as text: this file is compiled without the DOM's types.)
 */
const probe = (marks: readonly Mark[]): string => `
  window.__firstScreen = {};
  const tests = {
    row: () => document.querySelector('[role="grid"][aria-label="Messages"] [role="gridcell"]'),
    counters: () => document.querySelector('[role="group"][aria-label="Counters"] button:not([disabled])'),
    detail: () => { const h = document.querySelector('section[aria-label="Message details"] header h2'); return h && h.textContent !== 'Message'; },
    report: () => /passed/.test(document.querySelector('[aria-label="Report"] [aria-label="Summary"]')?.textContent ?? ''),
  };
  const wanted = ${JSON.stringify(marks)};
  const frame = () => {
    for (const mark of wanted) if (window.__firstScreen[mark] === undefined && tests[mark]()) window.__firstScreen[mark] = performance.now();
    if (wanted.some((mark) => window.__firstScreen[mark] === undefined)) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
`;

/** What the page says of its load, read once every mark is there. */
const READ_LOAD = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const resources = performance.getEntriesByType('resource');
  const api = resources.filter((r) => new URL(r.name).pathname.startsWith('/api/'))
    .map((r) => ({ command: new URL(r.name).pathname.slice(5), startMs: r.startTime, endMs: r.responseEnd, transferBytes: r.transferSize, decodedBytes: r.decodedBodySize }));
  const assets = resources.filter((r) => /\\.(js|css)$/.test(new URL(r.name).pathname))
    .map((r) => ({ file: new URL(r.name).pathname.split('/').pop(), startMs: r.startTime, endMs: r.responseEnd, decodedBytes: r.decodedBodySize }));
  return { marks: window.__firstScreen, domContentLoadedMs: nav ? nav.domContentLoadedEventEnd : 0, firstContentfulPaintMs: fcp ? fcp.startTime : null, api, assets };
})()`;

interface Workbench {
  url: string;
  token: string;
  call<T>(command: string, input: unknown): Promise<T>;
  stop(): Promise<void>;
}

async function startWorkbench(dataDir: string, uiDir: string): Promise<Workbench> {
  const child = forkBenchChild('firstScreenServe.js', 'first-screen workbench', [dataDir, uiDir]);
  const info = await child.next((m) => ((m as { type?: string }).type === 'ready' ? (m as { info: { url: string; token: string } }).info : undefined), 'ready report', 60_000);
  return {
    url: info.url,
    token: info.token,
    async call<T>(command: string, input: unknown): Promise<T> {
      const res = await fetch(`${info.url}/api/${command}`, { method: 'POST', headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const result = (await res.json()) as { ok: true; value: T } | { ok: false; error: { message: string } };
      if (!result.ok) throw new Error(`first-screen: ${command}: ${result.error.message}`);
      return result.value;
    },
    async stop() {
      const exited = new Promise((resolve) => child.child.once('exit', resolve));
      child.child.send({ type: 'stop' });
      const late = setTimeout(() => child.kill(), 15_000);
      await exited;
      clearTimeout(late);
    },
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1] ?? Number.NaN;
};

export async function runFirstScreen(options: FirstScreenOptions, progress: (line: string) => void): Promise<FirstScreenResult> {
  const noChromium = chromiumMissing();
  if (noChromium) {
    progress(noChromium);
    return skipped(noChromium, options);
  }
  if (!existsSync(join(RENDERER, 'index.html'))) {
    const reason = `skipped: the UI is not built (${join(RENDERER, 'index.html')} is missing): run npm run build:renderer first`;
    progress(reason);
    return skipped(reason, options);
  }
  // The built UI as serve ships it, and the hand-written page beside it.
  const uiDir = join(options.dir, 'ui');
  cpSync(RENDERER, uiDir, { recursive: true });
  writeFileSync(join(uiDir, 'bench-baseline.html'), BASELINE_HTML);
  writeFileSync(join(uiDir, 'bench-baseline.js'), BASELINE_JS);

  const receiver: Receiver = await startReceiver();
  let workbench: Workbench | null = null;
  const browser = await launchChromium();
  try {
    workbench = await startWorkbench(join(options.dir, 'data'), uiDir);
    const wb = workbench;
    const source = await wb.call<{ id: string }>('createSource', { name: 'bench sdk', kind: 'server', writeKey: INGEST_WRITE_KEY });
    await wb.call('createDestination', { name: 'bench receiver', enabled: true, sharedSecret: SHARED_SECRET, url: receiver.urls[0], sources: [source.id] });
    await receiver.stats(); // reset its counters
    const authorization = `Basic ${Buffer.from(`${INGEST_WRITE_KEY}:`).toString('base64')}`;
    const idPrefix = `node-next-${Date.now()}-f1257c00`;
    for (let first = 0; first < options.messages; first += INGEST_BATCH) {
      const count = Math.min(INGEST_BATCH, options.messages - first);
      const res = await fetch(`${wb.url}/v1/batch`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: sdkBatchBody(first, count, idPrefix, Date.now()) });
      if (res.status !== 200) throw new Error(`first-screen: /v1/batch answered ${res.status}: ${await res.text()}`);
    }
    let delivered = 0;
    const deadline = performance.now() + DELIVERED_LIMIT_MS;
    while (delivered < options.messages) {
      if (performance.now() > deadline) throw new Error(`first-screen: ${delivered} of ${options.messages} deliveries reached the receiver within ${DELIVERED_LIMIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      delivered += (await receiver.stats()).requests;
    }
    // One Check run, finished, for its report.
    const run = await wb.call<{ id: number }>('runCheck', { url: receiver.urls[0], secret: SHARED_SECRET, only: ['status.valid-request', 'shapes.track'] });
    for (;;) {
      const status = (await wb.call<{ status: string }>('getCheckRun', { id: run.id })).status;
      if (status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const newest = (await wb.call<{ items: { id: number }[] }>('listMessages', { limit: 1 })).items[0]!.id;
    const urls: Record<PageName, string> = {
      baseline: `${wb.url}/bench-baseline.html?token=${wb.token}`,
      live: `${wb.url}/?token=${wb.token}#/live`,
      history: `${wb.url}/?token=${wb.token}#/history`,
      detail: `${wb.url}/?token=${wb.token}#/live/${newest}`,
      check: `${wb.url}/?token=${wb.token}#/check/${run.id}`,
    };
    progress(`${options.messages.toLocaleString('en-US')} messages stored and delivered, check run #${run.id} finished; ${options.rounds} rounds of ${options.loads} loads of each page, each in a fresh browser context`);

    const load = async (name: PageName): Promise<Load> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
      try {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await page.addInitScript(probe(PAGES[name].marks));
        await page.goto(urls[name]);
        // A function, not a string: the page's content security policy forbids eval.
        const seen = (marks: readonly Mark[]): boolean => {
          const found = (globalThis as { __firstScreen?: Partial<Record<Mark, number>> }).__firstScreen;
          return found !== undefined && marks.every((m) => found[m] !== undefined);
        };
        await page.waitForFunction(seen, PAGES[name].marks, { timeout: LOAD_LIMIT_MS });
        if (errors.length) throw new Error(`first-screen: ${name}: the page threw: ${errors[0]}`);
        return await page.evaluate<Load>(READ_LOAD);
      } finally {
        await context.close();
      }
    };
    // Warm the server's paths (and the disk cache) once: the first request of a fresh process is not what a person meets.
    for (const name of PAGE_NAMES) await load(name);

    const rounds: FirstScreenRound[] = [];
    for (let r = 0; r < options.rounds; r++) {
      const loads = Object.fromEntries(PAGE_NAMES.map((n) => [n, [] as Load[]])) as Record<PageName, Load[]>;
      for (let i = 0; i < options.loads; i++) for (const name of PAGE_NAMES) loads[name].push(await load(name));
      const at = (name: PageName, mark: Mark) => median(loads[name].map((l) => l.marks[mark]!));
      const medianMs = {
        baseline: at('baseline', 'row'),
        live: at('live', 'row'),
        liveCounters: at('live', 'counters'),
        history: at('history', 'row'),
        historyCounters: at('history', 'counters'),
        detail: at('detail', 'detail'),
        check: at('check', 'report'),
      };
      rounds.push({ loads, medianMs });
      progress(
        `round ${r + 1} of ${options.rounds}: hand-written ${Math.round(medianMs.baseline)} ms; Live row ${Math.round(medianMs.live)} ms (÷ ${(medianMs.live / medianMs.baseline).toFixed(2)}), ` +
          `counters ${Math.round(medianMs.liveCounters)} ms; History ${Math.round(medianMs.history)} ms; detail ${Math.round(medianMs.detail)} ms; Check's report ${Math.round(medianMs.check)} ms`,
      );
    }
    const liveRatios = rounds.map((r) => r.medianMs.live / r.medianMs.baseline);
    const chosen = liveRatios.indexOf(median(liveRatios));
    const m = rounds[chosen]!.medianMs;
    return {
      skipped: null,
      command: COMMAND,
      messages: options.messages,
      loadsPerRound: options.loads,
      rounds,
      liveRatios,
      chosen,
      ratios: {
        liveRow: m.live / m.baseline,
        liveCounters: m.liveCounters / m.baseline,
        history: m.history / m.baseline,
        historyCounters: m.historyCounters / m.baseline,
        detail: m.detail / m.baseline,
        check: m.check / m.baseline,
      },
      medianMs: m,
    };
  } finally {
    await browser.close();
    await workbench?.stop();
    receiver.kill();
  }
}

export function printFirstScreen(r: FirstScreenResult, formatTable: (head: string[], body: string[][]) => string): void {
  console.log('\nfirst screen: a fresh browser context opening each page, ms from navigation start (median of the chosen round)');
  if (r.skipped) {
    console.log(`  ${r.skipped}`);
    console.log(`  rerun: ${r.command}`);
    return;
  }
  const ms = (v: number) => Math.round(v).toLocaleString('en-US');
  const rows: [string, number, number | null][] = [
    [PAGES.baseline.what, r.medianMs.baseline, null],
    ['Live (#/live): the first message row', r.medianMs.live, r.ratios.liveRow],
    ['Live: the top bar\'s counters', r.medianMs.liveCounters, r.ratios.liveCounters],
    [PAGES.history.what, r.medianMs.history, r.ratios.history],
    [PAGES.detail.what, r.medianMs.detail, r.ratios.detail],
    [PAGES.check.what, r.medianMs.check, r.ratios.check],
  ];
  console.log(formatTable(['page', 'ms', '÷ hand-written'], rows.map(([what, v, ratio]) => [what, ms(v), ratio === null ? '=' : ratio.toFixed(2)])));
  console.log(`  ${r.messages.toLocaleString('en-US')} messages stored; ${r.rounds.length} alternating rounds of ${r.loadsPerRound} loads a page; Live ÷ hand-written by round: ${r.liveRatios.map((x) => x.toFixed(2)).join(', ')} (target < ${FIRST_SCREEN_TARGET})`);
  // The waterfall of Live's median load in the chosen round: what started when.
  const loads = r.rounds[r.chosen]!.loads.live;
  const typical = [...loads].sort((a, b) => a.marks.row! - b.marks.row!)[(loads.length - 1) >> 1]!;
  console.log(`  Live's median load: DOMContentLoaded ${ms(typical.domContentLoadedMs)} ms, first contentful paint ${typical.firstContentfulPaintMs === null ? '?' : ms(typical.firstContentfulPaintMs)} ms, first row ${ms(typical.marks.row!)} ms, counters ${ms(typical.marks.counters!)} ms`);
  for (const a of typical.api) console.log(`    api ${a.command.padEnd(16)} ${ms(a.startMs).padStart(6)} → ${ms(a.endMs).padStart(6)} ms  ${ms(a.transferBytes).padStart(8)} bytes on the wire, ${ms(a.decodedBytes)} decoded`);
  for (const a of typical.assets) console.log(`    ${a.file!.padEnd(40)} ${ms(a.startMs).padStart(6)} → ${ms(a.endMs).padStart(6)} ms  ${ms(a.decodedBytes).padStart(8)} bytes decoded`);
  console.log(`  rerun: ${r.command}`);
}
