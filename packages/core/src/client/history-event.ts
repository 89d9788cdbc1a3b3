import { encodeErrorDetails } from '../model/error-details-codec.js';
import type { Event, EventKind } from '../model/event.js';

/** One history event as `readExecutionHistory` returns it (duroxide-node's `JsEvent`). */
export interface HistoryEvent {
  /** 1-based position of the event within its execution. */
  readonly eventId: number;
  /** The Rust variant name, such as `"ActivityScheduled"` or `"QueueSubscribed"`. */
  readonly kind: string;
  /** The scheduling event a completion refers to, when it is one. */
  readonly sourceEventId?: number;
  /** When the event was written, in epoch milliseconds. */
  readonly timestampMs: number;
  /**
   * The event's main fields as JSON text, in duroxide-node's shapes: `{"name","version","input"}`
   * for `OrchestrationStarted`, the payload itself for a completion, the error details for a
   * failure, `{"name","input"}` for `ActivityScheduled`, `{"name","instance","input"}` for
   * `SubOrchestrationScheduled`, `{"fireAtMs"}` for timers, `{"name"}` for subscriptions,
   * `{"name","data"}` for delivered events and `{"reason"}` for `QueueSubscriptionCancelled`;
   * absent for other kinds. Payloads (inputs, outputs, results, event data) are spliced in as
   * the JSON they are, so one `JSON.parse` gives objects back; a payload that is not JSON (which
   * duroxide-node would splice into invalid JSON) is written as a JSON string, so `data` always
   * parses.
   */
  readonly data?: string;
  /** The decoded event (not in duroxide-node). */
  readonly event: Event;
}

/** A payload as it goes into `data`: as it is when it is JSON, else as a JSON string. */
function spliced(payload: string): string {
  try {
    JSON.parse(payload);
    return payload;
  } catch {
    return JSON.stringify(payload);
  }
}

/** JSON text of an object whose values are JSON texts already, in the given key order. */
function objectOf(fields: Readonly<Record<string, string>>): string {
  const members = Object.entries(fields).map(([key, json]) => `${JSON.stringify(key)}:${json}`);
  return `{${members.join(',')}}`;
}

const text = (value: string): string => JSON.stringify(value);

function eventData(kind: EventKind): string | undefined {
  switch (kind.type) {
    case 'OrchestrationStarted':
      return objectOf({
        name: text(kind.name),
        version: text(kind.version),
        input: spliced(kind.input),
      });
    case 'OrchestrationCompleted':
      return spliced(kind.output);
    case 'ActivityCompleted':
    case 'SubOrchestrationCompleted':
      return spliced(kind.result);
    case 'OrchestrationFailed':
    case 'ActivityFailed':
    case 'SubOrchestrationFailed':
      return encodeErrorDetails(kind.details);
    case 'ActivityScheduled':
      return objectOf({ name: text(kind.name), input: spliced(kind.input) });
    case 'SubOrchestrationScheduled':
      return objectOf({
        name: text(kind.name),
        instance: text(kind.instance),
        input: spliced(kind.input),
      });
    case 'TimerCreated':
    case 'TimerFired':
      return objectOf({ fireAtMs: String(kind.fireAtMs) });
    case 'ExternalSubscribed':
    case 'QueueSubscribed':
      return objectOf({ name: text(kind.name) });
    case 'ExternalEvent':
    case 'QueueEventDelivered':
      return objectOf({ name: text(kind.name), data: spliced(kind.data) });
    case 'QueueSubscriptionCancelled':
      return objectOf({ reason: text(kind.reason) });
    default:
      return undefined;
  }
}

/** The client's view of one stored event. @internal */
export function historyEvent(event: Event): HistoryEvent {
  const data = eventData(event.kind);
  return {
    eventId: event.eventId,
    kind: event.kind.type,
    ...(event.sourceEventId !== null ? { sourceEventId: event.sourceEventId } : {}),
    timestampMs: event.timestampMs,
    ...(data !== undefined ? { data } : {}),
    event,
  };
}
