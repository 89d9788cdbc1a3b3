import type { SessionFetchConfig } from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';

// Session affinity for the worker queue, in duroxide's `sessions` table: a session is owned by one
// owner id (`worker_id`) until its lease (`locked_until`, epoch milliseconds) lapses.

/** Whether `ownerId` holds a live lease on `sessionId`. @internal */
export function ownsSession(
  db: SqliteDatabase,
  sessionId: string,
  ownerId: string,
  nowMs: number,
): boolean {
  const row = db
    .statement('SELECT 1 FROM sessions WHERE session_id = ? AND worker_id = ? AND locked_until > ?')
    .get(sessionId, ownerId, nowMs);
  return row !== undefined;
}

/** Claims or refreshes a session for `config.ownerId` (the caller checked availability). @internal */
export function claimSession(
  db: SqliteDatabase,
  sessionId: string,
  config: SessionFetchConfig,
  nowMs: number,
): void {
  db.statement(
    'INSERT INTO sessions (session_id, worker_id, locked_until, last_activity_at) ' +
      'VALUES (:session, :owner, :until, :now) ON CONFLICT (session_id) DO UPDATE ' +
      'SET worker_id = :owner, locked_until = :until, last_activity_at = :now',
  ).run({
    session: sessionId,
    owner: config.ownerId,
    until: nowMs + config.lockTimeoutMs,
    now: nowMs,
  });
}

/**
 * Records activity on a session whose lease is still live; a session taken over after its
 * lease lapsed is not touched.
 * @internal
 */
export function touchSession(db: SqliteDatabase, sessionId: string | null, nowMs: number): void {
  if (sessionId === null) return;
  db.statement(
    'UPDATE sessions SET last_activity_at = :now WHERE session_id = :session AND locked_until > :now',
  ).run({ session: sessionId, now: nowMs });
}

/** Extends the live, recently active sessions of the owners; returns how many. @internal */
export function renewSessions(
  db: SqliteDatabase,
  ownerIds: readonly string[],
  extendForMs: number,
  idleTimeoutMs: number,
  nowMs: number,
): number {
  if (ownerIds.length === 0) return 0;
  return db
    .statement(
      'UPDATE sessions SET locked_until = :until ' +
        'WHERE worker_id IN (SELECT value FROM json_each(:owners)) ' +
        'AND locked_until > :now AND last_activity_at > :idleCutoff',
    )
    .run({
      owners: JSON.stringify(ownerIds),
      until: nowMs + extendForMs,
      now: nowMs,
      idleCutoff: nowMs - idleTimeoutMs,
    }).changes;
}

/** Removes sessions whose lease lapsed and that no queued activity refers to. @internal */
export function removeOrphanedSessions(db: SqliteDatabase, nowMs: number): number {
  return db
    .statement(
      'DELETE FROM sessions WHERE locked_until < ? AND NOT EXISTS ' +
        '(SELECT 1 FROM worker_queue q WHERE q.session_id = sessions.session_id)',
    )
    .run(nowMs).changes;
}
