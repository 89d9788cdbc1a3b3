import type { WorkItemOf } from '../model/work-item.js';
import type { OrchestrationTurnCommit } from '../provider/orchestration-item.js';
import { ProviderError } from '../provider/provider-error.js';
import { appendHistoryRows, prepareHistoryRows } from './execution-history.js';
import type { HistoryRow } from './history-rows.js';
import { commitKvDelta, recordKvEvents } from './kv-state.js';
import { type ExecutionRow, type InstanceLock, type MemoryStore, entryOf } from './memory-store.js';
import { requireActivity, requireOrchestratorItem } from '../provider/queue-items.js';
import { insertOrchestratorMessage } from './orchestrator-queue.js';
import { insertWorkerMessage } from './worker-queue.js';

// One orchestration turn committed as a unit, in the order of duroxide's contract for
// `ack_orchestration_item`. Everything that can fail is checked before the first write, and
// nothing awaits in between, so a rejected ack leaves the store exactly as it was.

const OPERATION = 'ack_orchestration_item';

/** The turn a runtime commits. @internal */
export type OrchestrationTurn = OrchestrationTurnCommit;

function requireLiveLock(store: MemoryStore, lockToken: string, nowMs: number): InstanceLock {
  const lock = store.instanceLockByToken(lockToken);
  if (lock === undefined) throw ProviderError.permanent(OPERATION, 'Invalid lock token');
  if (lock.lockedUntilMs <= nowMs) {
    throw ProviderError.permanent(
      OPERATION,
      `Invalid lock token: the lock on instance ${lock.instance} expired at ${lock.lockedUntilMs}`,
    );
  }
  return lock;
}

/** Appends rows, creates instance and execution rows, stores status and custom status. */
function writeInstanceState(
  store: MemoryStore,
  instance: string,
  turn: OrchestrationTurn,
  rows: readonly HistoryRow[],
  nowMs: number,
): void {
  const { executionId, metadata } = turn;
  let row = store.instances.get(instance);
  if (metadata.orchestrationName !== undefined && metadata.orchestrationVersion !== undefined) {
    if (row === undefined) {
      row = {
        instanceId: instance,
        orchestrationName: metadata.orchestrationName,
        orchestrationVersion: metadata.orchestrationVersion,
        currentExecutionId: executionId,
        customStatus: null,
        customStatusVersion: 0,
        createdAtMs: nowMs,
        updatedAtMs: nowMs,
        parentInstanceId: metadata.parentInstanceId ?? null,
        creationSeq: store.nextSeq(),
      };
      store.instances.set(instance, row);
    }
    row.orchestrationName = metadata.orchestrationName;
    row.orchestrationVersion = metadata.orchestrationVersion;
  }

  const executions = entryOf(store.executions, instance, () => new Map());
  const execution = entryOf(executions, executionId, (): ExecutionRow => ({
    executionId,
    status: 'Running',
    output: null,
    pinnedVersion: null,
    startedAtMs: nowMs,
    completedAtMs: null,
  }));
  if (metadata.pinnedDuroxideVersion !== undefined) {
    execution.pinnedVersion = { ...metadata.pinnedDuroxideVersion };
  }

  appendHistoryRows(store, instance, executionId, rows);

  if (metadata.status !== undefined) {
    execution.status = metadata.status;
    execution.output = metadata.output ?? null;
    execution.completedAtMs = metadata.status === 'Running' ? null : nowMs;
  }

  if (row !== undefined) {
    row.currentExecutionId = Math.max(row.currentExecutionId, executionId);
    row.updatedAtMs = nowMs;
    const statusUpdate = turn.historyDelta.findLast(
      (event) => event.kind.type === 'CustomStatusUpdated',
    );
    if (statusUpdate?.kind.type === 'CustomStatusUpdated') {
      row.customStatus = statusUpdate.kind.status;
      row.customStatusVersion += 1;
    }
  }
}

/** Enqueues the turn's work: activities first, then their cancellations, then messages. */
function writeQueues(
  store: MemoryStore,
  turn: OrchestrationTurn,
  activities: readonly WorkItemOf<'ActivityExecute'>[],
  nowMs: number,
): void {
  for (const activity of activities) insertWorkerMessage(store, activity, nowMs);
  // After the inserts, so an activity scheduled and cancelled in the same turn ends up absent.
  if (turn.cancelledActivities.length > 0) {
    const cancelled = new Set(
      turn.cancelledActivities.map((id) => `${id.executionId}:${id.activityId}:${id.instance}`),
    );
    store.workerQueue = store.workerQueue.filter(
      ({ item }) => !cancelled.has(`${item.executionId}:${item.id}:${item.instance}`),
    );
  }
  for (const item of turn.orchestratorItems) {
    const visibleAtMs = item.type === 'TimerFired' ? item.fireAtMs : nowMs;
    insertOrchestratorMessage(store, OPERATION, item, visibleAtMs);
  }
}

/**
 * Commits a turn and releases its instance lock.
 * @throws {ProviderError} (permanent) for an unknown or expired lock token, a duplicate or
 *   missing event id, or an item on the wrong queue; the store is then unchanged and the lock
 *   (when it was live) is still held.
 * @internal
 */
export function commitOrchestrationTurn(
  store: MemoryStore,
  lockToken: string,
  turn: OrchestrationTurn,
): void {
  const nowMs = store.nowMs();
  const { instance } = requireLiveLock(store, lockToken, nowMs);
  const rows = prepareHistoryRows(store, OPERATION, instance, turn.executionId, turn.historyDelta);
  const activities = turn.workerItems.map((item) => requireActivity(OPERATION, item));
  for (const item of turn.orchestratorItems) requireOrchestratorItem(OPERATION, item);

  store.orchestratorQueue = store.orchestratorQueue.filter((row) => row.lockToken !== lockToken);
  writeInstanceState(store, instance, turn, rows, nowMs);
  recordKvEvents(store, instance, turn.historyDelta, nowMs);
  if (turn.metadata.status !== undefined && turn.metadata.status !== 'Running') {
    commitKvDelta(store, instance);
  }
  writeQueues(store, turn, activities, nowMs);
  store.instanceLocks.delete(instance);

  store.orchestratorWork.notify();
  if (turn.workerItems.length > 0) store.workerWork.notify();
}
