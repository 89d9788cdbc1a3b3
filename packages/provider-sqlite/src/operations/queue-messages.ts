import { encodeWorkItem, workItemInstance, type WorkItem, type WorkItemOf } from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';

// Inserts into the two queues, with the columns duroxide's SQLite provider fills: the work item
// as serde JSON, its visibility in epoch milliseconds and, for activities, the identity,
// session and tag columns that cancellation and routing read. Callers check the queue with
// `requireOrchestratorItem` / `requireActivity` from `@duro/core` first.

/**
 * Adds a message for its instance (the parent, for sub-orchestration results), visible at
 * `visibleAtMs`. Creates no instance.
 * @internal
 */
export function insertOrchestratorMessage(
  db: SqliteDatabase,
  item: WorkItem,
  visibleAtMs: number,
  nowMs: number,
): void {
  db.statement(
    'INSERT INTO orchestrator_queue (instance_id, work_item, visible_at, created_at) ' +
      'VALUES (?, ?, ?, ?)',
  ).run(workItemInstance(item), encodeWorkItem(item), visibleAtMs, nowMs);
}

/** Adds an activity, visible at once, with its routing and identity columns. @internal */
export function insertWorkerMessage(
  db: SqliteDatabase,
  item: WorkItemOf<'ActivityExecute'>,
  nowMs: number,
): void {
  db.statement(
    'INSERT INTO worker_queue (work_item, visible_at, created_at, instance_id, execution_id, ' +
      'activity_id, session_id, tag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    encodeWorkItem(item),
    nowMs,
    nowMs,
    item.instance,
    item.executionId,
    item.id,
    item.sessionId ?? null,
    item.tag ?? null,
  );
}
