import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const GET_KV_ALL_VALUES: Statement = {
  operation: 'get_kv_all_values',
  sql: (s) => `SELECT * FROM ${s}.get_kv_all_values($1::text)`,
};

/** Every live key and value of an instance as clients see them, with `get_kv_all_values`. */
export async function getKvAllValues(
  db: ProviderDatabase,
  instance: string,
): Promise<Map<string, string>> {
  const rows = await db.query(GET_KV_ALL_VALUES, [instance], { subject: { instance } });
  return new Map(
    readRows(GET_KV_ALL_VALUES.operation, rows).map((row) => [
      row.text('out_key'),
      row.text('out_value'),
    ]),
  );
}
