import { createRequire } from 'node:module';
import {
  deleteInstanceTree,
  ProviderError,
  requireDistinctLockTokens,
  requireMaxItems,
  requireWorkItemBatchLimits,
  walkInstanceTree,
  type ActivityClaim,
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
import { connectProvider, type ProviderConnection } from './connection/connect.js';
import type { ConnectionTarget } from './connection/connection-target.js';
import { openEntraTarget } from './connection/entra-target.js';
import { orchestrationScope } from './wakeups/fetch-scopes.js';
import { ClaimLedger } from './claim-ledger.js';
import { HistoryCache } from './history-cache.js';
import { pollForWork } from './wakeups/long-poll.js';
import { IdleTurnFetches } from './wakeups/idle-turn-fetches.js';
import { abandonOrchestrationItem } from './operations/abandon-orchestration-item.js';
import { abandonWorkItem } from './operations/abandon-work-item.js';
import { ackOrchestrationItem } from './operations/ack-orchestration-item.js';
import { ackPayloadOf } from './operations/ack-payload.js';
import { ackWorkItems, ackWorkItemsClaimingTurns } from './operations/ack-work-items.js';
import { ackWorkItem } from './operations/ack-work-item.js';
import { appendHistory } from './operations/append-history.js';
import { cleanupOrphanedSessions } from './operations/cleanup-orphaned-sessions.js';
import {
  enqueueOrchestratorWork,
  enqueueOrchestratorWorkTogether,
  orchestratorMessage,
  type OrchestratorMessage,
} from './operations/enqueue-orchestrator-work.js';
import { enqueueWorkerWork } from './operations/enqueue-worker-work.js';
import { fetchHistory } from './operations/fetch-history.js';
import { fetchHistoryWithExecution } from './operations/fetch-history-with-execution.js';
import { fetchOrchestrationItem } from './operations/fetch-orchestration-item.js';
import { fetchWorkItem } from './operations/fetch-work-item.js';
import { fetchWorkItems } from './operations/fetch-work-items.js';
import { ackOrchestrationItems } from './operations/ack-orchestration-items.js';
import { fetchOrchestrationItems } from './operations/fetch-orchestration-items.js';
import { getCustomStatus } from './operations/get-custom-status.js';
import { getInstanceStats } from './operations/get-instance-stats.js';
import { getKvAllValues } from './operations/get-kv-all-values.js';
import { getKvValue } from './operations/get-kv-value.js';
import {
  deleteInstanceBulk,
  pruneExecutionsBulk,
} from './operations/management/bulk-operations.js';
import { deleteInstancesAtomic } from './operations/management/delete-instances-atomic.js';
import { getExecutionInfo } from './operations/management/get-execution-info.js';
import { getInstanceInfo } from './operations/management/get-instance-info.js';
import { getParentId } from './operations/management/get-parent-id.js';
import { getQueueDepths } from './operations/management/get-queue-depths.js';
import { getSystemMetrics } from './operations/management/get-system-metrics.js';
import { latestExecutionId } from './operations/management/latest-execution-id.js';
import { listChildren } from './operations/management/list-children.js';
import { listExecutions } from './operations/management/list-executions.js';
import { listInstances } from './operations/management/list-instances.js';
import { listInstancesByStatus } from './operations/management/list-instances-by-status.js';
import { pruneExecutions } from './operations/management/prune-executions.js';
import { readQueueDueTimes } from './operations/read-queue-due-times.js';
import { renewOrchestrationItemLock } from './operations/renew-orchestration-item-lock.js';
import { renewSessionLock } from './operations/renew-session-lock.js';
import { renewWorkItemLock } from './operations/renew-work-item-lock.js';
import {
  resolveEntraOptions,
  type PostgresEntraOptions,
} from './connection/postgres-entra-options.js';
import {
  resolveProviderOptions,
  type PostgresProviderOptions,
  type ResolvedProviderOptions,
} from './postgres-provider-options.js';
import type { ProviderDatabase } from './database/provider-database.js';
import { QueueVacuum } from './queue-vacuum.js';
import { TickBatches } from './tick-batches.js';
import { wakeupChannel } from './wakeup-channel.js';
import { WakeupListener } from './wakeups/wakeup-listener.js';
import { Wakeups } from './wakeups/wakeups.js';

/** The most messages one statement enqueues for instances; a bigger burst takes several. */
const MAX_ENQUEUES_PER_STATEMENT = 1_000;

const PACKAGE_VERSION = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;

/**
 * duro's PostgreSQL provider: the duroxide provider contract (`Provider` and `ProviderAdmin`)
 * on a `pg` pool, one stored-procedure call per operation, on a schema that duroxide-pg (Rust)
 * workers can share. Every procedure receives the caller's clock as `p_now_ms`; history and work
 * items are stored as duroxide's serde JSON.
 *
 * Idle fetches with a poll timeout wait on LISTEN/NOTIFY (one listening connection per
 * provider) and on the due time of delayed work, with a slow poll as a safety net.
 * Serialization failures, deadlocks and stale cached plans are retried inside; every other
 * failure rejects with a `ProviderError` (retryable for a lost connection or a timeout).
 *
 * @example
 * ```ts
 * const provider = await PostgresProvider.connectWithSchema(process.env.DATABASE_URL!, 'orders');
 * try {
 *   const turn = await provider.fetchOrchestrationItem(5_000, 30_000, null); // waits up to 30 s
 *   console.log(turn?.item.instance ?? 'no work');
 * } finally {
 *   await provider.close();
 * }
 * ```
 */
export class PostgresProvider implements Provider, ProviderAdmin {
  /** Name of the implementation, for logs. */
  readonly name = '@duro/provider-postgres';
  /** Version of this package. */
  readonly version: string = PACKAGE_VERSION;
  /** The schema this provider works in, as PostgreSQL names it (lower case). */
  readonly schema: string;
  readonly #db: ProviderDatabase;
  readonly #wakeups: Wakeups;
  readonly #queueVacuum: QueueVacuum;
  /** The messages enqueued for instances, sent together per tick of the event loop. */
  readonly #orchestratorEnqueues: TickBatches<OrchestratorMessage, number>;
  readonly #claims: ClaimLedger;
  /** The histories of the instances this provider ran; `null` when the cache is off. */
  readonly #histories: HistoryCache | null;
  /** Whether the schema has the turn batch procedures (duro migration 3 on duroxide 26). */
  readonly #turnBatches: boolean;
  /** Whether a turn batch's commit can write its activities claimed (duro migration 10). */
  readonly #activityClaims: boolean;
  /**
   * Whether activity acknowledgements claim the turns they wake for a waiting batch fetch (duro
   * migration 16).
   */
  readonly #ackClaimsTurns: boolean;
  /** This provider's batch fetches of turns that wait for work. */
  readonly #idleTurnFetches = new IdleTurnFetches();
  /** Stops what the provider's connections need besides the pool (an access token's refresh). */
  #releaseTarget: () => void = () => undefined;

  private constructor(connection: ProviderConnection, options: ResolvedProviderOptions) {
    this.schema = connection.schema;
    this.#db = connection.database;
    this.#histories =
      connection.historyTails && options.historyCacheSize > 0
        ? new HistoryCache(options.historyCacheSize)
        : null;
    this.#turnBatches = connection.turnBatches;
    this.#activityClaims = connection.activityClaims;
    this.#ackClaimsTurns = connection.ackClaimsTurns;
    const channels = {
      orchestrator: wakeupChannel(connection.schema, 'orchestrator'),
      worker: wakeupChannel(connection.schema, 'worker'),
    };
    this.#queueVacuum = new QueueVacuum(this.#db, options.queueVacuumIntervalMs);
    this.#orchestratorEnqueues = new TickBatches(
      {
        alone: (message) => enqueueOrchestratorWork(this.#db, message),
        together: (messages) => enqueueOrchestratorWorkTogether(this.#db, messages),
      },
      MAX_ENQUEUES_PER_STATEMENT,
    );
    this.#wakeups = new Wakeups({
      idlePollIntervalMs: options.idlePollIntervalMs,
      nowMs: options.nowMs,
      readDueTimes: (queue, sinceMs) => readQueueDueTimes(this.#db, queue, sinceMs),
      createListener: (signal) => new WakeupListener(connection.sessionConfig, channels, signal),
    });
    this.#claims = new ClaimLedger(this.#wakeups, this.#histories);
  }

  /**
   * Connects to the `public` schema, migrating it first unless `options.migrate` is false.
   * @throws {MigrationError} when the schema cannot be migrated (for example, it records a
   * migration this package does not know).
   * @throws {ProviderError} when the database cannot be reached (retryable).
   * @throws {RangeError} for an invalid option.
   */
  static connect(url: string, options: PostgresProviderOptions = {}): Promise<PostgresProvider> {
    return PostgresProvider.connectWithSchema(url, 'public', options);
  }

  /**
   * Connects to `schema`, creating and migrating it first unless `options.migrate` is false.
   * Schemas isolate tenants: two schemas never see each other's instances.
   * @throws {InvalidSchemaNameError} for a name that is not `[A-Za-z_][A-Za-z0-9_]*` (up to 63
   * characters); nothing is sent then.
   * @throws {MigrationError} when the schema cannot be migrated.
   * @throws {ProviderError} when the database cannot be reached (retryable).
   * @throws {RangeError} for an invalid option.
   */
  static async connectWithSchema(
    url: string,
    schema: string,
    options: PostgresProviderOptions = {},
  ): Promise<PostgresProvider> {
    const resolved = resolveProviderOptions(options);
    return PostgresProvider.connectToTarget({ kind: 'url', url }, schema, resolved);
  }

  /**
   * Connects to the `public` schema of Azure Database for PostgreSQL (or any PostgreSQL that
   * takes Entra ID access tokens as passwords) as `user`, migrating it first unless
   * `options.migrate` is false. See {@link connectWithSchemaAndEntra}.
   * @throws {AccessTokenError} when no usable first token can be had (for example,
   * `@azure/identity` is not installed and no credential was given).
   * @throws {MigrationError} when the schema cannot be migrated.
   * @throws {ProviderError} when the database cannot be reached (retryable) or refuses the login.
   * @throws {RangeError} for an invalid option or an empty host, database or user.
   */
  static connectWithEntra(
    host: string,
    port: number,
    database: string,
    user: string,
    options: PostgresEntraOptions = {},
  ): Promise<PostgresProvider> {
    return PostgresProvider.connectWithSchemaAndEntra(
      host,
      port,
      database,
      user,
      'public',
      options,
    );
  }

  /**
   * Connects to `schema` as the Entra ID principal `user`, whose password is an access token:
   * from `options.credential` or `options.getToken`, else from `@azure/identity`'s
   * `DefaultAzureCredential` (workload identity, managed identity, developer tools). Each new
   * connection logs in with the current token; the token is refreshed in the background before
   * it expires (at the latest every `refreshIntervalMs`), and a failed refresh is logged and
   * retried with backoff while open connections keep working. Connections always use TLS and
   * verify the server's certificate and host name (`verify-full`). A login refused while a token
   * is rotated fails the call with a retryable `ProviderError`. `close()` stops the refresh.
   * @throws {AccessTokenError} when no usable first token can be had.
   * @throws {InvalidSchemaNameError} for a schema name that is not a safe identifier.
   * @throws {MigrationError} when the schema cannot be migrated.
   * @throws {ProviderError} when the database cannot be reached (retryable) or refuses the login.
   * @throws {RangeError} for an invalid option or an empty host, database or user.
   *
   * @example
   * ```ts
   * const provider = await PostgresProvider.connectWithSchemaAndEntra(
   *   'orders-db.postgres.database.azure.com',
   *   5432,
   *   'orders',
   *   'orders-worker', // the role of the managed identity
   *   'duroxide',
   * );
   * ```
   */
  static async connectWithSchemaAndEntra(
    host: string,
    port: number,
    database: string,
    user: string,
    schema: string,
    options: PostgresEntraOptions = {},
  ): Promise<PostgresProvider> {
    const resolved = resolveEntraOptions(options);
    const target = await openEntraTarget({ host, port, database, user }, resolved);
    try {
      const provider = await PostgresProvider.connectToTarget(target, schema, resolved.provider);
      provider.#releaseTarget = () => target.accessToken.close();
      return provider;
    } catch (error) {
      target.accessToken.close();
      throw error;
    }
  }

  /**
   * Connects to `schema` on `target`, which the caller keeps and releases (for the `duro`
   * command, which shares one access token between the provider and its own reads), reading
   * libpq's TLS variables from `env`.
   * @internal
   */
  static async connectToTarget(
    target: ConnectionTarget,
    schema: string,
    options: ResolvedProviderOptions,
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<PostgresProvider> {
    return new PostgresProvider(await connectProvider(target, schema, options, env), options);
  }

  /**
   * Stops listening, ends waiting fetches (they return `null`), and closes the pool once the
   * calls in progress have finished. Later calls reject with a permanent `ProviderError`.
   */
  async close(): Promise<void> {
    await this.#orchestratorEnqueues.settle();
    await this.#wakeups.close();
    await this.#queueVacuum.close();
    await this.#db.close();
    this.#releaseTarget();
  }

  // ----- Orchestrator queue -----

  async fetchOrchestrationItem(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
  ): Promise<FetchedOrchestrationItem | null> {
    const scope = orchestrationScope(filter);
    return pollForWork(this.#wakeups, 'orchestrator', scope, pollTimeoutMs, async () => {
      const result = await fetchOrchestrationItem(this.#db, lockTimeoutMs, filter, this.#histories);
      if (result.kind === 'none') return null;
      const claimed = this.#claims.claimedTurns([result])[0];
      return claimed === undefined ? 'retry' : { value: claimed, foundNoMore: false };
    });
  }

  /**
   * {@link @duro/core!Provider#fetchOrchestrationItems | Provider.fetchOrchestrationItems} as the
   * contract describes it. One statement claims the whole batch; on a schema without duro migration
   * 3 (or not at duroxide version 26) it claims one turn as `fetchOrchestrationItem` does.
   */
  async fetchOrchestrationItems(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
    maxItems: number,
  ): Promise<FetchedOrchestrationItem[]> {
    requireMaxItems('fetch_orchestration_items', maxItems);
    if (!this.#turnBatches) {
      const fetched = await this.fetchOrchestrationItem(lockTimeoutMs, pollTimeoutMs, filter);
      return fetched === null ? [] : [fetched];
    }
    const scope = orchestrationScope(filter);
    const fetched = await pollForWork(
      this.#wakeups,
      'orchestrator',
      scope,
      pollTimeoutMs,
      async () => {
        const results = await fetchOrchestrationItems(
          this.#db,
          lockTimeoutMs,
          filter,
          this.#histories,
          maxItems,
        );
        if (results.length === 0) return null;
        const claimed = this.#claims.claimedTurns(results);
        if (claimed.length === 0) return 'retry';
        // A batch short of maxItems took every turn its statement could claim.
        return { value: claimed, foundNoMore: results.length < maxItems };
      },
      this.#ackClaimsTurns
        ? this.#idleTurnFetches.handoffFor({ lockTimeoutMs, filter, maxItems })
        : undefined,
    );
    return fetched ?? [];
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
    await this.#ackTurn({
      lockToken,
      executionId,
      historyDelta,
      workerItems,
      orchestratorItems,
      metadata,
      cancelledActivities,
    });
  }

  async #ackTurn(ack: OrchestrationItemAck): Promise<void> {
    const instance = this.#claims.instanceOf(ack.lockToken);
    const payload = ackPayloadOf(ack, instance);
    await ackOrchestrationItem(this.#db, ack.lockToken, ack.executionId, payload, instance);
    this.#committedTurn(ack);
  }

  /**
   * {@link @duro/core!Provider#ackOrchestrationItems | Provider.ackOrchestrationItems} as the
   * contract describes it. One statement commits the whole batch and writes the activities `claim`
   * takes claimed; on a schema without duro migration 3 the turns are acknowledged one after
   * another, and without duro migration 10 `claim` is ignored.
   */
  async ackOrchestrationItems(
    acks: readonly OrchestrationItemAck[],
    claim?: ActivityClaim,
  ): Promise<OrchestrationItemAckOutcome[]> {
    if (!this.#turnBatches) return this.#ackOneByOne(acks);
    if (claim !== undefined) requireMaxItems('ack_orchestration_item', claim.maxItems);
    const outcomes = await ackOrchestrationItems(
      this.#db,
      acks,
      (token) => this.#claims.instanceOf(token),
      this.#activityClaims ? (claim ?? null) : null,
    );
    acks.forEach((ack, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok !== true) return;
      this.#committedTurn(ack);
      for (const activity of outcome.claimedActivities ?? []) {
        this.#claims.claimedActivity(activity, null);
      }
    });
    return outcomes;
  }

  async #ackOneByOne(
    acks: readonly OrchestrationItemAck[],
  ): Promise<OrchestrationItemAckOutcome[]> {
    requireDistinctLockTokens('ack_orchestration_item', acks);
    const outcomes: OrchestrationItemAckOutcome[] = [];
    for (const ack of acks) {
      try {
        await this.#ackTurn(ack);
        outcomes.push({ ok: true });
      } catch (error) {
        if (!ProviderError.isInstance(error)) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  #committedTurn(ack: OrchestrationItemAck): void {
    this.#queueVacuum.noteChurn();
    this.#claims.committedTurn(ack);
  }

  async abandonOrchestrationItem(
    lockToken: string,
    delayMs: number | null,
    ignoreAttempt: boolean,
  ): Promise<void> {
    const instance = this.#claims.instanceOf(lockToken);
    await abandonOrchestrationItem(this.#db, lockToken, delayMs, ignoreAttempt, instance);
    this.#claims.releasedTurn(lockToken);
    if (delayMs !== null) this.#wakeups.noteDue('orchestrator', this.#db.nowMs() + delayMs);
  }

  async renewOrchestrationItemLock(lockToken: string, extendForMs: number): Promise<void> {
    const instance = this.#claims.instanceOf(lockToken);
    await renewOrchestrationItemLock(this.#db, lockToken, extendForMs, instance);
  }

  /**
   * {@link @duro/core!Provider#enqueueForOrchestrator | Provider.enqueueForOrchestrator} as the
   * contract describes it. The calls made in one tick of the event loop are committed together, in
   * one statement (each still succeeds or fails on its own).
   */
  async enqueueForOrchestrator(item: WorkItem, delayMs: number | null): Promise<void> {
    const message = orchestratorMessage(item, delayMs);
    this.#wakeups.noteDue('orchestrator', await this.#orchestratorEnqueues.send(message));
  }

  // ----- History -----

  async read(instance: string): Promise<Event[]> {
    return fetchHistory(this.#db, instance);
  }

  async readWithExecution(instance: string, executionId: number): Promise<Event[]> {
    return fetchHistoryWithExecution(this.#db, instance, executionId);
  }

  async appendWithExecution(
    instance: string,
    executionId: number,
    newEvents: readonly Event[],
  ): Promise<void> {
    await appendHistory(this.#db, instance, executionId, newEvents);
  }

  // ----- Worker queue -----

  async enqueueForWorker(item: WorkItem): Promise<void> {
    await enqueueWorkerWork(this.#db, item);
    this.#claims.wakeSessionOwner(item);
  }

  async fetchWorkItem(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    session: SessionFetchConfig | null,
    tagFilter: TagFilter,
  ): Promise<FetchedWorkItem | null> {
    if (tagFilter.type === 'None') return null;
    const scope = this.#claims.workScope(session, tagFilter);
    return pollForWork(this.#wakeups, 'worker', scope, pollTimeoutMs, async () => {
      const fetched = await fetchWorkItem(this.#db, lockTimeoutMs, session, tagFilter);
      if (fetched === null) return null;
      this.#claims.claimedActivity(fetched, session);
      return { value: fetched, foundNoMore: false };
    });
  }

  async ackWorkItem(lockToken: string, completion: WorkItem | null): Promise<void> {
    await ackWorkItem(this.#db, lockToken, completion, this.#claims.instanceOf(lockToken));
    this.#claims.releasedActivity(lockToken);
    this.#queueVacuum.noteChurn();
  }

  /**
   * {@link @duro/core!Provider#fetchWorkItems | Provider.fetchWorkItems} as the contract describes
   * it. One statement claims the whole batch (no stored procedure: it needs no migration).
   */
  async fetchWorkItems(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    session: SessionFetchConfig | null,
    tagFilter: TagFilter,
    maxItems: number,
    maxNewSessions: number,
  ): Promise<FetchedWorkItem[]> {
    requireWorkItemBatchLimits('fetch_work_items', maxItems, maxNewSessions);
    if (tagFilter.type === 'None') return [];
    const scope = this.#claims.workScope(session, tagFilter);
    const fetched = await pollForWork(this.#wakeups, 'worker', scope, pollTimeoutMs, async () => {
      const batch = await fetchWorkItems(
        this.#db,
        lockTimeoutMs,
        session,
        tagFilter,
        maxItems,
        maxNewSessions,
      );
      for (const item of batch) this.#claims.claimedActivity(item, session);
      // A short batch may have stopped at maxNewSessions, so it says nothing of what is left.
      return batch.length > 0 ? { value: batch, foundNoMore: false } : null;
    });
    return fetched ?? [];
  }

  /**
   * {@link @duro/core!Provider#ackWorkItems | Provider.ackWorkItems} as the contract describes it.
   * One statement acknowledges the whole batch. While a batch fetch of turns of this provider
   * waits for work (on a schema with duro migration 16), the same statement also claims the
   * turns of the instances the completions go to, and that fetch returns them: one durable
   * commit where the acknowledgement and the woken fetch's claim took one each.
   */
  async ackWorkItems(acks: readonly WorkItemAck[]): Promise<WorkItemAckOutcome[]> {
    const instanceOf = (token: string): string | undefined => this.#claims.instanceOf(token);
    const fetch = this.#ackClaimsTurns ? this.#idleTurnFetches.take() : null;
    let outcomes: WorkItemAckOutcome[];
    if (fetch === null) {
      outcomes = await ackWorkItems(this.#db, acks, instanceOf);
    } else {
      // Unless it is handed turns, the fetch waits on for the notification.
      let turns: FetchedOrchestrationItem[] = [];
      try {
        const done = await ackWorkItemsClaimingTurns(this.#db, acks, instanceOf, {
          maxTurns: fetch.maxItems,
          lockTimeoutMs: fetch.lockTimeoutMs,
          filter: fetch.filter,
          cache: this.#histories,
        });
        outcomes = done.outcomes;
        turns = this.#claims.claimedTurns(done.turns);
      } catch {
        // A failed statement committed nothing (or, its connection lost, its fate is unknown,
        // which a second acknowledgement then reports as locks already gone): the
        // acknowledgement goes alone, so a claim can never keep it from committing.
        outcomes = await ackWorkItems(this.#db, acks, instanceOf);
      } finally {
        fetch.hand(turns);
      }
    }
    acks.forEach(({ lockToken }, index) => {
      if (outcomes[index]?.ok === true) this.#claims.releasedActivity(lockToken);
    });
    this.#queueVacuum.noteChurn();
    return outcomes;
  }

  async renewWorkItemLock(lockToken: string, extendForMs: number): Promise<void> {
    const instance = this.#claims.instanceOf(lockToken);
    await renewWorkItemLock(this.#db, lockToken, extendForMs, instance);
  }

  async abandonWorkItem(
    lockToken: string,
    delayMs: number | null,
    ignoreAttempt: boolean,
  ): Promise<void> {
    const instance = this.#claims.instanceOf(lockToken);
    await abandonWorkItem(this.#db, lockToken, delayMs, ignoreAttempt, instance);
    this.#claims.releasedActivity(lockToken);
    if (delayMs !== null) this.#wakeups.noteDue('worker', this.#db.nowMs() + delayMs);
  }

  // ----- Sessions -----

  async renewSessionLock(
    ownerIds: readonly string[],
    extendForMs: number,
    idleTimeoutMs: number,
  ): Promise<number> {
    return renewSessionLock(this.#db, ownerIds, extendForMs, idleTimeoutMs);
  }

  /** Removes expired sessions no queued activity refers to; `idleTimeoutMs` is not used. */
  async cleanupOrphanedSessions(_idleTimeoutMs: number): Promise<number> {
    return cleanupOrphanedSessions(this.#db);
  }

  // ----- Reads for clients -----

  async getCustomStatus(instance: string, lastSeenVersion: number): Promise<CustomStatus | null> {
    return getCustomStatus(this.#db, instance, lastSeenVersion);
  }

  async getKvValue(instance: string, key: string): Promise<string | null> {
    return getKvValue(this.#db, instance, key);
  }

  async getKvAllValues(instance: string): Promise<Map<string, string>> {
    return getKvAllValues(this.#db, instance);
  }

  async getInstanceStats(instance: string): Promise<SystemStats | null> {
    return getInstanceStats(this.#db, instance);
  }

  /** This provider, which implements `ProviderAdmin` itself. */
  asManagementCapability(): ProviderAdmin {
    return this;
  }

  // ----- ProviderAdmin -----

  async listInstances(): Promise<string[]> {
    return listInstances(this.#db);
  }

  async listInstancesByStatus(status: string): Promise<string[]> {
    return listInstancesByStatus(this.#db, status);
  }

  async listExecutions(instance: string): Promise<number[]> {
    return listExecutions(this.#db, instance);
  }

  async readHistoryWithExecutionId(instance: string, executionId: number): Promise<Event[]> {
    return fetchHistoryWithExecution(this.#db, instance, executionId);
  }

  async readHistory(instance: string): Promise<Event[]> {
    return this.readHistoryWithExecutionId(instance, await this.latestExecutionId(instance));
  }

  async latestExecutionId(instance: string): Promise<number> {
    return latestExecutionId(this.#db, instance);
  }

  async getInstanceInfo(instance: string): Promise<InstanceInfo> {
    return getInstanceInfo(this.#db, instance);
  }

  async getExecutionInfo(instance: string, executionId: number): Promise<ExecutionInfo> {
    return getExecutionInfo(this.#db, instance, executionId);
  }

  /** Instance, execution and event counts over the whole store. */
  async getSystemMetrics(): Promise<SystemMetrics> {
    return getSystemMetrics(this.#db);
  }

  /** The visible, unlocked messages waiting in each queue. */
  async getQueueDepths(): Promise<QueueDepths> {
    return getQueueDepths(this.#db);
  }

  async listChildren(instanceId: string): Promise<string[]> {
    return listChildren(this.#db, instanceId);
  }

  async getParentId(instanceId: string): Promise<string | null> {
    return getParentId(this.#db, instanceId);
  }

  async getInstanceTree(instanceId: string): Promise<InstanceTree> {
    return walkInstanceTree(this, instanceId);
  }

  async deleteInstancesAtomic(
    ids: readonly string[],
    force: boolean,
  ): Promise<DeleteInstanceResult> {
    return deleteInstancesAtomic(this.#db, ids, force);
  }

  async deleteInstance(instanceId: string, force: boolean): Promise<DeleteInstanceResult> {
    return deleteInstanceTree(this, instanceId, force);
  }

  async deleteInstanceBulk(filter: InstanceFilter): Promise<DeleteInstanceResult> {
    return deleteInstanceBulk(this.#db, filter);
  }

  async pruneExecutions(instanceId: string, options: PruneOptions): Promise<PruneResult> {
    return pruneExecutions(this.#db, instanceId, options);
  }

  async pruneExecutionsBulk(filter: InstanceFilter, options: PruneOptions): Promise<PruneResult> {
    return pruneExecutionsBulk(this.#db, filter, options);
  }
}
