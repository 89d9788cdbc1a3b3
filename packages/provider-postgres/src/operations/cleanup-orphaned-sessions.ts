import type { ProviderDatabase } from '../database/provider-database.js';
import { readRows } from '../database/rows.js';
import type { Statement } from '../database/statement.js';

const CLEANUP_ORPHANED_SESSIONS: Statement = {
  operation: 'cleanup_orphaned_sessions',
  sql: (s) => `SELECT ${s}.cleanup_orphaned_sessions($1::bigint) AS removed`,
};

/**
 * Removes, with `cleanup_orphaned_sessions`, expired sessions no queued activity refers to;
 * returns how many. The procedure judges by lease expiry alone, so the idle timeout the contract
 * passes is not used, as in duroxide-pg.
 */
export async function cleanupOrphanedSessions(db: ProviderDatabase): Promise<number> {
  const rows = await db.query(CLEANUP_ORPHANED_SESSIONS, (nowMs) => [nowMs]);
  return readRows(CLEANUP_ORPHANED_SESSIONS.operation, rows)[0]?.integer('removed') ?? 0;
}
