import { ProviderError, type ExecutionInfo } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readOptionalRow } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';
import { readExecutionStatus } from './get-instance-info.js';

const GET_EXECUTION_INFO: Statement = {
  operation: 'get_execution_info',
  sql: (s) => `SELECT * FROM ${s}.get_execution_info($1::text, $2::bigint)`,
};

/**
 * One execution's summary with `get_execution_info`.
 * @throws {ProviderError} permanent "Execution not found" when the execution does not exist.
 */
export async function getExecutionInfo(
  db: ProviderDatabase,
  instance: string,
  executionId: number,
): Promise<ExecutionInfo> {
  const operation = GET_EXECUTION_INFO.operation;
  const rows = await db.query(GET_EXECUTION_INFO, [instance, executionId], {
    subject: { instance },
  });
  const row = readOptionalRow(operation, rows);
  if (row === null) {
    throw ProviderError.permanent(
      operation,
      `Execution not found: execution ${executionId} of instance ${instance}`,
    );
  }
  return {
    executionId: row.integer('execution_id'),
    status: readExecutionStatus(row, 'status'),
    output: row.optionalText('output'),
    startedAt: row.epochMs('started_at'),
    completedAt: row.optionalEpochMs('completed_at'),
    eventCount: row.integer('event_count'),
  };
}
