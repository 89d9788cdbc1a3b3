import type { ProviderDatabase } from '../database/provider-database.js';
import { readOptionalRow } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const GET_KV_VALUE: Statement = {
  operation: 'get_kv_value',
  sql: (s) => `SELECT * FROM ${s}.get_kv_value($1::text, $2::text)`,
};

/**
 * A key's value as clients see it, with `get_kv_value`: the running execution's change wins
 * over the committed value; `null` when absent or cleared.
 */
export async function getKvValue(
  db: ProviderDatabase,
  instance: string,
  key: string,
): Promise<string | null> {
  const rows = await db.query(GET_KV_VALUE, [instance, key], { subject: { instance } });
  const row = readOptionalRow(GET_KV_VALUE.operation, rows);
  if (row === null || !row.boolean('out_found')) return null;
  return row.optionalText('out_value');
}
