import type { Event } from '../model/event.js';
import type { ActivityClaim } from '../provider/activity-claim.js';
import type { WorkItem } from '../model/work-item.js';
import type { ExecutionMetadata } from '../provider/execution-metadata.js';
import type {
  DispatcherCapabilityFilter,
  SessionFetchConfig,
  TagFilter,
} from '../provider/fetch-filters.js';
import { deleteInstanceTree } from '../provider/instance-tree.js';
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
import type {
  FetchedOrchestrationItem,
  FetchedWorkItem,
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
  ScheduledActivityIdentifier,
  WorkItemAck,
  WorkItemAckOutcome,
} from '../provider/orchestration-item.js';
import type { CustomStatus, Provider } from '../provider/provider.js';
import type { ProviderAdmin } from '../provider/provider-admin.js';
import type { SystemStats } from '../provider/system-stats.js';
import { ProviderError } from '../provider/provider-error.js';
import { requireActivity } from '../provider/queue-items.js';
import {
  requireDistinctLockTokens,
  requireMaxItems,
  requireWorkItemBatchLimits,
} from '../provider/work-item-batch.js';
import { delayOrZeroMs, requireDurationMs } from '../provider/duration-arguments.js';
import {
  appendHistoryRows,
  prepareHistoryRows,
  readExecutionHistory,
} from './execution-history.js';
import { undecodableHistoryRow } from './history-rows.js';
import {
  childrenOf,
  deleteInstances,
  deleteInstancesMatching,
  pruneExecutionsMatching,
  pruneInstanceExecutions,
  treeOf,
} from './instance-deletion.js';
import {
  customStatusAfter,
  executionIds,
  executionInfo,
  instanceInfo,
  instanceStats,
  instancesNewestFirst,
  parentOf,
  queueDepths,
  systemMetrics,
} from './instance-management.js';
import { mergedKvValue, mergedKvValues } from './kv-state.js';
import { MemoryStore } from './memory-store.js';
import { commitOrchestrationTurn } from './orchestration-ack.js';
import {
  abandonOrchestrationLock,
  insertOrchestratorMessage,
  msUntilOrchestratorChange,
  renewOrchestrationLock,
  tryFetchOrchestrationItem,
} from './orchestrator-queue.js';
import { removeOrphanedSessions, renewSessions } from './sessions.js';
import { pollForWork } from '../provider/work-signal.js';
import {
  claimScheduledActivities,
  ackWorkItem,
  insertWorkerMessage,
  msUntilWorkerChange,
  releaseWorkItem,
  renewWorkItemLease,
  tryFetchWorkItems,
} from './worker-queue.js';

/** Options of {@link InMemoryProvider}. */
export interface InMemoryProviderOptions {
  /**
   * The clock the store runs on, in epoch milliseconds: visibility delays, lock and session
   * expiry and stored timestamps all read it. Tests inject one to move time; after moving it
   * forward, call {@link InMemoryProvider.notifyClockAdvanced} so waiting fetches look again.
   * @default Date.now
   */
  readonly nowMs?: () => number;
}

/**
 * The contract's reference store: a complete {@link Provider} and {@link ProviderAdmin} held in
 * process memory, for runtime tests and examples. It behaves as duroxide specifies providers
 * (instance locks, peek-lock queues with visibility delays, attempt counts, sessions, tags,
 * capability filtering, the two-table key-value model, management) and long-polls: a fetch
 * waits up to its poll timeout for work, waking as soon as work is enqueued or delayed work
 * becomes visible. Everything crossing the API is copied, so callers cannot change stored state.
 *
 * State lives as long as the object; nothing is persisted.
 *
 * @example A test that moves time instead of waiting for an hour-long timer:
 * ```ts
 * let nowMs = Date.now();
 * const provider = new InMemoryProvider({ nowMs: () => nowMs });
 * // ... run an orchestration that sleeps for an hour, then:
 * nowMs += 3_600_000;
 * provider.notifyClockAdvanced();
 * ```
 */
export class InMemoryProvider implements Provider, ProviderAdmin {
  /** {@inheritDoc Provider.name} */
  readonly name = 'in-memory';
  /** The duroxide release whose provider contract this store implements. */
  readonly version = '0.1.32';
  private readonly store: MemoryStore;

  constructor(options: InMemoryProviderOptions = {}) {
    this.store = new MemoryStore(options.nowMs ?? Date.now);
  }

  /**
   * Tells waiting fetches that the injected clock moved, so work that became visible (or locks
   * that lapsed) by the new time is handed out at once rather than at their next timer.
   */
  notifyClockAdvanced(): void {
    this.store.orchestratorWork.notify();
    this.store.workerWork.notify();
  }

  /**
   * Replaces every stored history row of `instance` (all executions) with data that cannot be
   * decoded, as rows written by a newer runtime would be. For tests of the corrupted-history
   * paths: fetches then report `historyError`, reads reject.
   */
  corruptInstanceHistory(instance: string): void {
    for (const [executionId, rows] of this.store.history.get(instance) ?? []) {
      for (const eventId of rows.keys()) {
        rows.set(eventId, undecodableHistoryRow(instance, executionId, eventId));
      }
    }
  }

  /** The highest attempt count among the instance's orchestrator-queue messages; 0 if none. */
  maxOrchestratorAttemptCount(instance: string): number {
    let max = 0;
    for (const row of this.store.orchestratorQueue) {
      if (row.instance === instance) max = Math.max(max, row.attemptCount);
    }
    return max;
  }

  // ----- Orchestrator queue -----

  async fetchOrchestrationItem(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
  ): Promise<FetchedOrchestrationItem | null> {
    const operation = 'fetch_orchestration_item';
    requireDurationMs(operation, 'lockTimeoutMs', lockTimeoutMs);
    requireDurationMs(operation, 'pollTimeoutMs', pollTimeoutMs);
    if (filter !== null && filter.supportedDuroxideVersions.length === 0) return null;
    return pollForWork(
      this.store.orchestratorWork,
      pollTimeoutMs,
      () => this.store.nowMs(),
      () => tryFetchOrchestrationItem(this.store, lockTimeoutMs, filter),
      (asOfMs) => msUntilOrchestratorChange(this.store, asOfMs),
    );
  }

  async ackOrchestrationItem(
    lockToken: string,
    executionId: number,
    historyDelta: readonly Event[],
    workerItems: readonly WorkItem[],
    orchestratorItems: readonly WorkItem[],
    metadata: ExecutionMetadata,
    cancelledActivities: readonly ScheduledActivityIdentifier[],
  ): Promise<void> {
    commitOrchestrationTurn(this.store, lockToken, {
      executionId,
      historyDelta,
      workerItems,
      orchestratorItems,
      metadata,
      cancelledActivities,
    });
  }

  /** {@inheritDoc Provider.fetchOrchestrationItems} */
  async fetchOrchestrationItems(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
    maxItems: number,
  ): Promise<FetchedOrchestrationItem[]> {
    const operation = 'fetch_orchestration_items';
    requireDurationMs(operation, 'lockTimeoutMs', lockTimeoutMs);
    requireDurationMs(operation, 'pollTimeoutMs', pollTimeoutMs);
    requireMaxItems(operation, maxItems);
    if (filter !== null && filter.supportedDuroxideVersions.length === 0) return [];
    const fetched = await pollForWork(
      this.store.orchestratorWork,
      pollTimeoutMs,
      () => this.store.nowMs(),
      () => {
        const batch: FetchedOrchestrationItem[] = [];
        while (batch.length < maxItems) {
          const turn = tryFetchOrchestrationItem(this.store, lockTimeoutMs, filter);
          if (turn === null) break;
          batch.push(turn);
        }
        return batch.length > 0 ? batch : null;
      },
      (asOfMs) => msUntilOrchestratorChange(this.store, asOfMs),
    );
    return fetched ?? [];
  }

  /** {@inheritDoc Provider.ackOrchestrationItems} */
  async ackOrchestrationItems(
    acks: readonly OrchestrationItemAck[],
    claim?: ActivityClaim,
  ): Promise<OrchestrationItemAckOutcome[]> {
    const operation = 'ack_orchestration_item';
    requireDistinctLockTokens(operation, acks);
    if (claim !== undefined) requireMaxItems(operation, claim.maxItems);
    let left = claim?.maxItems ?? 0;
    return acks.map(({ lockToken, ...commit }): OrchestrationItemAckOutcome => {
      const outcome = outcomeOf(() => commitOrchestrationTurn(this.store, lockToken, commit));
      if (!outcome.ok || claim === undefined) return outcome;
      const claimedActivities = claimScheduledActivities(
        this.store,
        commit.workerItems,
        claim,
        left,
      );
      left -= claimedActivities.length;
      return { ok: true, claimedActivities };
    });
  }

  async abandonOrchestrationItem(
    lockToken: string,
    delayMs: number | null,
    ignoreAttempt: boolean,
  ): Promise<void> {
    const delay = delayOrZeroMs('abandon_orchestration_item', delayMs);
    abandonOrchestrationLock(this.store, lockToken, delay, ignoreAttempt);
    this.store.orchestratorWork.notify();
  }

  async renewOrchestrationItemLock(lockToken: string, extendForMs: number): Promise<void> {
    requireDurationMs('renew_orchestration_item_lock', 'extendForMs', extendForMs);
    renewOrchestrationLock(this.store, lockToken, extendForMs);
  }

  async enqueueForOrchestrator(item: WorkItem, delayMs: number | null): Promise<void> {
    const operation = 'enqueue_for_orchestrator';
    const delay = delayOrZeroMs(operation, delayMs);
    insertOrchestratorMessage(this.store, operation, item, this.store.nowMs() + delay);
    this.store.orchestratorWork.notify();
  }

  // ----- History -----

  async read(instance: string): Promise<Event[]> {
    return readExecutionHistory(
      this.store,
      'read',
      instance,
      this.store.latestExecutionId(instance),
    );
  }

  async readWithExecution(instance: string, executionId: number): Promise<Event[]> {
    return readExecutionHistory(this.store, 'read_with_execution', instance, executionId);
  }

  /** Appends events to an execution's history outside a turn; creates no execution row. */
  async appendWithExecution(
    instance: string,
    executionId: number,
    newEvents: readonly Event[],
  ): Promise<void> {
    const operation = 'append_with_execution';
    const rows = prepareHistoryRows(this.store, operation, instance, executionId, newEvents);
    appendHistoryRows(this.store, instance, executionId, rows);
  }

  // ----- Worker queue -----

  async enqueueForWorker(item: WorkItem): Promise<void> {
    const activity = requireActivity('enqueue_for_worker', item);
    insertWorkerMessage(this.store, activity, this.store.nowMs());
    this.store.workerWork.notify();
  }

  async fetchWorkItem(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    session: SessionFetchConfig | null,
    tagFilter: TagFilter,
  ): Promise<FetchedWorkItem | null> {
    const fetched = await this.pollWorkItems(
      'fetch_work_item',
      lockTimeoutMs,
      pollTimeoutMs,
      session,
      tagFilter,
      1,
      1,
    );
    return fetched[0] ?? null;
  }

  async ackWorkItem(lockToken: string, completion: WorkItem | null): Promise<void> {
    ackWorkItem(this.store, lockToken, completion);
  }

  /** {@inheritDoc Provider.fetchWorkItems} */
  async fetchWorkItems(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    session: SessionFetchConfig | null,
    tagFilter: TagFilter,
    maxItems: number,
    maxNewSessions: number,
  ): Promise<FetchedWorkItem[]> {
    const operation = 'fetch_work_items';
    requireWorkItemBatchLimits(operation, maxItems, maxNewSessions);
    return this.pollWorkItems(
      operation,
      lockTimeoutMs,
      pollTimeoutMs,
      session,
      tagFilter,
      maxItems,
      maxNewSessions,
    );
  }

  /** {@inheritDoc Provider.ackWorkItems} */
  async ackWorkItems(acks: readonly WorkItemAck[]): Promise<WorkItemAckOutcome[]> {
    requireDistinctLockTokens('ack_work_items', acks);
    return acks.map(({ lockToken, completion }) =>
      outcomeOf(() => ackWorkItem(this.store, lockToken, completion)),
    );
  }

  private async pollWorkItems(
    operation: string,
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    session: SessionFetchConfig | null,
    tagFilter: TagFilter,
    maxItems: number,
    maxNewSessions: number,
  ): Promise<FetchedWorkItem[]> {
    requireDurationMs(operation, 'lockTimeoutMs', lockTimeoutMs);
    requireDurationMs(operation, 'pollTimeoutMs', pollTimeoutMs);
    if (session !== null)
      requireDurationMs(operation, 'session.lockTimeoutMs', session.lockTimeoutMs);
    // A node that takes no activities never gets one, so there is nothing to wait for.
    if (tagFilter.type === 'None') return [];
    const fetched = await pollForWork(
      this.store.workerWork,
      pollTimeoutMs,
      () => this.store.nowMs(),
      () => {
        const items = tryFetchWorkItems(
          this.store,
          lockTimeoutMs,
          session,
          tagFilter,
          maxItems,
          maxNewSessions,
        );
        return items.length > 0 ? items : null;
      },
      (asOfMs) => msUntilWorkerChange(this.store, asOfMs),
    );
    return fetched ?? [];
  }

  async renewWorkItemLock(lockToken: string, extendForMs: number): Promise<void> {
    requireDurationMs('renew_work_item_lock', 'extendForMs', extendForMs);
    renewWorkItemLease(this.store, lockToken, extendForMs);
  }

  async abandonWorkItem(
    lockToken: string,
    delayMs: number | null,
    ignoreAttempt: boolean,
  ): Promise<void> {
    const delay = delayOrZeroMs('abandon_work_item', delayMs);
    releaseWorkItem(this.store, lockToken, delay, ignoreAttempt);
  }

  // ----- Sessions -----

  async renewSessionLock(
    ownerIds: readonly string[],
    extendForMs: number,
    idleTimeoutMs: number,
  ): Promise<number> {
    const operation = 'renew_session_lock';
    requireDurationMs(operation, 'extendForMs', extendForMs);
    requireDurationMs(operation, 'idleTimeoutMs', idleTimeoutMs);
    return renewSessions(this.store, ownerIds, extendForMs, idleTimeoutMs, this.store.nowMs());
  }

  /** Removes sessions whose lease lapsed and that no queued activity refers to. */
  async cleanupOrphanedSessions(idleTimeoutMs: number): Promise<number> {
    requireDurationMs('cleanup_orphaned_sessions', 'idleTimeoutMs', idleTimeoutMs);
    return removeOrphanedSessions(this.store, this.store.nowMs());
  }

  // ----- Reads for clients -----

  async getCustomStatus(instance: string, lastSeenVersion: number): Promise<CustomStatus | null> {
    return customStatusAfter(this.store, instance, lastSeenVersion);
  }

  async getKvValue(instance: string, key: string): Promise<string | null> {
    return mergedKvValue(this.store, instance, key);
  }

  async getKvAllValues(instance: string): Promise<Map<string, string>> {
    return mergedKvValues(this.store, instance);
  }

  async getInstanceStats(instance: string): Promise<SystemStats | null> {
    return instanceStats(this.store, instance);
  }

  /** This provider itself: it implements {@link ProviderAdmin}. */
  asManagementCapability(): ProviderAdmin {
    return this;
  }

  // ----- Management -----

  async listInstances(): Promise<string[]> {
    return instancesNewestFirst(this.store).map((row) => row.instanceId);
  }

  async listInstancesByStatus(status: string): Promise<string[]> {
    return instancesNewestFirst(this.store, status).map((row) => row.instanceId);
  }

  async listExecutions(instance: string): Promise<number[]> {
    return executionIds(this.store, instance);
  }

  async readHistoryWithExecutionId(instance: string, executionId: number): Promise<Event[]> {
    return readExecutionHistory(
      this.store,
      'read_history_with_execution_id',
      instance,
      executionId,
    );
  }

  async readHistory(instance: string): Promise<Event[]> {
    return this.readHistoryWithExecutionId(instance, this.store.latestExecutionId(instance));
  }

  async latestExecutionId(instance: string): Promise<number> {
    return this.store.latestExecutionId(instance);
  }

  async getInstanceInfo(instance: string): Promise<InstanceInfo> {
    return instanceInfo(this.store, instance);
  }

  async getExecutionInfo(instance: string, executionId: number): Promise<ExecutionInfo> {
    return executionInfo(this.store, instance, executionId);
  }

  /** Instance, execution and event counts over the whole store. */
  async getSystemMetrics(): Promise<SystemMetrics> {
    return systemMetrics(this.store);
  }

  /** Messages ready to be fetched now (visible, not held by a live lock); timers included. */
  /** The visible, unlocked messages waiting in each queue. */
  async getQueueDepths(): Promise<QueueDepths> {
    return queueDepths(this.store);
  }

  async listChildren(instanceId: string): Promise<string[]> {
    return childrenOf(this.store, instanceId);
  }

  async getParentId(instanceId: string): Promise<string | null> {
    return parentOf(this.store, instanceId);
  }

  async getInstanceTree(instanceId: string): Promise<InstanceTree> {
    return { rootId: instanceId, allIds: treeOf(this.store, instanceId) };
  }

  async deleteInstancesAtomic(
    ids: readonly string[],
    force: boolean,
  ): Promise<DeleteInstanceResult> {
    return deleteInstances(this.store, ids, force);
  }

  async deleteInstance(instanceId: string, force: boolean): Promise<DeleteInstanceResult> {
    return deleteInstanceTree(this, instanceId, force);
  }

  async deleteInstanceBulk(filter: InstanceFilter): Promise<DeleteInstanceResult> {
    return deleteInstancesMatching(this.store, filter);
  }

  async pruneExecutions(instanceId: string, options: PruneOptions): Promise<PruneResult> {
    return pruneInstanceExecutions(this.store, instanceId, options);
  }

  async pruneExecutionsBulk(filter: InstanceFilter, options: PruneOptions): Promise<PruneResult> {
    return pruneExecutionsMatching(this.store, filter, options);
  }
}

/** The outcome of one acknowledgement of a batch: a provider error fails it alone. */
function outcomeOf(commit: () => void): WorkItemAckOutcome {
  try {
    commit();
    return { ok: true };
  } catch (error) {
    if (!ProviderError.isInstance(error)) throw error;
    return { ok: false, error };
  }
}
