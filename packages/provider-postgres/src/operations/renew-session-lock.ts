import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const RENEW_SESSION_LOCK: Statement = {
  operation: 'renew_session_lock',
  sql: (s) =>
    `SELECT ${s}.renew_session_lock($1::text[], $2::bigint, $3::bigint, $4::bigint) AS renewed`,
};

/**
 * Extends, with `renew_session_lock`, every live session of these owners that was active within
 * `idleTimeoutMs`; returns how many. No owner, no call.
 */
export async function renewSessionLock(
  db: ProviderDatabase,
  ownerIds: readonly string[],
  extendForMs: number,
  idleTimeoutMs: number,
): Promise<number> {
  if (ownerIds.length === 0) return 0;
  const rows = await db.query(RENEW_SESSION_LOCK, (nowMs) => [
    [...ownerIds],
    nowMs,
    extendForMs,
    idleTimeoutMs,
  ]);
  return readRows(RENEW_SESSION_LOCK.operation, rows)[0]?.integer('renewed') ?? 0;
}
