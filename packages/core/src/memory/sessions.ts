import type { SessionFetchConfig } from '../provider/fetch-filters.js';
import type { MemoryStore } from './memory-store.js';

// Session affinity for the worker queue, as duroxide's SQLite provider keeps it in its
// `sessions` table: a session is owned by one owner id until its lease lapses.

/**
 * Whether an item of `sessionId` may go to `ownerId`: the session is unowned, its lease lapsed,
 * or `ownerId` already owns it.
 * @internal
 */
export function sessionAvailableTo(
  store: MemoryStore,
  sessionId: string,
  ownerId: string,
  nowMs: number,
): boolean {
  const session = store.sessions.get(sessionId);
  return session === undefined || session.lockedUntilMs <= nowMs || session.ownerId === ownerId;
}

/** Whether `ownerId` holds a live lease on `sessionId`. @internal */
export function ownsSession(
  store: MemoryStore,
  sessionId: string,
  ownerId: string,
  nowMs: number,
): boolean {
  const session = store.sessions.get(sessionId);
  return session !== undefined && session.lockedUntilMs > nowMs && session.ownerId === ownerId;
}

/** Claims or refreshes the session for `config.ownerId` (the caller checked availability). @internal */
export function claimSession(
  store: MemoryStore,
  sessionId: string,
  config: SessionFetchConfig,
  nowMs: number,
): void {
  store.sessions.set(sessionId, {
    ownerId: config.ownerId,
    lockedUntilMs: nowMs + config.lockTimeoutMs,
    lastActivityAtMs: nowMs,
  });
}

/**
 * Records activity on a session whose lease is still live; a session taken over after its lease
 * lapsed is not touched.
 * @internal
 */
export function touchSession(store: MemoryStore, sessionId: string, nowMs: number): void {
  const session = store.sessions.get(sessionId);
  if (session !== undefined && session.lockedUntilMs > nowMs) session.lastActivityAtMs = nowMs;
}

/** Extends the live, recently active sessions of the owners; returns how many. @internal */
export function renewSessions(
  store: MemoryStore,
  ownerIds: readonly string[],
  extendForMs: number,
  idleTimeoutMs: number,
  nowMs: number,
): number {
  const owners = new Set(ownerIds);
  let renewed = 0;
  for (const session of store.sessions.values()) {
    const live = session.lockedUntilMs > nowMs;
    const active = session.lastActivityAtMs > nowMs - idleTimeoutMs;
    if (owners.has(session.ownerId) && live && active) {
      session.lockedUntilMs = nowMs + extendForMs;
      renewed += 1;
    }
  }
  return renewed;
}

/** Removes sessions whose lease lapsed and that no queued activity refers to. @internal */
export function removeOrphanedSessions(store: MemoryStore, nowMs: number): number {
  const referenced = new Set(store.workerQueue.map((row) => row.item.sessionId));
  let removed = 0;
  for (const [sessionId, session] of store.sessions) {
    if (session.lockedUntilMs < nowMs && !referenced.has(sessionId)) {
      store.sessions.delete(sessionId);
      removed += 1;
    }
  }
  return removed;
}
