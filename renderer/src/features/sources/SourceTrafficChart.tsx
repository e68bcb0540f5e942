import type { SourceUsageMinutes } from '../../../../main/contract/sources';
import { Chart } from '../../ui/chart/Chart';
import { lastHourTotals } from './Sparkline';
import { formatCount } from '../../lib/format';

const count = (n: number) => formatCount(n);
const clock = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

/** The chart's accessible name: the hour's totals in words. */
export function trafficLabel(minutes: SourceUsageMinutes): string {
  const t = lastHourTotals(minutes);
  return `Calls per minute, last hour: ${count(t.received)} received, ${count(t.refused)} refused; at most ${count(t.peak)} a minute`;
}

/** A source's calls per minute over the last hour (engine time), the refused part of each minute in red. */
export function SourceTrafficChart({ minutes }: { minutes: SourceUsageMinutes }) {
  const x = minutes.received.map((_, i) => minutes.from + i * minutes.minuteMs);
  const refused = minutes.received.map((r, i) => Math.min(r, minutes.refused[i] ?? 0));
  const rest = minutes.received.map((r, i) => r - refused[i]!);
  const t = lastHourTotals(minutes);
  return (
    <div className="flex flex-col gap-1">
      <p className="text-[11px] text-faint">
        {/* The minutes live in memory while the totals above are stored: after a restart the two differ, and this says why. */}
        Last hour (engine time; counted since Hookbench started): {count(t.received)} received
        {t.refused > 0 && <span className="text-err">, {count(t.refused)} refused</span>}, peak {count(t.peak)}/min
      </p>
      <Chart
        label={trafficLabel(minutes)}
        x={x}
        time
        height={150}
        axes={{ count: 'calls/min' }}
        series={[
          { label: 'accepted or filtered', values: rest, color: '--accent', kind: 'bars', scale: 'count', stack: 'calls' },
          { label: 'refused', values: refused, color: '--err', kind: 'bars', scale: 'count', stack: 'calls' },
          { label: 'a minute with refusals', values: minutes.received.map((r, i) => (refused[i]! > 0 ? r : null)), color: '--err', kind: 'marks', scale: 'count' },
        ]}
        describe={(i) => `${clock(x[i]!)}: ${count(minutes.received[i]!)} received, ${count(refused[i]!)} refused, ${count(minutes.filtered[i] ?? 0)} filtered`}
      />
    </div>
  );
}
