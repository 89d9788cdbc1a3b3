import type { ProviderDatabase } from '../../database/provider-database.js';
import { readRows } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const LIST_INSTANCES: Statement = {
  operation: 'list_instances',
  sql: (s) => `SELECT instance_id FROM ${s}.list_instances()`,
};

/** Every instance id, newest first, with `list_instances`. */
export async function listInstances(db: ProviderDatabase): Promise<string[]> {
  const rows = await db.query(LIST_INSTANCES, []);
  return readRows(LIST_INSTANCES.operation, rows).map((row) => row.text('instance_id'));
}
