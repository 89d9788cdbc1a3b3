import type { ExecutionStatus } from './execution-metadata.js';

/** One instance as management tools see it. */
export interface InstanceInfo {
  readonly instanceId: string;
  readonly orchestrationName: string;
  readonly orchestrationVersion: string;
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
  readonly executionId: number;
  readonly status: ExecutionStatus;
  /** Output, error, or (for `ContinuedAsNew`) the next input. */
  readonly output: string | null;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Epoch milliseconds; `null` while running. */
  readonly completedAt: number | null;
  readonly eventCount: number;
}

/** Counts over the whole store. */
export interface SystemMetrics {
  readonly totalInstances: number;
  readonly totalExecutions: number;
  readonly runningInstances: number;
  readonly completedInstances: number;
  readonly failedInstances: number;
  readonly totalEvents: number;
}

/** Unlocked messages waiting in each queue. */
export interface QueueDepths {
  readonly orchestratorQueue: number;
  readonly workerQueue: number;
  /** Always 0 in duroxide's providers: timers are delayed orchestrator messages. */
  readonly timerQueue: number;
}

/** Which instances a bulk operation selects; all given conditions must hold. */
export interface InstanceFilter {
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
  readonly instancesDeleted: number;
  readonly executionsDeleted: number;
  readonly eventsDeleted: number;
  readonly queueMessagesDeleted: number;
}

/** What a prune removed. */
export interface PruneResult {
  readonly instancesProcessed: number;
  readonly executionsDeleted: number;
  readonly eventsDeleted: number;
}

/** An instance and all its descendants (sub-orchestrations, recursively). */
export interface InstanceTree {
  readonly rootId: string;
  /** The root first, then every descendant. */
  readonly allIds: readonly string[];
}
