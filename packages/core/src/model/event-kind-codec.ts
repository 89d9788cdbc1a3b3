/**
 * The variant half of the history codec: the fields of each `EventKind`, in the order duroxide
 * declares them, and the `type` tag serde writes for each variant. The header half, and the
 * public functions, are in `event-codec.ts`.
 */
import { errorDetailsFromWire, errorDetailsToWire } from './error-details-codec.js';
import type { EventKind, EventKindOf, EventType } from './event.js';
import {
  readActivityRouting,
  readDefaultedU64,
  readNullableString,
  readNullableU64,
  readOptionalPairs,
  readOptionalString,
  readOptionalU64,
  readString,
  readU64,
  writeActivityRouting,
  writeU64,
  type WireObject,
  type Writable,
} from './wire-fields.js';
import { WireFormatError } from './wire-format-error.js';

/**
 * The `type` value duroxide writes for each variant. Three keep the names persistent queues had
 * before they were renamed in Rust (`#[serde(rename)]` on `EventKind`).
 */
export const EVENT_WIRE_TAGS: { readonly [T in EventType]: string } = {
  OrchestrationStarted: 'OrchestrationStarted',
  OrchestrationCompleted: 'OrchestrationCompleted',
  OrchestrationFailed: 'OrchestrationFailed',
  OrchestrationContinuedAsNew: 'OrchestrationContinuedAsNew',
  OrchestrationCancelRequested: 'OrchestrationCancelRequested',
  ActivityScheduled: 'ActivityScheduled',
  ActivityCompleted: 'ActivityCompleted',
  ActivityFailed: 'ActivityFailed',
  ActivityCancelRequested: 'ActivityCancelRequested',
  TimerCreated: 'TimerCreated',
  TimerFired: 'TimerFired',
  ExternalSubscribed: 'ExternalSubscribed',
  ExternalEvent: 'ExternalEvent',
  ExternalSubscribedCancelled: 'ExternalSubscribedCancelled',
  QueueSubscribed: 'ExternalSubscribedPersistent',
  QueueEventDelivered: 'ExternalEventPersistent',
  QueueSubscriptionCancelled: 'ExternalSubscribedPersistentCancelled',
  OrchestrationChained: 'OrchestrationChained',
  SubOrchestrationScheduled: 'SubOrchestrationScheduled',
  SubOrchestrationCompleted: 'SubOrchestrationCompleted',
  SubOrchestrationFailed: 'SubOrchestrationFailed',
  SubOrchestrationCancelRequested: 'SubOrchestrationCancelRequested',
  CustomStatusUpdated: 'CustomStatusUpdated',
  KeyValueSet: 'KeyValueSet',
  KeyValueCleared: 'KeyValueCleared',
  KeyValuesCleared: 'KeyValuesCleared',
};

/** Appends the fields of `kind` to `wire`, after its `type`, in serde order. */
export function writeEventKindFields(wire: Record<string, unknown>, kind: EventKind): void {
  switch (kind.type) {
    case 'OrchestrationStarted':
      wire.name = kind.name;
      wire.version = kind.version;
      wire.input = kind.input;
      wire.parent_instance = kind.parentInstance;
      wire.parent_id = kind.parentId === null ? null : writeU64(kind.parentId, '$.parent_id');
      if (kind.parentExecutionId !== undefined) {
        wire.parent_execution_id = writeU64(kind.parentExecutionId, '$.parent_execution_id');
      }
      if (kind.carryForwardEvents !== undefined) {
        wire.carry_forward_events = kind.carryForwardEvents;
      }
      if (kind.initialCustomStatus !== undefined) {
        wire.initial_custom_status = kind.initialCustomStatus;
      }
      return;
    case 'OrchestrationCompleted':
      wire.output = kind.output;
      return;
    case 'OrchestrationFailed':
    case 'ActivityFailed':
    case 'SubOrchestrationFailed':
      wire.details = errorDetailsToWire(kind.details, '$.details');
      return;
    case 'OrchestrationContinuedAsNew':
      wire.input = kind.input;
      return;
    case 'OrchestrationCancelRequested':
    case 'ActivityCancelRequested':
    case 'ExternalSubscribedCancelled':
    case 'QueueSubscriptionCancelled':
    case 'SubOrchestrationCancelRequested':
      wire.reason = kind.reason;
      return;
    case 'ActivityScheduled':
      wire.name = kind.name;
      wire.input = kind.input;
      writeActivityRouting(wire, kind);
      return;
    case 'ActivityCompleted':
    case 'SubOrchestrationCompleted':
      wire.result = kind.result;
      return;
    case 'TimerCreated':
    case 'TimerFired':
      wire.fire_at_ms = writeU64(kind.fireAtMs, '$.fire_at_ms');
      return;
    case 'ExternalSubscribed':
    case 'QueueSubscribed':
      wire.name = kind.name;
      return;
    case 'ExternalEvent':
    case 'QueueEventDelivered':
      wire.name = kind.name;
      wire.data = kind.data;
      return;
    case 'OrchestrationChained':
    case 'SubOrchestrationScheduled':
      wire.name = kind.name;
      wire.instance = kind.instance;
      wire.input = kind.input;
      return;
    case 'CustomStatusUpdated':
      wire.status = kind.status;
      return;
    case 'KeyValueSet':
      wire.key = kind.key;
      wire.value = kind.value;
      wire.last_updated_at_ms = writeU64(kind.lastUpdatedAtMs, '$.last_updated_at_ms');
      return;
    case 'KeyValueCleared':
      wire.key = kind.key;
      return;
    case 'KeyValuesCleared':
      return;
  }
}

/**
 * Reads the `EventKind` whose wire tag is `tag` from the flattened event object `wire`.
 * @throws {WireFormatError} for an unknown tag or a bad field.
 */
export function eventKindFromWire(tag: string, wire: WireObject, path: string): EventKind {
  switch (tag) {
    case 'OrchestrationStarted':
      return orchestrationStartedFromWire(wire, path);
    case 'OrchestrationCompleted':
      return { type: 'OrchestrationCompleted', output: readString(wire, 'output', path) };
    case 'OrchestrationFailed':
      return { type: 'OrchestrationFailed', details: detailsFromWire(wire, path) };
    case 'OrchestrationContinuedAsNew':
      return { type: 'OrchestrationContinuedAsNew', input: readString(wire, 'input', path) };
    case 'OrchestrationCancelRequested':
      return { type: 'OrchestrationCancelRequested', reason: readString(wire, 'reason', path) };
    case 'ActivityScheduled':
      return activityScheduledFromWire(wire, path);
    case 'ActivityCompleted':
      return { type: 'ActivityCompleted', result: readString(wire, 'result', path) };
    case 'ActivityFailed':
      return { type: 'ActivityFailed', details: detailsFromWire(wire, path) };
    case 'ActivityCancelRequested':
      return { type: 'ActivityCancelRequested', reason: readString(wire, 'reason', path) };
    case 'TimerCreated':
      return { type: 'TimerCreated', fireAtMs: readU64(wire, 'fire_at_ms', path) };
    case 'TimerFired':
      return { type: 'TimerFired', fireAtMs: readU64(wire, 'fire_at_ms', path) };
    case 'ExternalSubscribed':
      return { type: 'ExternalSubscribed', name: readString(wire, 'name', path) };
    case 'ExternalEvent':
      return {
        type: 'ExternalEvent',
        name: readString(wire, 'name', path),
        data: readString(wire, 'data', path),
      };
    case 'ExternalSubscribedCancelled':
      return { type: 'ExternalSubscribedCancelled', reason: readString(wire, 'reason', path) };
    case 'ExternalSubscribedPersistent':
      return { type: 'QueueSubscribed', name: readString(wire, 'name', path) };
    case 'ExternalEventPersistent':
      return {
        type: 'QueueEventDelivered',
        name: readString(wire, 'name', path),
        data: readString(wire, 'data', path),
      };
    case 'ExternalSubscribedPersistentCancelled':
      return { type: 'QueueSubscriptionCancelled', reason: readString(wire, 'reason', path) };
    case 'OrchestrationChained':
      return {
        type: 'OrchestrationChained',
        name: readString(wire, 'name', path),
        instance: readString(wire, 'instance', path),
        input: readString(wire, 'input', path),
      };
    case 'SubOrchestrationScheduled':
      return {
        type: 'SubOrchestrationScheduled',
        name: readString(wire, 'name', path),
        instance: readString(wire, 'instance', path),
        input: readString(wire, 'input', path),
      };
    case 'SubOrchestrationCompleted':
      return { type: 'SubOrchestrationCompleted', result: readString(wire, 'result', path) };
    case 'SubOrchestrationFailed':
      return { type: 'SubOrchestrationFailed', details: detailsFromWire(wire, path) };
    case 'SubOrchestrationCancelRequested':
      return {
        type: 'SubOrchestrationCancelRequested',
        reason: readString(wire, 'reason', path),
      };
    case 'CustomStatusUpdated':
      return { type: 'CustomStatusUpdated', status: readNullableString(wire, 'status', path) };
    case 'KeyValueSet':
      return {
        type: 'KeyValueSet',
        key: readString(wire, 'key', path),
        value: readString(wire, 'value', path),
        lastUpdatedAtMs: readDefaultedU64(wire, 'last_updated_at_ms', path),
      };
    case 'KeyValueCleared':
      return { type: 'KeyValueCleared', key: readString(wire, 'key', path) };
    case 'KeyValuesCleared':
      return { type: 'KeyValuesCleared' };
    default:
      throw unknownEventType(tag, path);
  }
}

function orchestrationStartedFromWire(
  wire: WireObject,
  path: string,
): EventKindOf<'OrchestrationStarted'> {
  const kind: Writable<EventKindOf<'OrchestrationStarted'>> = {
    type: 'OrchestrationStarted',
    name: readString(wire, 'name', path),
    version: readString(wire, 'version', path),
    input: readString(wire, 'input', path),
    parentInstance: readNullableString(wire, 'parent_instance', path),
    parentId: readNullableU64(wire, 'parent_id', path),
  };
  const parentExecutionId = readOptionalU64(wire, 'parent_execution_id', path);
  if (parentExecutionId !== undefined) kind.parentExecutionId = parentExecutionId;
  const carryForwardEvents = readOptionalPairs(wire, 'carry_forward_events', path);
  if (carryForwardEvents !== undefined) kind.carryForwardEvents = carryForwardEvents;
  const initialCustomStatus = readOptionalString(wire, 'initial_custom_status', path);
  if (initialCustomStatus !== undefined) kind.initialCustomStatus = initialCustomStatus;
  return kind;
}

function activityScheduledFromWire(
  wire: WireObject,
  path: string,
): EventKindOf<'ActivityScheduled'> {
  const kind: Writable<EventKindOf<'ActivityScheduled'>> = {
    type: 'ActivityScheduled',
    name: readString(wire, 'name', path),
    input: readString(wire, 'input', path),
  };
  readActivityRouting(wire, path, kind);
  return kind;
}

function detailsFromWire(wire: WireObject, path: string) {
  return errorDetailsFromWire(wire.details, path === '$' ? '$.details' : `${path}.details`);
}

function unknownEventType(tag: string, path: string): WireFormatError {
  const renamed = Object.hasOwn(EVENT_WIRE_TAGS, tag) ? EVENT_WIRE_TAGS[tag as EventType] : tag;
  const hint = renamed !== tag ? ` (its wire tag is "${renamed}")` : '';
  return new WireFormatError(`${path}.type`, `unknown history event type "${tag}"${hint}`);
}
