import type { ProviderDatabase } from '../../database/provider-database.js';
import { readRows } from '../../database/rows.js';
import type { Statement } from '../../database/statement.js';

const GET_PARENT_ID: Statement = {
  operation: 'get_parent_id',
  sql: (s) => `SELECT ${s}.get_parent_id($1::text) AS parent_instance_id`,
};

/**
 * The parent of a sub-orchestration with `get_parent_id`; `null` for a root.
 * @throws {ProviderError} permanent "Instance not found: <id>" for an unknown instance.
 */
export async function getParentId(db: ProviderDatabase, instance: string): Promise<string | null> {
  const rows = await db.query(GET_PARENT_ID, [instance], {
    known: [
      { whenMessageContains: 'Instance not found', detail: `Instance not found: ${instance}` },
    ],
  });
  return readRows(GET_PARENT_ID.operation, rows)[0]?.optionalText('parent_instance_id') ?? null;
}
