import { ProviderError, decodeEvent, type Event } from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const FETCH_HISTORY: Statement = {
  operation: 'read',
  sql: (s) => `SELECT out_event_data FROM ${s}.fetch_history($1::text)`,
};

/**
 * Decodes history rows (`out_event_data` text, in event-id order). Unlike a fetch, a read does
 * not skip or hide a row it cannot decode.
 * @throws {ProviderError} permanent naming the instance and the event when a row does not decode.
 * @internal
 */
export function decodeHistoryRows(
  operation: string,
  instance: string,
  rows: readonly unknown[],
): Event[] {
  return readRows(operation, rows).map((row, index) => {
    try {
      return decodeEvent(row.text('out_event_data'));
    } catch (error) {
      if (ProviderError.isInstance(error)) throw error;
      throw ProviderError.permanent(
        operation,
        `Failed to deserialize event: ${String(error)} (instance ${instance}, row ${index + 1})`,
        { cause: error },
      );
    }
  });
}

/**
 * The latest execution's history with `fetch_history`; `[]` for an unknown instance.
 * @throws {ProviderError} permanent when a stored event does not decode.
 */
export async function fetchHistory(db: ProviderDatabase, instance: string): Promise<Event[]> {
  const rows = await db.query(FETCH_HISTORY, [instance], { subject: { instance } });
  return decodeHistoryRows(FETCH_HISTORY.operation, instance, rows);
}
