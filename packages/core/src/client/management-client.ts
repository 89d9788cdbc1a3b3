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
} from '../provider/management.js';
import type { Provider } from '../provider/provider.js';
import type { ProviderAdmin } from '../provider/provider-admin.js';
import { ProviderError } from '../provider/provider-error.js';
import { parsePayload } from '../model/payload.js';
import { ClientError, providerCall } from './client-error.js';
import { historyEvent, type HistoryEvent } from './history-event.js';

/** An instance tree as duroxide-node's `getInstanceTree` returns it (its `JsInstanceTree`). */
export interface InstanceTreeInfo extends InstanceTree {
  /** How many instances the tree holds: the length of `allIds`. */
  readonly size: number;
}

/** Instance info with its output parsed from JSON. */
export type ParsedInstanceInfo = Omit<InstanceInfo, 'output'> & {
  /** Output or error of the current execution parsed from JSON, when it has ended. */
  readonly output: unknown;
};
/** Execution info with its output parsed from JSON. */
export type ParsedExecutionInfo = Omit<ExecutionInfo, 'output'> & {
  /** Output, error or next input parsed from JSON, when the execution has ended. */
  readonly output: unknown;
};

function translateDeleteError(error: unknown, instanceId: string): unknown {
  if (!ProviderError.isInstance(error)) return error;
  const text = error.message.toLowerCase();
  if (text.includes('not found')) return ClientError.instanceNotFound(instanceId);
  if (text.includes('still running')) return ClientError.instanceStillRunning(instanceId);
  if (text.includes('sub-orchestration') || text.includes('delete the root')) {
    return ClientError.cannotDeleteSubOrchestration(instanceId);
  }
  return error;
}

/**
 * The management half of `Client`: listing, inspection, metrics, deletion and pruning, through
 * the provider's `ProviderAdmin`. Rejects with `ClientError` `ManagementNotAvailable` when the
 * provider has none.
 */
export class ManagementClient {
  constructor(protected readonly provider: Provider) {}

  /** Whether the provider offers the management interface. */
  hasManagementCapability(): boolean {
    return (this.provider.asManagementCapability?.() ?? null) !== null;
  }

  /** Every instance id in the store. */
  listAllInstances(): Promise<string[]> {
    return this.admin('list_instances', (admin) => admin.listInstances());
  }

  /** The ids of instances whose current execution has `status` (`'Running'`, `'Completed'`, `'Failed'`, `'ContinuedAsNew'`). */
  listInstancesByStatus(status: string): Promise<string[]> {
    return this.admin('list_instances_by_status', (admin) => admin.listInstancesByStatus(status));
  }

  /** An instance's name, version, current execution, status and output (parsed from JSON). */
  async getInstanceInfo(instanceId: string): Promise<ParsedInstanceInfo> {
    const info = await this.admin('get_instance_info', (admin) =>
      admin.getInstanceInfo(instanceId),
    );
    return { ...info, output: info.output === null ? null : parsePayload(info.output) };
  }

  /** One execution's status, output (parsed from JSON), times and event count. */
  async getExecutionInfo(instanceId: string, executionId: number): Promise<ParsedExecutionInfo> {
    const info = await this.admin('get_execution_info', (admin) =>
      admin.getExecutionInfo(instanceId, executionId),
    );
    return { ...info, output: info.output === null ? null : parsePayload(info.output) };
  }

  /** The execution ids of an instance, oldest first. */
  listExecutions(instanceId: string): Promise<number[]> {
    return this.admin('list_executions', (admin) => admin.listExecutions(instanceId));
  }

  /** The events of one execution, in order, each with its variant name, JSON fields and decoded form. */
  async readExecutionHistory(instanceId: string, executionId: number): Promise<HistoryEvent[]> {
    const events = await this.admin('read_history_with_execution_id', (admin) =>
      admin.readHistoryWithExecutionId(instanceId, executionId),
    );
    return events.map(historyEvent);
  }

  /** Instance, execution and event counts over the whole store. */
  getSystemMetrics(): Promise<SystemMetrics> {
    return this.admin('get_system_metrics', (admin) => admin.getSystemMetrics());
  }

  /** The visible, unlocked messages waiting in each queue. */
  getQueueDepths(): Promise<QueueDepths> {
    return this.admin('get_queue_depths', (admin) => admin.getQueueDepths());
  }

  /** The instance and all its descendants, with their count, as duroxide-node returns them. */
  async getInstanceTree(instanceId: string): Promise<InstanceTreeInfo> {
    const tree = await this.admin('get_instance_tree', (admin) =>
      admin.getInstanceTree(instanceId),
    );
    return { rootId: tree.rootId, allIds: tree.allIds, size: tree.allIds.length };
  }

  /**
   * Deletes a root instance with all its sub-orchestrations.
   * @param force delete even when still running. @default false
   * @throws {ClientError} `InstanceNotFound`, `InstanceStillRunning` or `CannotDeleteSubOrchestration`.
   */
  async deleteInstance(instanceId: string, force = false): Promise<DeleteInstanceResult> {
    const admin = this.requireAdmin();
    try {
      return await admin.deleteInstance(instanceId, force);
    } catch (error) {
      const translated = translateDeleteError(error, instanceId);
      if (ClientError.isInstance(translated)) throw translated;
      return providerCall('delete_instance', () => {
        throw translated;
      });
    }
  }

  /**
   * Deletes the root instances that ended and that `filter` selects, each with its tree.
   * @param filter which instances; all conditions must hold. @default {} (every ended root,
   *   at most 1000)
   */
  deleteInstanceBulk(filter: InstanceFilter = {}): Promise<DeleteInstanceResult> {
    return this.admin('delete_instance_bulk', (admin) => admin.deleteInstanceBulk(filter));
  }

  /**
   * Removes old executions of an instance; its current execution always stays.
   * @param options which executions. @default {} (every execution but the current one)
   */
  pruneExecutions(instanceId: string, options: PruneOptions = {}): Promise<PruneResult> {
    return this.admin('prune_executions', (admin) => admin.pruneExecutions(instanceId, options));
  }

  /**
   * Prunes every instance `filter` selects, as {@link pruneExecutions} does.
   * @param filter which instances. @default {} (every instance, at most 1000)
   * @param options which executions. @default {} (every execution but the current one)
   */
  pruneExecutionsBulk(
    filter: InstanceFilter = {},
    options: PruneOptions = {},
  ): Promise<PruneResult> {
    return this.admin('prune_executions_bulk', (admin) =>
      admin.pruneExecutionsBulk(filter, options),
    );
  }

  private requireAdmin(): ProviderAdmin {
    const admin = this.provider.asManagementCapability?.() ?? null;
    if (!admin) throw ClientError.managementNotAvailable();
    return admin;
  }

  private admin<T>(operation: string, call: (admin: ProviderAdmin) => Promise<T>): Promise<T> {
    return providerCall(operation, () => call(this.requireAdmin()));
  }
}
