/**
 * A time-series chart: bars (stacked by `stack`) and lines over seconds or minutes, a count scale on the
 * left and a latency scale (ms, logarithmic) on the right, rules such as a timeout. The drawing code (uPlot,
 * ChartCanvas.tsx) loads with the first chart shown, never with the app frame or Live. The chart itself is
 * an image (`role="img"`) whose accessible name says in words what it shows; the legend and the readout of
 * the point under the pointer are text beside it.
 */
import { lazy, Suspense, useState } from 'react';

export interface ChartSeries {
  label: string;
  values: readonly (number | null)[];
  /** The CSS variable of its colour (`--ok`): the chart follows the theme. */
  color: string;
  /** `marks`: a dot at each value that is not null, nothing between (e.g. over a bar whose minute had refusals). */
  kind: 'bars' | 'line' | 'marks';
  scale: 'count' | 'ms';
  /** Bars of the same stack are drawn one on top of the other, in the order given (the first at the foot). */
  stack?: string;
  dash?: number[];
}

export interface ChartRule {
  value: number;
  scale: 'count' | 'ms';
  label: string;
  color: string;
}

export interface ChartProps {
  /** The accessible name: what the chart shows, in words. */
  label: string;
  /** The x of each point: ms since the epoch when `time`, else a number (the second of a run). */
  x: readonly number[];
  time: boolean;
  series: ChartSeries[];
  rules?: ChartRule[];
  /** Axis titles. */
  axes: { x?: string; count: string; ms?: string };
  height?: number;
  /** The text for the point under the pointer (or, with none, the last point). */
  describe(index: number): string;
  /** A click on a point. */
  onPick?: (index: number) => void;
  /** What a click does, said under the chart. */
  pickHint?: string;
}

const ChartCanvas = lazy(() => import('./ChartCanvas'));

export function Chart(props: ChartProps) {
  const height = props.height ?? 180;
  const [hovered, setHovered] = useState<number | null>(null);
  const index = hovered ?? props.x.length - 1;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <div role="img" aria-label={props.label} className="relative min-w-0" style={{ height }}>
        <Suspense fallback={<div className="h-full w-full rounded-md bg-panel-2" />}>
          <ChartCanvas {...props} height={height} onHover={setHovered} />
        </Suspense>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[11px] text-muted">
        {props.series.map((s) => (
          <span key={s.label} className="inline-flex items-center gap-1">
            <span aria-hidden className={`inline-block ${s.kind === 'bars' ? 'h-2.5 w-2.5 rounded-sm' : s.kind === 'marks' ? 'h-2 w-2 rounded-full' : 'h-0.5 w-3.5'}`} style={{ background: `var(${s.color})` }} />
            {s.label}
          </span>
        ))}
        {props.rules?.map((r) => (
          <span key={r.label} className="inline-flex items-center gap-1">
            <span aria-hidden className="inline-block w-3.5 border-t-2 border-dashed" style={{ borderColor: `var(${r.color})` }} />
            {r.label}
          </span>
        ))}
      </div>
      {props.x.length > 0 && (
        <p className="tabular min-h-4 text-[11px] text-faint" aria-live="off" data-point={index}>
          {props.describe(index)}
          {props.onPick && props.pickHint ? <span className="text-faint"> · {props.pickHint}</span> : null}
        </p>
      )}
    </div>
  );
}
