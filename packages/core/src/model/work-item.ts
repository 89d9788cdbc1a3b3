import type { ErrorDetails } from './error-details.js';
import type { CarriedEvent } from './event.js';

/**
 * A queue message, as duroxide's `WorkItem`. `ActivityExecute` goes to the worker queue; every
 * other variant drives an orchestration turn on the orchestrator queue. On the wire each variant
 * is externally tagged (`{"ActivityExecute":{...}}`); here the variant is the `type` field.
 */
export type WorkItem =
  // Starting and continuing executions
  | {
      /** Starts the first execution of an instance (from a client, a parent or a detached start). */
      readonly type: 'StartOrchestration';
      /** The instance the message is for. */
      readonly instance: string;
      /** The orchestration name. */
      readonly orchestration: string;
      /** The input, as JSON text. */
      readonly input: string;
      /** The version to run; `null` lets the registry pick the latest. */
      readonly version: string | null;
      /** The parent instance, when started as a sub-orchestration; else `null`. */
      readonly parentInstance: string | null;
      /** The parent's `SubOrchestrationScheduled` event id, when a sub-orchestration; else `null`. */
      readonly parentId: number | null;
      /** The parent's execution id, when a sub-orchestration. */
      readonly parentExecutionId?: number;
      /** The execution to start: 1 for a new instance. */
      readonly executionId: number;
    }
  | {
      /** Starts the next execution of an instance that continued as new. */
      readonly type: 'ContinueAsNew';
      /** The instance the message is for. */
      readonly instance: string;
      /** The orchestration name. */
      readonly orchestration: string;
      /** The input, as JSON text. */
      readonly input: string;
      /** The version of the next execution; `null` keeps the registry's choice. */
      readonly version: string | null;
      /** The parent instance, when the instance is a sub-orchestration. */
      readonly parentInstance?: string;
      /** The parent's `SubOrchestrationScheduled` event id, when a sub-orchestration. */
      readonly parentId?: number;
      /** The parent's execution id, when a sub-orchestration. */
      readonly parentExecutionId?: number;
      /** Always written, `[]` when empty. */
      readonly carryForwardEvents: readonly CarriedEvent[];
      /** The custom status carried over to the next execution. */
      readonly initialCustomStatus?: string;
    }
  // Activities
  | {
      /** Runs an activity: the only variant that goes to the worker queue. */
      readonly type: 'ActivityExecute';
      /** The instance the message is for. */
      readonly instance: string;
      /** The execution the message belongs to. */
      readonly executionId: number;
      /** The event id of the `ActivityScheduled` event. */
      readonly id: number;
      /** The activity name. */
      readonly name: string;
      /** The input, as JSON text. */
      readonly input: string;
      /** The session the activity is bound to, when any. */
      readonly sessionId?: string;
      /** The routing tag, when any. */
      readonly tag?: string;
    }
  | {
      /** An activity's result, for the orchestration that scheduled it. */
      readonly type: 'ActivityCompleted';
      /** The instance the message is for. */
      readonly instance: string;
      /** The execution the message belongs to. */
      readonly executionId: number;
      /** The event id of the `ActivityScheduled` event. */
      readonly id: number;
      /** The result, as JSON text. */
      readonly result: string;
    }
  | {
      /** An activity's failure, for the orchestration that scheduled it. */
      readonly type: 'ActivityFailed';
      /** The instance the message is for. */
      readonly instance: string;
      /** The execution the message belongs to. */
      readonly executionId: number;
      /** The event id of the `ActivityScheduled` event. */
      readonly id: number;
      /** Why it failed. */
      readonly details: ErrorDetails;
    }
  // Timers
  | {
      /** A timer that came due, visible from `fireAtMs` on. */
      readonly type: 'TimerFired';
      /** The instance the message is for. */
      readonly instance: string;
      /** The execution the message belongs to. */
      readonly executionId: number;
      /** The event id of the `TimerCreated` event. */
      readonly id: number;
      /** When the timer was due, in epoch milliseconds. */
      readonly fireAtMs: number;
    }
  // Events from clients
  | {
      /** A positional external event raised by a client. */
      readonly type: 'ExternalRaised';
      /** The instance the message is for. */
      readonly instance: string;
      /** The event name. */
      readonly name: string;
      /** The data, as JSON text. */
      readonly data: string;
    }
  | {
      /** A message for one of the instance's queues. */
      readonly type: 'QueueMessage';
      /** The instance the message is for. */
      readonly instance: string;
      /** The queue name. */
      readonly name: string;
      /** The data, as JSON text. */
      readonly data: string;
    }
  | {
      /** Cancels the instance (and its children). */
      readonly type: 'CancelInstance';
      /** The instance the message is for. */
      readonly instance: string;
      /** Why the instance is cancelled. */
      readonly reason: string;
    }
  // Sub-orchestration results, routed to the parent
  | {
      /** A child orchestration's output, for its parent. */
      readonly type: 'SubOrchCompleted';
      /** The parent instance the result goes to. */
      readonly parentInstance: string;
      /** The parent's execution that scheduled the child. */
      readonly parentExecutionId: number;
      /** The event id of the parent's `SubOrchestrationScheduled` event. */
      readonly parentId: number;
      /** The result, as JSON text. */
      readonly result: string;
    }
  | {
      /** A child orchestration's failure, for its parent. */
      readonly type: 'SubOrchFailed';
      /** The parent instance the failure goes to. */
      readonly parentInstance: string;
      /** The parent's execution that scheduled the child. */
      readonly parentExecutionId: number;
      /** The event id of the parent's `SubOrchestrationScheduled` event. */
      readonly parentId: number;
      /** Why it failed. */
      readonly details: ErrorDetails;
    };

/** The variant names of {@link WorkItem}. */
export type WorkItemType = WorkItem['type'];

/** The {@link WorkItem} variant named `T`. */
export type WorkItemOf<T extends WorkItemType> = Extract<
  WorkItem,
  {
    /** The variant name. */
    readonly type: T;
  }
>;

/**
 * The instance a work item is for: the target instance, or the parent for sub-orchestration
 * results. Providers route orchestrator-queue rows by this.
 */
export function workItemInstance(item: WorkItem): string {
  switch (item.type) {
    case 'SubOrchCompleted':
    case 'SubOrchFailed':
      return item.parentInstance;
    case 'StartOrchestration':
    case 'ContinueAsNew':
    case 'ActivityExecute':
    case 'ActivityCompleted':
    case 'ActivityFailed':
    case 'TimerFired':
    case 'ExternalRaised':
    case 'QueueMessage':
    case 'CancelInstance':
      return item.instance;
  }
}
