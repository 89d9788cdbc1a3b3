import type { SystemStats } from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readOptionalRow } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const GET_INSTANCE_STATS: Statement = {
  operation: 'get_instance_stats',
  sql: (s) => `SELECT * FROM ${s}.get_instance_stats($1::text)`,
};

/**
 * Size figures of an instance's current execution with `get_instance_stats`; `null` for an
 * unknown instance. `queuePendingCount` counts the events carried into the execution by
 * continue-as-new, as duroxide defines it.
 */
export async function getInstanceStats(
  db: ProviderDatabase,
  instance: string,
): Promise<SystemStats | null> {
  const rows = await db.query(GET_INSTANCE_STATS, [instance], { subject: { instance } });
  const row = readOptionalRow(GET_INSTANCE_STATS.operation, rows);
  if (row === null || !row.boolean('out_found')) return null;
  return {
    historyEventCount: row.integer('out_history_event_count'),
    historySizeBytes: row.integer('out_history_size_bytes'),
    queuePendingCount: row.integer('out_queue_pending_count'),
    kvUserKeyCount: row.integer('out_kv_user_key_count'),
    kvTotalValueBytes: row.integer('out_kv_total_value_bytes'),
  };
}
