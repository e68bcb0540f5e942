/**
 * The drawing of Chart.tsx with uPlot (a Canvas 2D time-series plotter of ~20 kB gzipped): loaded with the
 * first chart a screen shows. Colours are read from the theme's CSS variables and the chart is drawn again
 * when the theme changes; it follows its box's width.
 */
import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Options } from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useTheme } from '../../stores/theme';
import type { ChartProps } from './Chart';
import { formatCount } from '../../lib/format';

/** Latency is drawn on a log scale from 1 ms, so a 40 ms p50 and a 5 s timeout read on one chart. */
const MS_FLOOR = 1;

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** The series as uPlot draws them: stacked bars as running sums, the top of each stack first (so the foot stays in sight). */
function dataOf(props: ChartProps): { data: AlignedData; order: number[] } {
  const x = props.x.map((v) => (props.time ? v / 1000 : v));
  const sums = new Map<string, number[]>();
  const drawn = props.series.map((s) => {
    if (s.kind === 'bars' && s.stack) {
      const below = sums.get(s.stack) ?? x.map(() => 0);
      const top = below.map((b, i) => b + (s.values[i] ?? 0));
      sums.set(s.stack, top);
      return top.map((v, i) => (s.values[i] === null && below[i] === 0 ? null : v));
    }
    return s.values.map((v) => (v === null ? null : s.scale === 'ms' ? Math.max(MS_FLOOR, v) : v));
  });
  // Within a stack, the later (taller) sums are drawn first.
  const order = props.series.map((_, i) => i).sort((a, b) => {
    const sa = props.series[a]!.stack;
    const sb = props.series[b]!.stack;
    return sa !== undefined && sa === sb ? b - a : a - b;
  });
  return { data: [x, ...order.map((i) => drawn[i]!)] as AlignedData, order };
}

/** A long line's points only where a value stands alone (its neighbours are gaps), so that it still shows. */
function isolated(u: uPlot, seriesIdx: number): number[] {
  const values = u.data[seriesIdx]!;
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (values[i] != null && values[i - 1] == null && values[i + 1] == null) out.push(i);
  return out;
}

function optionsOf(props: ChartProps & { height: number }, width: number, order: number[], onHover: (i: number | null) => void): Options {
  const muted = cssVar('--muted');
  const panel = cssVar('--panel');
  const grid = cssVar('--border');
  const font = `11px ${getComputedStyle(document.body).fontFamily}`;
  const hasMs = props.series.some((s) => s.scale === 'ms') || (props.rules ?? []).some((r) => r.scale === 'ms');
  const msMax = Math.max(MS_FLOOR * 10, ...props.series.filter((s) => s.scale === 'ms').flatMap((s) => s.values.filter((v): v is number => v !== null)), ...(props.rules ?? []).filter((r) => r.scale === 'ms').map((r) => r.value));
  const axis = { stroke: muted, font, labelFont: font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1, size: 4 } };
  const countRules = (props.rules ?? []).filter((r) => r.scale === 'count').map((r) => r.value);
  const bars = uPlot.paths.bars!({ size: [0.7, 24], gap: 1 });
  // Half a step of room at each end, so the first and the last bars are whole.
  const xs = props.x.map((v) => (props.time ? v / 1000 : v));
  const half = xs.length > 1 ? (xs[1]! - xs[0]!) / 2 : 0.5;
  const hhmm = (s: number) => new Date(s * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
  return {
    width,
    height: props.height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 6 } },
    scales: {
      x: { time: props.time, range: (_u, min, max) => [min - half, max + half] as [number, number] },
      // A count rule (an expected rate) stays in sight when the bars fall short of it, which is when it matters.
      count: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(Math.max(max, ...countRules) * 1.15))] },
      ...(hasMs ? { ms: { distr: 3, log: 10, range: () => [MS_FLOOR, 10 ** Math.ceil(Math.log10(msMax * 1.2))] as [number, number] } } : {}),
    },
    axes: [
      {
        ...axis,
        ...(props.axes.x ? { label: props.axes.x, labelSize: 14, labelGap: 0, size: 26 } : {}),
        // 24-hour clock times (as the rest of the app), or whole seconds of a run.
        values: (_u, ticks) => ticks.map((t) => (props.time ? hhmm(t) : Number.isInteger(t) ? String(t) : '')),
      },
      { ...axis, scale: 'count', label: props.axes.count, labelSize: 16, size: 44, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? formatCount(t) : '')) },
      ...(hasMs
        ? [
            {
              ...axis,
              scale: 'ms',
              side: 1,
              label: props.axes.ms ?? 'ms',
              labelSize: 16,
              size: 52,
              grid: { show: false },
              // Powers of ten only: a log scale's every tick would crowd the axis.
              splits: (_u: uPlot, _i: number, min: number, max: number) => [1, 10, 100, 1_000, 10_000, 100_000].filter((v) => v >= min && v <= max),
              // uPlot leaves out (null) the ticks it has no room for.
              values: (_u: uPlot, ticks: (number | null)[]) => ticks.map((t) => (t === null ? '' : t >= 1000 ? `${t / 1000} s` : `${t} ms`)),
            },
          ]
        : []),
    ],
    series: [
      {},
      ...order.map((i) => {
        const s = props.series[i]!;
        const color = cssVar(s.color);
        if (s.kind === 'marks') return { label: s.label, scale: s.scale, stroke: color, width: 0, paths: () => null, points: { show: true, size: 8, width: 1.5, fill: color, stroke: panel } };
        return s.kind === 'bars'
          ? { label: s.label, scale: s.scale, stroke: color, fill: color, width: 0, paths: bars, points: { show: false } }
          : { label: s.label, scale: s.scale, stroke: color, width: 1.75, ...(s.dash ? { dash: s.dash } : {}), spanGaps: false, points: { show: true, size: props.x.length <= 30 ? 5 : 4, fill: color, ...(props.x.length > 30 ? { filter: isolated } : {}) } };
      }),
    ],
    hooks: {
      setCursor: [(u) => onHover(u.cursor.idx ?? null)],
      draw: [
        (u) => {
          const ctx = u.ctx;
          for (const rule of props.rules ?? []) {
            const y = u.valToPos(rule.value, rule.scale, true);
            if (!Number.isFinite(y)) continue;
            ctx.save();
            ctx.strokeStyle = cssVar(rule.color);
            ctx.fillStyle = cssVar(rule.color);
            ctx.lineWidth = Math.max(1, devicePixelRatio);
            ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
            ctx.beginPath();
            ctx.moveTo(u.bbox.left, y);
            ctx.lineTo(u.bbox.left + u.bbox.width, y);
            ctx.stroke();
            // A count rule crosses the bars it is compared with, so any label on it covers one: the legend names it.
            if (rule.scale === 'count') {
              ctx.restore();
              continue;
            }
            ctx.font = `${11 * devicePixelRatio}px ${getComputedStyle(document.body).fontFamily}`;
            // Latency rules are labelled at the left end, outlined in the panel's colour so that they read over
            // bars and lines without hiding them.
            const pad = 3 * devicePixelRatio;
            const x = u.bbox.left + pad;
            ctx.setLineDash([]);
            ctx.lineJoin = 'round';
            ctx.lineWidth = 3 * devicePixelRatio;
            ctx.strokeStyle = panel;
            ctx.textAlign = 'left';
            ctx.strokeText(rule.label, x, y - 5 * devicePixelRatio);
            ctx.fillText(rule.label, x, y - 5 * devicePixelRatio);
            ctx.restore();
          }
        },
      ],
    },
  };
}

export default function ChartCanvas(props: ChartProps & { height: number; onHover(index: number | null): void }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const theme = useTheme((s) => s.resolved);
  const pick = useRef(props.onPick);
  pick.current = props.onPick;
  const hover = useRef(props.onHover);
  hover.current = props.onHover;
  // What changes the chart's make-up (not its values): its series, rules, scales and the theme.
  const shape = JSON.stringify([props.series.map((s) => [s.label, s.color, s.kind, s.scale, s.stack, s.dash]), props.rules, props.axes, props.time, props.height, props.x.length, theme]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { data, order } = dataOf(props);
    const u = new uPlot(optionsOf(props, Math.max(200, el.clientWidth), order, (i) => hover.current(i)), data, el);
    plot.current = u;
    const click = () => {
      const i = u.cursor.idx;
      if (i !== null && i !== undefined) pick.current?.(i);
    };
    u.over.addEventListener('click', click);
    if (pick.current) u.over.style.cursor = 'pointer';
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: props.height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('click', click);
      u.destroy();
      plot.current = null;
    };
    // The chart is made again only when its make-up changes (`shape`); values go through setData below.
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(dataOf(props).data);
  });

  return <div ref={box} className="h-full w-full" />;
}
