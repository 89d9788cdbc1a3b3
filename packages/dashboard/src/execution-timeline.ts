import { childInstanceId, type EventKind } from '@duro/core';
import type { HistoryRecord } from '@duro/provider-postgres/inspection';
import type {
  ExecutionTimelineJson,
  TimelineEventJson,
  TimelineSpanJson,
  TimelineTurnJson,
} from './shared/api-types.js';

/** A span while its history is read: the end is filled in when its completion is found. */
type OpenSpan = { -readonly [K in keyof TimelineSpanJson]: TimelineSpanJson[K] } & {
  /** Name and input of an activity: a later schedule of the same pair after a failure is a retry. */
  retryKey: string | null;
};

/**
 * Lays out one execution's history as a timeline: its turns (the events each acknowledgement
 * committed, told apart by their commit time), the spans of what took time (activities from
 * scheduled to completed or failed, with their place in a retry sequence; timers; sub-
 * orchestrations; waits for an event or a queue message), and the events themselves.
 *
 * Spans are timed by the events' own timestamps (the turn that scheduled and the turn that saw
 * the result); one still open at `nowMs` ends there on the page, as `pending`.
 */
export function buildExecutionTimeline(
  instanceId: string,
  executionId: number,
  records: readonly HistoryRecord[],
  eventCount: number,
  nowMs: number,
): ExecutionTimelineJson {
  const turns: TimelineTurnJson[] = [];
  const events: TimelineEventJson[] = [];
  const spans = new Map<number, OpenSpan>();
  const waiting = new Map<string, OpenSpan[]>();
  const failedTries = new Map<string, number>();
  for (const record of records) {
    const time = record.event?.timestampMs ?? record.committedAtMs;
    const turn = turns.at(-1);
    if (turn === undefined || turn.committedAtMs !== record.committedAtMs) {
      turns.push({
        index: turns.length + 1,
        committedAtMs: record.committedAtMs,
        firstEventId: record.eventId,
        lastEventId: record.eventId,
        trigger: describeTrigger(record, spans),
      });
    } else {
      turns[turns.length - 1] = { ...turn, lastEventId: record.eventId };
    }
    events.push(eventRow(record, turns.length));
    const event = record.event;
    if (event === null) continue;
    const opened = openSpan(instanceId, event.eventId, time, event.kind, failedTries);
    if (opened) {
      spans.set(event.eventId, opened);
      if (opened.kind === 'event' || opened.kind === 'queue') {
        const key = `${opened.kind}:${opened.label}`;
        waiting.set(key, [...(waiting.get(key) ?? []), opened]);
      }
      continue;
    }
    const closing =
      event.sourceEventId !== null
        ? spans.get(event.sourceEventId)
        : deliveredTo(event.kind, waiting);
    if (closing) closeSpan(closing, event.kind, time, failedTries);
  }
  const spanList = [...spans.values()].map(({ retryKey: _retryKey, ...span }) => span);
  const times = [
    ...records.map((record) => record.event?.timestampMs ?? record.committedAtMs),
    ...spanList.map((span) => span.endMs ?? nowMs),
  ];
  return {
    instanceId,
    executionId,
    startMs: times.length > 0 ? Math.min(...times) : nowMs,
    endMs: times.length > 0 ? Math.max(...times) : nowMs,
    turns,
    spans: spanList,
    events,
    eventCount,
  };
}

function openSpan(
  instanceId: string,
  eventId: number,
  time: number,
  kind: EventKind,
  failedTries: ReadonlyMap<string, number>,
): OpenSpan | null {
  const span = {
    scheduledEventId: eventId,
    startMs: time,
    endMs: null,
    outcome: 'pending',
    attempt: 1,
    detail: null,
    childInstanceId: null,
    retryKey: null,
  } as const;
  switch (kind.type) {
    case 'ActivityScheduled': {
      const retryKey = `${kind.name}\u0000${kind.input}`;
      const where = [
        kind.sessionId !== undefined ? `session ${kind.sessionId}` : null,
        kind.tag !== undefined ? `tag ${kind.tag}` : null,
      ].filter((part) => part !== null);
      return {
        ...span,
        kind: 'activity',
        label: kind.name,
        attempt: (failedTries.get(retryKey) ?? 0) + 1,
        detail: where.length > 0 ? where.join(', ') : null,
        retryKey,
      };
    }
    case 'TimerCreated':
      return {
        ...span,
        kind: 'timer',
        label: 'timer',
        detail: `due ${new Date(kind.fireAtMs).toISOString()}`,
      };
    case 'SubOrchestrationScheduled': {
      const child = childInstanceId(instanceId, kind.instance);
      return {
        ...span,
        kind: 'subOrchestration',
        label: kind.name,
        detail: child,
        childInstanceId: child,
      };
    }
    case 'ExternalSubscribed':
      return { ...span, kind: 'event', label: kind.name, detail: 'waits for an event' };
    case 'QueueSubscribed':
      return { ...span, kind: 'queue', label: kind.name, detail: 'waits for a queue message' };
    default:
      return null;
  }
}

function closeSpan(
  span: OpenSpan,
  kind: EventKind,
  time: number,
  failedTries: Map<string, number>,
): void {
  switch (kind.type) {
    case 'ActivityCompleted':
    case 'TimerFired':
    case 'SubOrchestrationCompleted':
    case 'ExternalEvent':
    case 'QueueEventDelivered':
      span.outcome = 'completed';
      break;
    case 'ActivityFailed':
    case 'SubOrchestrationFailed':
      span.outcome = 'failed';
      if (span.retryKey !== null) failedTries.set(span.retryKey, span.attempt);
      break;
    case 'ActivityCancelRequested':
    case 'SubOrchestrationCancelRequested':
    case 'ExternalSubscribedCancelled':
    case 'QueueSubscriptionCancelled':
      span.outcome = 'cancelled';
      break;
    default:
      return;
  }
  span.endMs = time;
}

/** The oldest open wait for the event or queue message `kind` delivers (they match by name). */
function deliveredTo(kind: EventKind, waiting: Map<string, OpenSpan[]>): OpenSpan | undefined {
  const key =
    kind.type === 'ExternalEvent'
      ? `event:${kind.name}`
      : kind.type === 'QueueEventDelivered'
        ? `queue:${kind.name}`
        : null;
  if (key === null) return undefined;
  const open = waiting.get(key) ?? [];
  const index = open.findIndex((span) => span.outcome === 'pending');
  return index < 0 ? undefined : open[index];
}

function describeTrigger(record: HistoryRecord, spans: ReadonlyMap<number, OpenSpan>): string {
  const event = record.event;
  if (event === null) return 'unreadable event';
  const source = event.sourceEventId === null ? undefined : spans.get(event.sourceEventId);
  const kind = event.kind;
  if ('name' in kind && typeof kind.name === 'string') return `${kind.type} ${kind.name}`;
  return source ? `${kind.type} (${source.label})` : kind.type;
}

function eventRow(record: HistoryRecord, turn: number): TimelineEventJson {
  const event = record.event;
  if (event === null) {
    return {
      eventId: record.eventId,
      turn,
      kind: 'unreadable',
      sourceEventId: null,
      timestampMs: record.committedAtMs,
      committedAtMs: record.committedAtMs,
      data: record.unreadableData ?? '',
    };
  }
  const { type, ...fields } = event.kind;
  return {
    eventId: record.eventId,
    turn,
    kind: type,
    sourceEventId: event.sourceEventId,
    timestampMs: event.timestampMs,
    committedAtMs: record.committedAtMs,
    data: JSON.stringify(fields),
  };
}
