import type { SourceUsageMinutes } from '../../../../main/contract/sources';

/**
 * Calls per minute over the last hour as 60 thin bars, hand-drawn in SVG: each bar is the minute's
 * received calls, its refused part drawn in the error colour at its foot. The last bar is the minute now.
 */
export function Sparkline({ minutes, width = 120, height = 24, label }: { minutes: SourceUsageMinutes; width?: number; height?: number; label: string }) {
  const n = minutes.received.length;
  const peak = Math.max(1, ...minutes.received);
  const step = width / n;
  const bar = Math.max(1, step - (step > 2.5 ? 1 : 0.4));
  const y = (v: number) => (v / peak) * (height - 1);
  return (
    <svg role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`} className="shrink-0 overflow-visible">
      <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-line" strokeWidth={1} />
      {minutes.received.map((received, i) => {
        if (received === 0) return null;
        const refused = Math.min(received, minutes.refused[i] ?? 0);
        const total = Math.max(1, y(received));
        const bad = refused > 0 ? Math.max(1, y(refused)) : 0;
        return (
          <g key={i}>
            <rect x={i * step} y={height - total} width={bar} height={total - bad} className="fill-accent" opacity={0.85} />
            {bad > 0 && <rect x={i * step} y={height - bad} width={bar} height={bad} className="fill-err" />}
          </g>
        );
      })}
    </svg>
  );
}

/** The sums of a last hour's counters, for labels. */
export function lastHourTotals(minutes: SourceUsageMinutes): { received: number; accepted: number; refused: number; filtered: number; peak: number } {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { received: sum(minutes.received), accepted: sum(minutes.accepted), refused: sum(minutes.refused), filtered: sum(minutes.filtered), peak: Math.max(0, ...minutes.received) };
}
