import type { PruneOptions, PruneResult } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readOptionalRow } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const PRUNE_EXECUTIONS: Statement = {
  operation: 'prune_executions',
  sql: (s) => `SELECT * FROM ${s}.prune_executions($1::text, $2::integer, $3::bigint)`,
};

/**
 * Deletes old executions of one instance with `prune_executions`. The current execution and any
 * running one always stay; key-value state is instance-wide and is never pruned.
 * @throws {ProviderError} permanent "Instance <id> not found" for an unknown instance.
 */
export async function pruneExecutions(
  db: ProviderDatabase,
  instance: string,
  options: PruneOptions,
): Promise<PruneResult> {
  const rows = await db.query(
    PRUNE_EXECUTIONS,
    [instance, options.keepLast ?? null, options.completedBefore ?? null],
    { known: [{ whenMessageContains: 'not found', detail: (message) => message }] },
  );
  const row = readOptionalRow(PRUNE_EXECUTIONS.operation, rows);
  return {
    instancesProcessed: row?.integer('instances_processed') ?? 0,
    executionsDeleted: row?.integer('executions_deleted') ?? 0,
    eventsDeleted: row?.integer('events_deleted') ?? 0,
  };
}
