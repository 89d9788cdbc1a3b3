import type { DeleteInstanceResult } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readOptionalRow } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const DELETE_INSTANCES_ATOMIC: Statement = {
  operation: 'delete_instances_atomic',
  sql: (s) => `SELECT * FROM ${s}.delete_instances_atomic($1::text[], $2::boolean)`,
};

const NOTHING_DELETED: DeleteInstanceResult = {
  instancesDeleted: 0,
  executionsDeleted: 0,
  eventsDeleted: 0,
  queueMessagesDeleted: 0,
};

/**
 * Deletes exactly these instances, with everything they own (history, executions, queued
 * messages, locks, key-value state), in one transaction with `delete_instances_atomic`. Deleting
 * the instance lock is what makes an in-flight ack fail instead of bringing the instance back.
 * @throws {ProviderError} permanent when, without `force`, an instance is still running ("is
 * Running", "still running"), or when an instance outside `ids` has its parent in `ids`
 * ("Orphan detected"); nothing is deleted then.
 */
export async function deleteInstancesAtomic(
  db: ProviderDatabase,
  ids: readonly string[],
  force: boolean,
): Promise<DeleteInstanceResult> {
  if (ids.length === 0) return NOTHING_DELETED;
  const rows = await db.query(DELETE_INSTANCES_ATOMIC, [[...ids], force], {
    known: [
      // duroxide's client recognizes "still running"; the procedure says "is Running".
      { whenMessageContains: 'is Running', detail: (message) => `${message} (still running)` },
      { whenMessageContains: 'Orphan detected', detail: (message) => message },
    ],
  });
  const row = readOptionalRow(DELETE_INSTANCES_ATOMIC.operation, rows);
  if (row === null) return NOTHING_DELETED;
  return {
    instancesDeleted: row.integer('instances_deleted'),
    executionsDeleted: row.integer('executions_deleted'),
    eventsDeleted: row.integer('events_deleted'),
    queueMessagesDeleted: row.integer('queue_messages_deleted'),
  };
}
