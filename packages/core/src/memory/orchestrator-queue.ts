import type { Event } from '../model/event.js';
import { type WorkItem, workItemInstance } from '../model/work-item.js';
import {
  type DispatcherCapabilityFilter,
  capabilityFilterAccepts,
} from '../provider/fetch-filters.js';
import type { FetchedOrchestrationItem } from '../provider/orchestration-item.js';
import { type BatchOrigin, batchOriginWithoutInstance } from '../provider/batch-origin.js';
import { ProviderError } from '../provider/provider-error.js';
import { requireOrchestratorItem } from '../provider/queue-items.js';
import { HistoryDecodeError, decodeHistory } from './history-rows.js';
import { kvSnapshot } from './kv-state.js';
import type { MemoryStore, OrchestratorMessage } from './memory-store.js';

// The orchestrator queue with its instance locks, following the fetch order that duroxide's
// provider contract prescribes (trait docs in `src/providers/mod.rs`, reference in
// `src/providers/sqlite.rs`): pick an unlocked instance with visible messages, apply the
// capability filter before locking or reading history, lock the instance, take every visible
// message of it into the batch, then read the current execution's history.

/**
 * Adds a message for its instance (the parent, for sub-orchestration results), visible at
 * `visibleAtMs`. Creates no instance.
 * @throws {ProviderError} as {@link requireOrchestratorItem}.
 * @internal
 */
export function insertOrchestratorMessage(
  store: MemoryStore,
  operation: string,
  item: WorkItem,
  visibleAtMs: number,
): void {
  requireOrchestratorItem(operation, item);
  store.orchestratorQueue.push({
    seq: store.nextSeq(),
    instance: workItemInstance(item),
    item: structuredClone(item),
    visibleAtMs,
    lockToken: null,
    attemptCount: 0,
  });
}

function historyOf(
  store: MemoryStore,
  instance: string,
  executionId: number,
): { history: Event[]; historyError: string | null } {
  try {
    return {
      history: decodeHistory(store.historyRows(instance, executionId), instance, executionId),
      historyError: null,
    };
  } catch (error) {
    if (!(error instanceof HistoryDecodeError)) throw error;
    return { history: [], historyError: `Failed to deserialize history: ${error.message}` };
  }
}

/**
 * Where a batch belongs: the instance row, else the history of a first turn acked without
 * metadata, else a start message in the batch. `undefined` when none applies (the batch may be
 * racing its start).
 */
function batchOrigin(
  store: MemoryStore,
  instance: string,
  batch: readonly OrchestratorMessage[],
): BatchOrigin | undefined {
  const row = store.instances.get(instance);
  if (row !== undefined) {
    return {
      orchestrationName: row.orchestrationName,
      version: row.orchestrationVersion,
      executionId: row.currentExecutionId,
      ...historyOf(store, instance, row.currentExecutionId),
    };
  }
  const { history, historyError } = historyOf(store, instance, store.latestExecutionId(instance));
  return batchOriginWithoutInstance(
    history,
    historyError,
    batch.map(({ item }) => item),
  );
}

/** Locks `instance` and hands out its visible messages, or `null` when it has no owner yet. */
function claimInstance(
  store: MemoryStore,
  instance: string,
  lockTimeoutMs: number,
  nowMs: number,
): FetchedOrchestrationItem | null {
  const batch = store.orchestratorQueue.filter(
    (row) => row.instance === instance && row.visibleAtMs <= nowMs,
  );
  const origin = batchOrigin(store, instance, batch);
  if (origin === undefined) {
    // duroxide 0.1.21: queue messages sent before their orchestration exists are dropped, with
    // nothing else in the batch; any other message may be racing its start and stays untouched.
    if (batch.every(({ item }) => item.type === 'QueueMessage')) {
      const dropped = new Set(batch);
      store.orchestratorQueue = store.orchestratorQueue.filter((row) => !dropped.has(row));
    }
    return null;
  }
  const lockToken = store.newLockToken();
  store.instanceLocks.set(instance, {
    instance,
    token: lockToken,
    lockedUntilMs: nowMs + lockTimeoutMs,
  });
  let attemptCount = 0;
  for (const row of batch) {
    row.lockToken = lockToken;
    row.attemptCount += 1;
    attemptCount = Math.max(attemptCount, row.attemptCount);
  }
  return {
    item: {
      instance,
      orchestrationName: origin.orchestrationName,
      executionId: origin.executionId,
      version: origin.version,
      history: origin.history,
      messages: batch.map(({ item }) => structuredClone(item)),
      historyError: origin.historyError,
      kvSnapshot: origin.historyError === null ? kvSnapshot(store, instance) : new Map(),
    },
    lockToken,
    attemptCount,
  };
}

/**
 * One fetch attempt: the first instance, by its oldest visible message, that is unlocked, passes
 * `filter` and has an owner. Instances the filter rejects are neither locked nor read.
 * @internal
 */
export function tryFetchOrchestrationItem(
  store: MemoryStore,
  lockTimeoutMs: number,
  filter: DispatcherCapabilityFilter | null,
): FetchedOrchestrationItem | null {
  const nowMs = store.nowMs();
  const candidates = new Set<string>();
  for (const row of store.orchestratorQueue) {
    if (row.visibleAtMs <= nowMs) candidates.add(row.instance);
  }
  for (const instance of candidates) {
    if (store.isInstanceLocked(instance, nowMs)) continue;
    if (filter !== null) {
      const pinned = store.currentPinnedVersion(instance);
      if (pinned !== null && !capabilityFilterAccepts(filter, pinned)) continue;
    }
    const fetched = claimInstance(store, instance, lockTimeoutMs, nowMs);
    if (fetched !== null) return fetched;
  }
  return null;
}

/**
 * Milliseconds from now until the first moment after `asOfMs` at which a delayed message becomes
 * visible or a held lock lapses (0 or less when it has passed); `null` when there is none.
 * @internal
 */
export function msUntilOrchestratorChange(store: MemoryStore, asOfMs: number): number | null {
  let soonest = Infinity;
  for (const row of store.orchestratorQueue) {
    if (row.visibleAtMs > asOfMs) soonest = Math.min(soonest, row.visibleAtMs);
  }
  for (const lock of store.instanceLocks.values()) {
    if (lock.lockedUntilMs > asOfMs) soonest = Math.min(soonest, lock.lockedUntilMs);
  }
  return soonest === Infinity ? null : soonest - store.nowMs();
}

/**
 * Releases an instance lock. Only the rows that lock took into its batch change: they become
 * visible again after `delayMs` (unchanged when 0) and, with `ignoreAttempt`, get their attempt
 * back (never below 0). Rows that arrived during the lock keep their visibility and attempts.
 * @throws {ProviderError} (permanent) for an unknown token.
 * @internal
 */
export function abandonOrchestrationLock(
  store: MemoryStore,
  lockToken: string,
  delayMs: number,
  ignoreAttempt: boolean,
): void {
  const lock = store.instanceLockByToken(lockToken);
  if (lock === undefined) {
    throw ProviderError.permanent('abandon_orchestration_item', 'Invalid lock token');
  }
  const nowMs = store.nowMs();
  store.instanceLocks.delete(lock.instance);
  for (const row of store.orchestratorQueue) {
    if (row.lockToken !== lockToken) continue;
    row.lockToken = null;
    if (ignoreAttempt) row.attemptCount = Math.max(0, row.attemptCount - 1);
    if (delayMs > 0) row.visibleAtMs = nowMs + delayMs;
  }
}

/**
 * Extends a live instance lock.
 * @throws {ProviderError} (permanent) when the token is unknown, expired or already acked.
 * @internal
 */
export function renewOrchestrationLock(
  store: MemoryStore,
  lockToken: string,
  extendForMs: number,
): void {
  const nowMs = store.nowMs();
  const lock = store.instanceLockByToken(lockToken);
  if (lock === undefined || lock.lockedUntilMs <= nowMs) {
    throw ProviderError.permanent(
      'renew_orchestration_item_lock',
      'Lock token invalid, expired, or already acked',
    );
  }
  lock.lockedUntilMs = nowMs + extendForMs;
}
