import type { Event, EventKindOf } from '../../model/event.js';
import { INITIAL_EVENT_ID, eventWithId, testOrchStarted } from './fixtures.js';

/** Fields of an `OrchestrationStarted` kind that a validation changes from `TestOrch`'s. */
export type StartedOverrides = Partial<Omit<EventKindOf<'OrchestrationStarted'>, 'type'>>;

/**
 * The first event of an execution: `TestOrch` 1.0.0 with input `{}` started, with `overrides`
 * applied (name, version, parent, carried events).
 */
export function startedEvent(
  instance: string,
  executionId: number,
  overrides: StartedOverrides = {},
): Event {
  return eventWithId(INITIAL_EVENT_ID, instance, executionId, null, {
    ...testOrchStarted(),
    ...overrides,
  });
}

/** An `OrchestrationCompleted` event with `output`. */
export function completedEvent(
  eventId: number,
  instance: string,
  executionId: number,
  output: string,
): Event {
  return eventWithId(eventId, instance, executionId, null, {
    type: 'OrchestrationCompleted',
    output,
  });
}

/** A `KeyValueSet` event; `lastUpdatedAtMs` is the runtime's stamp (the validations use 0–300). */
export function kvSetEvent(
  eventId: number,
  instance: string,
  executionId: number,
  entry: { readonly key: string; readonly value: string; readonly lastUpdatedAtMs?: number },
): Event {
  return eventWithId(eventId, instance, executionId, null, {
    type: 'KeyValueSet',
    key: entry.key,
    value: entry.value,
    lastUpdatedAtMs: entry.lastUpdatedAtMs ?? 0,
  });
}

/** A `KeyValueCleared` event for `key`. */
export function kvClearedEvent(
  eventId: number,
  instance: string,
  executionId: number,
  key: string,
): Event {
  return eventWithId(eventId, instance, executionId, null, { type: 'KeyValueCleared', key });
}

/** A `KeyValuesCleared` event: every key of the instance goes. */
export function kvAllClearedEvent(eventId: number, instance: string, executionId: number): Event {
  return eventWithId(eventId, instance, executionId, null, { type: 'KeyValuesCleared' });
}

/** A `CustomStatusUpdated` event; `null` clears the status. */
export function customStatusEvent(
  eventId: number,
  instance: string,
  executionId: number,
  status: string | null,
): Event {
  return eventWithId(eventId, instance, executionId, null, { type: 'CustomStatusUpdated', status });
}
