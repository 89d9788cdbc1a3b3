import { expect } from 'vitest';
import type { Event, EventKind } from '../../model/event.js';
import type { WorkItemOf } from '../../model/work-item.js';
import { TagFilter } from '../../provider/fetch-filters.js';
import type {
  FetchedOrchestrationItem,
  FetchedWorkItem,
} from '../../provider/orchestration-item.js';
import type { Provider } from '../../provider/provider.js';
import { ProviderError } from '../../provider/provider-error.js';

/**
 * The `duroxide_version` stamped on events the validations build: the duroxide release whose
 * suite this is a port of.
 */
export const VALIDATION_DUROXIDE_VERSION = '0.1.32';

/** Execution id of a first execution (duroxide's `INITIAL_EXECUTION_ID`). */
export const INITIAL_EXECUTION_ID = 1;

/** Event id of the first event of an execution (duroxide's `INITIAL_EVENT_ID`). */
export const INITIAL_EVENT_ID = 1;

/**
 * `value`, failing the validation with `what` when it is `null` or `undefined` (Rust's
 * `.expect(what)` on an `Option`).
 */
export function expectPresent<T>(value: T | null | undefined, what: string): T {
  expect(value ?? null, what).not.toBeNull();
  return value as T;
}

/**
 * The {@link ProviderError} that `operation` rejects with, failing the validation with `what`
 * when it resolves or rejects with anything else (Rust's `.unwrap_err()` on a provider call).
 */
export async function expectProviderError(
  operation: Promise<unknown>,
  what: string,
): Promise<ProviderError> {
  const outcome = await operation.then(
    () => ({ resolved: true as const }),
    (error: unknown) => ({ resolved: false as const, error }),
  );
  expect(outcome.resolved, `${what}: expected a rejection`).toBe(false);
  const error = outcome.resolved ? undefined : outcome.error;
  expect(
    ProviderError.isInstance(error),
    `${what}: expected a ProviderError, got ${String(error)}`,
  ).toBe(true);
  return error as ProviderError;
}

/** A short-poll orchestration fetch without filter, as most validations make it. */
export function fetchOrchestration(
  provider: Provider,
  lockTimeoutMs = 30_000,
): Promise<FetchedOrchestrationItem | null> {
  return provider.fetchOrchestrationItem(lockTimeoutMs, 0, null);
}

/** A short-poll activity fetch outside sessions, of untagged activities (`TagFilter::default()`). */
export function fetchActivity(
  provider: Provider,
  lockTimeoutMs = 30_000,
): Promise<FetchedWorkItem | null> {
  return provider.fetchWorkItem(lockTimeoutMs, 0, null, TagFilter.defaultOnly());
}

/** Resolves after `ms` milliseconds of real time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * An event stamped now with {@link VALIDATION_DUROXIDE_VERSION}, as duroxide's
 * `Event::with_event_id`.
 */
export function eventWithId(
  eventId: number,
  instance: string,
  executionId: number,
  sourceEventId: number | null,
  kind: EventKind,
): Event {
  return {
    eventId,
    sourceEventId,
    instanceId: instance,
    executionId,
    timestampMs: Date.now(),
    duroxideVersion: VALIDATION_DUROXIDE_VERSION,
    kind,
  };
}

/** The `OrchestrationStarted` kind of the validations' `TestOrch` 1.0.0 with input `{}`. */
export function testOrchStarted(): EventKind {
  return {
    type: 'OrchestrationStarted',
    name: 'TestOrch',
    version: '1.0.0',
    input: '{}',
    parentInstance: null,
    parentId: null,
  };
}

/** An `ActivityExecute` without session or tag. */
export function activityExecute(
  instance: string,
  executionId: number,
  id: number,
  name: string,
  input: string,
): WorkItemOf<'ActivityExecute'> {
  return { type: 'ActivityExecute', instance, executionId, id, name, input };
}

/** An `ActivityCompleted` for the activity scheduled as event `id`. */
export function activityCompleted(
  instance: string,
  executionId: number,
  id: number,
  result: string,
): WorkItemOf<'ActivityCompleted'> {
  return { type: 'ActivityCompleted', instance, executionId, id, result };
}

/** A `StartOrchestration` of `TestOrch` 1.0.0 with input `{}` (duroxide's `start_item`). */
export function startItem(instance: string): WorkItemOf<'StartOrchestration'> {
  return {
    type: 'StartOrchestration',
    instance,
    orchestration: 'TestOrch',
    input: '{}',
    version: '1.0.0',
    parentInstance: null,
    parentId: null,
    executionId: INITIAL_EXECUTION_ID,
  };
}

/**
 * Creates a running instance the way the runtime does: enqueue a start, fetch it and ack it with
 * an `OrchestrationStarted` and the name and version as metadata (duroxide's `create_instance`).
 * @throws {Error} when the start cannot be fetched, or the provider's error.
 */
export async function createInstance(provider: Provider, instance: string): Promise<void> {
  await provider.enqueueForOrchestrator(startItem(instance), null);
  const fetched = await provider.fetchOrchestrationItem(30_000, 0, null);
  if (fetched === null) throw new Error(`Failed to fetch orchestration item for ${instance}`);
  await provider.ackOrchestrationItem(
    fetched.lockToken,
    INITIAL_EXECUTION_ID,
    [eventWithId(INITIAL_EVENT_ID, instance, INITIAL_EXECUTION_ID, null, testOrchStarted())],
    [],
    [],
    { orchestrationName: 'TestOrch', orchestrationVersion: '1.0.0' },
    [],
  );
}

/**
 * Enqueues (without fetching) a start of `TestOrch` that names `parentInstanceId` as its parent
 * (duroxide's `create_instance_with_parent`).
 */
export async function createInstanceWithParent(
  provider: Provider,
  instance: string,
  parentInstanceId: string | null,
): Promise<void> {
  await provider.enqueueForOrchestrator(
    { ...startItem(instance), parentInstance: parentInstanceId },
    null,
  );
}
