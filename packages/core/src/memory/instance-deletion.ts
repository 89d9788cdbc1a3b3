import type {
  DeleteInstanceResult,
  InstanceFilter,
  PruneOptions,
  PruneResult,
} from '../provider/management.js';
import { ProviderError } from '../provider/provider-error.js';
import type { ExecutionRow, InstanceRow, MemoryStore } from './memory-store.js';

// Deletion and pruning, as duroxide's `ProviderAdmin` specifies them (`src/providers/mod.rs`)
// and its SQLite provider implements them. Checks come first and nothing awaits, so each call
// is all or nothing.

/** duroxide's `DEFAULT_BULK_OPERATION_LIMIT`. */
const DEFAULT_BULK_LIMIT = 1000;

const NOTHING_DELETED: DeleteInstanceResult = {
  instancesDeleted: 0,
  executionsDeleted: 0,
  eventsDeleted: 0,
  queueMessagesDeleted: 0,
};

/** Direct children of an instance, oldest first. @internal */
export function childrenOf(store: MemoryStore, instanceId: string): string[] {
  return [...store.instances.values()]
    .filter((row) => row.parentInstanceId === instanceId)
    .sort((a, b) => a.creationSeq - b.creationSeq)
    .map((row) => row.instanceId);
}

/** The instance and all its descendants, the root first. @internal */
export function treeOf(store: MemoryStore, rootId: string): string[] {
  const all: string[] = [];
  const pending = [rootId];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    all.push(next);
    pending.push(...childrenOf(store, next));
  }
  return all;
}

function checkDeletable(store: MemoryStore, ids: ReadonlySet<string>, force: boolean): void {
  const operation = 'delete_instances_atomic';
  if (!force) {
    for (const id of ids) {
      if (store.currentStatus(id) === 'Running') {
        throw ProviderError.permanent(
          operation,
          `Instance ${id} is still running. Use force=true to delete anyway, or cancel first.`,
        );
      }
    }
  }
  for (const row of store.instances.values()) {
    const parent = row.parentInstanceId;
    if (parent !== null && ids.has(parent) && !ids.has(row.instanceId)) {
      throw ProviderError.permanent(
        operation,
        `Cannot delete: instance ${parent} has child ${row.instanceId} that is not in the list ` +
          '(an orphan would remain; re-read the instance tree and retry)',
      );
    }
  }
}

/**
 * Deletes exactly these instances with everything they own: history, executions, both queues'
 * messages, instance locks (so an in-flight ack fails instead of recreating them) and key-value
 * state.
 * @throws {ProviderError} (permanent) when, without `force`, one is still running, or when an
 *   instance outside the list has its parent in the list; nothing is deleted then.
 * @internal
 */
export function deleteInstances(
  store: MemoryStore,
  instanceIds: readonly string[],
  force: boolean,
): DeleteInstanceResult {
  const ids = new Set(instanceIds);
  if (ids.size === 0) return NOTHING_DELETED;
  checkDeletable(store, ids, force);
  let instancesDeleted = 0;
  let executionsDeleted = 0;
  let eventsDeleted = 0;
  for (const id of ids) {
    if (store.instances.delete(id)) instancesDeleted += 1;
    executionsDeleted += store.executions.get(id)?.size ?? 0;
    store.executions.delete(id);
    for (const rows of store.history.get(id)?.values() ?? []) eventsDeleted += rows.size;
    store.history.delete(id);
    store.instanceLocks.delete(id);
    store.kvStore.delete(id);
    store.kvDelta.delete(id);
  }
  const queuedBefore = store.orchestratorQueue.length + store.workerQueue.length;
  store.orchestratorQueue = store.orchestratorQueue.filter((row) => !ids.has(row.instance));
  store.workerQueue = store.workerQueue.filter((row) => !ids.has(row.item.instance));
  const queueMessagesDeleted =
    queuedBefore - store.orchestratorQueue.length - store.workerQueue.length;
  return { instancesDeleted, executionsDeleted, eventsDeleted, queueMessagesDeleted };
}

function requireLimit(operation: string, filter: InstanceFilter): number {
  const limit = filter.limit ?? DEFAULT_BULK_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw ProviderError.permanent(operation, `limit must be an integer >= 0, got ${limit}`);
  }
  return limit;
}

function matchesFilter(store: MemoryStore, row: InstanceRow, filter: InstanceFilter): boolean {
  if (filter.instanceIds !== undefined && !filter.instanceIds.includes(row.instanceId)) {
    return false;
  }
  if (filter.completedBefore === undefined) return true;
  const completedAtMs = store.executions
    .get(row.instanceId)
    ?.get(row.currentExecutionId)?.completedAtMs;
  return completedAtMs != null && completedAtMs < filter.completedBefore;
}

/**
 * Deletes the terminal root instances the filter selects (oldest first, at most `limit`), each
 * with its tree; running and child instances are skipped.
 * @internal
 */
export function deleteInstancesMatching(
  store: MemoryStore,
  filter: InstanceFilter,
): DeleteInstanceResult {
  const limit = requireLimit('delete_instance_bulk', filter);
  const roots = [...store.instances.values()]
    .filter((row) => {
      const status = store.currentStatus(row.instanceId);
      const terminal = status !== undefined && status !== 'Running';
      return row.parentInstanceId === null && terminal && matchesFilter(store, row, filter);
    })
    .sort((a, b) => a.creationSeq - b.creationSeq)
    .slice(0, limit);
  const total = { ...NOTHING_DELETED };
  for (const root of roots) {
    const deleted = deleteInstances(store, treeOf(store, root.instanceId), true);
    total.instancesDeleted += deleted.instancesDeleted;
    total.executionsDeleted += deleted.executionsDeleted;
    total.eventsDeleted += deleted.eventsDeleted;
    total.queueMessagesDeleted += deleted.queueMessagesDeleted;
  }
  return total;
}

/**
 * Deletes old executions of one instance and their history. The current execution and running
 * executions always stay; `keepLast` keeps the newest N (0 and 1 behave alike, since the
 * current execution stays anyway); `completedBefore` keeps executions that ended later or never.
 * Key-value state belongs to the instance and is untouched.
 * @throws {ProviderError} (permanent) "Instance … not found", or a `keepLast` that is not an
 *   integer >= 0.
 * @internal
 */
export function pruneInstanceExecutions(
  store: MemoryStore,
  instanceId: string,
  options: PruneOptions,
): PruneResult {
  const row = store.instances.get(instanceId);
  if (row === undefined) {
    throw ProviderError.permanent('prune_executions', `Instance ${instanceId} not found`);
  }
  const { keepLast } = options;
  if (keepLast !== undefined && (!Number.isSafeInteger(keepLast) || keepLast < 0)) {
    throw ProviderError.permanent(
      'prune_executions',
      `keepLast must be an integer >= 0, got ${keepLast}`,
    );
  }
  const executions = store.executions.get(instanceId) ?? new Map<number, ExecutionRow>();
  const newestFirst = [...executions.keys()].sort((a, b) => b - a);
  const kept = new Set(newestFirst.slice(0, keepLast ?? 0));
  let executionsDeleted = 0;
  let eventsDeleted = 0;
  for (const execution of [...executions.values()]) {
    const { executionId, status, completedAtMs } = execution;
    if (executionId === row.currentExecutionId || status === 'Running' || kept.has(executionId)) {
      continue;
    }
    const { completedBefore } = options;
    if (
      completedBefore !== undefined &&
      !(completedAtMs !== null && completedAtMs < completedBefore)
    ) {
      continue;
    }
    executions.delete(executionId);
    eventsDeleted += store.historyRows(instanceId, executionId)?.size ?? 0;
    store.history.get(instanceId)?.delete(executionId);
    executionsDeleted += 1;
  }
  return { instancesProcessed: 1, executionsDeleted, eventsDeleted };
}

/**
 * Prunes every instance the filter selects, running ones included (their old executions can be
 * pruned; the current one is protected).
 * @internal
 */
export function pruneExecutionsMatching(
  store: MemoryStore,
  filter: InstanceFilter,
  options: PruneOptions,
): PruneResult {
  const limit = requireLimit('prune_executions_bulk', filter);
  const selected = [...store.instances.values()]
    .filter((row) => matchesFilter(store, row, filter))
    .sort((a, b) => a.creationSeq - b.creationSeq)
    .slice(0, limit);
  const total = { instancesProcessed: 0, executionsDeleted: 0, eventsDeleted: 0 };
  for (const row of selected) {
    const pruned = pruneInstanceExecutions(store, row.instanceId, options);
    total.instancesProcessed += pruned.instancesProcessed;
    total.executionsDeleted += pruned.executionsDeleted;
    total.eventsDeleted += pruned.eventsDeleted;
  }
  return total;
}
