import type { ExecutionStatus } from './execution-metadata.js';

/** One instance as management tools see it. */
export interface InstanceInfo {
  /** The instance id. */
  readonly instanceId: string;
  /** The orchestration it runs. */
  readonly orchestrationName: string;
  /** The version its current execution runs. */
  readonly orchestrationVersion: string;
  /** Its current execution: 1, then one more per continue-as-new. */
  readonly currentExecutionId: number;
  /** Status of the current execution. */
  readonly status: ExecutionStatus;
  /** Output or error of the current execution, when it has ended. */
  readonly output: string | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** Epoch milliseconds. */
  readonly updatedAt: number;
  /** `null` for a root orchestration. */
  readonly parentInstanceId: string | null;
}

/** One execution of an instance. */
export interface ExecutionInfo {
  /** The execution id (1 for the first). */
  readonly executionId: number;
  /** How the execution stands or ended. */
  readonly status: ExecutionStatus;
  /** Output, error, or (for `ContinuedAsNew`) the next input. */
  readonly output: string | null;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Epoch milliseconds; `null` while running. */
  readonly completedAt: number | null;
  /** Events in its history. */
  readonly eventCount: number;
}

/** Counts over the whole store. */
export interface SystemMetrics {
  /** Instances in the store. */
  readonly totalInstances: number;
  /** Executions of all instances. */
  readonly totalExecutions: number;
  /** Instances whose current execution runs. */
  readonly runningInstances: number;
  /** Instances that completed. */
  readonly completedInstances: number;
  /** Instances that failed. */
  readonly failedInstances: number;
  /** History events of all executions. */
  readonly totalEvents: number;
}

/** Unlocked messages waiting in each queue. */
export interface QueueDepths {
  /** Visible, unlocked messages for orchestrations. */
  readonly orchestratorQueue: number;
  /** Visible, unlocked activities. */
  readonly workerQueue: number;
  /** Always 0 in duroxide's providers: timers are delayed orchestrator messages. */
  readonly timerQueue: number;
}

/** Which instances a bulk operation selects; all given conditions must hold. */
export interface InstanceFilter {
  /** Only these instances. */
  readonly instanceIds?: readonly string[];
  /** Only instances that ended before this time, in epoch milliseconds. */
  readonly completedBefore?: number;
  /** At most this many instances. */
  readonly limit?: number;
}

/** Which executions pruning removes. The current execution is never removed. */
export interface PruneOptions {
  /** Keep the newest N executions. */
  readonly keepLast?: number;
  /** Only executions that ended before this time, in epoch milliseconds. */
  readonly completedBefore?: number;
}

/** What a delete removed. */
export interface DeleteInstanceResult {
  /** Instances removed (the root and its descendants). */
  readonly instancesDeleted: number;
  /** Executions removed. */
  readonly executionsDeleted: number;
  /** History events removed. */
  readonly eventsDeleted: number;
  /** Queued messages removed. */
  readonly queueMessagesDeleted: number;
}

/** What a prune removed. */
export interface PruneResult {
  /** Instances looked at. */
  readonly instancesProcessed: number;
  /** Executions removed. */
  readonly executionsDeleted: number;
  /** History events removed. */
  readonly eventsDeleted: number;
}

/** An instance and all its descendants (sub-orchestrations, recursively). */
export interface InstanceTree {
  /** The root of the tree. */
  readonly rootId: string;
  /** The root first, then every descendant. */
  readonly allIds: readonly string[];
}
