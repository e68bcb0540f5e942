import { Gauge, LoaderCircle } from 'lucide-react';
import { capacityTrend, type CheckCapacity, type CheckRun } from '../../../../main/contract/check/check';
import { Chart } from '../../ui/chart/Chart';
import { formatCount, plural } from '../../lib/format';

// A second and more in seconds: four latencies side by side fit a card at 1024 px.
const ms = (v: number | null): string => (v === null ? '–' : v >= 1000 ? `${Math.round(v / 100) / 10} s` : `${Math.round(v)} ms`);
const seconds = (v: number): string => (v % 1000 === 0 ? `${v / 1000} s` : `${v} ms`);

const errorCount = (c: CheckCapacity): number => Object.values(c.errors).reduce((a, b) => a + b, 0);

/** Failed deliveries, timeouts included, in words. */
function failures(c: CheckCapacity): string {
  return `${plural(errorCount(c), 'error')}, ${plural(c.timeouts, 'timeout')}`;
}

/** A second's failed deliveries: the series counts timeouts with the errors, and says so. */
export const failedText = (n: number): string => `${formatCount(n)} ${n === 1 ? 'error or timeout' : 'errors and timeouts'}`;

/** The readout under the chart: the second pointed at, else (not measured yet) the latest measured one. */
export function describeSecond(c: CheckCapacity, index: number): string {
  const s = c.series[index] ?? c.series.at(-1);
  if (!s) return 'No second measured yet';
  const which = s.second === index + 1 ? `Second ${s.second}` : `Second ${s.second} (the latest measured)`;
  return `${which}: ${plural(s.deliveries, 'delivery', 'deliveries')}, p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, ${failedText(s.errors)}`;
}

/** The chart's accessible name: what it shows, in words. */
export function capacityLabel(c: CheckCapacity): string {
  const done = c.series.length;
  const rate = formatCount(c.deliveriesPerSecond);
  const progress = c.finished ? '' : ` so far (second ${done} of ${c.seconds})`;
  return `Capacity run, deliveries per second over ${c.seconds} s${progress}: ${rate} a second sustained, latency p50 ${ms(c.latencyMs.p50)} and p95 ${ms(c.latencyMs.p95)}, ${failures(c)}; timeout ${seconds(c.timeoutMs)}`;
}

/**
 * A capacity run as a chart while it runs: deliveries and errors per second as bars, p50 and p95 latency as
 * lines (log scale), the destination's timeout as a line; the figures beside it.
 */
export function CapacityChart({ capacity: c }: { capacity: CheckCapacity }) {
  const x = Array.from({ length: c.seconds }, (_, i) => i + 1);
  const at = (i: number) => c.series[i];
  const values = (pick: (s: NonNullable<ReturnType<typeof at>>) => number | null) => x.map((_, i) => (at(i) ? pick(at(i)!) : null));
  return (
    <Chart
      label={capacityLabel(c)}
      x={x}
      time={false}
      axes={{ x: 'second', count: 'per second', ms: 'latency' }}
      series={[
        { label: 'deliveries', values: values((s) => s.deliveries), color: '--accent', kind: 'bars', scale: 'count', stack: 'n' },
        { label: 'errors and timeouts', values: values((s) => s.errors), color: '--err', kind: 'bars', scale: 'count', stack: 'n' },
        { label: 'a second with errors or timeouts', values: values((s) => (s.errors > 0 ? s.deliveries + s.errors : null)), color: '--err', kind: 'marks', scale: 'count' },
        { label: 'p50 latency', values: values((s) => s.p50), color: '--ok', kind: 'line', scale: 'ms' },
        { label: 'p95 latency', values: values((s) => s.p95), color: '--violet', kind: 'line', scale: 'ms', dash: [5, 3] },
      ]}
      rules={[
        { value: c.timeoutMs, scale: 'ms', label: `timeout ${seconds(c.timeoutMs)}`, color: '--err' },
        ...(c.expectRate !== null ? [{ value: c.expectRate, scale: 'count' as const, label: `expected ${formatCount(c.expectRate)}/s`, color: '--warn' }] : []),
      ]}
      describe={(i) => describeSecond(c, i)}
    />
  );
}

/** The Capacity section of a report: the chart as the run goes, then its figures. */
export function CapacityCard({ run, children }: { run: CheckRun; children?: React.ReactNode }) {
  const c = run.capacity;
  const asked = run.options.capacity;
  const waiting = !c && run.status === 'running';
  // The verdict judges the end of a finished run too (docs/check.md, "Capacity"): the card shows that rate beside the average.
  const trend = c?.finished ? capacityTrend(c.series) : null;
  return (
    <section aria-label="Capacity" className="rounded-lg border border-line bg-panel">
      <div className="flex flex-wrap items-baseline gap-2 border-b border-line px-3 py-2">
        <Gauge aria-hidden className="size-3.5 self-center text-faint" />
        <h3 className="text-[13px] font-semibold">Capacity</h3>
        <span className="min-w-0 flex-1 truncate text-xs text-faint">
          {asked ? `${asked.seconds} s of deliveries sent as the destination sends them, 16 at once${asked.expectRate !== null ? `; expected ${formatCount(asked.expectRate)}/s` : ''}` : ''}
        </span>
        {c && !c.finished && (
          <span className="flex items-center gap-1 text-xs text-muted" role="status">
            <LoaderCircle aria-hidden className="size-3.5 animate-spin" /> second {c.series.length} of {c.seconds}
          </span>
        )}
      </div>
      <div className="flex flex-col gap-3 p-3">
        {c ? (
          <>
            <dl className="grid grid-cols-2 gap-1.5 text-xs sm:grid-cols-4">
              {trend ? <Figure label="Average · end" value={`${formatCount(c.deliveriesPerSecond)} · ${formatCount(trend.last.rate)}/s`} /> : <Figure label="Average" value={`${formatCount(c.deliveriesPerSecond)}/s`} />}
              <Figure label="p50 · p95" value={`${ms(c.latencyMs.p50)} · ${ms(c.latencyMs.p95)}`} />
              <Figure label="p99 · max" value={`${ms(c.latencyMs.p99)} · ${ms(c.latencyMs.max)}`} />
              <Figure label="Errors · timeouts" value={`${formatCount(errorCount(c))} · ${formatCount(c.timeouts)}`} bad={Object.keys(c.errors).length > 0 || c.timeouts > 0} />
            </dl>
            <CapacityChart capacity={c} />
          </>
        ) : (
          <p className="flex items-center gap-2 text-xs text-faint">
            {waiting && <LoaderCircle aria-hidden className="size-3.5 animate-spin" />}
            {waiting ? 'Starts once the other checks have run.' : 'Not measured: the run ended before it.'}
          </p>
        )}
        {children}
      </div>
    </section>
  );
}

function Figure({ label, value, bad = false }: { label: string; value: string; bad?: boolean }) {
  return (
    <div className="rounded-md border border-line px-2 py-1.5">
      <dt className="text-[11px] text-muted">{label}</dt>
      <dd className={`tabular whitespace-nowrap font-mono text-[13px] font-semibold ${bad ? 'text-err' : ''}`}>{value}</dd>
    </div>
  );
}
