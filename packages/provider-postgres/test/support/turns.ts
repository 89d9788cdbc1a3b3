import type { Event, EventKind, ExecutionMetadata, Provider, WorkItemOf } from '@duro/core';

/** A `StartOrchestration` of `Sample` 1.0.0 for `instance`. */
export function startOrchestration(instance: string): WorkItemOf<'StartOrchestration'> {
  return {
    type: 'StartOrchestration',
    instance,
    orchestration: 'Sample',
    input: '{}',
    version: '1.0.0',
    parentInstance: null,
    parentId: null,
    executionId: 1,
  };
}

/** An event of the first execution of `instance`. */
export function eventOf(instance: string, eventId: number, kind: EventKind): Event {
  return {
    eventId,
    sourceEventId: null,
    instanceId: instance,
    executionId: 1,
    timestampMs: Date.now(),
    duroxideVersion: '0.1.32',
    kind,
  };
}

/** The first event of `Sample` 1.0.0. */
export function startedEvent(instance: string): Event {
  return eventOf(instance, 1, {
    type: 'OrchestrationStarted',
    name: 'Sample',
    version: '1.0.0',
    input: '{}',
    parentInstance: null,
    parentId: null,
  });
}

/** The metadata of a first turn that keeps running. */
export const FIRST_TURN: ExecutionMetadata = {
  orchestrationName: 'Sample',
  orchestrationVersion: '1.0.0',
};

/** Enqueues a start, fetches it and acknowledges the first turn: the instance then exists. */
export async function startInstance(provider: Provider, instance: string): Promise<void> {
  await provider.enqueueForOrchestrator(startOrchestration(instance), null);
  const fetched = await provider.fetchOrchestrationItem(30_000, 0, null);
  if (fetched?.item.instance !== instance) throw new Error(`could not start ${instance}`);
  await provider.ackOrchestrationItem(
    fetched.lockToken,
    1,
    [startedEvent(instance)],
    [],
    [],
    FIRST_TURN,
    [],
  );
}

/** An external event for `instance`. */
export function externalRaised(instance: string, name: string): WorkItemOf<'ExternalRaised'> {
  return { type: 'ExternalRaised', instance, name, data: '"payload"' };
}

/** Activity `id` of the first execution of `instance`, with an optional session or tag. */
export function activityOf(
  instance: string,
  id: number,
  routing: { sessionId?: string; tag?: string } = {},
): WorkItemOf<'ActivityExecute'> {
  return {
    type: 'ActivityExecute',
    instance,
    executionId: 1,
    id,
    name: 'Work',
    input: `${id}`,
    ...routing,
  };
}
