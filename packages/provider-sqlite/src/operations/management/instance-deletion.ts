import {
  ProviderError,
  type DeleteInstanceResult,
  type InstanceFilter,
  type PruneOptions,
  type PruneResult,
} from '@duro/core';
import type { SqliteDatabase } from '../../database/sqlite-database.js';
import { epochMs } from '../epoch-ms.js';
import { treeOf } from './instance-queries.js';

// Deletion and pruning, as duroxide's `ProviderAdmin` specifies them (`src/providers/mod.rs`)
// and its SQLite provider implements them. Each function runs inside the caller's write
// transaction, so each call is all or nothing. Id lists travel as one JSON array parameter.

/** duroxide's `DEFAULT_BULK_OPERATION_LIMIT`. */
const DEFAULT_BULK_LIMIT = 1000;

const IN_IDS = 'IN (SELECT value FROM json_each(:ids))';

function checkDeletable(db: SqliteDatabase, ids: string, force: boolean): void {
  const operation = 'delete_instances_atomic';
  if (!force) {
    const running = db
      .statement(
        `SELECT i.instance_id FROM instances i JOIN executions e ON e.instance_id = i.instance_id ` +
          `AND e.execution_id = i.current_execution_id WHERE i.instance_id ${IN_IDS} ` +
          "AND e.status = 'Running' LIMIT 1",
      )
      .get({ ids }) as { instance_id: string } | undefined;
    if (running !== undefined) {
      throw ProviderError.permanent(
        operation,
        `Instance ${running.instance_id} is still running. Use force=true to delete anyway, or cancel first.`,
      );
    }
  }
  const orphan = db
    .statement(
      `SELECT instance_id, parent_instance_id FROM instances WHERE parent_instance_id ${IN_IDS} ` +
        `AND instance_id NOT ${IN_IDS} LIMIT 1`,
    )
    .get({ ids }) as { instance_id: string; parent_instance_id: string } | undefined;
  if (orphan !== undefined) {
    throw ProviderError.permanent(
      operation,
      `Cannot delete: instance ${orphan.parent_instance_id} has child ${orphan.instance_id} that ` +
        'is not in the list (an orphan would remain; re-read the instance tree and retry)',
    );
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
  db: SqliteDatabase,
  instanceIds: readonly string[],
  force: boolean,
): DeleteInstanceResult {
  const ids = JSON.stringify([...new Set(instanceIds)]);
  if (instanceIds.length === 0) {
    return { instancesDeleted: 0, executionsDeleted: 0, eventsDeleted: 0, queueMessagesDeleted: 0 };
  }
  checkDeletable(db, ids, force);
  const remove = (table: string): number =>
    db.statement(`DELETE FROM ${table} WHERE instance_id ${IN_IDS}`).run({ ids }).changes;
  const eventsDeleted = remove('history');
  const executionsDeleted = remove('executions');
  const queueMessagesDeleted = remove('orchestrator_queue') + remove('worker_queue');
  remove('instance_locks');
  remove('kv_store');
  remove('kv_delta');
  const instancesDeleted = remove('instances');
  return { instancesDeleted, executionsDeleted, eventsDeleted, queueMessagesDeleted };
}

function requireLimit(operation: string, filter: InstanceFilter): number {
  const limit = filter.limit ?? DEFAULT_BULK_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw ProviderError.permanent(operation, `limit must be an integer >= 0, got ${limit}`);
  }
  return limit;
}

/**
 * Instances the filter selects (oldest first, at most its limit); with `rootsThatEnded`, only
 * root instances whose current execution is no longer running.
 */
function selectInstances(
  db: SqliteDatabase,
  operation: string,
  filter: InstanceFilter,
  rootsThatEnded: boolean,
): string[] {
  const rows = db
    .statement(
      'SELECT i.instance_id FROM instances i LEFT JOIN executions e ' +
        'ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id ' +
        "WHERE (:roots = 0 OR (i.parent_instance_id IS NULL AND e.status <> 'Running')) " +
        `AND (:ids IS NULL OR i.instance_id ${IN_IDS}) ` +
        `AND (:before IS NULL OR ${epochMs('e.completed_at')} < :before) ` +
        'ORDER BY i.rowid LIMIT :limit',
    )
    .all({
      roots: rootsThatEnded ? 1 : 0,
      ids: filter.instanceIds === undefined ? null : JSON.stringify(filter.instanceIds),
      before: filter.completedBefore ?? null,
      limit: requireLimit(operation, filter),
    }) as { instance_id: string }[];
  return rows.map((row) => row.instance_id);
}

/**
 * Deletes the terminal root instances the filter selects (oldest first, at most `limit`), each
 * with its tree; running and child instances are skipped.
 * @internal
 */
export function deleteInstancesMatching(
  db: SqliteDatabase,
  filter: InstanceFilter,
): DeleteInstanceResult {
  const total = {
    instancesDeleted: 0,
    executionsDeleted: 0,
    eventsDeleted: 0,
    queueMessagesDeleted: 0,
  };
  for (const root of selectInstances(db, 'delete_instance_bulk', filter, true)) {
    const deleted = deleteInstances(db, treeOf(db, root), true);
    total.instancesDeleted += deleted.instancesDeleted;
    total.executionsDeleted += deleted.executionsDeleted;
    total.eventsDeleted += deleted.eventsDeleted;
    total.queueMessagesDeleted += deleted.queueMessagesDeleted;
  }
  return total;
}

/**
 * Deletes old executions of one instance and their history. The current execution and running
 * executions always stay; `keepLast` keeps the newest N; `completedBefore` keeps executions
 * that ended later or never. Key-value state belongs to the instance and is untouched.
 * @throws {ProviderError} (permanent) "Instance … not found", or a `keepLast` that is not an
 *   integer >= 0.
 * @internal
 */
export function pruneInstanceExecutions(
  db: SqliteDatabase,
  instanceId: string,
  options: PruneOptions,
): PruneResult {
  const operation = 'prune_executions';
  const instance = db
    .statement('SELECT current_execution_id FROM instances WHERE instance_id = ?')
    .get(instanceId) as { current_execution_id: number } | undefined;
  if (instance === undefined) {
    throw ProviderError.permanent(operation, `Instance ${instanceId} not found`);
  }
  const { keepLast, completedBefore } = options;
  if (keepLast !== undefined && (!Number.isSafeInteger(keepLast) || keepLast < 0)) {
    throw ProviderError.permanent(operation, `keepLast must be an integer >= 0, got ${keepLast}`);
  }
  const pruned = db
    .statement(
      'SELECT execution_id FROM executions WHERE instance_id = :instance ' +
        "AND execution_id <> :current AND status <> 'Running' " +
        'AND execution_id NOT IN (SELECT execution_id FROM executions ' +
        'WHERE instance_id = :instance ORDER BY execution_id DESC LIMIT :keep) ' +
        `AND (:before IS NULL OR ${epochMs('completed_at')} < :before)`,
    )
    .all({
      instance: instanceId,
      current: instance.current_execution_id,
      keep: keepLast ?? 0,
      before: completedBefore ?? null,
    }) as { execution_id: number }[];
  let eventsDeleted = 0;
  for (const { execution_id } of pruned) {
    eventsDeleted += db
      .statement('DELETE FROM history WHERE instance_id = ? AND execution_id = ?')
      .run(instanceId, execution_id).changes;
    db.statement('DELETE FROM executions WHERE instance_id = ? AND execution_id = ?').run(
      instanceId,
      execution_id,
    );
  }
  return { instancesProcessed: 1, executionsDeleted: pruned.length, eventsDeleted };
}

/**
 * Prunes every instance the filter selects, running ones included (their old executions can be
 * pruned; the current one is protected).
 * @internal
 */
export function pruneExecutionsMatching(
  db: SqliteDatabase,
  filter: InstanceFilter,
  options: PruneOptions,
): PruneResult {
  const total = { instancesProcessed: 0, executionsDeleted: 0, eventsDeleted: 0 };
  for (const instance of selectInstances(db, 'prune_executions_bulk', filter, false)) {
    const pruned = pruneInstanceExecutions(db, instance, options);
    total.instancesProcessed += pruned.instancesProcessed;
    total.executionsDeleted += pruned.executionsDeleted;
    total.eventsDeleted += pruned.eventsDeleted;
  }
  return total;
}
