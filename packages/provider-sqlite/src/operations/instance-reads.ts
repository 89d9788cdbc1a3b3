import { ProviderError, decodeEvent, type CustomStatus, type SystemStats } from '@duro/core';
import type { SqliteDatabase } from '../database/sqlite-database.js';
import { liveKvUsage } from './kv-state.js';

// The reads clients make of one instance: custom status and size figures.

/** The custom status when it changed after `lastSeenVersion`; `null` otherwise. @internal */
export function customStatusAfter(
  db: SqliteDatabase,
  instance: string,
  lastSeenVersion: number,
): CustomStatus | null {
  const row = db
    .statement(
      'SELECT custom_status, custom_status_version FROM instances ' +
        'WHERE instance_id = ? AND custom_status_version > ?',
    )
    .get(instance, lastSeenVersion) as
    { custom_status: string | null; custom_status_version: number } | undefined;
  return row === undefined
    ? null
    : { customStatus: row.custom_status, version: row.custom_status_version };
}

/** Carried-forward queue messages of an execution, from its first (`OrchestrationStarted`) event. */
function carriedForwardCount(eventData: string | undefined): number {
  if (eventData === undefined) return 0;
  try {
    const { kind } = decodeEvent(eventData);
    return kind.type === 'OrchestrationStarted' ? (kind.carryForwardEvents?.length ?? 0) : 0;
  } catch (error) {
    throw ProviderError.permanent(
      'get_instance_stats',
      `Failed to deserialize OrchestrationStarted event: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * Size figures of an instance's current execution and its live key-value state; `null` when the
 * instance does not exist.
 * @throws {ProviderError} (permanent) when the first event of the execution does not decode.
 * @internal
 */
export function instanceStats(db: SqliteDatabase, instance: string): SystemStats | null {
  const current = db
    .statement('SELECT current_execution_id FROM instances WHERE instance_id = ?')
    .get(instance) as { current_execution_id: number } | undefined;
  if (current === undefined) return null;
  const executionId = current.current_execution_id;
  const history = db
    .statement(
      'SELECT COUNT(*) AS events, COALESCE(SUM(LENGTH(CAST(event_data AS BLOB))), 0) AS bytes ' +
        'FROM history WHERE instance_id = ? AND execution_id = ?',
    )
    .get(instance, executionId) as { events: number; bytes: number };
  const first = db
    .statement(
      'SELECT event_data FROM history WHERE instance_id = ? AND execution_id = ? AND event_id = 1',
    )
    .get(instance, executionId) as { event_data: string } | undefined;
  const kv = liveKvUsage(db, instance);
  return {
    historyEventCount: history.events,
    historySizeBytes: history.bytes,
    queuePendingCount: carriedForwardCount(first?.event_data),
    kvUserKeyCount: kv.keyCount,
    kvTotalValueBytes: kv.valueBytes,
  };
}
