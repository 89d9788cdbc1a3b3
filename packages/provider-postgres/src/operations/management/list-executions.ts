import type { ProviderDatabase } from '../../database/provider-database.js';
import { readRows } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const LIST_EXECUTIONS: Statement = {
  operation: 'list_executions',
  sql: (s) => `SELECT execution_id FROM ${s}.list_executions($1::text)`,
};

/** An instance's execution ids, ascending, with `list_executions`; `[]` when unknown. */
export async function listExecutions(db: ProviderDatabase, instance: string): Promise<number[]> {
  const rows = await db.query(LIST_EXECUTIONS, [instance], { subject: { instance } });
  return readRows(LIST_EXECUTIONS.operation, rows).map((row) => row.integer('execution_id'));
}
