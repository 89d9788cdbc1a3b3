import {
  ProviderError,
  requireActivity,
  requireOrchestratorItem,
  type OrchestrationTurnCommit,
} from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';
import { insertHistory } from './history-rows.js';
import { commitKvDelta, recordKvEvents } from './kv-state.js';
import { insertOrchestratorMessage, insertWorkerMessage } from './queue-messages.js';

// One orchestration turn committed as a unit, in the order of duroxide's contract for
// `ack_orchestration_item`, inside the caller's write transaction: when anything throws, the
// transaction rolls back and the lock is still held.

const OPERATION = 'ack_orchestration_item';

/** The instance a live lock token holds. */
function requireLiveLock(db: SqliteDatabase, lockToken: string, nowMs: number): string {
  const lock = db
    .statement('SELECT instance_id, locked_until FROM instance_locks WHERE lock_token = ?')
    .get(lockToken) as { instance_id: string; locked_until: number } | undefined;
  if (lock === undefined) throw ProviderError.permanent(OPERATION, 'Invalid lock token');
  if (lock.locked_until <= nowMs) {
    throw ProviderError.permanent(
      OPERATION,
      `Invalid lock token: the lock on instance ${lock.instance_id} expired at ${lock.locked_until}`,
    );
  }
  return lock.instance_id;
}

/** Instance and execution rows, history, status, custom status and key-value state. */
function writeInstanceState(
  db: SqliteDatabase,
  instance: string,
  turn: OrchestrationTurnCommit,
  nowMs: number,
): void {
  const { executionId, metadata } = turn;
  if (metadata.orchestrationName !== undefined && metadata.orchestrationVersion !== undefined) {
    // The parent is stored when the instance is created and never changed.
    db.statement(
      'INSERT INTO instances (instance_id, orchestration_name, orchestration_version, ' +
        'current_execution_id, parent_instance_id, created_at, updated_at) ' +
        'VALUES (:instance, :name, :version, :execution, :parent, :now, :now) ' +
        'ON CONFLICT (instance_id) DO UPDATE ' +
        'SET orchestration_name = :name, orchestration_version = :version',
    ).run({
      instance,
      name: metadata.orchestrationName,
      version: metadata.orchestrationVersion,
      execution: executionId,
      parent: metadata.parentInstanceId ?? null,
      now: nowMs,
    });
  }
  db.statement(
    'INSERT OR IGNORE INTO executions (instance_id, execution_id, status, started_at) ' +
      "VALUES (?, ?, 'Running', ?)",
  ).run(instance, executionId, nowMs);
  const pinned = metadata.pinnedDuroxideVersion;
  if (pinned !== undefined) {
    db.statement(
      'UPDATE executions SET duroxide_version_major = ?, duroxide_version_minor = ?, ' +
        'duroxide_version_patch = ? WHERE instance_id = ? AND execution_id = ?',
    ).run(pinned.major, pinned.minor, pinned.patch, instance, executionId);
  }

  insertHistory(db, OPERATION, instance, executionId, turn.historyDelta, nowMs);

  if (metadata.status !== undefined) {
    db.statement(
      'UPDATE executions SET status = ?, output = ?, completed_at = ? ' +
        'WHERE instance_id = ? AND execution_id = ?',
    ).run(
      metadata.status,
      metadata.output ?? null,
      metadata.status === 'Running' ? null : nowMs,
      instance,
      executionId,
    );
  }

  db.statement(
    'UPDATE instances SET current_execution_id = MAX(current_execution_id, ?), updated_at = ? ' +
      'WHERE instance_id = ?',
  ).run(executionId, nowMs, instance);
  const statusUpdate = turn.historyDelta.findLast(
    (event) => event.kind.type === 'CustomStatusUpdated',
  );
  if (statusUpdate?.kind.type === 'CustomStatusUpdated') {
    db.statement(
      'UPDATE instances SET custom_status = ?, custom_status_version = custom_status_version + 1 ' +
        'WHERE instance_id = ?',
    ).run(statusUpdate.kind.status, instance);
  }

  recordKvEvents(db, instance, turn.historyDelta, nowMs);
  if (metadata.status !== undefined && metadata.status !== 'Running') {
    commitKvDelta(db, instance);
  }
}

/** Enqueues the turn's work: activities first, then their cancellations, then messages. */
function writeQueues(db: SqliteDatabase, turn: OrchestrationTurnCommit, nowMs: number): void {
  for (const item of turn.workerItems) {
    insertWorkerMessage(db, requireActivity(OPERATION, item), nowMs);
  }
  // After the inserts, so an activity scheduled and cancelled in the same turn ends up absent.
  const cancel = db.statement(
    'DELETE FROM worker_queue WHERE instance_id = ? AND execution_id = ? AND activity_id = ?',
  );
  for (const { instance, executionId, activityId } of turn.cancelledActivities) {
    cancel.run(instance, executionId, activityId);
  }
  for (const item of turn.orchestratorItems) {
    requireOrchestratorItem(OPERATION, item);
    const visibleAtMs = item.type === 'TimerFired' ? item.fireAtMs : nowMs;
    insertOrchestratorMessage(db, item, visibleAtMs, nowMs);
  }
}

/**
 * Commits a turn and releases its instance lock; returns the instance.
 * @throws {ProviderError} (permanent) for an unknown or expired lock token, a duplicate or
 *   missing event id, or an item on the wrong queue; the caller's transaction must then roll
 *   back.
 * @internal
 */
export function commitOrchestrationTurn(
  db: SqliteDatabase,
  lockToken: string,
  turn: OrchestrationTurnCommit,
  nowMs: number,
): string {
  const instance = requireLiveLock(db, lockToken, nowMs);
  db.statement('DELETE FROM orchestrator_queue WHERE lock_token = ?').run(lockToken);
  writeInstanceState(db, instance, turn, nowMs);
  writeQueues(db, turn, nowMs);
  db.statement('DELETE FROM instance_locks WHERE instance_id = ? AND lock_token = ?').run(
    instance,
    lockToken,
  );
  return instance;
}
