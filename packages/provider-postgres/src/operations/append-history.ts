import type { Event } from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';
import { historyRows } from './ack-payload.js';

const APPEND_HISTORY: Statement = {
  operation: 'append_with_execution',
  sql: (s) => `SELECT ${s}.append_history($1::text, $2::bigint, $3::jsonb)`,
};

/**
 * Appends events to one execution outside a turn with `append_history` (tools and tests; the
 * runtime appends through acks). Nothing is called for an empty list.
 * @throws {ProviderError} permanent when an event has no id or an event id is already taken.
 */
export async function appendHistory(
  db: ProviderDatabase,
  instance: string,
  executionId: number,
  events: readonly Event[],
): Promise<void> {
  if (events.length === 0) return;
  const rows = historyRows(APPEND_HISTORY.operation, events, instance);
  await db.query(APPEND_HISTORY, [instance, executionId, JSON.stringify(rows)], {
    subject: { instance },
  });
}
