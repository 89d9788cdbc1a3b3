import type { ExecutionTimelineJson, TimelineSpanJson } from '../shared/api-types.js';
import { el, svg } from './dom.js';
import { formatDuration, formatTime } from './format.js';
import { instanceHref } from './routes.js';

const WIDTH = 1000;
const LABEL_WIDTH = 230;
const LANE = 20;
const AXIS = 26;
/** Most spans drawn; the events table below has them all. */
const MAX_LANES = 300;

const KIND_NAMES: Readonly<Record<TimelineSpanJson['kind'], string>> = {
  activity: 'activity',
  timer: 'timer',
  subOrchestration: 'sub-orchestration',
  event: 'event',
  queue: 'queue',
};

/**
 * The timeline of one execution as SVG: a lane per activity, timer, sub-orchestration and wait,
 * from its scheduling to its end (coloured by outcome; open ones reach the right edge), and a
 * dashed line at each turn's commit. Every bar carries a title with its figures.
 */
export function timelineView(timeline: ExecutionTimelineJson): HTMLElement {
  const spans = timeline.spans.slice(0, MAX_LANES);
  const start = timeline.startMs;
  const end = Math.max(timeline.endMs, start + 1);
  const x = (time: number) =>
    LABEL_WIDTH + ((time - start) / (end - start)) * (WIDTH - LABEL_WIDTH - 10);
  const height = AXIS + Math.max(spans.length, 1) * LANE + 6;
  const chart = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: 'img',
    'aria-label': `timeline of execution ${timeline.executionId}`,
  });
  chart.append(
    svg('text', { class: 'axis', x: LABEL_WIDTH, y: 12 }, formatTime(start)),
    svg(
      'text',
      { class: 'axis', x: WIDTH - 10, y: 12, 'text-anchor': 'end' },
      `${formatTime(end)} (${formatDuration(end - start)})`,
    ),
  );
  for (const turn of timeline.turns) {
    const at = x(Math.min(Math.max(turn.committedAtMs, start), end));
    chart.append(
      svg(
        'line',
        { class: 'turn-line', 'data-turn': turn.index, x1: at, x2: at, y1: AXIS - 8, y2: height },
        svg(
          'title',
          {},
          `turn ${turn.index}: ${turn.trigger}, committed ${formatTime(turn.committedAtMs)}`,
        ),
      ),
    );
  }
  spans.forEach((span, lane) => {
    const top = AXIS + lane * LANE;
    const left = x(span.startMs);
    const right = x(span.endMs ?? end);
    const duration = (span.endMs ?? end) - span.startMs;
    const name = `${KIND_NAMES[span.kind]} ${span.label}${span.attempt > 1 ? ` (attempt ${span.attempt})` : ''}`;
    const bar = svg(
      'rect',
      {
        class: `span span-${span.outcome}`,
        'data-kind': span.kind,
        'data-outcome': span.outcome,
        x: left,
        y: top + 3,
        width: Math.max(right - left, 3),
        height: LANE - 6,
        rx: 3,
      },
      svg(
        'title',
        {},
        `${name}: ${span.outcome}, ${formatDuration(duration)}${span.endMs === null ? ' so far' : ''}` +
          `${span.detail !== null ? ` (${span.detail})` : ''}`,
      ),
    );
    const label = svg('text', { class: 'lane-label', x: 4, y: top + LANE - 6 }, shorten(name, 34));
    if (span.childInstanceId !== null) {
      chart.append(svg('a', { href: instanceHref(span.childInstanceId) }, label, bar));
    } else {
      chart.append(label, bar);
    }
  });
  return el(
    'div',
    { class: 'timeline' },
    chart,
    timeline.spans.length > MAX_LANES
      ? el(
          'p',
          { class: 'muted' },
          `${timeline.spans.length - MAX_LANES} more spans are in the events below.`,
        )
      : null,
    spans.length === 0 ? el('p', { class: 'muted' }, 'Nothing scheduled in this execution.') : null,
  );
}

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
