import type { ProviderDatabase } from '../../database/provider-database.js';
import { readRows } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const LIST_INSTANCES_BY_STATUS: Statement = {
  operation: 'list_instances_by_status',
  sql: (s) => `SELECT instance_id FROM ${s}.list_instances_by_status($1::text)`,
};

/** Instances whose current execution has `status`, newest first, with `list_instances_by_status`. */
export async function listInstancesByStatus(
  db: ProviderDatabase,
  status: string,
): Promise<string[]> {
  const rows = await db.query(LIST_INSTANCES_BY_STATUS, [status]);
  return readRows(LIST_INSTANCES_BY_STATUS.operation, rows).map((row) => row.text('instance_id'));
}
