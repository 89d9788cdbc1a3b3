import type {
  ExecutionTimelineJson,
  InstanceDetailJson,
  SessionInfo,
} from '../shared/api-types.js';
import { actionsPanel } from './actions-panel.js';
import { ApiFailure, getJson } from './api-client.js';
import { el, replaceChildren, type Child } from './dom.js';
import { formatDuration, formatTime, prettyJson } from './format.js';
import { poll, type Dispose } from './polling.js';
import { instanceHref } from './routes.js';
import { statusBadge } from './status-badge.js';
import { timelineView } from './timeline-view.js';
import { treeView } from './tree-view.js';

/** How often a running instance's page reads it again, ms. */
const REFRESH_MS = 5_000;
/** Most events listed in the events table; the timeline above counts them all. */
const LISTED_EVENTS = 1_000;

/**
 * One instance: status and facts, input, output or error, custom status, key/values, why it is
 * not running, its executions, the timeline and events of one execution, its sub-orchestration
 * tree, and the actions (when enabled). A running instance is read again every 5 s.
 */
export function instanceView(
  main: HTMLElement,
  session: SessionInfo,
  instanceId: string,
  executionId: number | null,
): Dispose {
  const overview = el('div');
  const timeline = el('section', { class: 'card', attributes: { 'aria-label': 'Timeline' } });
  const actions = el('div');
  let actionsShown = false;
  let running = true;

  const refresh = async (): Promise<void> => {
    let detail: InstanceDetailJson;
    try {
      detail = await getJson<InstanceDetailJson>('instance', { id: instanceId });
    } catch (error) {
      running = false;
      const gone = error instanceof ApiFailure && error.status === 404;
      replaceChildren(
        overview,
        el('h1', {}, instanceId),
        el(
          'div',
          { class: 'error' },
          gone ? `Instance ${instanceId} was not found.` : (error as Error).message,
        ),
      );
      replaceChildren(timeline);
      replaceChildren(actions);
      return;
    }
    running = detail.status === 'Running';
    replaceChildren(overview, ...overviewParts(detail));
    const shown = executionId ?? detail.currentExecutionId;
    await showTimeline(shown, detail);
    if (session.actionsEnabled && !actionsShown) {
      actionsShown = true;
      replaceChildren(
        actions,
        actionsPanel(session, detail, {
          changed: () => void refresh(),
          deleted: () => {
            window.location.hash = '#/';
          },
        }),
      );
    }
  };

  const showTimeline = async (shown: number, detail: InstanceDetailJson) => {
    try {
      const execution = await getJson<ExecutionTimelineJson>('execution', {
        id: instanceId,
        execution: shown,
      });
      replaceChildren(timeline, ...timelineParts(execution, detail));
    } catch (error) {
      replaceChildren(
        timeline,
        el('h2', {}, 'Timeline'),
        el('div', { class: 'error' }, (error as Error).message),
      );
    }
  };

  replaceChildren(main, overview, timeline, actions);
  void refresh();
  return poll(REFRESH_MS, async () => {
    if (running) await refresh();
  });
}

function overviewParts(detail: InstanceDetailJson): Child[] {
  const field = (name: string, value: Child) =>
    el('tr', {}, el('th', {}, name), el('td', {}, value));
  const payload = (label: string, text: string | null) =>
    el(
      'div',
      { attributes: { 'data-payload': label } },
      el('h2', {}, label),
      el('pre', {}, prettyJson(text)),
    );
  return [
    el('h1', {}, detail.instanceId, ' ', statusBadge(detail.status)),
    el(
      'div',
      { class: 'grid' },
      el(
        'section',
        { class: 'card', attributes: { 'aria-label': 'Instance' } },
        el(
          'table',
          { class: 'fields' },
          el(
            'tbody',
            {},
            field(
              'Orchestration',
              `${detail.orchestrationName} ${detail.orchestrationVersion ?? ''}`,
            ),
            field('Status', statusBadge(detail.status)),
            field('Execution', `${detail.currentExecutionId} of ${detail.executionCount}`),
            field(
              'Parent',
              detail.parentInstanceId === null
                ? '-'
                : el('a', { href: instanceHref(detail.parentInstanceId) }, detail.parentInstanceId),
            ),
            field('Created', formatTime(detail.createdAtMs)),
            field('Updated', formatTime(detail.updatedAtMs)),
            field('Pinned duroxide', detail.pinnedDuroxideVersion ?? '-'),
            field(
              'Custom status',
              detail.customStatus === null
                ? '-'
                : el(
                    'pre',
                    { attributes: { 'data-payload': 'custom status' } },
                    prettyJson(detail.customStatus),
                  ),
            ),
            field('Custom status version', detail.customStatusVersion),
          ),
        ),
      ),
      el(
        'section',
        { class: 'card', attributes: { 'aria-label': 'Why' } },
        el('h2', {}, 'Why'),
        el('p', { class: 'verdict' }, detail.why.verdict),
        el(
          'ul',
          { class: 'findings' },
          ...detail.why.findings.map((finding) =>
            el('li', { class: finding.severity }, finding.text),
          ),
        ),
      ),
    ),
    el(
      'section',
      { class: 'card grid', attributes: { 'aria-label': 'Payloads' } },
      payload('Input', detail.input),
      detail.error !== null
        ? el(
            'div',
            { attributes: { 'data-payload': 'Error' } },
            el('h2', {}, 'Error'),
            el('div', { class: 'error' }, detail.error.message),
            el(
              'details',
              {},
              el('summary', {}, 'details'),
              el('pre', {}, prettyJson(detail.error.details)),
            ),
          )
        : payload('Output', detail.output),
    ),
    el(
      'div',
      { class: 'grid' },
      el(
        'section',
        { class: 'card', attributes: { 'aria-label': 'Key/values' } },
        el('h2', {}, 'Key/values'),
        Object.keys(detail.keyValues).length === 0
          ? el('p', { class: 'muted' }, 'None.')
          : el(
              'table',
              {},
              el(
                'tbody',
                {},
                ...Object.entries(detail.keyValues).map(([key, value]) =>
                  el(
                    'tr',
                    {},
                    el('th', { class: 'mono' }, key),
                    el('td', {}, el('pre', {}, prettyJson(value))),
                  ),
                ),
              ),
            ),
      ),
      el(
        'section',
        { class: 'card', attributes: { 'aria-label': 'Sub-orchestrations' } },
        el('h2', {}, 'Sub-orchestration tree'),
        detail.tree === null
          ? el('p', { class: 'muted' }, 'None.')
          : treeView(detail.tree.root, detail.instanceId, detail.tree.truncated),
      ),
    ),
    el(
      'section',
      { class: 'card', attributes: { 'aria-label': 'Executions' } },
      el('h2', {}, `Executions (${detail.executionCount})`),
      el(
        'table',
        {},
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...['Execution', 'Status', 'Started', 'Ended', 'Took', 'Events'].map((name) =>
              el('th', {}, name),
            ),
          ),
        ),
        el(
          'tbody',
          {},
          ...detail.executions.map((execution) =>
            el(
              'tr',
              { attributes: { 'data-execution': String(execution.executionId) } },
              el(
                'td',
                {},
                el(
                  'a',
                  { href: instanceHref(detail.instanceId, execution.executionId) },
                  execution.executionId,
                ),
              ),
              el('td', {}, statusBadge(execution.status)),
              el('td', {}, formatTime(execution.startedAtMs)),
              el('td', {}, formatTime(execution.completedAtMs)),
              el(
                'td',
                {},
                execution.completedAtMs === null
                  ? '-'
                  : formatDuration(execution.completedAtMs - execution.startedAtMs),
              ),
              el('td', {}, execution.eventCount),
            ),
          ),
        ),
      ),
      detail.executionCount > detail.executions.length
        ? el(
            'p',
            { class: 'muted' },
            `The ${detail.executionCount - detail.executions.length} oldest executions are not listed.`,
          )
        : null,
    ),
  ];
}

function timelineParts(execution: ExecutionTimelineJson, detail: InstanceDetailJson): Child[] {
  const listed = execution.events.slice(0, LISTED_EVENTS);
  return [
    el(
      'h2',
      {},
      `Timeline of execution ${execution.executionId}`,
      execution.executionId === detail.currentExecutionId ? ' (current)' : '',
      ` — ${execution.turns.length} turns, ${execution.eventCount} events`,
    ),
    timelineView(execution),
    el(
      'details',
      { attributes: { open: '' } },
      el('summary', {}, 'Events'),
      el(
        'table',
        { attributes: { 'aria-label': 'Events' } },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...['#', 'Turn', 'Event', 'Source', 'Time', 'Data'].map((name) => el('th', {}, name)),
          ),
        ),
        el(
          'tbody',
          {},
          ...listed.map((event) =>
            el(
              'tr',
              { attributes: { 'data-event': String(event.eventId) } },
              el('td', {}, event.eventId),
              el('td', {}, event.turn),
              el('td', {}, event.kind),
              el('td', {}, event.sourceEventId ?? '-'),
              el('td', {}, formatTime(event.timestampMs)),
              el('td', {}, event.data === '{}' ? '' : el('pre', {}, prettyJson(event.data))),
            ),
          ),
        ),
      ),
      execution.eventCount > listed.length
        ? el(
            'p',
            { class: 'muted' },
            `${execution.eventCount - listed.length} later events are not listed.`,
          )
        : null,
    ),
  ];
}
