import * as Plot from '@observablehq/plot';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { ReportFigure } from '../api-schema';
import { formatCountTick, formatNumber, formatShort, formatTick, formatUsd, formatUsdTick } from '../format';
import { useWidth } from '../hooks';
import { dodgeLabels } from '../label-layout';
import { Note } from './common';

type Point = ReportFigure['points'][number];
type Scored = Point & { score: number };
type Errors = NonNullable<ReportFigure['errors']>;

// SVG presentation attributes cannot read CSS variables: the chart colours are fixed here.
const ACCENT = '#2563eb';
const INK = '#374151';
const PLOT_STYLE = {
  fontFamily: 'inherit',
  fontSize: '12px',
  background: 'transparent',
  overflow: 'visible',
};
const ROW = 28;

// Room for the longest system name left of the axis (about 7 px per character at 12 px).
const labelMargin = (labels: readonly string[]) =>
  Math.min(280, 16 + 7 * Math.max(4, ...labels.map((l) => l.length)));

// Scored points, best first.
function ranked(figure: ReportFigure): Scored[] {
  const scored = figure.points.filter((p): p is Scored => p.score !== null);
  const sign = figure.higherIsBetter ? -1 : 1;
  return scored.sort((a, b) => sign * (a.score - b.score));
}

const pointTitle = (p: Point) =>
  `${p.system}: ${formatNumber(p.score)}${p.ci95 ? ` (95% CI ${formatShort(p.ci95[0])}–${formatShort(p.ci95[1])})` : ''}${
    p.costUsd === null ? '' : `, ${formatUsd(p.costUsd)}`
  }`;

// A Plot chart redrawn to the width of its box.
function PlotBox({ draw, label }: { draw: (width: number) => Element; label: string }) {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const width = useWidth(el);
  useEffect(() => {
    if (!el || width === 0) return;
    const chart = draw(width);
    el.replaceChildren(chart);
    return () => chart.remove();
  }, [el, width, draw]);
  return <div class="plot" ref={setEl} role="img" aria-label={label} />;
}

function WhiskerChart({ figure, points }: { figure: ReportFigure; points: Scored[] }) {
  const draw = useCallback(
    (width: number) => {
      const systems = points.map((p) => p.system);
      return Plot.plot({
        width,
        height: 56 + ROW * systems.length,
        marginLeft: labelMargin(systems),
        marginRight: 24,
        style: PLOT_STYLE,
        x: { label: figure.metric, grid: true, nice: true, inset: 16, tickFormat: formatTick },
        y: { label: null, domain: systems },
        marks: [
          Plot.ruleY(
            points.filter((p) => p.ci95 !== null),
            {
              y: 'system',
              x1: (p: Point) => p.ci95?.[0],
              x2: (p: Point) => p.ci95?.[1],
              stroke: INK,
              strokeWidth: 2,
            },
          ),
          Plot.dot(points, { x: 'score', y: 'system', r: 5, fill: ACCENT, title: pointTitle }),
          Plot.text(points, { x: 'score', y: 'system', text: (p: Scored) => formatShort(p.score), dy: -11 }),
        ],
      });
    },
    [figure, points],
  );
  return <PlotBox draw={draw} label={`${figure.metric} per system with 95% confidence intervals`} />;
}

// Plot's default margins around the cost chart's frame (the x axis below it).
const COST = { height: 320, marginTop: 20, marginBottom: 30, line: 14 };
type Labelled = Scored & { labelY: number; moved: boolean };

// Each point's label beside it, moved up or down where labels would overlap (a line to its point).
function labelled(points: Scored[], base: Plot.Plot): Labelled[] {
  const x = base.scale('x')!;
  const y = base.scale('y')!;
  const boxes = points.map((p) => ({
    x: x.apply(p.costUsd) + 8,
    width: 7 * p.system.length,
    y: y.apply(p.score),
  }));
  const ys = dodgeLabels(boxes, COST.line, COST.marginTop, COST.height - COST.marginBottom);
  return points.map((p, i) => ({
    ...p,
    labelY: y.invert!(ys[i]!),
    moved: Math.abs(ys[i]! - boxes[i]!.y) > 4,
  }));
}

function CostChart({ figure, points }: { figure: ReportFigure; points: Scored[] }) {
  const draw = useCallback(
    (width: number) => {
      const frame = {
        width,
        height: COST.height,
        marginTop: COST.marginTop,
        marginBottom: COST.marginBottom,
        marginLeft: 56,
        marginRight: Math.min(200, labelMargin(points.map((p) => p.system))),
        style: PLOT_STYLE,
        grid: true,
      };
      const dots = Plot.dot(points, { x: 'costUsd', y: 'score', r: 5, fill: ACCENT, title: pointTitle });
      const x = { label: 'cost (USD)', nice: true, inset: 16, tickFormat: formatUsdTick };
      const y = { label: figure.metric, nice: true, inset: 16, tickFormat: formatTick };
      // Drawn once for its scales (where each point lands), then with the labels on those scales.
      const base = Plot.plot({ ...frame, x, y, marks: [dots] });
      const data = labelled(points, base);
      return Plot.plot({
        ...frame,
        x: { ...x, domain: base.scale('x')!.domain },
        y: { ...y, domain: base.scale('y')!.domain },
        marks: [
          Plot.link(
            data.filter((d) => d.moved),
            {
              x1: 'costUsd',
              y1: 'score',
              x2: 'costUsd',
              y2: 'labelY',
              dx: 4,
              stroke: INK,
              strokeOpacity: 0.4,
            },
          ),
          dots,
          Plot.text(data, {
            x: 'costUsd',
            y: 'labelY',
            text: 'system',
            dx: 8,
            textAnchor: 'start',
            fill: INK,
          }),
        ],
      });
    },
    [figure, points],
  );
  return <PlotBox draw={draw} label={`${figure.metric} against cost per system`} />;
}

function ErrorChart({ errors, order }: { errors: Errors; order: string[] }) {
  const draw = useCallback(
    (width: number) => {
      const systems = [...new Set([...order, ...errors.rows.map((r) => r.system)])].filter((s) =>
        errors.rows.some((r) => r.system === s),
      );
      const data = errors.rows.flatMap((r) =>
        r.counts
          .map((count, i) => ({ system: r.system, type: errors.types[i] ?? '', count }))
          .filter((d) => d.count > 0),
      );
      return Plot.plot({
        width,
        height: 56 + ROW * systems.length,
        marginLeft: labelMargin(systems),
        style: PLOT_STYLE,
        color: { legend: true, domain: errors.types, scheme: 'tableau10' },
        x: { label: 'errors (count)', grid: true, tickFormat: formatCountTick },
        y: { label: null, domain: systems },
        marks: [
          Plot.barX(data, {
            x: 'count',
            y: 'system',
            fill: 'type',
            title: (d: (typeof data)[number]) => `${d.system}: ${d.count} × ${d.type}`,
          }),
          Plot.ruleX([0]),
        ],
      });
    },
    [errors, order],
  );
  return <PlotBox draw={draw} label="error counts per type and system" />;
}

// One leaderboard as charts; the title names the metric and its judge or engine.
export function FigureView({ figure }: { figure: ReportFigure }) {
  // Memoized so the charts redraw only when the figure (or their width) changes.
  const points = useMemo(() => ranked(figure), [figure]);
  const costed = useMemo(() => points.filter((p) => p.costUsd !== null), [points]);
  const order = useMemo(() => points.map((p) => p.system), [points]);
  const unscored = figure.points.filter((p) => p.score === null).map((p) => p.system);
  return (
    <section class="figure" data-testid={`figure-${figure.key}`}>
      <h3>{figure.title}</h3>
      <div class="charts">
        <div class="chart">
          <h4>
            {figure.metric}, 95% CI ({figure.higherIsBetter ? 'higher' : 'lower'} is better)
          </h4>
          {points.length > 0 ? <WhiskerChart figure={figure} points={points} /> : null}
          {unscored.length > 0 ? <Note>Not scored: {unscored.join(', ')}.</Note> : null}
        </div>
        <div class="chart">
          <h4>Quality vs cost</h4>
          {costed.length > 0 ? (
            <CostChart figure={figure} points={costed} />
          ) : (
            <Note>No scored system has a known cost: the quality-vs-cost chart is left out.</Note>
          )}
        </div>
        {figure.errors ? (
          <div class="chart">
            <h4>Errors by type</h4>
            <ErrorChart errors={figure.errors} order={order} />
          </div>
        ) : null}
      </div>
    </section>
  );
}
