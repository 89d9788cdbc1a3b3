import {
  ProviderError,
  decodeWorkItem,
  requireActivity,
  type FetchedWorkItem,
  type SessionFetchConfig,
  type TagFilter,
  type WorkItem,
} from '@duro/core';
import { randomUUID } from 'node:crypto';
import type { SqliteDatabase } from '../database/sqlite-database.js';
import { insertOrchestratorMessage } from './queue-messages.js';
import { claimSession, ownsSession, touchSession } from './sessions.js';

// The worker queue: peek-lock per activity, oldest first, with tag and session routing as in
// duroxide's SQLite provider (`fetch_work_item` and friends in `src/providers/sqlite.rs`). Every
// function runs inside the caller's transaction.

/** Activities looked at per query while claiming; more are read when these are all skipped. */
const CANDIDATE_PAGE = 64;

// Available activities (visible, not under a live lock) that pass the tag filter and session
// routing: without an owner only those outside sessions; with one, also those of sessions the
// owner holds and of sessions nobody holds (or whose lease lapsed).
const CANDIDATES = `
  SELECT q.id AS id, q.work_item AS work_item, q.attempt_count AS attempt_count,
         q.session_id AS session_id
  FROM worker_queue q
  LEFT JOIN sessions s ON s.session_id = q.session_id
  WHERE q.id > :after
    AND q.visible_at <= :now
    AND (q.lock_token IS NULL OR q.locked_until <= :now)
    AND (:filter = 'Any'
      OR (:filter = 'DefaultOnly' AND q.tag IS NULL)
      OR (:filter = 'Tags' AND q.tag IN (SELECT value FROM json_each(:tags)))
      OR (:filter = 'DefaultAnd'
        AND (q.tag IS NULL OR q.tag IN (SELECT value FROM json_each(:tags)))))
    AND (q.session_id IS NULL
      OR (:owner IS NOT NULL
        AND (s.session_id IS NULL OR s.locked_until <= :now OR s.worker_id = :owner)))
  ORDER BY q.id
  LIMIT :limit`;

interface Candidate {
  readonly id: number;
  readonly work_item: string;
  readonly attempt_count: number;
  readonly session_id: string | null;
}

function tagsOf(filter: TagFilter): readonly string[] {
  return filter.type === 'Tags' || filter.type === 'DefaultAnd' ? filter.tags : [];
}

/**
 * Claims up to `maxItems` of the oldest available activities that pass `tagFilter` and session
 * routing, taking at most `maxNewSessions` sessions this owner does not hold yet. Each gets its
 * own lock token, a lease of `lockTimeoutMs` and one more attempt.
 * @internal
 */
export function claimWorkItems(
  db: SqliteDatabase,
  lockTimeoutMs: number,
  session: SessionFetchConfig | null,
  tagFilter: TagFilter,
  maxItems: number,
  maxNewSessions: number,
  nowMs: number,
): FetchedWorkItem[] {
  const lock = db.statement(
    'UPDATE worker_queue SET lock_token = ?, locked_until = ?, attempt_count = attempt_count + 1 ' +
      'WHERE id = ?',
  );
  const claimed: FetchedWorkItem[] = [];
  let newSessions = 0;
  let after = 0;
  while (claimed.length < maxItems) {
    const candidates = db.statement(CANDIDATES).all({
      after,
      now: nowMs,
      filter: tagFilter.type,
      tags: JSON.stringify(tagsOf(tagFilter)),
      owner: session?.ownerId ?? null,
      limit: CANDIDATE_PAGE,
    }) as Candidate[];
    for (const row of candidates) {
      after = row.id;
      if (session !== null && row.session_id !== null) {
        if (!ownsSession(db, row.session_id, session.ownerId, nowMs)) {
          if (newSessions >= maxNewSessions) continue;
          newSessions += 1;
        }
        claimSession(db, row.session_id, session, nowMs);
      }
      const lockToken = `lock_${randomUUID()}`;
      lock.run(lockToken, nowMs + lockTimeoutMs, row.id);
      claimed.push({
        item: requireActivity('fetch_work_item', decodeWorkItem(row.work_item)),
        lockToken,
        attemptCount: row.attempt_count + 1,
      });
      if (claimed.length >= maxItems) break;
    }
    if (candidates.length < CANDIDATE_PAGE) break;
  }
  return claimed;
}

/**
 * The soonest moment after `asOfMs` at which a delayed activity becomes visible, or an activity
 * lock or session lease lapses, epoch milliseconds; `null` when there is none.
 * @internal
 */
export function nextWorkerChangeMs(db: SqliteDatabase, asOfMs: number): number | null {
  const row = db
    .statement(
      'SELECT MIN(at) AS at FROM (' +
        'SELECT MIN(visible_at) AS at FROM worker_queue WHERE visible_at > :asOf ' +
        'UNION ALL SELECT MIN(locked_until) FROM worker_queue ' +
        'WHERE lock_token IS NOT NULL AND locked_until > :asOf ' +
        'UNION ALL SELECT MIN(locked_until) FROM sessions WHERE locked_until > :asOf)',
    )
    .get({ asOf: asOfMs }) as { at: number | null };
  return row.at;
}

/**
 * Checks an activity's completion.
 * @throws {ProviderError} (permanent) for anything but `ActivityCompleted` or `ActivityFailed`.
 * @internal
 */
export function requireActivityCompletion(operation: string, completion: WorkItem | null): void {
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
}

/**
 * Deletes a locked activity and enqueues its completion, both or neither (the caller's
 * transaction rolls back on a throw).
 * @throws {ProviderError} (permanent) when the lock is unknown, expired, or the activity was
 *   cancelled.
 * @internal
 */
export function ackWorkItem(
  db: SqliteDatabase,
  lockToken: string,
  completion: WorkItem | null,
  nowMs: number,
): void {
  const operation = 'ack_work_item';
  requireActivityCompletion(operation, completion);
  const deleted = db
    .statement(
      'DELETE FROM worker_queue WHERE lock_token = ? AND locked_until > ? RETURNING session_id',
    )
    .get(lockToken, nowMs) as { session_id: string | null } | undefined;
  if (deleted === undefined) {
    throw ProviderError.permanent(
      operation,
      'Activity was cancelled or lock expired (worker queue row not found or lock invalid)',
    );
  }
  touchSession(db, deleted.session_id, nowMs);
  if (completion !== null) insertOrchestratorMessage(db, completion, nowMs, nowMs);
}

/**
 * Extends a live activity lock; its failure tells a running activity it was cancelled.
 * @throws {ProviderError} (permanent) when the lock is unknown, expired or acknowledged.
 * @internal
 */
export function renewWorkItemLease(
  db: SqliteDatabase,
  lockToken: string,
  extendForMs: number,
  nowMs: number,
): void {
  const renewed = db
    .statement(
      'UPDATE worker_queue SET locked_until = ? WHERE lock_token = ? AND locked_until > ? ' +
        'RETURNING session_id',
    )
    .get(nowMs + extendForMs, lockToken, nowMs) as { session_id: string | null } | undefined;
  if (renewed === undefined) {
    throw ProviderError.permanent(
      'renew_work_item_lock',
      'Lock renewal failed - activity was cancelled or lock expired',
    );
  }
  touchSession(db, renewed.session_id, nowMs);
}

/**
 * Unlocks an activity, visible again after `delayMs`; with `ignoreAttempt` the fetch's attempt
 * is given back (never below 0).
 * @throws {ProviderError} (permanent) for a token that no queued activity carries.
 * @internal
 */
export function releaseWorkItem(
  db: SqliteDatabase,
  lockToken: string,
  delayMs: number,
  ignoreAttempt: boolean,
  nowMs: number,
): void {
  const released = db
    .statement(
      'UPDATE worker_queue SET lock_token = NULL, locked_until = NULL, visible_at = :visible, ' +
        'attempt_count = CASE WHEN :ignore THEN MAX(0, attempt_count - 1) ELSE attempt_count END ' +
        'WHERE lock_token = :token',
    )
    .run({ token: lockToken, visible: nowMs + delayMs, ignore: ignoreAttempt ? 1 : 0 });
  if (released.changes === 0) {
    throw ProviderError.permanent('abandon_work_item', 'Invalid lock token or already acked');
  }
}
