import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';

const ABANDON_WORK_ITEM: Statement = {
  operation: 'abandon_work_item',
  sql: (s) => `SELECT ${s}.abandon_work_item($1::text, $2::bigint, $3::bigint, $4::boolean)`,
};

/**
 * Releases an activity lock with `abandon_work_item`: visible again after `delayMs` (at once when
 * `null`), its attempt count back down by one with `ignoreAttempt`.
 * @throws {ProviderError} permanent with "Invalid lock token or already acked" when the lock is
 * unknown.
 */
export async function abandonWorkItem(
  db: ProviderDatabase,
  lockToken: string,
  delayMs: number | null,
  ignoreAttempt: boolean,
  instance?: string,
): Promise<void> {
  const detail = 'Invalid lock token or already acked';
  await db.query(ABANDON_WORK_ITEM, (nowMs) => [lockToken, nowMs, delayMs, ignoreAttempt], {
    subject: { instance },
    known: ['Invalid lock token', 'already acked'].map((text) => ({
      whenMessageContains: text,
      detail,
    })),
  });
}
