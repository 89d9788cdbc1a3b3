import { ProviderError, type SystemMetrics } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readOptionalRow } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const GET_SYSTEM_METRICS: Statement = {
  operation: 'get_system_metrics',
  sql: (s) => `SELECT * FROM ${s}.get_system_metrics()`,
};

/** Counts over the schema with `get_system_metrics`. */
export async function getSystemMetrics(db: ProviderDatabase): Promise<SystemMetrics> {
  const operation = GET_SYSTEM_METRICS.operation;
  const row = readOptionalRow(operation, await db.query(GET_SYSTEM_METRICS, []));
  if (row === null) throw ProviderError.permanent(operation, 'Failed to get system metrics');
  return {
    totalInstances: row.integer('total_instances'),
    totalExecutions: row.integer('total_executions'),
    runningInstances: row.integer('running_instances'),
    completedInstances: row.integer('completed_instances'),
    failedInstances: row.integer('failed_instances'),
    totalEvents: row.integer('total_events'),
  };
}
