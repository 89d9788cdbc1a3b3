import type { ErrorDetails } from './error-details.js';

/**
 * One history row, as duroxide's `Event`: a header shared by every event plus the event's
 * {@link EventKind}. On the wire the kind is flattened into the header and tagged by `"type"`.
 */
export interface Event {
  /** 1-based position of the event within its execution. */
  readonly eventId: number;
  /** The scheduling event a completion or cancellation refers to; `null` for all others. */
  readonly sourceEventId: number | null;
  /** The instance the event belongs to. */
  readonly instanceId: string;
  /** The execution the event belongs to: 1 for the first, one more after each continue-as-new. */
  readonly executionId: number;
  /** Wall-clock time when the runtime created the event, in epoch milliseconds. */
  readonly timestampMs: number;
  /** Semver of the runtime whose semantics wrote the event, such as `"0.1.32"`. */
  readonly duroxideVersion: string;
  /** What happened. */
  readonly kind: EventKind;
}

/** A pair `[name, data]`: an unread queue message carried across continue-as-new. */
export type CarriedEvent = readonly [name: string, data: string];

/**
 * What happened, as duroxide's `EventKind`. `type` is the Rust variant name; three variants keep
 * legacy wire tags (see `eventWireTag` in `event-codec.ts`). An optional field (`?:`) is omitted from the JSON when
 * absent; a `| null` field is always written.
 */
export type EventKind =
  // Orchestration lifecycle
  | {
      /** An execution started; always the first event of an execution. */
      readonly type: 'OrchestrationStarted';
      /** The orchestration name. */
      readonly name: string;
      /** The resolved semver of the orchestration handler. */
      readonly version: string;
      /** The input, as JSON text. */
      readonly input: string;
      /** The parent instance, when this execution is a sub-orchestration; else `null`. */
      readonly parentInstance: string | null;
      /** The parent's `SubOrchestrationScheduled` event id, when a sub-orchestration; else `null`. */
      readonly parentId: number | null;
      /** The parent's execution id, when a sub-orchestration (absent in older histories). */
      readonly parentExecutionId?: number;
      /** Unread queue messages carried over by continue-as-new, oldest first. */
      readonly carryForwardEvents?: readonly CarriedEvent[];
      /** The custom status carried over by continue-as-new. */
      readonly initialCustomStatus?: string;
    }
  | {
      /** The execution completed with an output. */
      readonly type: 'OrchestrationCompleted';
      /** The output, as JSON text. */
      readonly output: string;
    }
  | {
      /** The execution failed. */
      readonly type: 'OrchestrationFailed';
      /** Why it failed. */
      readonly details: ErrorDetails;
    }
  | {
      /** The execution ended by continuing as new with the given input. */
      readonly type: 'OrchestrationContinuedAsNew';
      /** The next execution's input, as JSON text. */
      readonly input: string;
    }
  | {
      /** A client or a parent asked to cancel the instance. */
      readonly type: 'OrchestrationCancelRequested';
      /** Why the cancellation was requested. */
      readonly reason: string;
    }
  // Activities
  | {
      /** The orchestration scheduled an activity. */
      readonly type: 'ActivityScheduled';
      /** The activity name. */
      readonly name: string;
      /** The input, as JSON text. */
      readonly input: string;
      /** The session the activity is bound to, when any. */
      readonly sessionId?: string;
      /** The routing tag the activity was scheduled with, when any. */
      readonly tag?: string;
    }
  | {
      /** An activity returned; `sourceEventId` names its `ActivityScheduled`. */
      readonly type: 'ActivityCompleted';
      /** The result, as JSON text. */
      readonly result: string;
    }
  | {
      /** An activity failed; `sourceEventId` names its `ActivityScheduled`. */
      readonly type: 'ActivityFailed';
      /** Why it failed. */
      readonly details: ErrorDetails;
    }
  | {
      /** The orchestration no longer wants an activity (it lost a race, or the execution ended). */
      readonly type: 'ActivityCancelRequested';
      /** Why the cancellation was requested. */
      readonly reason: string;
    }
  // Timers
  | {
      /** The orchestration scheduled a durable timer. */
      readonly type: 'TimerCreated';
      /** When the timer fires, in epoch milliseconds. */
      readonly fireAtMs: number;
    }
  | {
      /** A timer fired; `sourceEventId` names its `TimerCreated`. */
      readonly type: 'TimerFired';
      /** When the timer was due, in epoch milliseconds. */
      readonly fireAtMs: number;
    }
  // Positional external events
  | {
      /** The orchestration began waiting for a positional external event. */
      readonly type: 'ExternalSubscribed';
      /** The event name waited for. */
      readonly name: string;
    }
  | {
      /** An external event raised by a client arrived. */
      readonly type: 'ExternalEvent';
      /** The event name. */
      readonly name: string;
      /** The data, as JSON text. */
      readonly data: string;
    }
  | {
      /** A wait for an external event was dropped (it lost a race). */
      readonly type: 'ExternalSubscribedCancelled';
      /** Why the cancellation was requested. */
      readonly reason: string;
    }
  // Persistent queues (wire tags ExternalSubscribedPersistent, ExternalEventPersistent,
  // ExternalSubscribedPersistentCancelled)
  | {
      /** The orchestration began waiting for the next message of a queue. */
      readonly type: 'QueueSubscribed';
      /** The queue name. */
      readonly name: string;
    }
  | {
      /** A queue message was handed to a waiting dequeue. */
      readonly type: 'QueueEventDelivered';
      /** The queue name. */
      readonly name: string;
      /** The data, as JSON text. */
      readonly data: string;
    }
  | {
      /** A dequeue was dropped (it lost a race); its message stays queued. */
      readonly type: 'QueueSubscriptionCancelled';
      /** Why the cancellation was requested. */
      readonly reason: string;
    }
  // Sub-orchestrations and detached starts
  | {
      /** The orchestration started a detached orchestration (fire and forget). */
      readonly type: 'OrchestrationChained';
      /** The started orchestration's name. */
      readonly name: string;
      /** The started instance's id. */
      readonly instance: string;
      /** The input, as JSON text. */
      readonly input: string;
    }
  | {
      /** The orchestration started a child orchestration and waits for it. */
      readonly type: 'SubOrchestrationScheduled';
      /** The child orchestration's name. */
      readonly name: string;
      /** The child's id: an explicit id, or the suffix such as `sub::5` for generated ones. */
      readonly instance: string;
      /** The input, as JSON text. */
      readonly input: string;
    }
  | {
      /** A child orchestration completed; `sourceEventId` names its `SubOrchestrationScheduled`. */
      readonly type: 'SubOrchestrationCompleted';
      /** The result, as JSON text. */
      readonly result: string;
    }
  | {
      /** A child orchestration failed; `sourceEventId` names its `SubOrchestrationScheduled`. */
      readonly type: 'SubOrchestrationFailed';
      /** Why it failed. */
      readonly details: ErrorDetails;
    }
  | {
      /** The orchestration no longer wants a child orchestration. */
      readonly type: 'SubOrchestrationCancelRequested';
      /** Why the cancellation was requested. */
      readonly reason: string;
    }
  // Custom status
  | {
      /** The orchestration set or reset its custom status. */
      readonly type: 'CustomStatusUpdated';
      /** The new custom status; `null` when it was reset. */
      readonly status: string | null;
    }
  // Key-value store
  | {
      /** The orchestration set a key of its key-value store. */
      readonly type: 'KeyValueSet';
      /** The key. */
      readonly key: string;
      /** The value. */
      readonly value: string;
      /** When the key was set, in epoch milliseconds. */
      readonly lastUpdatedAtMs: number;
    }
  | {
      /** The orchestration removed a key of its key-value store. */
      readonly type: 'KeyValueCleared';
      /** The key. */
      readonly key: string;
    }
  | {
      /** The orchestration removed every key of its key-value store. */
      readonly type: 'KeyValuesCleared';
    };

/** The variant names of {@link EventKind}. */
export type EventType = EventKind['type'];

/** The {@link EventKind} variant named `T`. */
export type EventKindOf<T extends EventType> = Extract<
  EventKind,
  {
    /** The variant name. */
    readonly type: T;
  }
>;

/** An event whose kind is the variant named `T`. */
export type EventOf<T extends EventType> = Event & {
  /** What happened: the variant named `T`. */
  readonly kind: EventKindOf<T>;
};

/** Whether the event ends its execution (completed, failed or continued as new). */
export function isTerminalEvent(event: Event): boolean {
  const type = event.kind.type;
  return (
    type === 'OrchestrationCompleted' ||
    type === 'OrchestrationFailed' ||
    type === 'OrchestrationContinuedAsNew'
  );
}
