import type { Event } from '../../model/event.js';

/** Schedules of an ending execution that never resolved and were not cancelled. */
export interface OutstandingSchedules {
  /** Activity schedule ids without completion or cancel request, ascending. */
  readonly activities: readonly number[];
  /** `[scheduleId, child id suffix]` of children without result or cancel request. */
  readonly subOrchestrations: ReadonlyArray<readonly [number, string]>;
  /** Positional waits that received no event and were not cancelled. */
  readonly positionalSubscriptions: readonly number[];
  /** Dequeues that no arrival satisfied (per-queue FIFO) and were not cancelled. */
  readonly queueSubscriptions: readonly number[];
}

function countUp(map: Map<string, number>, key: string): number {
  const next = (map.get(key) ?? 0) + 1;
  map.set(key, next);
  return next;
}

/**
 * Finds what an execution leaves open at its end, as duroxide's `get_outstanding_schedule_ids`:
 * a positional wait is resolved by the first later event of its name; dequeues are resolved by
 * arrivals in FIFO order per queue.
 * @internal
 */
export function outstandingSchedules(history: readonly Event[]): OutstandingSchedules {
  const activities: number[] = [];
  const children: Array<[number, string]> = [];
  const positional: number[] = [];
  const queues: Array<[number, string]> = [];
  const resolved = new Set<number>();
  const cancelledActivities = new Set<number>();
  const cancelledChildren = new Set<number>();
  const cancelledPositional = new Set<number>();
  const cancelledQueues = new Set<number>();
  const pendingWaits = new Map<string, number[]>();
  const arrivals = new Map<string, number>();

  for (const event of history) {
    const source = event.sourceEventId;
    const kind = event.kind;
    switch (kind.type) {
      case 'ActivityScheduled':
        activities.push(event.eventId);
        break;
      case 'SubOrchestrationScheduled':
        children.push([event.eventId, kind.instance]);
        break;
      case 'ActivityCompleted':
      case 'ActivityFailed':
      case 'SubOrchestrationCompleted':
      case 'SubOrchestrationFailed':
        if (source !== null) resolved.add(source);
        break;
      case 'ActivityCancelRequested':
        if (source !== null) cancelledActivities.add(source);
        break;
      case 'SubOrchestrationCancelRequested':
        if (source !== null) cancelledChildren.add(source);
        break;
      case 'ExternalSubscribed': {
        positional.push(event.eventId);
        const waits = pendingWaits.get(kind.name);
        if (waits) waits.push(event.eventId);
        else pendingWaits.set(kind.name, [event.eventId]);
        break;
      }
      case 'ExternalEvent': {
        const first = pendingWaits.get(kind.name)?.shift();
        if (first !== undefined) resolved.add(first);
        break;
      }
      case 'ExternalSubscribedCancelled':
        if (source === null) break;
        cancelledPositional.add(source);
        for (const [name, waits] of pendingWaits) {
          pendingWaits.set(
            name,
            waits.filter((id) => id !== source),
          );
        }
        break;
      case 'QueueSubscribed':
        queues.push([event.eventId, kind.name]);
        break;
      case 'QueueEventDelivered':
        countUp(arrivals, kind.name);
        break;
      case 'QueueSubscriptionCancelled':
        if (source !== null) cancelledQueues.add(source);
        break;
      default:
        break;
    }
  }

  const consumed = new Map<string, number>();
  const resolvedQueues = new Set<number>();
  for (const [id, name] of queues) {
    if (cancelledQueues.has(id)) continue;
    if ((consumed.get(name) ?? 0) < (arrivals.get(name) ?? 0)) {
      countUp(consumed, name);
      resolvedQueues.add(id);
    }
  }

  return {
    activities: activities.filter((id) => !resolved.has(id) && !cancelledActivities.has(id)),
    subOrchestrations: children.filter(([id]) => !resolved.has(id) && !cancelledChildren.has(id)),
    positionalSubscriptions: positional.filter(
      (id) => !resolved.has(id) && !cancelledPositional.has(id),
    ),
    queueSubscriptions: queues
      .map(([id]) => id)
      .filter((id) => !resolvedQueues.has(id) && !cancelledQueues.has(id)),
  };
}

/**
 * Queue arrivals no active dequeue consumed, in history order across queues: the legacy
 * (pre-0.1.31) carry-forward of continue-as-new, as duroxide's `collect_unmatched_queue_messages`.
 * @internal
 */
export function unmatchedQueueMessages(history: readonly Event[]): Array<[string, string]> {
  const cancelled = new Set<number>();
  const subs: Array<[number, string]> = [];
  const arrivals: Array<[string, string]> = [];
  for (const event of history) {
    const kind = event.kind;
    if (kind.type === 'QueueSubscriptionCancelled' && event.sourceEventId !== null) {
      cancelled.add(event.sourceEventId);
    } else if (kind.type === 'QueueSubscribed') subs.push([event.eventId, kind.name]);
    else if (kind.type === 'QueueEventDelivered') arrivals.push([kind.name, kind.data]);
  }
  const active = new Map<string, number>();
  for (const [id, name] of subs) if (!cancelled.has(id)) countUp(active, name);
  const consumed = new Map<string, number>();
  const unmatched: Array<[string, string]> = [];
  for (const [name, data] of arrivals) {
    if ((consumed.get(name) ?? 0) < (active.get(name) ?? 0)) countUp(consumed, name);
    else unmatched.push([name, data]);
  }
  return unmatched;
}

/** The custom status at the end of a history (seed, then every update), for continue-as-new. */
export function accumulatedCustomStatus(history: readonly Event[]): string | null {
  let status: string | null = null;
  for (const event of history) {
    const kind = event.kind;
    if (kind.type === 'OrchestrationStarted' && kind.initialCustomStatus !== undefined) {
      status = kind.initialCustomStatus;
    } else if (kind.type === 'CustomStatusUpdated') status = kind.status;
  }
  return status;
}

/** Activities scheduled and neither finished nor cancelled, ascending (lock stealing targets). */
export function inflightActivities(history: readonly Event[]): number[] {
  return outstandingSchedules(history).activities as number[];
}
