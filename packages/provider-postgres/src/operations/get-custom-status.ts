import type { CustomStatus } from '@duro/core';
import type { ProviderDatabase } from '../database/provider-database.js';
import { readOptionalRow } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const GET_CUSTOM_STATUS: Statement = {
  operation: 'get_custom_status',
  sql: (s) => `SELECT * FROM ${s}.get_custom_status($1::text, $2::bigint)`,
};

/**
 * An instance's custom status with `get_custom_status`, only when its version is newer than
 * `lastSeenVersion`; `null` otherwise or for an unknown instance.
 */
export async function getCustomStatus(
  db: ProviderDatabase,
  instance: string,
  lastSeenVersion: number,
): Promise<CustomStatus | null> {
  const rows = await db.query(GET_CUSTOM_STATUS, [instance, lastSeenVersion], {
    subject: { instance },
  });
  const row = readOptionalRow(GET_CUSTOM_STATUS.operation, rows);
  if (row === null) return null;
  return {
    customStatus: row.optionalText('out_custom_status'),
    version: row.integer('out_custom_status_version'),
  };
}
