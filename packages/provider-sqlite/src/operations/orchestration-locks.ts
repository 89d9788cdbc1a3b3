import { ProviderError } from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';

// Releasing and extending an instance lock (the `instance_locks` row a claim wrote), inside the
// caller's write transaction.

/**
 * Releases an instance lock, live or expired. Only the messages that lock took into its batch
 * change: they become visible again after `delayMs` (unchanged when 0) and, with
 * `ignoreAttempt`, get their attempt back (never below 0). Messages that arrived during the lock
 * keep their visibility and attempts.
 * @throws {ProviderError} (permanent) "Invalid lock token" for an unknown token.
 * @internal
 */
export function abandonOrchestrationLock(
  db: SqliteDatabase,
  lockToken: string,
  delayMs: number,
  ignoreAttempt: boolean,
  nowMs: number,
): void {
  const released = db.statement('DELETE FROM instance_locks WHERE lock_token = ?').run(lockToken);
  if (released.changes === 0) {
    throw ProviderError.permanent('abandon_orchestration_item', 'Invalid lock token');
  }
  db.statement(
    'UPDATE orchestrator_queue SET lock_token = NULL, ' +
      'attempt_count = CASE WHEN :ignore THEN MAX(0, attempt_count - 1) ELSE attempt_count END, ' +
      'visible_at = CASE WHEN :delay > 0 THEN :now + :delay ELSE visible_at END ' +
      'WHERE lock_token = :token',
  ).run({ token: lockToken, ignore: ignoreAttempt ? 1 : 0, delay: delayMs, now: nowMs });
}

/**
 * Extends a live instance lock to `nowMs + extendForMs`.
 * @throws {ProviderError} (permanent) when the token is unknown, expired or already acked.
 * @internal
 */
export function renewOrchestrationLock(
  db: SqliteDatabase,
  lockToken: string,
  extendForMs: number,
  nowMs: number,
): void {
  const renewed = db
    .statement(
      'UPDATE instance_locks SET locked_until = ? WHERE lock_token = ? AND locked_until > ?',
    )
    .run(nowMs + extendForMs, lockToken, nowMs);
  if (renewed.changes === 0) {
    throw ProviderError.permanent(
      'renew_orchestration_item_lock',
      'Lock token invalid, expired, or already acked',
    );
  }
}
