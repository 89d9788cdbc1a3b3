import type { WorkItem, WorkItemOf } from '../model/work-item.js';
import { activityClaimTakes, type ActivityClaim } from '../provider/activity-claim.js';
import {
  type SessionFetchConfig,
  type TagFilter,
  tagFilterMatches,
} from '../provider/fetch-filters.js';
import type { FetchedWorkItem } from '../provider/orchestration-item.js';
import { ProviderError } from '../provider/provider-error.js';
import type { MemoryStore, WorkerMessage } from './memory-store.js';
import { insertOrchestratorMessage } from './orchestrator-queue.js';
import { claimSession, ownsSession, sessionAvailableTo, touchSession } from './sessions.js';

// The worker queue: peek-lock per activity, FIFO by insertion, with tag and session routing as
// in duroxide's SQLite provider (`fetch_work_item` and friends in `src/providers/sqlite.rs`).

/**
 * Adds an activity, visible at `visibleAtMs`, keeping its session and tag for routing.
 * @internal
 */
export function insertWorkerMessage(
  store: MemoryStore,
  item: WorkItemOf<'ActivityExecute'>,
  visibleAtMs: number,
): void {
  store.workerQueue.push({
    seq: store.nextSeq(),
    item: structuredClone(item),
    visibleAtMs,
    lockToken: null,
    lockedUntilMs: 0,
    attemptCount: 0,
  });
}

function isAvailable(row: WorkerMessage, nowMs: number): boolean {
  return row.visibleAtMs <= nowMs && (row.lockToken === null || row.lockedUntilMs <= nowMs);
}

/**
 * One fetch attempt: up to `maxItems` of the oldest available activities that pass `tagFilter`
 * and session routing (without `session`, only activities outside sessions; with it, also those
 * of sessions this owner holds, and of sessions nobody holds, claiming at most `maxNewSessions`
 * of those). Each gets its own lock token and attempt.
 * @internal
 */
export function tryFetchWorkItems(
  store: MemoryStore,
  lockTimeoutMs: number,
  session: SessionFetchConfig | null,
  tagFilter: TagFilter,
  maxItems: number,
  maxNewSessions: number,
): FetchedWorkItem[] {
  const nowMs = store.nowMs();
  const fetched: FetchedWorkItem[] = [];
  let newSessions = 0;
  for (const row of store.workerQueue) {
    if (fetched.length >= maxItems) break;
    if (!isAvailable(row, nowMs) || !tagFilterMatches(tagFilter, row.item.tag)) continue;
    const sessionId = row.item.sessionId;
    if (sessionId !== undefined) {
      if (session === null || !sessionAvailableTo(store, sessionId, session.ownerId, nowMs)) {
        continue;
      }
      if (!ownsSession(store, sessionId, session.ownerId, nowMs)) {
        if (newSessions >= maxNewSessions) continue;
        newSessions += 1;
      }
      claimSession(store, sessionId, session, nowMs);
    }
    fetched.push(lockForCaller(store, row, lockTimeoutMs, nowMs));
  }
  return fetched;
}

/** Locks a row for the caller as a fetch does: its own lock token, the lease, one more attempt. */
function lockForCaller(
  store: MemoryStore,
  row: WorkerMessage,
  lockTimeoutMs: number,
  nowMs: number,
): FetchedWorkItem {
  const lockToken = store.newLockToken();
  row.lockToken = lockToken;
  row.lockedUntilMs = nowMs + lockTimeoutMs;
  row.attemptCount += 1;
  return { item: structuredClone(row.item), lockToken, attemptCount: row.attemptCount };
}

/**
 * Claims for the caller, as an `ActivityClaim` asks, up to `maxItems` of the activities a turn
 * just scheduled: those without a session that the claim's tag filter takes, in order.
 * @internal
 */
export function claimScheduledActivities(
  store: MemoryStore,
  scheduled: readonly WorkItem[],
  claim: ActivityClaim,
  maxItems: number,
): FetchedWorkItem[] {
  const nowMs = store.nowMs();
  const claimed: FetchedWorkItem[] = [];
  for (const item of scheduled) {
    if (claimed.length >= maxItems) break;
    if (!activityClaimTakes(claim, item)) continue;
    const row = store.workerQueue.find(
      (candidate) =>
        candidate.lockToken === null &&
        candidate.attemptCount === 0 &&
        candidate.item.instance === item.instance &&
        candidate.item.executionId === item.executionId &&
        candidate.item.id === item.id,
    );
    if (row !== undefined) claimed.push(lockForCaller(store, row, claim.lockTimeoutMs, nowMs));
  }
  return claimed;
}

/**
 * Milliseconds from now until the first moment after `asOfMs` at which a delayed activity becomes
 * visible, or an activity lock or session lease lapses (0 or less when it has passed); `null`
 * when there is none.
 * @internal
 */
export function msUntilWorkerChange(store: MemoryStore, asOfMs: number): number | null {
  let soonest = Infinity;
  for (const row of store.workerQueue) {
    if (row.visibleAtMs > asOfMs) soonest = Math.min(soonest, row.visibleAtMs);
    if (row.lockToken !== null && row.lockedUntilMs > asOfMs) {
      soonest = Math.min(soonest, row.lockedUntilMs);
    }
  }
  for (const session of store.sessions.values()) {
    if (session.lockedUntilMs > asOfMs) soonest = Math.min(soonest, session.lockedUntilMs);
  }
  return soonest === Infinity ? null : soonest - store.nowMs();
}

function liveRow(store: MemoryStore, lockToken: string, nowMs: number): WorkerMessage | undefined {
  return store.workerQueue.find((row) => row.lockToken === lockToken && row.lockedUntilMs > nowMs);
}

/**
 * Deletes a locked activity and enqueues its completion, both or neither.
 * @throws {ProviderError} (permanent) when the completion is not `ActivityCompleted` or
 *   `ActivityFailed`, or the lock is unknown, expired, or the activity was cancelled.
 * @internal
 */
export function ackWorkItem(
  store: MemoryStore,
  lockToken: string,
  completion: WorkItem | null,
): void {
  const operation = 'ack_work_item';
  if (
    completion !== null &&
    completion.type !== 'ActivityCompleted' &&
    completion.type !== 'ActivityFailed'
  ) {
    throw ProviderError.permanent(
      operation,
      `Invalid completion type for worker ack: ${completion.type}`,
    );
  }
  const nowMs = store.nowMs();
  const row = liveRow(store, lockToken, nowMs);
  if (row === undefined) {
    throw ProviderError.permanent(
      operation,
      'Activity was cancelled or lock expired (worker queue row not found or lock invalid)',
    );
  }
  store.workerQueue = store.workerQueue.filter((candidate) => candidate !== row);
  if (row.item.sessionId !== undefined) touchSession(store, row.item.sessionId, nowMs);
  if (completion !== null) {
    insertOrchestratorMessage(store, operation, completion, nowMs);
    store.orchestratorWork.notify();
  }
}

/**
 * Extends a live activity lock; its failure tells a running activity it was cancelled.
 * @throws {ProviderError} (permanent) when the lock is unknown, expired or acknowledged.
 * @internal
 */
export function renewWorkItemLease(
  store: MemoryStore,
  lockToken: string,
  extendForMs: number,
): void {
  const nowMs = store.nowMs();
  const row = liveRow(store, lockToken, nowMs);
  if (row === undefined) {
    throw ProviderError.permanent(
      'renew_work_item_lock',
      'Lock renewal failed - activity was cancelled or lock expired',
    );
  }
  row.lockedUntilMs = nowMs + extendForMs;
  if (row.item.sessionId !== undefined) touchSession(store, row.item.sessionId, nowMs);
}

/**
 * Unlocks an activity, visible again after `delayMs`; with `ignoreAttempt` the fetch's attempt
 * is given back (never below 0).
 * @throws {ProviderError} (permanent) for a token that no queued activity carries.
 * @internal
 */
export function releaseWorkItem(
  store: MemoryStore,
  lockToken: string,
  delayMs: number,
  ignoreAttempt: boolean,
): void {
  const row = store.workerQueue.find((candidate) => candidate.lockToken === lockToken);
  if (row === undefined) {
    throw ProviderError.permanent('abandon_work_item', 'Invalid lock token or already acked');
  }
  row.lockToken = null;
  row.lockedUntilMs = 0;
  row.visibleAtMs = store.nowMs() + delayMs;
  if (ignoreAttempt) row.attemptCount = Math.max(0, row.attemptCount - 1);
  store.workerWork.notify();
}
