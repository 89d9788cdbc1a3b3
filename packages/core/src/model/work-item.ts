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
      readonly type: 'StartOrchestration';
      readonly instance: string;
      readonly orchestration: string;
      readonly input: string;
      readonly version: string | null;
      readonly parentInstance: string | null;
      readonly parentId: number | null;
      readonly parentExecutionId?: number;
      readonly executionId: number;
    }
  | {
      readonly type: 'ContinueAsNew';
      readonly instance: string;
      readonly orchestration: string;
      readonly input: string;
      readonly version: string | null;
      readonly parentInstance?: string;
      readonly parentId?: number;
      readonly parentExecutionId?: number;
      /** Always written, `[]` when empty. */
      readonly carryForwardEvents: readonly CarriedEvent[];
      readonly initialCustomStatus?: string;
    }
  // Activities
  | {
      readonly type: 'ActivityExecute';
      readonly instance: string;
      readonly executionId: number;
      /** The event id of the `ActivityScheduled` event. */
      readonly id: number;
      readonly name: string;
      readonly input: string;
      readonly sessionId?: string;
      readonly tag?: string;
    }
  | {
      readonly type: 'ActivityCompleted';
      readonly instance: string;
      readonly executionId: number;
      readonly id: number;
      readonly result: string;
    }
  | {
      readonly type: 'ActivityFailed';
      readonly instance: string;
      readonly executionId: number;
      readonly id: number;
      readonly details: ErrorDetails;
    }
  // Timers
  | {
      readonly type: 'TimerFired';
      readonly instance: string;
      readonly executionId: number;
      /** The event id of the `TimerCreated` event. */
      readonly id: number;
      readonly fireAtMs: number;
    }
  // Events from clients
  | {
      readonly type: 'ExternalRaised';
      readonly instance: string;
      readonly name: string;
      readonly data: string;
    }
  | {
      readonly type: 'QueueMessage';
      readonly instance: string;
      readonly name: string;
      readonly data: string;
    }
  | { readonly type: 'CancelInstance'; readonly instance: string; readonly reason: string }
  // Sub-orchestration results, routed to the parent
  | {
      readonly type: 'SubOrchCompleted';
      readonly parentInstance: string;
      readonly parentExecutionId: number;
      /** The event id of the parent's `SubOrchestrationScheduled` event. */
      readonly parentId: number;
      readonly result: string;
    }
  | {
      readonly type: 'SubOrchFailed';
      readonly parentInstance: string;
      readonly parentExecutionId: number;
      readonly parentId: number;
      readonly details: ErrorDetails;
    };

/** The variant names of {@link WorkItem}. */
export type WorkItemType = WorkItem['type'];

/** The {@link WorkItem} variant named `T`. */
export type WorkItemOf<T extends WorkItemType> = Extract<WorkItem, { readonly type: T }>;

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
