import { ProviderError, type QueueDepths } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readOptionalRow } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const GET_QUEUE_DEPTHS: Statement = {
  operation: 'get_queue_depths',
  sql: (s) => `SELECT * FROM ${s}.get_queue_depths($1::bigint)`,
};

/**
 * Visible, unlocked messages per queue with `get_queue_depths`. Timers are delayed orchestrator
 * messages, so `timerQueue` is always 0, as in duroxide-pg.
 */
export async function getQueueDepths(db: ProviderDatabase): Promise<QueueDepths> {
  const operation = GET_QUEUE_DEPTHS.operation;
  const row = readOptionalRow(operation, await db.query(GET_QUEUE_DEPTHS, (nowMs) => [nowMs]));
  if (row === null) throw ProviderError.permanent(operation, 'Failed to get queue depths');
  return {
    orchestratorQueue: row.integer('orchestrator_queue'),
    workerQueue: row.integer('worker_queue'),
    timerQueue: 0,
  };
}
