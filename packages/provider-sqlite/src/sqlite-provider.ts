import {
  ProviderError,
  WorkSignal,
  delayOrZeroMs,
  deleteInstanceTree,
  pollForWork,
  requireActivity,
  requireDistinctLockTokens,
  requireDurationMs,
  requireMaxItems,
  requireOrchestratorItem,
  requireWorkItemBatchLimits,
  type CustomStatus,
  type DeleteInstanceResult,
  type DispatcherCapabilityFilter,
  type Event,
  type ExecutionInfo,
  type ExecutionMetadata,
  type FetchedOrchestrationItem,
  type FetchedWorkItem,
  type InstanceFilter,
  type InstanceInfo,
  type InstanceTree,
  type OrchestrationItemAck,
  type OrchestrationItemAckOutcome,
  type Provider,
  type ProviderAdmin,
  type PruneOptions,
  type PruneResult,
  type QueueDepths,
  type ScheduledActivityIdentifier,
  type SessionFetchConfig,
  type SystemMetrics,
  type SystemStats,
  type TagFilter,
  type WorkItem,
  type WorkItemAck,
  type WorkItemAckOutcome,
} from '@duro/core';
import { databaseFile } from './database-location.js';
import { SqliteDatabase } from './database/sqlite-database.js';
import { isBusyError, toProviderError } from './database/sqlite-errors.js';
import { ExternalCommitWatch } from './external-commit-watch.js';
import {
  claimOrchestrationItems,
  nextOrchestratorChangeMs,
} from './operations/claim-orchestration-items.js';
import { commitOrchestrationTurn } from './operations/commit-orchestration-turn.js';
import { insertHistory, latestExecutionId, readHistory } from './operations/history-rows.js';
import { customStatusAfter, instanceStats } from './operations/instance-reads.js';
import { liveKvValue, liveKvValues } from './operations/kv-state.js';
import {
  deleteInstances,
  deleteInstancesMatching,
  pruneExecutionsMatching,
  pruneInstanceExecutions,
} from './operations/management/instance-deletion.js';
import {
  childrenOf,
  executionIds,
  executionInfo,
  instanceInfo,
  instancesNewestFirst,
  parentOf,
  queueDepths,
  systemMetrics,
  treeOf,
} from './operations/management/instance-queries.js';
import {
  abandonOrchestrationLock,
  renewOrchestrationLock,
} from './operations/orchestration-locks.js';
import { insertOrchestratorMessage, insertWorkerMessage } from './operations/queue-messages.js';
import { removeOrphanedSessions, renewSessions } from './operations/sessions.js';
import {
  claimWorkItems,
  ackWorkItem,
  nextWorkerChangeMs,
  releaseWorkItem,
  renewWorkItemLease,
} from './operations/worker-queue.js';
import { migrateSchema } from './schema/migrate-schema.js';
import {
  resolveSqliteProviderOptions,
  type ResolvedSqliteProviderOptions,
  type SqliteProviderOptions,
} from './sqlite-provider-options.js';

/**
 * The duroxide provider contract on SQLite: a durable single file (or a private in-memory
 * database) for laptops, tests and small deployments without a PostgreSQL server. It implements
 * {@link Provider} (batched fetches and acknowledgements included, each batch one transaction)
 * and {@link ProviderAdmin} on the tables of duroxide's own SQLite provider, recorded in sqlx's
 * `_sqlx_migrations` ledger, so a Rust duroxide process can open a file this provider made and
 * the other way round.
 *
 * A file is opened in WAL mode with `synchronous = FULL` (see {@link SqliteProviderOptions}):
 * an acknowledged write is on disk. Several processes of one machine can share a file; each
 * write takes SQLite's write lock for one short transaction. SQL runs on the event loop thread
 * (better-sqlite3 is synchronous), one short transaction at a time, never around user code.
 *
 * Fetches long-poll: this provider's own writes, and delayed work coming due, wake a waiting
 * fetch at once; commits of other processes are noticed within `pollIntervalMs`.
 *
 * @example
 * ```ts
 * import { SqliteProvider } from '@duro/provider-sqlite';
 *
 * const provider = await SqliteProvider.open('./data/duro.db');
 * const depths = await provider.getQueueDepths();
 * console.log(`${depths.orchestratorQueue} orchestrator messages waiting`);
 * await provider.close();
 * ```
 */
export class SqliteProvider implements Provider, ProviderAdmin {
  /** {@inheritDoc @duro/core!Provider#name} */
  readonly name = 'sqlite';
  /** The duroxide release whose provider contract and SQLite schema this provider implements. */
  readonly version = '0.1.32';
  private readonly orchestratorWork = new WorkSignal();
  private readonly workerWork = new WorkSignal();
  private readonly commits: ExternalCommitWatch | null;

  private constructor(
    private readonly db: SqliteDatabase,
    options: ResolvedSqliteProviderOptions,
  ) {
    this.commits =
      db.file === null
        ? null
        : new ExternalCommitWatch(db, options.pollIntervalMs, () => this.wakeFetches());
  }

  /**
   * Opens (creating it, and its folder, when missing) a database file and brings its schema to
   * the latest version, as duroxide-node's `SqliteProvider.open`.
   * @param location a file path, or `sqlite:path` (`sqlite::memory:` opens a private in-memory
   *   database, as {@link SqliteProvider.inMemory}).
   * @throws {TypeError} for an empty location or one with URL query parameters.
   * @throws {RangeError} for an option out of range.
   * @throws {ProviderError} (permanent) when the file cannot be opened, cannot use WAL (a
   *   network file system), or holds a schema version this package does not know.
   */
  static async open(location: string, options?: SqliteProviderOptions): Promise<SqliteProvider> {
    return SqliteProvider.create(databaseFile(location), options);
  }

  /**
   * A private in-memory database, gone when the provider is closed or the process ends, as
   * duroxide-node's `SqliteProvider.inMemory`. For tests and examples; it cannot be shared with
   * another process.
   * @throws {RangeError} for an option out of range.
   */
  static async inMemory(options?: SqliteProviderOptions): Promise<SqliteProvider> {
    return SqliteProvider.create(null, options);
  }

  private static async create(
    file: string | null,
    options: SqliteProviderOptions | undefined,
  ): Promise<SqliteProvider> {
    const resolved = resolveSqliteProviderOptions(options);
    const db = SqliteDatabase.open(file, resolved);
    try {
      await migrateSchema(db);
    } catch (error) {
      db.close();
      throw error;
    }
    return new SqliteProvider(db, resolved);
  }

  /** The database file, or `null` in memory. */
  get file(): string | null {
    return this.db.file;
  }

  /**
   * Closes the database (a file's write-ahead log is folded into it). Waiting fetches return
   * empty; every later call rejects with a permanent `ProviderError`. Idempotent.
   */
  async close(): Promise<void> {
    this.db.close();
    this.wakeFetches();
  }

  // ----- Orchestrator queue -----

  async fetchOrchestrationItem(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
  ): Promise<FetchedOrchestrationItem | null> {
    const fetched = await this.pollOrchestrationItems(
      'fetch_orchestration_item',
      lockTimeoutMs,
      pollTimeoutMs,
      filter,
      1,
    );
    return fetched[0] ?? null;
  }

  /** {@inheritDoc @duro/core!Provider#fetchOrchestrationItems} */
  async fetchOrchestrationItems(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
    maxItems: number,
  ): Promise<FetchedOrchestrationItem[]> {
    const operation = 'fetch_orchestration_items';
    requireMaxItems(operation, maxItems);
    return this.pollOrchestrationItems(operation, lockTimeoutMs, pollTimeoutMs, filter, maxItems);
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
    const turn = {
      executionId,
      historyDelta,
      workerItems,
      orchestratorItems,
      metadata,
      cancelledActivities,
    };
    await this.db.write('ack_orchestration_item', () =>
      commitOrchestrationTurn(this.db, lockToken, turn, Date.now()),
    );
    this.announceTurns(workerItems.length > 0);
  }

  /**
   * {@link @duro/core!Provider#ackOrchestrationItems | Provider.ackOrchestrationItems} as the
   * contract describes it. All turns commit in one transaction, each in a savepoint of its own.
   * Activities are never written claimed: the `claim` argument is ignored and they are fetched as
   * usual.
   */
  async ackOrchestrationItems(
    acks: readonly OrchestrationItemAck[],
  ): Promise<OrchestrationItemAckOutcome[]> {
    requireDistinctLockTokens('ack_orchestration_item', acks);
    const outcomes = await this.db.write('ack_orchestration_item', () => {
      const nowMs = Date.now();
      return acks.map(({ lockToken, ...turn }) =>
        this.outcomeOf(() => commitOrchestrationTurn(this.db, lockToken, turn, nowMs)),
      );
    });
    this.announceTurns(
      acks.some((ack, index) => outcomes[index]?.ok === true && ack.workerItems.length > 0),
    );
    return outcomes;
  }

  async abandonOrchestrationItem(
    lockToken: string,
    delayMs: number | null,
    ignoreAttempt: boolean,
  ): Promise<void> {
    const operation = 'abandon_orchestration_item';
    const delay = delayOrZeroMs(operation, delayMs);
    await this.db.write(operation, () =>
      abandonOrchestrationLock(this.db, lockToken, delay, ignoreAttempt, Date.now()),
    );
    this.orchestratorWork.notify();
  }

  async renewOrchestrationItemLock(lockToken: string, extendForMs: number): Promise<void> {
    const operation = 'renew_orchestration_item_lock';
    requireDurationMs(operation, 'extendForMs', extendForMs);
    await this.db.write(operation, () =>
      renewOrchestrationLock(this.db, lockToken, extendForMs, Date.now()),
    );
  }

  async enqueueForOrchestrator(item: WorkItem, delayMs: number | null): Promise<void> {
    const operation = 'enqueue_for_orchestrator';
    const delay = delayOrZeroMs(operation, delayMs);
    requireOrchestratorItem(operation, item);
    await this.db.write(operation, () => {
      const nowMs = Date.now();
      insertOrchestratorMessage(this.db, item, nowMs + delay, nowMs);
    });
    this.orchestratorWork.notify();
  }

  // ----- History -----

  async read(instance: string): Promise<Event[]> {
    return this.db.read('read', () =>
      readHistory(this.db, 'read', instance, latestExecutionId(this.db, instance)),
    );
  }

  async readWithExecution(instance: string, executionId: number): Promise<Event[]> {
    const operation = 'read_with_execution';
    return this.db.read(operation, () => readHistory(this.db, operation, instance, executionId));
  }

  /** Appends events to an execution's history outside a turn; creates no execution row. */
  async appendWithExecution(
    instance: string,
    executionId: number,
    newEvents: readonly Event[],
  ): Promise<void> {
    const operation = 'append_with_execution';
    await this.db.write(operation, () =>
      insertHistory(this.db, operation, instance, executionId, newEvents, Date.now()),
    );
  }

  // ----- Worker queue -----

  async enqueueForWorker(item: WorkItem): Promise<void> {
    const operation = 'enqueue_for_worker';
    const activity = requireActivity(operation, item);
    await this.db.write(operation, () => insertWorkerMessage(this.db, activity, Date.now()));
    this.workerWork.notify();
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

  /** {@inheritDoc @duro/core!Provider#fetchWorkItems} */
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

  async ackWorkItem(lockToken: string, completion: WorkItem | null): Promise<void> {
    await this.db.write('ack_work_item', () =>
      ackWorkItem(this.db, lockToken, completion, Date.now()),
    );
    if (completion !== null) this.orchestratorWork.notify();
  }

  /**
   * {@link @duro/core!Provider#ackWorkItems | Provider.ackWorkItems} as the contract describes it.
   * All acknowledgements commit in one transaction.
   */
  async ackWorkItems(acks: readonly WorkItemAck[]): Promise<WorkItemAckOutcome[]> {
    requireDistinctLockTokens('ack_work_items', acks);
    const outcomes = await this.db.write('ack_work_items', () => {
      const nowMs = Date.now();
      return acks.map(({ lockToken, completion }) =>
        this.outcomeOf(() => ackWorkItem(this.db, lockToken, completion, nowMs)),
      );
    });
    this.orchestratorWork.notify();
    return outcomes;
  }

  async renewWorkItemLock(lockToken: string, extendForMs: number): Promise<void> {
    const operation = 'renew_work_item_lock';
    requireDurationMs(operation, 'extendForMs', extendForMs);
    await this.db.write(operation, () =>
      renewWorkItemLease(this.db, lockToken, extendForMs, Date.now()),
    );
  }

  async abandonWorkItem(
    lockToken: string,
    delayMs: number | null,
    ignoreAttempt: boolean,
  ): Promise<void> {
    const operation = 'abandon_work_item';
    const delay = delayOrZeroMs(operation, delayMs);
    await this.db.write(operation, () =>
      releaseWorkItem(this.db, lockToken, delay, ignoreAttempt, Date.now()),
    );
    this.workerWork.notify();
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
    return this.db.write(operation, () =>
      renewSessions(this.db, ownerIds, extendForMs, idleTimeoutMs, Date.now()),
    );
  }

  /** Removes sessions whose lease lapsed and that no queued activity refers to. */
  async cleanupOrphanedSessions(idleTimeoutMs: number): Promise<number> {
    const operation = 'cleanup_orphaned_sessions';
    requireDurationMs(operation, 'idleTimeoutMs', idleTimeoutMs);
    return this.db.write(operation, () => removeOrphanedSessions(this.db, Date.now()));
  }

  // ----- Reads for clients -----

  async getCustomStatus(instance: string, lastSeenVersion: number): Promise<CustomStatus | null> {
    return this.db.read('get_custom_status', () =>
      customStatusAfter(this.db, instance, lastSeenVersion),
    );
  }

  async getKvValue(instance: string, key: string): Promise<string | null> {
    return this.db.read('get_kv_value', () => liveKvValue(this.db, instance, key));
  }

  async getKvAllValues(instance: string): Promise<Map<string, string>> {
    return this.db.read('get_kv_all_values', () => liveKvValues(this.db, instance));
  }

  async getInstanceStats(instance: string): Promise<SystemStats | null> {
    return this.db.read('get_instance_stats', () => instanceStats(this.db, instance));
  }

  /** This provider itself: it implements {@link ProviderAdmin}. */
  asManagementCapability(): ProviderAdmin {
    return this;
  }

  // ----- Management -----

  async listInstances(): Promise<string[]> {
    return this.db.read('list_instances', () => instancesNewestFirst(this.db));
  }

  async listInstancesByStatus(status: string): Promise<string[]> {
    return this.db.read('list_instances_by_status', () => instancesNewestFirst(this.db, status));
  }

  async listExecutions(instance: string): Promise<number[]> {
    return this.db.read('list_executions', () => executionIds(this.db, instance));
  }

  async readHistoryWithExecutionId(instance: string, executionId: number): Promise<Event[]> {
    const operation = 'read_history_with_execution_id';
    return this.db.read(operation, () => readHistory(this.db, operation, instance, executionId));
  }

  async readHistory(instance: string): Promise<Event[]> {
    const operation = 'read_history';
    return this.db.read(operation, () =>
      readHistory(this.db, operation, instance, latestExecutionId(this.db, instance)),
    );
  }

  async latestExecutionId(instance: string): Promise<number> {
    return this.db.read('latest_execution_id', () => latestExecutionId(this.db, instance));
  }

  async getInstanceInfo(instance: string): Promise<InstanceInfo> {
    return this.db.read('get_instance_info', () => instanceInfo(this.db, instance));
  }

  async getExecutionInfo(instance: string, executionId: number): Promise<ExecutionInfo> {
    return this.db.read('get_execution_info', () => executionInfo(this.db, instance, executionId));
  }

  async getSystemMetrics(): Promise<SystemMetrics> {
    return this.db.read('get_system_metrics', () => systemMetrics(this.db));
  }

  /** Messages ready to be fetched now (visible, not held by a live lock); timers included. */
  async getQueueDepths(): Promise<QueueDepths> {
    return this.db.read('get_queue_depths', () => queueDepths(this.db, Date.now()));
  }

  async listChildren(instanceId: string): Promise<string[]> {
    return this.db.read('list_children', () => childrenOf(this.db, instanceId));
  }

  async getParentId(instanceId: string): Promise<string | null> {
    return this.db.read('get_parent_id', () => parentOf(this.db, instanceId));
  }

  async getInstanceTree(instanceId: string): Promise<InstanceTree> {
    return this.db.read('get_instance_tree', () => ({
      rootId: instanceId,
      allIds: treeOf(this.db, instanceId),
    }));
  }

  async deleteInstancesAtomic(
    ids: readonly string[],
    force: boolean,
  ): Promise<DeleteInstanceResult> {
    return this.db.write('delete_instances_atomic', () => deleteInstances(this.db, ids, force));
  }

  async deleteInstance(instanceId: string, force: boolean): Promise<DeleteInstanceResult> {
    return deleteInstanceTree(this, instanceId, force);
  }

  async deleteInstanceBulk(filter: InstanceFilter): Promise<DeleteInstanceResult> {
    return this.db.write('delete_instance_bulk', () => deleteInstancesMatching(this.db, filter));
  }

  async pruneExecutions(instanceId: string, options: PruneOptions): Promise<PruneResult> {
    return this.db.write('prune_executions', () =>
      pruneInstanceExecutions(this.db, instanceId, options),
    );
  }

  async pruneExecutionsBulk(filter: InstanceFilter, options: PruneOptions): Promise<PruneResult> {
    return this.db.write('prune_executions_bulk', () =>
      pruneExecutionsMatching(this.db, filter, options),
    );
  }

  // ----- Waiting for work -----

  private async pollOrchestrationItems(
    operation: string,
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
    maxItems: number,
  ): Promise<FetchedOrchestrationItem[]> {
    requireDurationMs(operation, 'lockTimeoutMs', lockTimeoutMs);
    requireDurationMs(operation, 'pollTimeoutMs', pollTimeoutMs);
    if (filter !== null && filter.supportedDuroxideVersions.length === 0) return [];
    return this.pollForClaims(
      operation,
      this.orchestratorWork,
      pollTimeoutMs,
      (nowMs) => claimOrchestrationItems(this.db, lockTimeoutMs, filter, maxItems, nowMs),
      (asOfMs) => nextOrchestratorChangeMs(this.db, asOfMs),
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
    if (session !== null) {
      requireDurationMs(operation, 'session.lockTimeoutMs', session.lockTimeoutMs);
    }
    // A node that takes no activities never gets one, so there is nothing to wait for.
    if (tagFilter.type === 'None') return [];
    return this.pollForClaims(
      operation,
      this.workerWork,
      pollTimeoutMs,
      (nowMs) =>
        claimWorkItems(this.db, lockTimeoutMs, session, tagFilter, maxItems, maxNewSessions, nowMs),
      (asOfMs) => nextWorkerChangeMs(this.db, asOfMs),
    );
  }

  /**
   * Claims with `claim` (in a write transaction) until it claims something or `pollTimeoutMs`
   * has passed, sleeping between tries until this provider writes work, another process
   * commits, or delayed work or a lock comes due. A try that finds the write lock taken by
   * another process counts as finding nothing: that process's commit wakes the next try. A
   * provider closed meanwhile ends the wait empty.
   */
  private async pollForClaims<T>(
    operation: string,
    signal: WorkSignal,
    pollTimeoutMs: number,
    claim: (nowMs: number) => T[],
    nextChangeMs: (asOfMs: number) => number | null,
  ): Promise<T[]> {
    const poll = () =>
      pollForWork<T[]>(
        signal,
        pollTimeoutMs,
        Date.now,
        () => {
          if (!this.db.isOpen) return [];
          this.commits?.check();
          try {
            const claimed = this.db.writeNow(() => claim(Date.now()));
            return claimed.length > 0 ? claimed : null;
          } catch (error) {
            if (isBusyError(error)) return null;
            throw toProviderError(operation, error);
          }
        },
        (asOfMs) => {
          if (!this.db.isOpen) return 0;
          const changeMs = nextChangeMs(asOfMs);
          return changeMs === null ? null : changeMs - Date.now();
        },
      );
    if (!this.db.isOpen) throw ProviderError.permanent(operation, 'the provider is closed');
    const claimed = await (this.commits === null ? poll() : this.commits.during(poll));
    return claimed ?? [];
  }

  /** Wakes every waiting fetch of both queues to look again. */
  private wakeFetches(): void {
    this.orchestratorWork.notify();
    this.workerWork.notify();
  }

  /** After committed turns: their messages may be claimable, and their activities. */
  private announceTurns(scheduledActivities: boolean): void {
    this.orchestratorWork.notify();
    if (scheduledActivities) this.workerWork.notify();
  }

  /** The outcome of one item of a batch, in a savepoint: a provider error fails it alone. */
  private outcomeOf(commit: () => unknown): WorkItemAckOutcome {
    try {
      this.db.savepoint(commit);
      return { ok: true };
    } catch (error) {
      if (!ProviderError.isInstance(error)) throw error;
      return { ok: false, error };
    }
  }
}
