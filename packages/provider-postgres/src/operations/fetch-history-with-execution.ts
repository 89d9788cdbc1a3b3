import type { Event } from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';
import { decodeHistoryRows } from './fetch-history.js';

const FETCH_HISTORY_WITH_EXECUTION: Statement = {
  operation: 'read_with_execution',
  sql: (s) => `SELECT out_event_data FROM ${s}.fetch_history_with_execution($1::text, $2::bigint)`,
};

/**
 * One execution's history with `fetch_history_with_execution`, in event-id order; `[]` when the
 * instance or execution is unknown.
 * @throws {ProviderError} permanent when a stored event does not decode.
 */
export async function fetchHistoryWithExecution(
  db: ProviderDatabase,
  instance: string,
  executionId: number,
): Promise<Event[]> {
  const rows = await db.query(FETCH_HISTORY_WITH_EXECUTION, [instance, executionId], {
    subject: { instance },
  });
  return decodeHistoryRows(FETCH_HISTORY_WITH_EXECUTION.operation, instance, rows);
}
