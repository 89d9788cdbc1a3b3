import {
  batchOriginWithoutInstance,
  capabilityFilterAccepts,
  decodeWorkItem,
  type BatchOrigin,
  type DispatcherCapabilityFilter,
  type Event,
  type FetchedOrchestrationItem,
  type WorkItem,
  WireFormatError,
} from '@duro/core';
import { randomUUID } from 'node:crypto';
import type { SqliteDatabase } from '../database/sqlite-database.js';
import { HistoryDecodeError, latestExecutionId, selectHistory } from './history-rows.js';
import { kvSnapshot } from './kv-state.js';

// The orchestrator queue's claim, in the order duroxide's provider contract prescribes (trait
// docs in `src/providers/mod.rs`, reference in `src/providers/sqlite.rs`): pick an unlocked
// instance with visible messages, apply the capability filter before locking or reading
// history, lock the instance, take every visible message of it into the batch, then read the
// current execution's history. Runs inside the caller's write transaction.

/** Instances looked at per query while claiming; more are read when these are all skipped. */
const CANDIDATE_PAGE = 64;

// Instances with a visible message and no live lock, by their oldest visible message, with the
// duroxide version their current execution is pinned to (NULL when none).
const CANDIDATES = `
  SELECT q.instance_id AS instance, MIN(q.id) AS first_id,
         e.duroxide_version_major AS major, e.duroxide_version_minor AS minor,
         e.duroxide_version_patch AS patch
  FROM orchestrator_queue q
  LEFT JOIN instance_locks il ON il.instance_id = q.instance_id
  LEFT JOIN instances i ON i.instance_id = q.instance_id
  LEFT JOIN executions e ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id
  WHERE q.visible_at <= :now AND (il.instance_id IS NULL OR il.locked_until <= :now)
  GROUP BY q.instance_id
  HAVING MIN(q.id) > :after
  ORDER BY first_id
  LIMIT :limit`;

interface Candidate {
  readonly instance: string;
  readonly first_id: number;
  readonly major: number | null;
  readonly minor: number | null;
  readonly patch: number | null;
}

interface QueuedMessage {
  readonly id: number;
  readonly work_item: string;
  readonly attempt_count: number;
}

function historyOf(
  db: SqliteDatabase,
  instance: string,
  executionId: number,
): { history: Event[]; historyError: string | null } {
  try {
    return { history: selectHistory(db, instance, executionId), historyError: null };
  } catch (error) {
    if (!(error instanceof HistoryDecodeError)) throw error;
    return { history: [], historyError: `Failed to deserialize history: ${error.message}` };
  }
}

/**
 * Where a batch belongs: the instance row, else what `batchOriginWithoutInstance` finds.
 * `undefined` when nothing applies (the batch may be racing its start).
 */
function batchOrigin(
  db: SqliteDatabase,
  instance: string,
  messages: readonly WorkItem[],
): BatchOrigin | undefined {
  const row = db
    .statement(
      'SELECT orchestration_name, orchestration_version, current_execution_id ' +
        'FROM instances WHERE instance_id = ?',
    )
    .get(instance) as
    | {
        orchestration_name: string;
        orchestration_version: string | null;
        current_execution_id: number;
      }
    | undefined;
  if (row !== undefined) {
    return {
      orchestrationName: row.orchestration_name,
      version: row.orchestration_version ?? 'unknown',
      executionId: row.current_execution_id,
      ...historyOf(db, instance, row.current_execution_id),
    };
  }
  const { history, historyError } = historyOf(db, instance, latestExecutionId(db, instance));
  return batchOriginWithoutInstance(history, historyError, messages);
}

/**
 * The message a row holds, or none when its text does not decode: as duroxide's SQLite provider
 * does, such a row is left out of the batch (it still carries the lock token, so the turn's ack
 * deletes it) rather than failing every fetch of the instance.
 */
function decodableWorkItem(text: string): WorkItem[] {
  try {
    return [decodeWorkItem(text)];
  } catch (error) {
    if (!WireFormatError.isInstance(error)) throw error;
    return [];
  }
}

/** Locks `instance` and hands out its visible messages, or `null` when it has no owner yet. */
function claimInstance(
  db: SqliteDatabase,
  instance: string,
  lockTimeoutMs: number,
  nowMs: number,
): FetchedOrchestrationItem | null {
  const queued = db
    .statement(
      'SELECT id, work_item, attempt_count FROM orchestrator_queue ' +
        'WHERE instance_id = ? AND visible_at <= ? ORDER BY id',
    )
    .all(instance, nowMs) as QueuedMessage[];
  const messages = queued.flatMap((row) => decodableWorkItem(row.work_item));
  const origin = batchOrigin(db, instance, messages);
  if (origin === undefined) {
    // duroxide 0.1.21: queue messages sent before their orchestration exists are dropped, with
    // nothing else in the batch; any other message may be racing its start and stays untouched.
    if (messages.every((item) => item.type === 'QueueMessage')) {
      db.statement('DELETE FROM orchestrator_queue WHERE instance_id = ? AND visible_at <= ?').run(
        instance,
        nowMs,
      );
    }
    return null;
  }
  const lockToken = `lock_${randomUUID()}`;
  db.statement(
    'INSERT INTO instance_locks (instance_id, lock_token, locked_until, locked_at) ' +
      'VALUES (:instance, :token, :until, :now) ON CONFLICT (instance_id) DO UPDATE ' +
      'SET lock_token = :token, locked_until = :until, locked_at = :now',
  ).run({ instance, token: lockToken, until: nowMs + lockTimeoutMs, now: nowMs });
  db.statement(
    'UPDATE orchestrator_queue SET lock_token = ?, attempt_count = attempt_count + 1 ' +
      'WHERE instance_id = ? AND visible_at <= ?',
  ).run(lockToken, instance, nowMs);
  return {
    item: {
      instance,
      orchestrationName: origin.orchestrationName,
      executionId: origin.executionId,
      version: origin.version,
      history: origin.history,
      messages,
      historyError: origin.historyError,
      kvSnapshot: origin.historyError === null ? kvSnapshot(db, instance) : new Map(),
    },
    lockToken,
    attemptCount: Math.max(0, ...queued.map((row) => row.attempt_count)) + 1,
  };
}

/**
 * Claims up to `maxItems` distinct instances, each with its visible messages: the first ones, by
 * their oldest visible message, that are unlocked, pass `filter` and have an owner. Instances
 * the filter rejects are neither locked nor read.
 * @internal
 */
export function claimOrchestrationItems(
  db: SqliteDatabase,
  lockTimeoutMs: number,
  filter: DispatcherCapabilityFilter | null,
  maxItems: number,
  nowMs: number,
): FetchedOrchestrationItem[] {
  const claimed: FetchedOrchestrationItem[] = [];
  let after = 0;
  while (claimed.length < maxItems) {
    const candidates = db
      .statement(CANDIDATES)
      .all({ now: nowMs, after, limit: CANDIDATE_PAGE }) as Candidate[];
    for (const { instance, first_id, major, minor, patch } of candidates) {
      after = first_id;
      if (filter !== null && major !== null) {
        const pinned = { major, minor: minor ?? 0, patch: patch ?? 0 };
        if (!capabilityFilterAccepts(filter, pinned)) continue;
      }
      const item = claimInstance(db, instance, lockTimeoutMs, nowMs);
      if (item !== null) claimed.push(item);
      if (claimed.length >= maxItems) break;
    }
    if (candidates.length < CANDIDATE_PAGE) break;
  }
  return claimed;
}

/**
 * The soonest moment after `asOfMs` at which a delayed orchestrator message becomes visible or
 * an instance lock lapses, epoch milliseconds; `null` when there is none.
 * @internal
 */
export function nextOrchestratorChangeMs(db: SqliteDatabase, asOfMs: number): number | null {
  const row = db
    .statement(
      'SELECT MIN(at) AS at FROM (' +
        'SELECT MIN(visible_at) AS at FROM orchestrator_queue WHERE visible_at > :asOf ' +
        'UNION ALL SELECT MIN(locked_until) FROM instance_locks WHERE locked_until > :asOf)',
    )
    .get({ asOf: asOfMs }) as { at: number | null };
  return row.at;
}
