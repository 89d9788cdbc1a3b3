import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';

const RENEW_WORK_ITEM_LOCK: Statement = {
  operation: 'renew_work_item_lock',
  sql: (s) => `SELECT ${s}.renew_work_item_lock($1::text, $2::bigint, $3::bigint)`,
};

/**
 * Extends a live activity lock with `renew_work_item_lock` (whole seconds, truncated as
 * duroxide-pg does). A failure is how a running activity learns it was cancelled.
 * @throws {ProviderError} permanent with "Lock token invalid, expired, or already acked" when the
 * lock is unknown, expired, acknowledged or the activity was cancelled.
 */
export async function renewWorkItemLock(
  db: ProviderDatabase,
  lockToken: string,
  extendForMs: number,
  instance?: string,
): Promise<void> {
  await db.query(
    RENEW_WORK_ITEM_LOCK,
    (nowMs) => [lockToken, nowMs, Math.floor(extendForMs / 1000)],
    {
      subject: { instance },
      known: [
        {
          whenMessageContains: 'Lock token invalid',
          detail: 'Lock token invalid, expired, or already acked',
        },
      ],
    },
  );
}
