import { ProviderError, type ExecutionStatus, type InstanceInfo } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readOptionalRow, type RowReader } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const GET_INSTANCE_INFO: Statement = {
  operation: 'get_instance_info',
  sql: (s) => `SELECT * FROM ${s}.get_instance_info($1::text)`,
};

const STATUSES: readonly ExecutionStatus[] = ['Running', 'Completed', 'Failed', 'ContinuedAsNew'];

/**
 * An execution status column; `null` (an instance whose execution row is missing) reads as
 * `Running`, as in duroxide-pg.
 * @throws {ProviderError} permanent for a status duroxide does not know.
 * @internal
 */
export function readExecutionStatus(row: RowReader, column: string): ExecutionStatus {
  const status = row.optionalText(column) ?? 'Running';
  const known = STATUSES.find((s) => s === status);
  if (known === undefined) {
    throw ProviderError.permanent(
      row.operation,
      `unknown execution status ${JSON.stringify(status)}`,
    );
  }
  return known;
}

/**
 * An instance's summary with `get_instance_info`.
 * @throws {ProviderError} permanent "Instance not found" for an unknown instance.
 */
export async function getInstanceInfo(
  db: ProviderDatabase,
  instance: string,
): Promise<InstanceInfo> {
  const operation = GET_INSTANCE_INFO.operation;
  const rows = await db.query(GET_INSTANCE_INFO, [instance], { subject: { instance } });
  const row = readOptionalRow(operation, rows);
  if (row === null) throw ProviderError.permanent(operation, `Instance not found: ${instance}`);
  const createdAt = row.epochMs('created_at');
  return {
    instanceId: row.text('instance_id'),
    orchestrationName: row.text('orchestration_name'),
    orchestrationVersion: row.text('orchestration_version'),
    currentExecutionId: row.integer('current_execution_id'),
    status: readExecutionStatus(row, 'status'),
    output: row.optionalText('output'),
    createdAt,
    updatedAt: row.optionalEpochMs('updated_at') ?? createdAt,
    parentInstanceId: row.optionalText('parent_instance_id'),
  };
}
