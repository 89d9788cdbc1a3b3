import type { ProviderDatabase } from '../database/provider-database.js';
import type { Statement } from '../database/statement.js';
import { INVALID_LOCK_TOKEN } from './ack-orchestration-item.js';

const ABANDON_ORCHESTRATION_ITEM: Statement = {
  operation: 'abandon_orchestration_item',
  sql: (s) =>
    `SELECT ${s}.abandon_orchestration_item($1::text, $2::bigint, $3::bigint, $4::boolean)`,
};

/**
 * Releases an instance lock with `abandon_orchestration_item`. Only the messages this lock
 * claimed are released; with `delayMs` they become visible that much later, with
 * `ignoreAttempt` their attempt counts go back down (never below zero).
 * @throws {ProviderError} permanent with "Invalid lock token" when the lock is unknown.
 */
export async function abandonOrchestrationItem(
  db: ProviderDatabase,
  lockToken: string,
  delayMs: number | null,
  ignoreAttempt: boolean,
  instance?: string,
): Promise<void> {
  await db.query(
    ABANDON_ORCHESTRATION_ITEM,
    (nowMs) => [lockToken, nowMs, delayMs, ignoreAttempt],
    { subject: { instance }, known: INVALID_LOCK_TOKEN },
  );
}
