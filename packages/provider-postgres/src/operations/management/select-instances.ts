import type { InstanceFilter } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readRows } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

/** How many instances a bulk operation selects when the filter sets no limit (duroxide-pg's). */
const DEFAULT_BULK_LIMIT = 1000;

// No procedure selects instances for bulk operations; duroxide-pg queries the tables inline,
// and so do these two statements. Unset filters are NULL parameters that match everything.
const FILTER = (alias: string) =>
  `($1::text[] IS NULL OR ${alias}.instance_id = ANY($1::text[])) ` +
  `AND ($2::bigint IS NULL OR e.completed_at < to_timestamp($2::bigint / 1000.0)) ` +
  `ORDER BY ${alias}.created_at, ${alias}.instance_id LIMIT $3::bigint`;

const FROM = (s: string) =>
  `FROM ${s}.instances i LEFT JOIN ${s}.executions e ` +
  `ON e.instance_id = i.instance_id AND e.execution_id = i.current_execution_id`;

const SELECT_TERMINAL_ROOTS: Statement = {
  operation: 'delete_instance_bulk',
  sql: (s) =>
    `SELECT i.instance_id ${FROM(s)} WHERE i.parent_instance_id IS NULL ` +
    `AND e.status IN ('Completed', 'Failed', 'ContinuedAsNew') AND ${FILTER('i')}`,
};

const SELECT_PRUNABLE: Statement = {
  operation: 'prune_executions_bulk',
  sql: (s) => `SELECT i.instance_id ${FROM(s)} WHERE ${FILTER('i')}`,
};

async function selectInstances(
  db: ProviderDatabase,
  statement: Statement,
  filter: InstanceFilter,
): Promise<string[]> {
  if (filter.instanceIds !== undefined && filter.instanceIds.length === 0) return [];
  const rows = await db.query(statement, [
    filter.instanceIds === undefined ? null : [...filter.instanceIds],
    filter.completedBefore ?? null,
    filter.limit ?? DEFAULT_BULK_LIMIT,
  ]);
  return readRows(statement.operation, rows).map((row) => row.text('instance_id'));
}

/**
 * Root instances whose current execution has ended (completed, failed or continued as new) and
 * that the filter selects: what a bulk delete removes, each with its tree.
 */
export function selectTerminalRoots(
  db: ProviderDatabase,
  filter: InstanceFilter,
): Promise<string[]> {
  return selectInstances(db, SELECT_TERMINAL_ROOTS, filter);
}

/**
 * Instances in any status that the filter selects: what a bulk prune visits. Running instances
 * are included, since a long-lived orchestration that continues as new has old executions too.
 */
export function selectPrunable(db: ProviderDatabase, filter: InstanceFilter): Promise<string[]> {
  return selectInstances(db, SELECT_PRUNABLE, filter);
}
