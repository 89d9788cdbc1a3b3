import type {
  ExecutionInfo,
  InstanceInfo,
  QueueDepths,
  SystemMetrics,
} from '../provider/management.js';
import type { CustomStatus } from '../provider/provider.js';
import { ProviderError } from '../provider/provider-error.js';
import type { SystemStats } from '../provider/system-stats.js';
import { HistoryDecodeError, decodeHistoryRow, historyRowBytes } from './history-rows.js';
import { kvUsage } from './kv-state.js';
import type { InstanceRow, MemoryStore } from './memory-store.js';

// The read side of `ProviderAdmin` and the client reads (status, stats), computed from the
// store's tables the way duroxide's SQLite provider queries them.

/**
 * Instance rows, newest first; with `status`, only those whose current execution has it.
 * @internal
 */
export function instancesNewestFirst(store: MemoryStore, status?: string): InstanceRow[] {
  return [...store.instances.values()]
    .filter((row) => status === undefined || store.currentStatus(row.instanceId) === status)
    .sort((a, b) => b.createdAtMs - a.createdAtMs || b.creationSeq - a.creationSeq);
}

/** The instance's execution ids, ascending. @internal */
export function executionIds(store: MemoryStore, instance: string): number[] {
  return [...(store.executions.get(instance)?.keys() ?? [])].sort((a, b) => a - b);
}

/**
 * The parent of an instance; `null` for a root.
 * @throws {ProviderError} (permanent) "Instance … not found".
 * @internal
 */
export function parentOf(store: MemoryStore, instance: string): string | null {
  const row = store.instances.get(instance);
  if (row === undefined) {
    throw ProviderError.permanent('get_parent_id', `Instance ${instance} not found`);
  }
  return row.parentInstanceId;
}

/** The custom status when it changed after `lastSeenVersion`; `null` otherwise. @internal */
export function customStatusAfter(
  store: MemoryStore,
  instance: string,
  lastSeenVersion: number,
): CustomStatus | null {
  const row = store.instances.get(instance);
  if (row === undefined || row.customStatusVersion <= lastSeenVersion) return null;
  return { customStatus: row.customStatus, version: row.customStatusVersion };
}

/**
 * Management view of an instance and its current execution.
 * @throws {ProviderError} (permanent) "Instance … not found".
 * @internal
 */
export function instanceInfo(store: MemoryStore, instance: string): InstanceInfo {
  const row = store.instances.get(instance);
  if (row === undefined) {
    throw ProviderError.permanent('get_instance_info', `Instance ${instance} not found`);
  }
  const execution = store.executions.get(instance)?.get(row.currentExecutionId);
  return {
    instanceId: row.instanceId,
    orchestrationName: row.orchestrationName,
    orchestrationVersion: row.orchestrationVersion,
    currentExecutionId: row.currentExecutionId,
    status: execution?.status ?? 'Running',
    output: execution?.output ?? null,
    createdAt: row.createdAtMs,
    updatedAt: row.updatedAtMs,
    parentInstanceId: row.parentInstanceId,
  };
}

/**
 * Management view of one execution.
 * @throws {ProviderError} (permanent) when the execution does not exist.
 * @internal
 */
export function executionInfo(
  store: MemoryStore,
  instance: string,
  executionId: number,
): ExecutionInfo {
  const execution = store.executions.get(instance)?.get(executionId);
  if (execution === undefined) {
    throw ProviderError.permanent(
      'get_execution_info',
      `Execution ${executionId} not found for instance ${instance}`,
    );
  }
  return {
    executionId,
    status: execution.status,
    output: execution.output,
    startedAt: execution.startedAtMs,
    completedAt: execution.completedAtMs,
    eventCount: store.historyRows(instance, executionId)?.size ?? 0,
  };
}

/** Store-wide counts; instance statuses are those of their current executions. @internal */
export function systemMetrics(store: MemoryStore): SystemMetrics {
  let runningInstances = 0;
  let completedInstances = 0;
  let failedInstances = 0;
  for (const instance of store.instances.keys()) {
    const status = store.currentStatus(instance);
    if (status === 'Running') runningInstances += 1;
    else if (status === 'Completed') completedInstances += 1;
    else if (status === 'Failed') failedInstances += 1;
  }
  let totalExecutions = 0;
  for (const executions of store.executions.values()) totalExecutions += executions.size;
  let totalEvents = 0;
  for (const byExecution of store.history.values()) {
    for (const rows of byExecution.values()) totalEvents += rows.size;
  }
  return {
    totalInstances: store.instances.size,
    totalExecutions,
    runningInstances,
    completedInstances,
    failedInstances,
    totalEvents,
  };
}

/** Messages ready to be fetched now: visible and not held by a live lock. @internal */
export function queueDepths(store: MemoryStore): QueueDepths {
  const nowMs = store.nowMs();
  const heldByLiveLock = (token: string | null): boolean =>
    token !== null && (store.instanceLockByToken(token)?.lockedUntilMs ?? 0) > nowMs;
  const orchestratorQueue = store.orchestratorQueue.filter(
    (row) => row.visibleAtMs <= nowMs && !heldByLiveLock(row.lockToken),
  ).length;
  const workerQueue = store.workerQueue.filter(
    (row) => row.visibleAtMs <= nowMs && (row.lockToken === null || row.lockedUntilMs <= nowMs),
  ).length;
  return { orchestratorQueue, workerQueue, timerQueue: 0 };
}

/**
 * Size figures of an instance's current execution and its live key-value state.
 * @throws {ProviderError} (permanent) when the first event of the execution does not decode.
 * @internal
 */
export function instanceStats(store: MemoryStore, instance: string): SystemStats | null {
  const row = store.instances.get(instance);
  if (row === undefined) return null;
  const rows = store.historyRows(instance, row.currentExecutionId);
  let historySizeBytes = 0;
  for (const stored of rows?.values() ?? []) historySizeBytes += historyRowBytes(stored);
  const first = rows?.get(1);
  let queuePendingCount = 0;
  if (first !== undefined) {
    let kind;
    try {
      ({ kind } = decodeHistoryRow(first, instance, row.currentExecutionId));
    } catch (error) {
      if (!(error instanceof HistoryDecodeError)) throw error;
      throw ProviderError.permanent('get_instance_stats', error.message, { cause: error });
    }
    if (kind.type === 'OrchestrationStarted') {
      queuePendingCount = kind.carryForwardEvents?.length ?? 0;
    }
  }
  const kv = kvUsage(store, instance);
  return {
    historyEventCount: rows?.size ?? 0,
    historySizeBytes,
    queuePendingCount,
    kvUserKeyCount: kv.keyCount,
    kvTotalValueBytes: kv.valueBytes,
  };
}
