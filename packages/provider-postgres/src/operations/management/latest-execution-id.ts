import { ProviderError } from '@duro/core';
import type { ProviderDatabase } from '../../database/provider-database.js';
import { readRows } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const LATEST_EXECUTION_ID: Statement = {
  operation: 'latest_execution_id',
  sql: (s) => `SELECT ${s}.latest_execution_id($1::text) AS execution_id`,
};

/**
 * The current execution id of an instance, with `latest_execution_id`.
 * @throws {ProviderError} permanent "Instance not found" for an unknown instance.
 */
export async function latestExecutionId(db: ProviderDatabase, instance: string): Promise<number> {
  const operation = LATEST_EXECUTION_ID.operation;
  const rows = await db.query(LATEST_EXECUTION_ID, [instance], { subject: { instance } });
  const id = readRows(operation, rows)[0]?.optionalInteger('execution_id') ?? null;
  if (id === null) throw ProviderError.permanent(operation, `Instance not found: ${instance}`);
  return id;
}
