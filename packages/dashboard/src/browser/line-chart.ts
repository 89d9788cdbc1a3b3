import { el, svg } from './dom.js';

/** One line of a chart: its name, colour and points (`null` leaves a gap). */
export interface ChartSeries {
  readonly name: string;
  readonly color: string;
  readonly points: readonly { readonly x: number; readonly y: number | null }[];
}

const WIDTH = 560;
const HEIGHT = 170;
const LEFT = 52;
const RIGHT = 10;
const TOP = 8;
const BOTTOM = 22;

/**
 * A line chart over time as SVG: x is epoch ms (labelled as clock times), y starts at 0. Each
 * series is a `polyline` (several where it has gaps) with the series name as its title.
 */
export function lineChart(title: string, series: readonly ChartSeries[]): HTMLElement {
  const points = series.flatMap((line) => line.points);
  const xs = points.map((point) => point.x);
  const ys = points.flatMap((point) => (point.y === null ? [] : [point.y]));
  const figure = el(
    'figure',
    { class: 'chart', attributes: { 'data-chart': title } },
    el('h2', {}, title),
  );
  if (xs.length < 2 || ys.length === 0) {
    figure.append(el('p', { class: 'muted' }, 'Collecting samples…'));
    return figure;
  }
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs, minX + 1);
  const maxY = niceCeiling(Math.max(...ys, 1));
  const x = (value: number) => LEFT + ((value - minX) / (maxX - minX)) * (WIDTH - LEFT - RIGHT);
  const y = (value: number) => TOP + (1 - value / maxY) * (HEIGHT - TOP - BOTTOM);
  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-label': title,
  });
  for (let step = 0; step <= 4; step += 1) {
    const value = (maxY / 4) * step;
    chart.append(
      svg('line', { class: 'gridline', x1: LEFT, x2: WIDTH - RIGHT, y1: y(value), y2: y(value) }),
      svg(
        'text',
        { class: 'axis', x: LEFT - 6, y: y(value) + 3, 'text-anchor': 'end' },
        formatTick(value),
      ),
    );
  }
  for (const [at, anchor] of [
    [minX, 'start'],
    [(minX + maxX) / 2, 'middle'],
    [maxX, 'end'],
  ] as const) {
    chart.append(
      svg('text', { class: 'axis', x: x(at), y: HEIGHT - 6, 'text-anchor': anchor }, clock(at)),
    );
  }
  for (const line of series) {
    for (const run of runs(line.points)) {
      chart.append(
        svg(
          'polyline',
          {
            class: 'series',
            'data-series': line.name,
            fill: 'none',
            stroke: line.color,
            'stroke-width': 2,
            points: run
              .map((point) => `${x(point.x).toFixed(1)},${y(point.y).toFixed(1)}`)
              .join(' '),
          },
          svg('title', {}, line.name),
        ),
      );
    }
  }
  const legend = el('div', { class: 'legend' });
  for (const line of series) {
    const latest = [...line.points].reverse().find((point) => point.y !== null)?.y;
    const entry = el(
      'span',
      {},
      `${line.name}${latest === undefined || latest === null ? '' : `: ${formatTick(latest)}`}`,
    );
    // Through the CSSOM: the page's policy refuses style attributes.
    entry.style.setProperty('--swatch', line.color);
    legend.append(entry);
  }
  figure.append(chart, legend);
  return figure;
}

/** The stretches of `points` without gaps. */
function runs(points: ChartSeries['points']): { readonly x: number; readonly y: number }[][] {
  const result: { x: number; y: number }[][] = [[]];
  for (const point of points) {
    if (point.y === null) result.push([]);
    else result.at(-1)?.push({ x: point.x, y: point.y });
  }
  return result.filter((run) => run.length > 0);
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const scaled = value / magnitude;
  const nice = scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10;
  return nice * magnitude;
}

function formatTick(value: number): string {
  return value >= 100
    ? Math.round(value).toLocaleString('en-US')
    : String(Number(value.toFixed(2)));
}

function clock(epochMs: number): string {
  const date = new Date(epochMs);
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
}
