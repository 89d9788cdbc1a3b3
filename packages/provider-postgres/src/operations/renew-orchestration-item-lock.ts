import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';

const RENEW_ORCHESTRATION_ITEM_LOCK: Statement = {
  operation: 'renew_orchestration_item_lock',
  sql: (s) => `SELECT ${s}.renew_orchestration_item_lock($1::text, $2::bigint, $3::bigint)`,
};

/**
 * Extends a live instance lock with `renew_orchestration_item_lock`. The procedure takes whole
 * seconds, so `extendForMs` is truncated to seconds, as duroxide-pg does.
 * @throws {ProviderError} permanent with "Lock token invalid, expired, or already released" when
 * the lock is unknown or has expired.
 */
export async function renewOrchestrationItemLock(
  db: ProviderDatabase,
  lockToken: string,
  extendForMs: number,
  instance?: string,
): Promise<void> {
  const detail = 'Lock token invalid, expired, or already released';
  await db.query(
    RENEW_ORCHESTRATION_ITEM_LOCK,
    (nowMs) => [lockToken, nowMs, Math.floor(extendForMs / 1000)],
    {
      subject: { instance },
      known: ['Lock token invalid', 'expired', 'already released'].map((text) => ({
        whenMessageContains: text,
        detail,
      })),
    },
  );
}
