import type { ErrorDetails } from '../../model/error-details.js';
import type { Event, EventKind, EventType } from '../../model/event.js';
import { nondeterminism } from './completion-intake.js';
import { describeIdSet } from './debug-text.js';
import type { ReplayState } from './replay-state.js';

/** The reason duroxide writes on the breadcrumb of a task dropped unfinished. */
export const DROPPED_FUTURE = 'dropped_future';

/** Where the reconciler appends breadcrumbs and side-channel cancellations. */
export interface DroppedTaskSink {
  readonly baseline: readonly Event[];
  readonly persistedLength: number;
  readonly delta: readonly Event[];
  appendBreadcrumb(sourceEventId: number, kind: EventKind): void;
  readonly cancelledActivityIds: number[];
  readonly cancelledSubOrchestrations: string[];
}

interface Stream {
  readonly label: string;
  readonly schedule: EventType;
  readonly breadcrumb: EventType;
  readonly cancelled: readonly number[];
}

/**
 * Records the tasks this turn dropped, as duroxide's `collect_cancelled_from_context`. On replay
 * every `dropped_future` breadcrumb already persisted for a replayed schedule must be dropped
 * again by the code (checked per kind, and only for kinds with such a breadcrumb), otherwise the
 * turn is nondeterministic. New drops get one breadcrumb each, in this order: activities,
 * children, waits, dequeues, each by schedule id; activities and children also go to the side
 * channels that cancel the work (lock stealing, `CancelInstance`).
 * @returns the nondeterminism error, or `null`.
 * @internal
 */
export function reconcileDroppedTasks(
  state: ReplayState,
  sink: DroppedTaskSink,
): ErrorDetails | null {
  const activities = state.cancelledScheduleIds('activity');
  const children = state.cancelledSubOrchestrations();
  const streams: Stream[] = [
    {
      label: 'activities',
      schedule: 'ActivityScheduled',
      breadcrumb: 'ActivityCancelRequested',
      cancelled: activities,
    },
    {
      label: 'sub-orchestrations',
      schedule: 'SubOrchestrationScheduled',
      breadcrumb: 'SubOrchestrationCancelRequested',
      cancelled: children.map(([id]) => id),
    },
    {
      label: 'external waits',
      schedule: 'ExternalSubscribed',
      breadcrumb: 'ExternalSubscribedCancelled',
      cancelled: state.cancelledScheduleIds('external'),
    },
    {
      label: 'persistent waits',
      schedule: 'QueueSubscribed',
      breadcrumb: 'QueueSubscriptionCancelled',
      cancelled: state.cancelledScheduleIds('queue'),
    },
  ];

  if (sink.persistedLength > 0) {
    const persisted = sink.baseline.slice(0, sink.persistedLength);
    for (const stream of streams) {
      const recorded = new Set<number>();
      const schedules = new Set<number>();
      for (const event of persisted) {
        if (event.kind.type === stream.schedule) schedules.add(event.eventId);
        if (
          event.kind.type === stream.breadcrumb &&
          'reason' in event.kind &&
          event.kind.reason === DROPPED_FUTURE &&
          event.sourceEventId !== null
        ) {
          recorded.add(event.sourceEventId);
        }
      }
      if (recorded.size === 0) continue;
      const replayed = new Set(stream.cancelled.filter((id) => schedules.has(id)));
      if ([...recorded].some((id) => !replayed.has(id))) {
        return nondeterminism(
          `cancellation mismatch (${stream.label}): baseline_dropped_future_cancel_requests=${describeIdSet(recorded)} ctx_cancelled_in_replayed_segment=${describeIdSet(replayed)}`,
        );
      }
    }
  }

  const already = new Map<EventType, Set<number>>(
    streams.map((s) => [s.breadcrumb, new Set<number>()]),
  );
  for (const event of [...sink.baseline, ...sink.delta]) {
    if (event.sourceEventId !== null) already.get(event.kind.type)?.add(event.sourceEventId);
  }
  const fresh = (stream: Stream, id: number): boolean => {
    const seen = already.get(stream.breadcrumb);
    if (!seen || seen.has(id)) return false;
    seen.add(id);
    return true;
  };

  const [activityStream, childStream, waitStream, queueStream] = streams as [
    Stream,
    Stream,
    Stream,
    Stream,
  ];
  for (const id of activities) {
    if (!fresh(activityStream, id)) continue;
    sink.cancelledActivityIds.push(id);
    sink.appendBreadcrumb(id, { type: 'ActivityCancelRequested', reason: DROPPED_FUTURE });
  }
  for (const [id, child] of children) {
    if (!fresh(childStream, id)) continue;
    sink.cancelledSubOrchestrations.push(child);
    sink.appendBreadcrumb(id, { type: 'SubOrchestrationCancelRequested', reason: DROPPED_FUTURE });
  }
  for (const id of waitStream.cancelled) {
    if (fresh(waitStream, id))
      sink.appendBreadcrumb(id, { type: 'ExternalSubscribedCancelled', reason: DROPPED_FUTURE });
  }
  for (const id of queueStream.cancelled) {
    if (fresh(queueStream, id))
      sink.appendBreadcrumb(id, { type: 'QueueSubscriptionCancelled', reason: DROPPED_FUTURE });
  }
  state.clearCancelledTokens();
  return null;
}
