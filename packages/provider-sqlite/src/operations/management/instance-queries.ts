import {
  ProviderError,
  type ExecutionInfo,
  type ExecutionStatus,
  type InstanceInfo,
  type QueueDepths,
  type SystemMetrics,
} from '@duro/core';
import type { SqliteDatabase } from '../../database/sqlite-database.js';
import { epochMs } from '../epoch-ms.js';

// The read side of `ProviderAdmin`, over duroxide's SQLite tables. An instance's status is that
// of its current execution. Instances are listed newest first; rowid breaks ties within a
// millisecond (it grows with every insert).

/** Instance ids, newest first; with `status`, only those whose current execution has it. @internal */
export function instancesNewestFirst(db: SqliteDatabase, status?: string): string[] {
  const rows =
    status === undefined
      ? db
          .statement(
            `SELECT instance_id FROM instances ORDER BY ${epochMs('created_at')} DESC, rowid DESC`,
          )
          .all()
      : db
          .statement(
            'SELECT i.instance_id FROM instances i JOIN executions e ' +
              'ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id ' +
              `WHERE e.status = ? ORDER BY ${epochMs('i.created_at')} DESC, i.rowid DESC`,
          )
          .all(status);
  return (rows as { instance_id: string }[]).map((row) => row.instance_id);
}

/** The instance's execution ids, ascending. @internal */
export function executionIds(db: SqliteDatabase, instance: string): number[] {
  const rows = db
    .statement('SELECT execution_id FROM executions WHERE instance_id = ? ORDER BY execution_id')
    .all(instance) as { execution_id: number }[];
  return rows.map((row) => row.execution_id);
}

/**
 * The parent of an instance; `null` for a root.
 * @throws {ProviderError} (permanent) "Instance … not found".
 * @internal
 */
export function parentOf(db: SqliteDatabase, instance: string): string | null {
  const row = db
    .statement('SELECT parent_instance_id FROM instances WHERE instance_id = ?')
    .get(instance) as { parent_instance_id: string | null } | undefined;
  if (row === undefined) {
    throw ProviderError.permanent('get_parent_id', `Instance ${instance} not found`);
  }
  return row.parent_instance_id;
}

/** Direct children of an instance, oldest first. @internal */
export function childrenOf(db: SqliteDatabase, instance: string): string[] {
  const rows = db
    .statement('SELECT instance_id FROM instances WHERE parent_instance_id = ? ORDER BY rowid')
    .all(instance) as { instance_id: string }[];
  return rows.map((row) => row.instance_id);
}

/** The instance and all its descendants, the root first. @internal */
export function treeOf(db: SqliteDatabase, rootId: string): string[] {
  const all: string[] = [];
  const pending = [rootId];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    all.push(next);
    pending.push(...childrenOf(db, next));
  }
  return all;
}

/**
 * Management view of an instance and its current execution.
 * @throws {ProviderError} (permanent) "Instance … not found".
 * @internal
 */
export function instanceInfo(db: SqliteDatabase, instance: string): InstanceInfo {
  const row = db
    .statement(
      'SELECT i.orchestration_name, i.orchestration_version, i.current_execution_id, ' +
        `${epochMs('i.created_at')} AS created_ms, ${epochMs('i.updated_at')} AS updated_ms, ` +
        'i.parent_instance_id, e.status, e.output FROM instances i LEFT JOIN executions e ' +
        'ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id ' +
        'WHERE i.instance_id = ?',
    )
    .get(instance) as
    | {
        orchestration_name: string;
        orchestration_version: string | null;
        current_execution_id: number;
        created_ms: number | null;
        updated_ms: number | null;
        parent_instance_id: string | null;
        status: ExecutionStatus | null;
        output: string | null;
      }
    | undefined;
  if (row === undefined) {
    throw ProviderError.permanent('get_instance_info', `Instance ${instance} not found`);
  }
  return {
    instanceId: instance,
    orchestrationName: row.orchestration_name,
    orchestrationVersion: row.orchestration_version ?? 'unknown',
    currentExecutionId: row.current_execution_id,
    status: row.status ?? 'Running',
    output: row.output,
    createdAt: row.created_ms ?? 0,
    updatedAt: row.updated_ms ?? 0,
    parentInstanceId: row.parent_instance_id,
  };
}

/**
 * Management view of one execution.
 * @throws {ProviderError} (permanent) when the execution does not exist.
 * @internal
 */
export function executionInfo(
  db: SqliteDatabase,
  instance: string,
  executionId: number,
): ExecutionInfo {
  const row = db
    .statement(
      `SELECT e.status, e.output, ${epochMs('e.started_at')} AS started_ms, ` +
        `${epochMs('e.completed_at')} AS completed_ms, ` +
        '(SELECT COUNT(*) FROM history h WHERE h.instance_id = e.instance_id ' +
        'AND h.execution_id = e.execution_id) AS event_count ' +
        'FROM executions e WHERE e.instance_id = ? AND e.execution_id = ?',
    )
    .get(instance, executionId) as
    | {
        status: ExecutionStatus;
        output: string | null;
        started_ms: number | null;
        completed_ms: number | null;
        event_count: number;
      }
    | undefined;
  if (row === undefined) {
    throw ProviderError.permanent(
      'get_execution_info',
      `Execution ${executionId} not found for instance ${instance}`,
    );
  }
  return {
    executionId,
    status: row.status,
    output: row.output,
    startedAt: row.started_ms ?? 0,
    completedAt: row.completed_ms,
    eventCount: row.event_count,
  };
}

/** Store-wide counts; instance statuses are those of their current executions. @internal */
export function systemMetrics(db: SqliteDatabase): SystemMetrics {
  return db
    .statement(
      'SELECT (SELECT COUNT(*) FROM instances) AS totalInstances, ' +
        '(SELECT COUNT(*) FROM executions) AS totalExecutions, ' +
        "COALESCE(SUM(e.status = 'Running'), 0) AS runningInstances, " +
        "COALESCE(SUM(e.status = 'Completed'), 0) AS completedInstances, " +
        "COALESCE(SUM(e.status = 'Failed'), 0) AS failedInstances, " +
        '(SELECT COUNT(*) FROM history) AS totalEvents ' +
        'FROM instances i JOIN executions e ' +
        'ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id',
    )
    .get() as SystemMetrics;
}

/** Messages ready to be fetched now: visible and not held by a live lock. @internal */
export function queueDepths(db: SqliteDatabase, nowMs: number): QueueDepths {
  const row = db
    .statement(
      'SELECT (SELECT COUNT(*) FROM orchestrator_queue q WHERE q.visible_at <= :now ' +
        'AND NOT EXISTS (SELECT 1 FROM instance_locks il ' +
        'WHERE il.lock_token = q.lock_token AND il.locked_until > :now)) AS orchestratorQueue, ' +
        '(SELECT COUNT(*) FROM worker_queue q WHERE q.visible_at <= :now ' +
        'AND (q.lock_token IS NULL OR q.locked_until <= :now)) AS workerQueue',
    )
    .get({ now: nowMs }) as { orchestratorQueue: number; workerQueue: number };
  return { ...row, timerQueue: 0 };
}
