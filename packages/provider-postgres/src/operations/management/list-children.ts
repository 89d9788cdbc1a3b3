import type { ProviderDatabase } from '../../database/provider-database.js';
import { readRows } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const LIST_CHILDREN: Statement = {
  operation: 'list_children',
  sql: (s) => `SELECT child_instance_id FROM ${s}.list_children($1::text)`,
};

/** Direct sub-orchestrations of an instance, oldest first, with `list_children`. */
export async function listChildren(db: ProviderDatabase, instance: string): Promise<string[]> {
  const rows = await db.query(LIST_CHILDREN, [instance], { subject: { instance } });
  return readRows(LIST_CHILDREN.operation, rows).map((row) => row.text('child_instance_id'));
}
