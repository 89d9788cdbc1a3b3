import type { Event, EventKind } from '../../model/event.js';
import type { WorkItem, WorkItemOf } from '../../model/work-item.js';
import { createConsoleLogger } from '../logger.js';
import { ReplayEngine, type OrchestrationFunction } from './replay-engine.js';
import type { TurnResult } from './turn-result.js';

export const INSTANCE = 'inst';

/** An `OrchestrationStarted` event stamped with `stamp`. */
export function started(stamp = '0.1.32', input = 'null'): Event {
  return event(
    1,
    null,
    {
      type: 'OrchestrationStarted',
      name: 'Test',
      version: '1.0.0',
      input,
      parentInstance: null,
      parentId: null,
    },
    stamp,
  );
}

export function event(
  eventId: number,
  source: number | null,
  kind: EventKind,
  stamp = '0.1.32',
): Event {
  return {
    eventId,
    sourceEventId: source,
    instanceId: INSTANCE,
    executionId: 1,
    timestampMs: 0,
    duroxideVersion: stamp,
    kind,
  };
}

export interface Turn {
  readonly result: TurnResult;
  readonly engine: ReplayEngine;
  /** The history after this turn (what an ack would store). */
  readonly history: Event[];
}

/** Runs one turn over `history` (all of it persisted) plus `messages`. */
export function turn(
  handler: OrchestrationFunction,
  history: readonly Event[],
  messages: readonly WorkItem[] = [],
): Turn {
  const engine = new ReplayEngine({
    instance: INSTANCE,
    executionId: 1,
    history,
    persistedLength: history.length,
    kvSnapshot: new Map(),
    logger: createConsoleLogger('error'),
  });
  engine.prepCompletions(messages);
  const first = history[0];
  const input = first?.kind.type === 'OrchestrationStarted' ? first.kind.input : 'null';
  const result = engine.execute(handler, input, 'Test', '1.0.0');
  return { result, engine, history: [...history, ...engine.historyDelta] };
}

export function kinds(events: readonly Event[]): string[] {
  return events.map(
    (e) => `${e.eventId}:${e.kind.type}${e.sourceEventId === null ? '' : `<${e.sourceEventId}`}`,
  );
}

export const activityDone = (id: number, result: string): WorkItemOf<'ActivityCompleted'> => ({
  type: 'ActivityCompleted',
  instance: INSTANCE,
  executionId: 1,
  id,
  result,
});

export const timerFired = (id: number): WorkItem => ({
  type: 'TimerFired',
  instance: INSTANCE,
  executionId: 1,
  id,
  fireAtMs: 0,
});

export const queued = (data: string, name = 'q'): WorkItem => ({
  type: 'QueueMessage',
  instance: INSTANCE,
  name,
  data,
});

export const raised = (data: string, name = 'ev'): WorkItem => ({
  type: 'ExternalRaised',
  instance: INSTANCE,
  name,
  data,
});
