/**
 * A destination's last hour at a glance (getDestinationTimeline): its rounds per minute by outcome, the
 * attempts' p50 and p95 latency, and the deliveries waiting for a retry. A click on a minute opens History
 * with that destination and that minute.
 */
import { useState } from 'react';
import { Activity } from 'lucide-react';
import type { Destination, DestinationTimeline as Timeline } from '../../../../main/contract/destinations';
import { api } from '../../api/instance';
import { useRefresh } from '../../api/useRefresh';
import { formatCount, plural } from '../../lib/format';
import { useRouter } from '../../stores/router';
import { Chart } from '../../ui/chart/Chart';
import { filterToQuery } from '../../lib/historyQuery';

/** Loaded again after deliveries change (at most this often), and as the minutes move on. */
const REFRESH_MS = 2_000;
const TICK_MS = 30_000;

function useTimeline(id: string): Timeline | null {
  const [timeline, setTimeline] = useState<Timeline | null>(null);
  useRefresh(
    id,
    async (current) => {
      const result = await api().call('getDestinationTimeline', { id }, { quiet: true });
      if (current() && result.ok) setTimeline(result.value);
    },
    { everyMs: TICK_MS, afterEventsMs: REFRESH_MS, events: (e) => e.type === 'deliveryUpdated' && e.delivery.destinationId === id },
  );
  return timeline;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const ms = (v: number | null) => (v === null ? '–' : `${formatCount(Math.round(v))} ms`);
const count = (n: number) => formatCount(n);
const clock = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

/** A minute's retry backlog in words; none before Hookbench started (nothing was counted then). */
const backlogAt = (n: number | null) => (n === null ? 'before Hookbench started' : `${count(n)} waiting for a retry`);

/**
 * The chart's accessible name: the hour's totals in words, as the name has always begun (tests and screen-reader
 * users find the chart by it). Its bars count rounds (one POST to each pending webhook), not deliveries: a
 * delivery retried three times in the hour is three rounds, and the name ends by saying so.
 */
export function timelineLabel(t: Timeline): string {
  const worst = Math.max(0, ...t.p95.filter((v): v is number => v !== null));
  const latency = worst > 0 ? `; latency p95 at most ${ms(worst)}` : '';
  return `Deliveries per minute, last hour: ${count(sum(t.delivered))} delivered, ${count(sum(t.retried))} retried, ${count(sum(t.failed))} failed${latency}; ${count(t.backlogNow)} waiting for a retry now; counted by rounds (each try of a delivery)`;
}

export function DestinationTimeline({ destination }: { destination: Destination }) {
  const t = useTimeline(destination.id);
  const navigate = useRouter((s) => s.navigate);
  if (!t) return <div className="h-[17.5rem] rounded-lg border border-line bg-panel" aria-busy="true" />;
  const x = t.delivered.map((_, i) => t.from + i * t.minuteMs);
  const quiet = sum(t.delivered) + sum(t.retried) + sum(t.failed) === 0 && t.backlogNow === 0;
  const open = (i: number) => navigate({ view: 'history', messageId: null, query: filterToQuery({ destinationId: destination.id, from: x[i]!, to: x[i]! + t.minuteMs - 1 }) });
  return (
    <section aria-label="Last hour" className="rounded-lg border border-line bg-panel">
      <div className="flex flex-wrap items-baseline gap-2 border-b border-line px-3 py-2">
        <Activity aria-hidden className="size-3.5 self-center text-faint" />
        <h3 className="text-[13px] font-semibold">Last hour</h3>
        <span className="min-w-0 flex-1 truncate text-xs text-faint">engine time, rounds per minute; counted since Hookbench started</span>
        <span className={`text-xs ${t.backlogNow > 0 ? 'text-warn' : 'text-muted'}`}>{plural(t.backlogNow, 'delivery', 'deliveries')} waiting for a retry</span>
      </div>
      <div className="p-3">
        {quiet && <p className="mb-2 text-xs text-faint">No delivery to this destination in the last hour.</p>}
        <Chart
          label={timelineLabel(t)}
          x={x}
          time
          height={190}
          axes={{ count: 'rounds per minute', ms: 'latency' }}
          series={[
            { label: 'delivered', values: t.delivered, color: '--ok', kind: 'bars', scale: 'count', stack: 'outcome' },
            { label: 'retried', values: t.retried, color: '--warn', kind: 'bars', scale: 'count', stack: 'outcome' },
            { label: 'failed', values: t.failed, color: '--err', kind: 'bars', scale: 'count', stack: 'outcome' },
            { label: 'a minute with failures', values: t.failed.map((f, i) => (f > 0 ? f + t.delivered[i]! + t.retried[i]! : null)), color: '--err', kind: 'marks', scale: 'count' },
            { label: 'retry backlog', values: t.backlog, color: '--neutral', kind: 'line', scale: 'count' },
            { label: 'p50 latency', values: t.p50, color: '--info', kind: 'line', scale: 'ms' },
            { label: 'p95 latency', values: t.p95, color: '--violet', kind: 'line', scale: 'ms', dash: [5, 3] },
          ]}
          rules={[{ value: destination.timeoutMs, scale: 'ms', label: `timeout ${destination.timeoutMs % 1000 === 0 ? `${destination.timeoutMs / 1000} s` : `${destination.timeoutMs} ms`}`, color: '--err' }]}
          describe={(i) =>
            `${clock(x[i]!)}: ${count(t.delivered[i]!)} delivered, ${count(t.retried[i]!)} retried, ${count(t.failed[i]!)} failed, p50 ${ms(t.p50[i]!)}, p95 ${ms(t.p95[i]!)}, ${backlogAt(t.backlog[i] ?? null)}`
          }
          onPick={open}
          pickHint="click a minute to open its messages in History"
        />
      </div>
    </section>
  );
}
