import type { Event } from '../model/event.js';
import type { ActivityClaim } from './activity-claim.js';
import type { WorkItem } from '../model/work-item.js';
import type { ExecutionMetadata } from './execution-metadata.js';
import type { DispatcherCapabilityFilter, SessionFetchConfig, TagFilter } from './fetch-filters.js';
import type {
  FetchedOrchestrationItem,
  FetchedWorkItem,
  OrchestrationItemAck,
  OrchestrationItemAckOutcome,
  ScheduledActivityIdentifier,
  WorkItemAck,
  WorkItemAckOutcome,
} from './orchestration-item.js';
import type { ProviderAdmin } from './provider-admin.js';
import type { SystemStats } from './system-stats.js';

/** An instance's custom status and how many times it has changed. */
export interface CustomStatus {
  /** `null` when cleared or never set. */
  readonly customStatus: string | null;
  /** Increments on every change of the custom status; 0 when never set. */
  readonly version: number;
}

/**
 * The storage contract between the runtime and a store, method for method as duroxide's `Provider`
 * trait. A provider is a transactional store with two peek-lock queues (orchestrator and worker)
 * and an append-only history; it never creates events or makes orchestration decisions.
 *
 * Every method rejects with a {@link ProviderError} on failure. Durations are milliseconds.
 * `@duro/core/validation` checks an implementation against this contract.
 */
export interface Provider {
  /** Name of the implementation, for logs. */
  readonly name: string;
  /** Version of the implementation, for logs. */
  readonly version: string;

  // ----- Orchestrator queue -----

  /**
   * Locks one instance that has visible messages and returns them with its current execution's
   * history, or `null` when there is none within `pollTimeoutMs` (providers that do not long-poll
   * return at once). With a filter, only instances whose pinned version it accepts are considered.
   */
  fetchOrchestrationItem(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
  ): Promise<FetchedOrchestrationItem | null>;

  /**
   * Commits a turn atomically: appends `historyDelta`, enqueues `workerItems` and
   * `orchestratorItems`, stores `metadata`, removes `cancelledActivities` from the worker queue,
   * deletes the messages this lock fetched and releases the lock. Rejects with a permanent error
   * containing "Invalid lock token" when the lock is unknown or expired; nothing is then written.
   */
  ackOrchestrationItem(
    lockToken: string,
    executionId: number,
    historyDelta: readonly Event[],
    workerItems: readonly WorkItem[],
    orchestratorItems: readonly WorkItem[],
    metadata: ExecutionMetadata,
    cancelledActivities: readonly ScheduledActivityIdentifier[],
  ): Promise<void>;

  /**
   * Locks up to `maxItems` distinct instances, each as `fetchOrchestrationItem` would, in one
   * round trip; an empty array when there is none within `pollTimeoutMs`. Not part of the
   * duroxide contract: without it (or with `orchestrationBatchSize` 1) a dispatcher slot claims
   * one turn per fetch.
   * @throws {ProviderError} (permanent) when `maxItems` is not an integer >= 1.
   */
  fetchOrchestrationItems?(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    filter: DispatcherCapabilityFilter | null,
    maxItems: number,
  ): Promise<FetchedOrchestrationItem[]>;

  /**
   * Commits several turns in one round trip, each exactly as `ackOrchestrationItem` would and
   * on its own: a turn whose lock was lost fails alone (with "Invalid lock token") and the others
   * commit. The outcomes come back in the order of `acks`. Rejects (for every turn) only when
   * the call as a whole failed, and then nothing was written.
   *
   * With `claim`, the activities the committed turns schedule may be written already claimed
   * for the caller (see {@link ActivityClaim}); each committed turn's outcome then carries those
   * of its own, which the caller must run or abandon. A provider that cannot claim so ignores
   * `claim`, and the activities are fetched as usual.
   */
  ackOrchestrationItems?(
    acks: readonly OrchestrationItemAck[],
    claim?: ActivityClaim,
  ): Promise<OrchestrationItemAckOutcome[]>;

  /**
   * Releases the lock; the messages it held become visible again after `delayMs` (at once when
   * `null`). With `ignoreAttempt`, their attempt counts go back down by one.
   */
  abandonOrchestrationItem(
    lockToken: string,
    delayMs: number | null,
    ignoreAttempt: boolean,
  ): Promise<void>;

  /** Extends a held instance lock; rejects when it is unknown or already expired. */
  renewOrchestrationItemLock(lockToken: string, extendForMs: number): Promise<void>;

  /** Adds a message for an instance, visible after `delayMs`. Creates no instance. */
  enqueueForOrchestrator(item: WorkItem, delayMs: number | null): Promise<void>;

  // ----- History -----

  /** The latest execution's history, in event-id order; `[]` for an unknown instance. */
  read(instance: string): Promise<Event[]>;

  /** One execution's history, in event-id order; `[]` when unknown. */
  readWithExecution(instance: string, executionId: number): Promise<Event[]>;

  /** Appends events outside a turn (tools and tests). */
  appendWithExecution(
    instance: string,
    executionId: number,
    newEvents: readonly Event[],
  ): Promise<void>;

  // ----- Worker queue -----

  /** Adds an `ActivityExecute` message to the worker queue. */
  enqueueForWorker(item: WorkItem): Promise<void>;

  /**
   * Locks the oldest visible activity that passes `tagFilter` (and session routing when `session`
   * is given), or returns `null` when there is none within `pollTimeoutMs`.
   */
  fetchWorkItem(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    session: SessionFetchConfig | null,
    tagFilter: TagFilter,
  ): Promise<FetchedWorkItem | null>;

  /**
   * Deletes the locked activity and, atomically, enqueues its completion for the orchestration
   * (none when `completion` is `null`). Rejects when the lock is unknown or expired.
   */
  ackWorkItem(lockToken: string, completion: WorkItem | null): Promise<void>;

  /** Extends an activity's lock; rejects when it is unknown, expired or acknowledged. */
  renewWorkItemLock(lockToken: string, extendForMs: number): Promise<void>;

  /** Releases an activity's lock, making it visible again after `delayMs`. */
  abandonWorkItem(lockToken: string, delayMs: number | null, ignoreAttempt: boolean): Promise<void>;

  // ----- Batched worker queue (optional; the runtime falls back to the methods above) -----

  /**
   * Locks up to `maxItems` visible activities at once, oldest first, each exactly as
   * `fetchWorkItem` would (its own lock token, `lockTimeoutMs` lease and attempt count; the same
   * tag filter and session routing), and claims at most `maxNewSessions` sessions this owner
   * does not hold yet. Returns `[]` when there is none within `pollTimeoutMs`, and at least one
   * item otherwise. Not part of the duroxide contract: a provider without it is served one item
   * per fetch.
   */
  fetchWorkItems?(
    lockTimeoutMs: number,
    pollTimeoutMs: number,
    session: SessionFetchConfig | null,
    tagFilter: TagFilter,
    maxItems: number,
    maxNewSessions: number,
  ): Promise<FetchedWorkItem[]>;

  /**
   * Acknowledges several activities in one round trip, each exactly as `ackWorkItem` would
   * (delete only under a live lock, enqueue its completion in the same transaction). Items are
   * independent: one whose lock was lost fails alone, and the outcomes come back in the order
   * of `acks`. Rejects (for every item) only when the call as a whole failed.
   */
  ackWorkItems?(acks: readonly WorkItemAck[]): Promise<WorkItemAckOutcome[]>;

  // ----- Sessions -----

  /**
   * Extends the sessions owned by `ownerIds` that were active within `idleTimeoutMs`; returns how
   * many were extended.
   */
  renewSessionLock(
    ownerIds: readonly string[],
    extendForMs: number,
    idleTimeoutMs: number,
  ): Promise<number>;

  /** Removes expired sessions idle longer than `idleTimeoutMs`; returns how many. */
  cleanupOrphanedSessions(idleTimeoutMs: number): Promise<number>;

  // ----- Reads for clients -----

  /** The custom status when its version is newer than `lastSeenVersion`; `null` otherwise. */
  getCustomStatus(instance: string, lastSeenVersion: number): Promise<CustomStatus | null>;

  /** A key's value as a client sees it (committed state merged with the running execution's). */
  getKvValue(instance: string, key: string): Promise<string | null>;

  /** Every key and value of an instance, as a client sees them. */
  getKvAllValues(instance: string): Promise<Map<string, string>>;

  /** Size figures of an instance; `null` when it does not exist. */
  getInstanceStats(instance: string): Promise<SystemStats | null>;

  /** The management interface, when this provider has one. */
  asManagementCapability?(): ProviderAdmin | null;
}
