import type { BoundedCountJson, QueueSampleJson, QueuesJson } from '../shared/api-types.js';
import { getJson } from './api-client.js';
import { el, replaceChildren, type Child } from './dom.js';
import { formatCount, formatDuration, formatTime } from './format.js';
import { lineChart } from './line-chart.js';
import { poll, type Dispose } from './polling.js';
import { instanceHref } from './routes.js';

const COLORS = ['#2357c6', '#1e8a4c', '#b7791f', '#c2362b', '#7a4fbf'];

/**
 * Queues and workers: the depth of each queue now and over the sampled minutes, the throughput
 * plots, due timers, held instance locks and their leases, claimed activities, sessions and their
 * owners. Read again at the sampler's interval.
 */
export function queuesView(main: HTMLElement, sampleIntervalMs: number): Dispose {
  const body = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
  replaceChildren(main, el('h1', {}, 'Queues & workers'), body);
  const refresh = async () => {
    try {
      const queues = await getJson<QueuesJson>('queues');
      replaceChildren(body, ...queueParts(queues));
    } catch (error) {
      replaceChildren(body, el('div', { class: 'error' }, (error as Error).message));
    }
  };
  void refresh();
  return poll(Math.min(Math.max(sampleIntervalMs, 1_000), 5_000), refresh);
}

function queueParts(queues: QueuesJson): Child[] {
  const now = queues.nowMs;
  const figure = (label: string, count: BoundedCountJson) =>
    el(
      'div',
      { class: 'figure', attributes: { 'data-figure': label } },
      el('div', { class: 'value' }, formatCount(count.count, count.atLeast ? 'atLeast' : 'exact')),
      el('div', { class: 'label' }, label),
    );
  const series = (
    pick: (sample: QueueSampleJson) => number | null,
    name: string,
    index: number,
  ) => ({
    name,
    color: COLORS[index % COLORS.length] ?? '#000',
    points: queues.samples.map((sample) => ({ x: sample.atMs, y: pick(sample) })),
  });
  const left = (untilMs: number) =>
    untilMs > now
      ? `${formatDuration(untilMs - now)} left`
      : `expired ${formatDuration(now - untilMs)} ago`;
  const table = (
    label: string,
    headers: readonly string[],
    rows: readonly (readonly Child[])[],
    empty: string,
  ) =>
    el(
      'section',
      { class: 'card', attributes: { 'aria-label': label } },
      el('h2', {}, label),
      rows.length === 0
        ? el('p', { class: 'muted' }, empty)
        : el(
            'table',
            {},
            el('thead', {}, el('tr', {}, ...headers.map((header) => el('th', {}, header)))),
            el(
              'tbody',
              {},
              ...rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, cell)))),
            ),
          ),
    );
  const instanceLink = (id: string | null) =>
    id === null ? '-' : el('a', { href: instanceHref(id) }, id);
  return [
    el(
      'div',
      { class: 'grid' },
      el(
        'section',
        { class: 'card', attributes: { 'aria-label': 'Orchestrator queue' } },
        el('h2', {}, 'Orchestrator queue'),
        el(
          'div',
          { class: 'figures' },
          figure('ready', queues.orchestratorQueue.ready),
          figure('delayed', queues.orchestratorQueue.delayed),
          figure('in a turn', queues.orchestratorQueue.claimed),
          figure('timers pending', queues.dueTimers.count),
          figure('instance locks', queues.instanceLocks.held),
        ),
      ),
      el(
        'section',
        { class: 'card', attributes: { 'aria-label': 'Worker queue' } },
        el('h2', {}, 'Worker queue'),
        el(
          'div',
          { class: 'figures' },
          figure('ready', queues.workerQueue.ready),
          figure('retrying later', queues.workerQueue.delayed),
          figure('running', queues.workerQueue.running),
          figure('lease expired', queues.workerQueue.leaseExpired),
          figure('sessions', queues.sessions.count),
        ),
        queues.workerQueue.readyByTag.length === 0
          ? null
          : el(
              'p',
              { class: 'muted' },
              `Ready by tag: ${queues.workerQueue.readyByTag.map((entry) => `${entry.tag ?? '(untagged)'} ${entry.count}`).join(', ')}`,
            ),
      ),
    ),
    el(
      'div',
      { class: 'grid' },
      el(
        'section',
        { class: 'card' },
        lineChart('Queue depths', [
          series((sample) => sample.orchestratorReady, 'orchestrator ready', 0),
          series((sample) => sample.orchestratorDelayed, 'orchestrator delayed', 2),
          series((sample) => sample.workerReady, 'activities ready', 1),
          series((sample) => sample.workerRunning, 'activities running', 3),
          series((sample) => sample.locksHeld, 'instance locks', 4),
        ]),
      ),
      el(
        'section',
        { class: 'card' },
        lineChart('Throughput per second', [
          series((sample) => sample.orchestratorMessagesPerSecond, 'orchestrator messages', 0),
          series((sample) => sample.activitiesFinishedPerSecond, 'activities finished', 1),
          series((sample) => sample.instancesPerSecond, 'instances started', 2),
          series((sample) => sample.historyEventsPerSecond, 'history events', 4),
        ]),
      ),
    ),
    el(
      'p',
      { class: 'muted' },
      `${queues.samples.length} samples, one every ${formatDuration(queues.sampleIntervalMs)}, since the dashboard started; read ${formatTime(now)}.`,
    ),
    el(
      'div',
      { class: 'grid' },
      table(
        'Due timers',
        ['Instance', 'Due', 'In'],
        queues.dueTimers.next.map((timer) => [
          instanceLink(timer.instanceId),
          formatTime(timer.dueAtMs),
          formatDuration(timer.dueAtMs - now),
        ]),
        'No timer is pending.',
      ),
      table(
        'Instance locks',
        ['Instance', 'Lock token', 'Since', 'Lease'],
        queues.instanceLocks.oldest.map((lock) => [
          instanceLink(lock.instanceId),
          el('span', { class: 'mono' }, lock.lockToken),
          formatTime(lock.lockedAtMs),
          left(lock.lockedUntilMs),
        ]),
        'No instance is locked.',
      ),
      table(
        'Running activities',
        ['Instance', 'Activity', 'Attempt', 'Lease', 'Session', 'Tag'],
        queues.claimedActivities.map((activity) => [
          instanceLink(activity.instanceId),
          `${activity.activityName ?? '?'}${activity.activityId === null ? '' : ` #${activity.activityId}`}`,
          activity.attemptCount,
          left(activity.lockedUntilMs),
          activity.sessionId ?? '-',
          activity.tag ?? '-',
        ]),
        'No activity is running.',
      ),
      table(
        'Sessions',
        ['Session', 'Owner', 'Lease', 'Last activity'],
        queues.sessions.owners.map((session) => [
          session.sessionId,
          session.ownerId,
          left(session.lockedUntilMs),
          formatTime(session.lastActivityAtMs),
        ]),
        'No session is open.',
      ),
    ),
  ];
}
