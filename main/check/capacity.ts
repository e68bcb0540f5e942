/**
 * The capacity area (docs/check.md, "Capacity"): for N seconds, signed calls of the shapes real traffic has
 * go to the receiver exactly as the destination sends them (the forwarder's own sendToWebhook: its 16
 * connections per origin, its timeout, its outcome rules), with 16 always in flight, as fast as it answers.
 * The requests are the check's own: they never go through the engine, so no message, delivery or
 * destination is made.
 */
import { CAPACITY_FALL, capacityTrend, windowSeconds, type CapacitySecond, type CheckCapacity, type CheckExchange } from '../contract/check/check.js';
import { CAPACITY_CHECK_ID, CAPACITY_CONCURRENCY } from '../contract/check/checkInputs.js';
import type { MessageType } from '../contract/message/messageShapes.js';
import { CONNECTIONS_PER_ORIGIN, type SendResult } from '../delivery/webhookRequests.js';
import { evidenceOf, prepare, type Check, type CheckContext, type Judgement, type RequestSpec } from './runner.js';
import type { CheckSender } from './sender.js';

// The destination's own cap is what a capacity run keeps in flight: the two must never drift apart.
const sameCap: typeof CONNECTIONS_PER_ORIGIN extends typeof CAPACITY_CONCURRENCY ? true : never = true;
void sameCap;

const USER = 'hookbench-capacity-user';

/** The calls a capacity run cycles through: the shapes and sizes a real source sends, each built and signed afresh. */
const SHAPES: readonly { type: MessageType; call: (n: number) => Record<string, unknown> }[] = [
  {
    type: 'track',
    call: (n) => ({
      userId: `${USER}-${n % 97}`,
      event: 'Order Completed',
      properties: { orderId: `ord-${n}`, total: 84.5, currency: 'EUR', products: [{ sku: 'sku-1', name: 'Mug', price: 12.5, quantity: 2 }, { sku: 'sku-7', name: 'Tea', price: 59.5, quantity: 1 }] },
      context: { ip: '203.0.113.7', library: { name: 'analytics-node', version: '3.1.0' } },
    }),
  },
  { type: 'identify', call: (n) => ({ userId: `${USER}-${n % 97}`, traits: { email: `user${n % 97}@example.com`, name: 'Ada Lovelace', plan: 'pro', logins: n % 13 } }) },
  { type: 'page', call: (n) => ({ anonymousId: `anon-${n % 211}`, name: 'Pricing', category: 'Docs', properties: { url: 'https://example.com/pricing?plan=pro', referrer: 'https://example.com/' } }) },
  { type: 'track', call: (n) => ({ userId: `${USER}-${n % 97}`, event: 'Product Viewed', properties: { sku: `sku-${n % 50}`, price: 12.5 } }) },
  { type: 'screen', call: (n) => ({ userId: `${USER}-${n % 97}`, name: 'Checkout', properties: { step: (n % 3) + 1 } }) },
  { type: 'group', call: (n) => ({ userId: `${USER}-${n % 97}`, groupId: `acme-${n % 7}`, traits: { name: 'Acme', employees: 120 } }) },
];

function specOf(n: number): RequestSpec {
  const shape = SHAPES[n % SHAPES.length]!;
  return { label: `capacity delivery ${n + 1} (${shape.type})`, message: { type: shape.type, call: shape.call(n) }, sign: 'valid' };
}

/**
 * undici's own codes for what happened on the socket, in a user's words: `UND_ERR_SOCKET` is the receiver
 * closing the connection before it answered, which no one recognises by undici's name.
 */
const UNDICI_KINDS: Record<string, string> = {
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_HEADERS_OVERFLOW: 'response headers too large',
};

/** How a failed delivery is counted: its status, else the network error's code (undici's in words), else the outcome. */
export function errorKind(r: Pick<SendResult, 'outcome' | 'statusCode' | 'error'>): string {
  if (r.statusCode !== null) return `HTTP ${r.statusCode}`;
  if (r.outcome !== 'network_error') return r.outcome;
  const code = /^([A-Z][A-Z0-9_]+):/.exec(r.error ?? '')?.[1];
  return code ? (UNDICI_KINDS[code] ?? code) : 'network_error';
}

const succeeded = (r: Pick<SendResult, 'outcome' | 'statusCode'>): boolean => r.outcome === 'success' && r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/** The nearest-rank percentile of ascending values (null for none). */
export function percentileOf(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round1 = (v: number): number => Math.round(v * 10) / 10;
const ms = (v: number | null): number | null => (v === null ? null : round1(v));

export interface CapacityOutcome {
  capacity: CheckCapacity;
  /** The first delivery and the first of each kind of failure, as evidence (at most 5). */
  evidence: CheckExchange[];
  /** Every delivery failed to connect at all: the URL cannot be reached (set only when nothing succeeded). */
  unreachableError: string | null;
}

/** Durations in a growing typed array (a 300 s run at thousands a second keeps one number per delivery). */
class Durations {
  private values = new Float64Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = v;
  }

  sorted(): Float64Array {
    return this.values.slice(0, this.length).sort();
  }
}

/** The figures of a run as its answers come in: per delivery, per second, and the evidence kept. */
class CapacityTally {
  private readonly all = new Durations();
  private readonly perSecond: { durations: number[]; deliveries: number; errors: number }[];
  private readonly series: CapacitySecond[] = [];
  private readonly errors: Record<string, number> = {};
  readonly evidence: CheckExchange[] = [];
  private readonly evidenceKinds = new Set<string>();
  private timeouts = 0;
  private delivered = 0;
  private lastAnswer: number;
  private unreachable: string | null = null;

  constructor(
    private readonly ctx: CheckContext,
    private readonly seconds: number,
    private readonly expectRate: number | null,
    readonly started: number,
  ) {
    this.perSecond = Array.from({ length: seconds }, () => ({ durations: [], deliveries: 0, errors: 0 }));
    this.lastAnswer = started;
  }

  /** Counts the answer to delivery `n` in the second it came in, and keeps it as evidence when it is the first of its kind. */
  record(n: number, p: ReturnType<typeof prepare>, r: SendResult): void {
    const now = performance.now();
    this.lastAnswer = now;
    // An answer after the last second counts in it.
    const bucket = this.perSecond[Math.min(this.seconds - 1, Math.floor((now - this.started) / 1000))]!;
    this.all.push(r.durationMs);
    bucket.durations.push(r.durationMs);
    if (succeeded(r)) {
      this.delivered++;
      bucket.deliveries++;
    } else {
      bucket.errors++;
      if (r.outcome === 'timeout') this.timeouts++;
      else {
        const kind = errorKind(r);
        this.errors[kind] = (this.errors[kind] ?? 0) + 1;
      }
      if (this.delivered === 0 && r.outcome === 'network_error' && this.unreachable === null) this.unreachable = r.error ?? 'network error';
    }
    const kind = succeeded(r) ? 'success' : errorKind(r);
    if (this.evidence.length < 5 && !this.evidenceKinds.has(kind) && (n === 0 || kind !== 'success')) {
      this.evidenceKinds.add(kind);
      this.evidence.push(evidenceOf(p, r, this.ctx));
    }
  }

  /** Closes the seconds before `upTo`, in order; each keeps only its figures once closed. */
  close(upTo: number): void {
    const { series, seconds } = this;
    while (series.length < Math.min(upTo, seconds)) {
      const s = this.perSecond[series.length]!;
      const sorted = s.durations.sort((a, b) => a - b);
      series.push({ second: series.length + 1, deliveries: s.deliveries, p50: ms(percentileOf(sorted, 50)), p95: ms(percentileOf(sorted, 95)), errors: s.errors });
      s.durations = [];
    }
  }

  /** The figures so far, or the run's (`finished`: the rate over the whole run, answers still out included). */
  figures(finished: boolean): CheckCapacity {
    const { series, seconds } = this;
    const sorted = this.all.sorted();
    const elapsedS = Math.max(seconds, (this.lastAnswer - this.started) / 1000);
    return {
      concurrency: CAPACITY_CONCURRENCY,
      seconds,
      deliveriesPerSecond: finished ? round1(this.delivered / elapsedS) : round1(series.reduce((sum, s) => sum + s.deliveries, 0) / Math.max(1, series.length)),
      latencyMs: { p50: ms(percentileOf(sorted, 50)), p95: ms(percentileOf(sorted, 95)), p99: ms(percentileOf(sorted, 99)), max: ms(sorted.length ? sorted[sorted.length - 1]! : null) },
      errors: { ...this.errors },
      timeouts: this.timeouts,
      series: series.map((s) => ({ ...s })),
      timeoutMs: this.ctx.timing.timeoutMs,
      expectRate: this.expectRate,
      finished,
    };
  }

  /** The first network error, when nothing was delivered and every failure counted was an error (not only timeouts). */
  unreachableError(): string | null {
    return this.delivered === 0 && Object.keys(this.errors).length > 0 ? this.unreachable : null;
  }
}

type CapacityArgs = Parameters<typeof measureCapacity>[0];

/**
 * One delivery of the load. The workbench's own endpoint is told it is the check's load: answered as any
 * request, but not captured, since thousands of captures would push the user's own out of the kept ones.
 */
async function sendLoad(sender: CheckSender, ctx: CheckContext, p: ReturnType<typeof prepare>): Promise<SendResult> {
  const answered = ctx.expectLoad?.(ctx.url, p.bytes) ?? null;
  try {
    return await sender.send({ url: ctx.url, headers: p.headers, body: p.bytes, caFile: ctx.caFile });
  } finally {
    answered?.();
  }
}
/** A warm-up delivery: the request prepared and its answer. */
type WarmUp = { p: ReturnType<typeof prepare>; r: SendResult };

/**
 * One delivery per connection first, not counted: the destination's connections are open in steady
 * traffic, so opening them (and loading what sending needs) is no part of what the receiver sustains.
 */
function warmUp({ sender, ctx }: CapacityArgs): Promise<WarmUp[]> {
  return Promise.all(
    Array.from({ length: CAPACITY_CONCURRENCY }, async (_, i) => {
      const p = prepare(specOf(i), ctx);
      return { p, r: await sendLoad(sender, ctx, p) };
    }),
  );
}

/** Nothing connects at all: no measurement, and the service says whether that is "unreachable". */
function unreachableOutcome(args: CapacityArgs, warmed: WarmUp[]): CapacityOutcome {
  const first = warmed[0]!;
  const refused = first.r;
  const capacity: CheckCapacity = { concurrency: CAPACITY_CONCURRENCY, seconds: args.seconds, deliveriesPerSecond: 0, latencyMs: { p50: null, p95: null, p99: null, max: null }, errors: { [errorKind(refused)]: warmed.length }, timeouts: 0, series: [], timeoutMs: args.ctx.timing.timeoutMs, expectRate: args.expectRate, finished: true };
  args.onSecond(capacity);
  return { capacity, evidence: [evidenceOf(first.p, first.r, args.ctx)], unreachableError: refused.error ?? 'network error' };
}

/**
 * Once a second, the second that just ended is closed and announced, whether or not answers came in it;
 * the last one closes once the answers still out are in (they count in it). Returns what stops the ticks.
 */
function announceSeconds(args: CapacityArgs, tally: CapacityTally): () => void {
  let tick: NodeJS.Timeout | null = null;
  const scheduleTick = (k: number): void => {
    tick = setTimeout(() => {
      tally.close(k);
      args.onSecond(tally.figures(false));
      if (k + 1 < args.seconds) scheduleTick(k + 1);
    }, Math.max(0, tally.started + k * 1000 - performance.now()));
  };
  if (args.seconds > 1) scheduleTick(1);
  return () => {
    if (tick) clearTimeout(tick);
  };
}

/**
 * Runs the capacity measurement: `seconds` of deliveries with CAPACITY_CONCURRENCY in flight, then waits for
 * the answers still out. `onSecond` gets the figures so far once a second, and once more at the end
 * (`finished: true`). `stopped()` ends it early (Hookbench is stopping).
 */
export async function measureCapacity(args: {
  sender: CheckSender;
  ctx: CheckContext;
  seconds: number;
  expectRate: number | null;
  onSecond: (capacity: CheckCapacity) => void;
  stopped: () => boolean;
}): Promise<CapacityOutcome> {
  const { sender, ctx, seconds } = args;
  const warmed = await warmUp(args);
  if (warmed.every(({ r }) => r.outcome === 'network_error')) return unreachableOutcome(args, warmed);
  const started = performance.now();
  const end = started + seconds * 1000;
  const tally = new CapacityTally(ctx, seconds, args.expectRate, started);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (performance.now() < end && !args.stopped()) {
      const n = next++;
      const p = prepare(specOf(n), ctx);
      const r = await sendLoad(sender, ctx, p);
      tally.record(n, p, r);
    }
  };
  const stopTicks = announceSeconds(args, tally);
  try {
    await Promise.all(Array.from({ length: CAPACITY_CONCURRENCY }, worker));
  } finally {
    stopTicks();
  }
  tally.close(seconds);
  const capacity = tally.figures(true);
  args.onSecond(capacity);
  return { capacity, evidence: tally.evidence, unreachableError: tally.unreachableError() };
}

const plural = (n: number, word: string, words = `${word}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? word : words}`;
const msText = (v: number | null): string => (v === null ? '–' : `${Math.round(v)} ms`);

/** The figures in one line: rate, latency, errors. */
export function capacityFigures(c: CheckCapacity): string {
  const failed = Object.entries(c.errors).sort((a, b) => b[1] - a[1]);
  const errorText = failed.length === 0 && c.timeouts === 0 ? 'no errors, no timeouts' : [failed.map(([kind, n]) => `${kind} ×${n.toLocaleString('en-US')}`).join(', '), c.timeouts > 0 ? plural(c.timeouts, 'timeout') : ''].filter(Boolean).join(', ');
  const { p50, p95, p99, max } = c.latencyMs;
  return `${c.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s on average over ${c.seconds} s with ${c.concurrency} in flight; latency p50 ${msText(p50)}, p95 ${msText(p95)}, p99 ${msText(p99)}, max ${msText(max)}; ${errorText}`;
}

const OVERLOAD = (timeoutMs: number): string =>
  `When traffic exceeds what it sustains, deliveries queue behind the destination's 16 connections; those without response headers within ${timeoutMs / 1000} s time out and are retried (5 s, 30 s, 2 min, …) on top of new traffic, so the load grows exactly when the receiver is behind.`;

const CAPACITY_FIX =
  'Answer 2xx as soon as the request is verified and stored and do the work after responding (a queue, a background job); serve at least 16 requests at once; add instances behind a load balancer when one is not enough.';

/** Refusals no capacity cures: the other checks send one delivery at a time and say why it is refused. */
const OTHER_CHECKS = 'The other checks (run them all) say why a valid delivery is refused: signature for 401 and 403, shapes for 400 and 422, status for the rest.';

const REFUSED_FIX = 'Make the receiver accept a valid, signed delivery with a 2xx first (the failing checks of a run of all of them show what it refuses and why), then measure its capacity again.';

const NONE_FIX = 'Make the receiver answer a single valid delivery with a 2xx within the timeout first (the other checks show how it answers one at a time), then measure its capacity again.';

/**
 * Whether the destination retries a delivery that failed this way (docs/behaviour.md §3): 429, 5xx, timeouts
 * and network errors are retried; any other status (a 401, a redirect) and a refused certificate are final.
 */
export function retriedKind(kind: string): boolean {
  const status = /^HTTP (\d+)$/.exec(kind)?.[1];
  if (status !== undefined) return Number(status) === 429 || Number(status) >= 500;
  return kind !== 'tls_error';
}

const kindsText = (kinds: [string, number][], timeouts = 0): string =>
  [...kinds.map(([kind, n]) => `${kind} ×${n.toLocaleString('en-US')}`), ...(timeouts > 0 ? [plural(timeouts, 'timeout')] : [])].join(', ');

/** The failures of a run split as the destination treats them: retried (adding load) or final (lost, whatever the capacity). */
function failuresOf(c: CheckCapacity): { retried: number; final: number; retriedText: string; finalText: string; finalKinds: string } {
  const kinds = Object.entries(c.errors).sort((a, b) => b[1] - a[1]);
  const retried = kinds.filter(([kind]) => retriedKind(kind));
  const final = kinds.filter(([kind]) => !retriedKind(kind));
  const count = (list: [string, number][]): number => list.reduce((sum, [, n]) => sum + n, 0);
  const retriedN = count(retried) + c.timeouts;
  const finalN = count(final);
  const finalKinds = final.map(([kind]) => kind).join(', ');
  return {
    retried: retriedN,
    final: finalN,
    retriedText: retriedN > 0 ? `${plural(retriedN, 'delivery', 'deliveries')} failed in ways the destination retries (${kindsText(retried, c.timeouts)}): each comes back 5 s, 30 s, 2 min, … later, on top of new traffic.` : '',
    finalText: finalN > 0 ? `${plural(finalN, 'delivery', 'deliveries')} got ${kindsText(final)}, which the destination never retries (it retries 429, 5xx, timeouts and network errors only): those messages are lost for it whatever the receiver's capacity. ${OTHER_CHECKS}` : '',
    finalKinds,
  };
}

/** No delivery succeeded: there is no rate to judge, and what failed says where to look. */
function judgeNoneDelivered(c: CheckCapacity, f: ReturnType<typeof failuresOf>): Judgement {
  const all = kindsText(Object.entries(c.errors).sort((a, b) => b[1] - a[1]), c.timeouts);
  if (f.retried === 0) {
    return { verdict: 'fail', detail: `the receiver refused every delivery (${all}): none succeeded, so there is no rate to judge. The destination never retries ${f.finalKinds} (it retries 429, 5xx, timeouts and network errors only): every such message is lost for it, however much the receiver could take. ${OTHER_CHECKS}`, fix: REFUSED_FIX };
  }
  return { verdict: 'fail', detail: `no delivery succeeded (${all}), so there is no rate to judge. ${[f.retriedText, f.finalText].filter(Boolean).join(' ')}`, fix: f.final > 0 ? `${NONE_FIX} ${REFUSED_FIX}` : NONE_FIX };
}

const FELL_FIX =
  'Find what builds up while it serves (work queued in the process, a database or connection pool that fills, memory and garbage collection) and measure for longer to see where it settles; answer 2xx as soon as the request is verified and stored and do the work after responding.';

const rateText = (v: number): string => `${v.toLocaleString('en-US')}/s`;

/**
 * The verdict. No delivery succeeded: fail (a rate of 0 is no figure to pass or warn on), pointing at why.
 * What it sustains is the lower of the whole run's rate and the rate over its last third (capacityTrend), so
 * a receiver that slows down is judged on where it ended. With an expected rate: fail when that is under it,
 * or p99 is not under the timeout, or deliveries failed; warn under twice it (no headroom for a burst or a
 * retry wave); pass otherwise. Without one there is nothing to fail against: the figures pass, and failures
 * under load, or throughput that fell by CAPACITY_FALL or more, warn. Either way the detail tells failures
 * the destination retries (429, 5xx, timeouts, network errors: more load) from those it never does (lost).
 */
export function judgeCapacity(c: CheckCapacity): Judgement {
  const figures = capacityFigures(c);
  const f = failuresOf(c);
  const failures = f.retried + f.final;
  const delivered = c.series.reduce((sum, s) => sum + s.deliveries, 0);
  if (delivered === 0 && failures > 0) return judgeNoneDelivered(c, f);
  const trend = c.finished ? capacityTrend(c.series) : null;
  const fell = trend !== null && trend.last.rate <= trend.first.rate * (1 - CAPACITY_FALL);
  const fellText = trend && fell ? `throughput fell from ${rateText(trend.first.rate)} in ${windowSeconds(trend.first)} to ${rateText(trend.last.rate)} in ${windowSeconds(trend.last)}` : '';
  const endRate = trend ? trend.last.rate : c.deliveriesPerSecond;
  const sustained = Math.min(c.deliveriesPerSecond, endRate);
  const p99 = c.latencyMs.p99;
  const late = p99 !== null && p99 >= c.timeoutMs;
  const fixes = (capacity: boolean): string => [capacity ? (fell ? FELL_FIX : CAPACITY_FIX) : '', f.final > 0 ? REFUSED_FIX : ''].filter(Boolean).join(' ');
  if (c.expectRate === null) {
    if (failures > 0 || fell) {
      const lead = fell ? `${fellText[0]!.toUpperCase()}${fellText.slice(1)} (by a third or more): it sustains less the longer the load lasts. ` : '';
      return { verdict: 'warn', detail: [`${lead}${figures}.`, f.retriedText, f.finalText, f.retried > 0 || fell ? OVERLOAD(c.timeoutMs) : ''].filter(Boolean).join(' '), fix: fixes(f.retried > 0 || fell) };
    }
    // Said the same on every face: the flag (--expect-rate) and the field (Expected rate) are each face's own.
    return { verdict: 'pass', detail: `${figures} (no expected rate given: nothing to judge the rate against)` };
  }
  const n = c.expectRate;
  const short = sustained < n;
  // What it sustains is the end of the run whenever that is below the average (below what the average still clears, or only a little): the detail names the same figure as the verdict and the report's "end".
  const endShort = short && endRate < c.deliveriesPerSecond;
  if (short || late || failures > 0) {
    const shortText = endShort
      ? `by the end it sustains ${rateText(endRate)}, below the ${rateText(n)} expected (${fellText || `${windowSeconds(trend!.last)}; ${rateText(c.deliveriesPerSecond)} on average`})`
      : `sustains ${rateText(c.deliveriesPerSecond)}, below the ${rateText(n)} expected${fell ? ` (${fellText})` : ''}`;
    const why = [short ? shortText : fell ? fellText : '', late ? `p99 ${Math.round(p99)} ms is not under the ${c.timeoutMs} ms timeout` : '', failures > 0 ? `${plural(failures, 'delivery', 'deliveries')} failed` : ''].filter(Boolean).join('; ');
    const capacity = short || late || f.retried > 0;
    return { verdict: 'fail', detail: [`${why}. ${figures}.`, f.retriedText, f.finalText, capacity ? OVERLOAD(c.timeoutMs) : ''].filter(Boolean).join(' '), fix: fixes(capacity) };
  }
  // Floored, never rounded: 1.99× must not read as the 2× it falls short of.
  const headroom = Math.floor((sustained / n) * 10 + 1e-9) / 10;
  const at = fell ? ` by the end (${fellText})` : '';
  if (sustained < 2 * n) {
    return { verdict: 'warn', detail: `sustains ${rateText(n)} with only ${headroom}× headroom${at} (under 2×: a burst or a wave of retries takes it past its capacity). ${figures}. ${OVERLOAD(c.timeoutMs)}`, fix: fell ? FELL_FIX : CAPACITY_FIX };
  }
  return { verdict: 'pass', detail: `sustains ${rateText(n)} with ${headroom}× headroom${at}. ${figures}` };
}

export const CAPACITY_TITLE = 'how many deliveries per second it sustains, sent as the destination sends them (16 at once)';

/** The title of the check in a run: what it proves, with the expected rate when there is one. */
export function capacityTitle(expectRate: number | null): string {
  return expectRate === null ? CAPACITY_TITLE : `sustains ${expectRate.toLocaleString('en-US')} deliveries per second with p99 under the timeout and no errors (warn under 2× headroom)`;
}

/** The capacity check as the plan lists it; checkService runs it with measureCapacity, not the runner. */
export function capacityCheck(expectRate: number | null): Check {
  return { id: CAPACITY_CHECK_ID, title: capacityTitle(expectRate), area: 'capacity', scenario: null, requests: () => [], judge: () => ({ verdict: 'pass', detail: '' }) };
}
