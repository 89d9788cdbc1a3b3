import type { Event, EventType } from './event.js';
import { EVENT_WIRE_TAGS, eventKindFromWire, writeEventKindFields } from './event-kind-codec.js';
import {
  expectObject,
  readNullableU64,
  readString,
  readU64,
  writeU64,
  wrongType,
} from './wire-fields.js';
import { parseWireJson } from './wire-json.js';
import { WireFormatError } from './wire-format-error.js';

/**
 * The JSON text duroxide's serde_json writes for `event`, byte for byte: the header
 * (`event_id`, `source_event_id`, `instance_id`, `execution_id`, `timestamp_ms`,
 * `duroxide_version`), then `type` and the kind's fields in Rust declaration order, with `null`
 * and omitted fields exactly as serde writes them. This is the text a history row stores.
 * @throws {WireFormatError} when an id, timestamp or other `u64` is not an integer from 0 to
 * 2^53-1 (`Number.MAX_SAFE_INTEGER`).
 */
export function encodeEvent(event: Event): string {
  return JSON.stringify(eventToWire(event));
}

/**
 * Reads one history event from duroxide's JSON text. Unknown fields are ignored; fields duroxide
 * marks `default` may be absent (`last_updated_at_ms` reads as 0), as may `Option` fields.
 * @throws {WireFormatError} naming the path and the problem when the text is not JSON or not an
 * event: an unknown `type` (`unknown history event type "Foo"`), a missing field, a wrong JSON
 * type, or an integer that is negative, fractional or above 2^53-1.
 */
export function decodeEvent(json: string): Event {
  return eventFromWire(parseWireJson(json));
}

/**
 * The plain object serde would produce for `event`, keys in serde order, so that
 * `JSON.stringify` of it is {@link encodeEvent}'s text. Use it to embed events in a larger JSON
 * document (such as a jsonb parameter). Nested arrays and objects of `event` may be shared, not
 * copied.
 * @throws {WireFormatError} as {@link encodeEvent}.
 */
export function eventToWire(event: Event): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    event_id: writeU64(event.eventId, '$.event_id'),
    source_event_id:
      event.sourceEventId === null ? null : writeU64(event.sourceEventId, '$.source_event_id'),
    instance_id: event.instanceId,
    execution_id: writeU64(event.executionId, '$.execution_id'),
    timestamp_ms: writeU64(event.timestampMs, '$.timestamp_ms'),
    duroxide_version: event.duroxideVersion,
    type: EVENT_WIRE_TAGS[event.kind.type],
  };
  writeEventKindFields(wire, event.kind);
  return wire;
}

/**
 * Reads one history event from parsed JSON (for example a row of a jsonb array), with the same
 * rules as {@link decodeEvent}.
 * @param path where the value sits in a larger document, for error messages. @default `'$'`
 * @throws {WireFormatError} as {@link decodeEvent}.
 */
export function eventFromWire(value: unknown, path = '$'): Event {
  const wire = expectObject(value, path);
  const tag = wire.type;
  if (typeof tag !== 'string') {
    throw tag === undefined
      ? new WireFormatError(`${path}.type`, 'missing required field "type"')
      : wrongType('the event type as a string', tag, `${path}.type`);
  }
  return {
    eventId: readU64(wire, 'event_id', path),
    sourceEventId: readNullableU64(wire, 'source_event_id', path),
    instanceId: readString(wire, 'instance_id', path),
    executionId: readU64(wire, 'execution_id', path),
    timestampMs: readU64(wire, 'timestamp_ms', path),
    duroxideVersion: readString(wire, 'duroxide_version', path),
    kind: eventKindFromWire(tag, wire, path),
  };
}

/**
 * The `type` string duroxide writes for an event variant. It equals the variant name except for
 * the persistent-queue events, which keep their original names: `QueueSubscribed` is
 * `"ExternalSubscribedPersistent"`, `QueueEventDelivered` is `"ExternalEventPersistent"` and
 * `QueueSubscriptionCancelled` is `"ExternalSubscribedPersistentCancelled"`. A provider that
 * stores the event type in its own column (as duroxide's SQLite provider does) stores this.
 */
export function eventWireTag(type: EventType): string {
  return EVENT_WIRE_TAGS[type];
}
