import type { Event } from '../model/event.js';
import type {
  DeleteInstanceResult,
  ExecutionInfo,
  InstanceFilter,
  InstanceInfo,
  InstanceTree,
  PruneOptions,
  PruneResult,
  QueueDepths,
  SystemMetrics,
} from './management.js';

/**
 * Management operations over a store, as duroxide's `ProviderAdmin`: listing, inspection, metrics,
 * deletion and pruning. Obtained with `provider.asManagementCapability()`.
 */
export interface ProviderAdmin {
  /** Every instance id. */
  listInstances(): Promise<string[]>;
  /** Instances whose current execution has this status. */
  listInstancesByStatus(status: string): Promise<string[]>;
  /** Execution ids of an instance, ascending. */
  listExecutions(instance: string): Promise<number[]>;
  /** One execution's history. */
  readHistoryWithExecutionId(instance: string, executionId: number): Promise<Event[]>;
  /** The latest execution's history. */
  readHistory(instance: string): Promise<Event[]>;
  /** The latest execution id. */
  latestExecutionId(instance: string): Promise<number>;
  /** @throws {ProviderError} when the instance does not exist. */
  getInstanceInfo(instance: string): Promise<InstanceInfo>;
  /** @throws {ProviderError} when the execution does not exist. */
  getExecutionInfo(instance: string, executionId: number): Promise<ExecutionInfo>;
  /** Instance, execution and event counts over the whole store. */
  getSystemMetrics(): Promise<SystemMetrics>;
  /** The visible, unlocked messages waiting in each queue. */
  getQueueDepths(): Promise<QueueDepths>;

  // ----- Hierarchy -----

  /** Direct children (sub-orchestrations) of an instance. */
  listChildren(instanceId: string): Promise<string[]>;
  /** The parent of a sub-orchestration; `null` for a root. */
  getParentId(instanceId: string): Promise<string | null>;
  /** The instance and all its descendants; see {@link @duro/core!walkInstanceTree | walkInstanceTree}. */
  getInstanceTree(instanceId: string): Promise<InstanceTree>;

  // ----- Deletion -----

  /**
   * Deletes exactly these instances in one transaction. Without `force`, fails when one of them is
   * still running.
   */
  deleteInstancesAtomic(ids: readonly string[], force: boolean): Promise<DeleteInstanceResult>;
  /** Deletes a root instance with its whole tree; see {@link @duro/core!deleteInstanceTree | deleteInstanceTree}. */
  deleteInstance(instanceId: string, force: boolean): Promise<DeleteInstanceResult>;
  /** Deletes the terminal root instances the filter selects, each with its tree. */
  deleteInstanceBulk(filter: InstanceFilter): Promise<DeleteInstanceResult>;

  // ----- Pruning -----

  /** Removes old executions of one instance; the current one always stays. */
  pruneExecutions(instanceId: string, options: PruneOptions): Promise<PruneResult>;
  /** Prunes every instance the filter selects. */
  pruneExecutionsBulk(filter: InstanceFilter, options: PruneOptions): Promise<PruneResult>;
}
