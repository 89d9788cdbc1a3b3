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
  readonly instanceId: string;
  readonly executionId: number;
  /** Wall-clock time when the runtime created the event, in epoch milliseconds. */
  readonly timestampMs: number;
  /** Semver of the runtime whose semantics wrote the event, such as `"0.1.32"`. */
  readonly duroxideVersion: string;
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
      readonly type: 'OrchestrationStarted';
      readonly name: string;
      /** The resolved semver of the orchestration handler. */
      readonly version: string;
      readonly input: string;
      readonly parentInstance: string | null;
      readonly parentId: number | null;
      readonly parentExecutionId?: number;
      readonly carryForwardEvents?: readonly CarriedEvent[];
      readonly initialCustomStatus?: string;
    }
  | { readonly type: 'OrchestrationCompleted'; readonly output: string }
  | { readonly type: 'OrchestrationFailed'; readonly details: ErrorDetails }
  | { readonly type: 'OrchestrationContinuedAsNew'; readonly input: string }
  | { readonly type: 'OrchestrationCancelRequested'; readonly reason: string }
  // Activities
  | {
      readonly type: 'ActivityScheduled';
      readonly name: string;
      readonly input: string;
      readonly sessionId?: string;
      readonly tag?: string;
    }
  | { readonly type: 'ActivityCompleted'; readonly result: string }
  | { readonly type: 'ActivityFailed'; readonly details: ErrorDetails }
  | { readonly type: 'ActivityCancelRequested'; readonly reason: string }
  // Timers
  | { readonly type: 'TimerCreated'; readonly fireAtMs: number }
  | { readonly type: 'TimerFired'; readonly fireAtMs: number }
  // Positional external events
  | { readonly type: 'ExternalSubscribed'; readonly name: string }
  | { readonly type: 'ExternalEvent'; readonly name: string; readonly data: string }
  | { readonly type: 'ExternalSubscribedCancelled'; readonly reason: string }
  // Persistent queues (wire tags ExternalSubscribedPersistent, ExternalEventPersistent,
  // ExternalSubscribedPersistentCancelled)
  | { readonly type: 'QueueSubscribed'; readonly name: string }
  | { readonly type: 'QueueEventDelivered'; readonly name: string; readonly data: string }
  | { readonly type: 'QueueSubscriptionCancelled'; readonly reason: string }
  // Sub-orchestrations and detached starts
  | {
      readonly type: 'OrchestrationChained';
      readonly name: string;
      readonly instance: string;
      readonly input: string;
    }
  | {
      readonly type: 'SubOrchestrationScheduled';
      readonly name: string;
      /** The child's id: an explicit id, or the suffix such as `sub::5` for generated ones. */
      readonly instance: string;
      readonly input: string;
    }
  | { readonly type: 'SubOrchestrationCompleted'; readonly result: string }
  | { readonly type: 'SubOrchestrationFailed'; readonly details: ErrorDetails }
  | { readonly type: 'SubOrchestrationCancelRequested'; readonly reason: string }
  // Custom status
  | { readonly type: 'CustomStatusUpdated'; readonly status: string | null }
  // Key-value store
  | {
      readonly type: 'KeyValueSet';
      readonly key: string;
      readonly value: string;
      readonly lastUpdatedAtMs: number;
    }
  | { readonly type: 'KeyValueCleared'; readonly key: string }
  | { readonly type: 'KeyValuesCleared' };

/** The variant names of {@link EventKind}. */
export type EventType = EventKind['type'];

/** The {@link EventKind} variant named `T`. */
export type EventKindOf<T extends EventType> = Extract<EventKind, { readonly type: T }>;

/** An event whose kind is the variant named `T`. */
export type EventOf<T extends EventType> = Event & { readonly kind: EventKindOf<T> };

/** Whether the event ends its execution (completed, failed or continued as new). */
export function isTerminalEvent(event: Event): boolean {
  const type = event.kind.type;
  return (
    type === 'OrchestrationCompleted' ||
    type === 'OrchestrationFailed' ||
    type === 'OrchestrationContinuedAsNew'
  );
}
